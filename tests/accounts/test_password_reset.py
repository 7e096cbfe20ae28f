"""Password reset by e-mail (issue 25, item 13): an optional address, verified by a link, unique
once verified whatever its case; Django's reset views with the room's templates; limited per
client address (5 an hour) and per account (3 an hour); the same answer whatever the address."""

import re

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.emails import verification_token, verify
from accounts.models import User

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "a-Strong-pass-4821"
NEW_PASSWORD = "brand-New-pass-5930"
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def _link(message) -> str:
    return re.search(r"https?://[^\s]+", message.body).group(0)


def _verified_player(make_player, username="rosa", email="rosa@example.com"):
    player = make_player(username=username)
    player.email, player.email_verified = email, True
    player.save()
    return player


def _ask_reset(email: str, address: str = HOME):
    return Client(REMOTE_ADDR=address).post(reverse("password_reset"), {"email": email})


def test_sign_up_with_an_address_sends_a_link_that_verifies_it(client):
    page = client.post(
        reverse("signup"),
        {"username": "nina", "email": "Nina@Example.com", "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD},
    )
    assert page.status_code == 302
    nina = User.objects.get(username="nina")
    assert nina.email == "Nina@example.com" and not nina.email_verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Nina@example.com"]
    followed = client.get(_link(mail.outbox[0]))
    assert followed.status_code == 302
    nina.refresh_from_db()
    assert nina.email_verified


def test_the_address_is_optional_at_sign_up(client):
    page = client.post(reverse("signup"), {"username": "omar", "password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD})
    assert page.status_code == 302
    assert User.objects.get(username="omar").email == "" and not mail.outbox


def test_the_profile_sets_an_address_and_a_new_one_must_be_verified_again(make_player, client):
    player = _verified_player(make_player)
    client.force_login(player)
    assert client.post(reverse("change_email"), {"email": "rosa@elsewhere.example"}).status_code == 302
    player.refresh_from_db()
    assert player.email == "rosa@elsewhere.example" and not player.email_verified
    assert mail.outbox[-1].to == ["rosa@elsewhere.example"]


def test_a_verified_address_belongs_to_one_account_whatever_its_case(make_player):
    _verified_player(make_player)
    other = make_player(username="sara")
    other.email = "ROSA@example.com"
    other.save()  # an unverified copy is allowed: anyone may type any address
    with pytest.raises(Exception, match="already verified for another account"):
        verify(verification_token(other))
    other.email_verified = True
    with pytest.raises(IntegrityError), transaction.atomic():
        other.save()


def test_a_verification_link_for_an_old_address_does_not_verify_the_new_one(make_player):
    player = make_player(username="tom")
    player.email = "tom@old.example"
    player.save()
    token = verification_token(player)
    player.email = "tom@new.example"
    player.save()
    with pytest.raises(Exception, match="no longer on the account"):
        verify(token)


def test_a_reset_link_goes_to_a_verified_address_and_sets_a_new_password(make_player):
    player = _verified_player(make_player)
    page = _ask_reset("ROSA@example.com")
    assert page.status_code == 302 and page.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["rosa@example.com"]
    browser = Client()
    form = browser.get(_link(mail.outbox[0]), follow=True)
    assert form.status_code == 200 and b"Choose a new password" in form.content
    done = browser.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_the_answer_is_the_same_whatever_the_address(make_player):
    _verified_player(make_player)
    unverified = make_player(username="uma")
    unverified.email = "uma@example.com"
    unverified.save()
    answers = [_ask_reset(email, address) for email, address in
               [("rosa@example.com", HOME), ("nobody@example.com", ELSEWHERE), ("uma@example.com", "192.0.2.9")]]  # fmt: skip
    assert {(a.status_code, a.url) for a in answers} == {(302, reverse("password_reset_done"))}
    assert [m.to for m in mail.outbox] == [["rosa@example.com"]]  # only the verified address gets a mail


def test_resets_are_limited_per_client_address(make_player):
    _verified_player(make_player)
    for number in range(5):
        assert _ask_reset(f"someone{number}@example.com").status_code == 302
    refused = _ask_reset("rosa@example.com")
    assert refused.status_code == 429 and b"Too many password resets" in refused.content
    assert not mail.outbox
    assert _ask_reset("rosa@example.com", ELSEWHERE).status_code == 302


def test_resets_are_limited_per_account_silently(make_player):
    _verified_player(make_player)
    addresses = [f"192.0.2.{k}" for k in range(1, 6)]
    answers = [_ask_reset("rosa@example.com", address) for address in addresses]
    assert {a.status_code for a in answers} == {302}  # the same answer every time
    assert len(mail.outbox) == 3  # but only three mails an hour


def test_the_reset_pages_speak_spanish(make_player):
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    assert "contraseña".encode() in spanish.get(reverse("password_reset")).content
    assert b"correo" in spanish.get(reverse("password_reset_done")).content


def test_verification_links_asked_on_the_profile_are_limited_per_account(make_player, client):
    player = make_player(username="vera")
    client.force_login(player)
    for _ in range(5):
        client.post(reverse("change_email"), {"email": "vera@example.com"})
    assert len(mail.outbox) == 3


def test_every_new_account_page_in_spanish_shows_no_english(make_player):
    """Issue 25's pages (reset, close, profile with e-mail and data, the 429 pages, the mails)
    rendered in Spanish show none of the English the catalogue translates."""
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.utils import translation

    from tests.support.catalogue import catalogue, english_left_in, english_phrases

    english = english_phrases(catalogue("es"))
    player = make_player(username="lola")
    player.language = "es"
    player.save()
    browser = Client()
    browser.force_login(player)
    pages = {name: browser.get(url).content.decode() for name, url in [
        ("profile", reverse("profile")), ("close", reverse("close_account"))]}  # fmt: skip
    visitor = Client(HTTP_ACCEPT_LANGUAGE="es")
    for name in ("password_reset", "password_reset_done", "password_reset_complete", "login"):
        pages[name] = visitor.get(reverse(name)).content.decode()
    pages["bad reset link"] = visitor.get(reverse("password_reset_confirm", args=["MQ", "x-y"])).content.decode()
    request = RequestFactory().get("/")
    with translation.override("es"):
        for what in ("reset", "password", "download"):
            pages[f"429 {what}"] = render_to_string(
                "registration/too_many_attempts.html", {"what": what, "minutes": 3}, request
            )
        pages["verification mail"] = render_to_string(
            "registration/verify_email_email.txt", {"user": player, "link": "http://x/", "days": 3}
        )
    for name, html in pages.items():
        assert english_left_in(html, english) == [], name
