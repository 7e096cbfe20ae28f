"""Usernames: one name whatever its case, no mixed-script look-alikes, NFKC kept."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.usernames import MIXED_SCRIPT_LOOKALIKE

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"
CYRILLIC_A = "\u0430"  # "а", drawn like the Latin "a"


def _sign_up(username: str):
    return Client().post(
        reverse("signup"), {"username": username, "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
    )


def test_signup_refuses_a_name_that_differs_only_in_case(make_player):
    make_player(username="bob")
    page = _sign_up("Bob")
    assert page.status_code == 200
    assert b"A user with that username already exists." in page.content
    assert User.objects.filter(username__iexact="bob").count() == 1


def test_the_database_refuses_a_case_variant_whatever_the_path():
    User.objects.create_user(username="carol", password=GOOD_PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="CAROL", password=GOOD_PASSWORD)


def test_renaming_to_a_case_variant_in_the_admin_is_a_form_error(client, django_user_model, make_player):
    make_player(username="dora")
    other = make_player(username="eve")
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x", email="b@e.com"))
    page = client.post(
        reverse("admin:accounts_user_change", args=[other.pk]),
        {"username": "Dora", "is_active": "on", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"},
    )
    assert page.status_code == 200
    assert b"A user with that username already exists." in page.content
    other.refresh_from_db()
    assert other.username == "eve"


@pytest.mark.parametrize("typed", ["dana", "DANA", "Dana", "dAnA"])
def test_log_in_works_with_the_username_in_any_case(typed, make_player):
    make_player(username="Dana")
    response = Client().post(reverse("login"), {"username": typed, "password": GOOD_PASSWORD})
    assert response.status_code == 302


def test_a_latin_name_with_a_cyrillic_lookalike_letter_is_refused(make_player):
    make_player(username="alice")
    spoof = f"{CYRILLIC_A}lice"
    page = _sign_up(spoof)
    assert page.status_code == 200
    assert MIXED_SCRIPT_LOOKALIKE.encode() in page.content
    assert not User.objects.filter(username=spoof).exists()


def test_a_lookalike_is_refused_even_when_no_one_has_the_name_yet():
    page = _sign_up(f"p{CYRILLIC_A}ypal")
    assert page.status_code == 200 and MIXED_SCRIPT_LOOKALIKE.encode() in page.content
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["alice", "José", "Алиса", "Ελένη", "bob_99", "ann.lee+poker"])
def test_names_in_one_script_are_welcome(name):
    assert _sign_up(name).status_code == 302
    assert User.objects.filter(username=name).exists()


def test_usernames_are_still_nfkc_normalised():
    assert _sign_up("ｆｒｅｄ").status_code == 302  # fullwidth letters
    assert User.objects.filter(username="fred").exists()
    page = _sign_up("Fred")
    assert b"A user with that username already exists." in page.content


# --- issue 25, item 10: invisible characters, skeletons, the room's own words ---------------

CYRILLIC_APEX = "\u0430\u0440\u0435\u0445"  # "арех": four Cyrillic letters, drawn as "apex"


@pytest.mark.parametrize(
    "name",
    [
        "\u1160" * 4,  # HANGUL JUNGSEONG FILLER: a letter to \w, drawn as nothing
        "\u3164\u3164",  # HANGUL FILLER
        "bob\u200dby",  # ZERO WIDTH JOINER inside a name
        "ann\u00adie",  # SOFT HYPHEN
        "zoe\ufe0f",  # VARIATION SELECTOR-16
    ],
)
def test_a_name_with_an_invisible_character_is_refused(name):
    from accounts.usernames import INVISIBLE_CHARACTER

    page = _sign_up(name)
    assert page.status_code == 200
    assert str(INVISIBLE_CHARACTER).encode() in page.content
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [("apex", CYRILLIC_APEX), ("mary", "rnary"), ("oscar", "0scar"), ("will", "wi11"), ("Carla", "CARLA")],
)
def test_a_name_that_looks_like_another_players_is_refused(make_player, existing, lookalike):
    from accounts.usernames import LOOKS_TAKEN

    make_player(username=existing)
    page = _sign_up(lookalike)
    assert page.status_code == 200
    assert str(LOOKS_TAKEN).encode() in page.content or b"A user with that username already exists." in page.content
    assert User.objects.count() == 1


def test_the_database_refuses_a_lookalike_whatever_the_path():
    User.objects.create_user(username="apex", password=GOOD_PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username=CYRILLIC_APEX, password=GOOD_PASSWORD)


def test_renaming_to_a_lookalike_in_the_admin_is_a_form_error(client, django_user_model, make_player):
    from accounts.usernames import LOOKS_TAKEN

    make_player(username="apex")
    other = make_player(username="quinn")
    client.force_login(django_user_model.objects.create_superuser(username="boss", password="x", email="b@e.com"))
    page = client.post(
        reverse("admin:accounts_user_change", args=[other.pk]),
        {"username": CYRILLIC_APEX, "is_active": "on", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"},
    )
    assert page.status_code == 200
    assert str(LOOKS_TAKEN).encode() in page.content
    other.refresh_from_db()
    assert other.username == "quinn"


@pytest.mark.parametrize(
    "name",
    ["Dealer", "dealer", "crupier", "Croupier", "admin", "ADMIN1", "Administrador", "the_dealer", "TheDealer",
     "staff", "Moderator", "moderadora", "system", "Sistema", "soporte", "d.e.a.l.e.r", "dea1er"],
)  # fmt: skip
def test_the_rooms_own_words_are_reserved_in_both_languages(name):
    from accounts.usernames import RESERVED_NAME

    page = _sign_up(name)
    assert page.status_code == 200
    assert str(RESERVED_NAME).encode() in page.content
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["Stafford", "badminton", "systematic", "modesto", "dealmaker"])
def test_names_that_merely_contain_a_reserved_word_are_welcome(name):
    assert _sign_up(name).status_code == 302


def test_existing_names_that_collide_keep_their_names_and_the_oldest_keeps_the_plain_key():
    """Migration 0005: names that looked alike before the key existed stay, and log in."""
    from importlib import import_module

    from django.apps import apps

    fill_name_keys = import_module(
        "accounts.migrations.0005_username_skeleton_closed_and_banned_accounts"
    ).fill_name_keys
    first = User.objects.create_user(username="apex", password=GOOD_PASSWORD)
    later = User.objects.create_user(username="placeholder", password=GOOD_PASSWORD)
    User.objects.filter(pk=later.pk).update(username=CYRILLIC_APEX, name_key="before-2")  # as before the key
    User.objects.filter(pk=first.pk).update(name_key="before-1")
    fill_name_keys(apps, None)
    first.refresh_from_db()
    later.refresh_from_db()
    assert first.name_key == "apex"
    assert later.name_key == f"apex#{later.pk}"
    assert later.username == CYRILLIC_APEX
    later.save()  # a save that keeps the name keeps the key
    assert Client().post(reverse("login"), {"username": CYRILLIC_APEX, "password": GOOD_PASSWORD}).status_code == 302
    assert _sign_up("APEX").status_code == 200
