"""The whole history as downloads: every hand as one streamed PokerStars file, every Pot Limit hand as PHH in a zip."""

import io
import re
import tomllib
import zipfile
from datetime import timedelta

import pytest
from django.urls import reverse

from tables import services
from tables.history import access
from tables.history.numbering import exported_hand_number, installation_number
from tables.models import Table
from tests.support.history import (
    ALICE_CARDS,
    BOB_CARDS,
    CAROL_CARDS,
    fold_to_the_big_blind,
    play_to_showdown,
    start,
)
from tests.support.tables import act, fold_to_the_end, sit

pytestmark = [pytest.mark.django_db]


def download(client, user, name):
    client.force_login(user)
    response = client.get(reverse(f"history:{name}"))
    assert response.status_code == 200
    assert response.streaming
    return response, b"".join(response.streaming_content)


def hand_numbers(text: str) -> list[int]:
    return [int(number) for number in re.findall(r"^PokerStars Hand #(\d+):", text, re.M)]


def protected_all_in(table, players):
    """The third hand (carol's button, alice and bob the blinds), RULES 6.2: carol calls, alice raises,
    bob folds, and carol's time runs out with her call in the pot."""
    hand = start(table)
    act(table, players["carol"], "call")
    act(table, players["alice"], "raise", 6)
    act(table, players["bob"], "fold")
    hand.refresh_from_db()
    services.expire_turn(table_id=table.pk, sequence=hand.sequence, now=hand.turn_deadline + timedelta(seconds=1))
    hand.refresh_from_db()
    return hand


def test_the_whole_history_is_every_complete_hand_oldest_first_past_any_batch(client, seat_three, monkeypatch):
    monkeypatch.setattr(access, "HISTORY_BATCH", 2)  # several batches from five hands
    table, players = seat_three
    played = [play_to_showdown(table, players), fold_to_the_big_blind(table, players)]
    by_seat = {1: players["alice"], 2: players["bob"], 3: players["carol"]}
    for _ in range(3):
        played.append(start(table))
        fold_to_the_end(table, by_seat)
    start(table)  # running: not in the history

    response, body = download(client, players["carol"], "export_history")

    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="hand-history.txt"'
    installation = installation_number()
    text = body.decode()
    assert hand_numbers(text) == [exported_hand_number(installation, hand.pk) for hand in played]
    assert text.count("\n\n\nPokerStars Hand #") == len(played) - 1


def test_the_whole_history_shows_nothing_of_others_that_was_not_shown_even_to_staff(client, seat_three):
    table, players = seat_three
    play_to_showdown(table, players)  # alice shows, carol mucks, bob folds
    players["bob"].is_staff = True
    players["bob"].save()

    _, body = download(client, players["bob"], "export_history")

    text = body.decode()
    assert f"Dealt to bob [{BOB_CARDS}]" in text
    assert f"alice: shows [{ALICE_CARDS}]" in text
    assert CAROL_CARDS not in text and "Dealt to carol" not in text and "Dealt to alice" not in text


def test_a_player_with_no_hands_downloads_empty_files(client, make_player):
    _, text = download(client, make_player(), "export_history")
    assert text == b""
    _, archive = download(client, make_player("other"), "export_history_phh")
    assert zipfile.ZipFile(io.BytesIO(archive)).namelist() == []


def test_the_phh_archive_has_every_pot_limit_hand_and_says_which_phh_cannot_express(
    client, seat_three, make_player, make_table
):
    table, players = seat_three
    showdown, folded = play_to_showdown(table, players), fold_to_the_big_blind(table, players)
    timed_out = protected_all_in(table, players)
    limit = make_table(name="Limit", variant=Table.Variant.LIMIT, stake_small=10, stake_big=20, max_buy_in=400)
    sit(limit, players["carol"], 1, 400)
    sit(limit, make_player("dora"), 2, 400)
    start(limit)
    act(limit, players["carol"], "fold")  # heads-up: carol's button posts the small blind and acts first

    response, body = download(client, players["carol"], "export_history_phh")

    assert response["Content-Type"] == "application/zip"
    installation = installation_number()
    archive = zipfile.ZipFile(io.BytesIO(body))
    names = [f"hand-{exported_hand_number(installation, hand.pk)}.phh" for hand in (showdown, folded)]
    assert archive.namelist() == [*names, "not-in-phh.txt"]
    first = tomllib.loads(archive.read(names[0]).decode())
    assert first["hand"] == exported_hand_number(installation, showdown.pk)
    assert first["actions"][:3] == ["d dh p1 ????????", "d dh p2 9c9d8h2s", "d dh p3 ????????"]  # her own cards
    assert "p3 sm AhAdKcQd" in first["actions"]  # alice showed hers
    assert "JhJs5c4d" not in archive.read(names[0]).decode()  # bob folded his unseen
    left_out = archive.read("not-in-phh.txt").decode()
    assert f"Hand #{exported_hand_number(installation, timed_out.pk)}: " in left_out
    assert "PHH cannot express that" in left_out


@pytest.mark.parametrize("name", ["export_history", "export_history_phh"])
def test_the_downloads_need_a_login(client, name):
    response = client.get(reverse(f"history:{name}"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_hand_list_links_both_downloads(client, showdown_hand):
    client.force_login(showdown_hand.players["bob"])
    page = client.get(reverse("history:list")).content.decode()
    assert reverse("history:export_history") in page and reverse("history:export_history_phh") in page


def test_the_whole_history_costs_the_same_queries_for_one_hand_or_five(client, seat_three):
    """The hands are read a batch at a time (three queries a batch), never one query per hand."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, players = seat_three
    by_seat = {1: players["alice"], 2: players["bob"], 3: players["carol"]}

    def queries_to_download() -> int:
        client.force_login(players["alice"])
        response = client.get(reverse("history:export_history"))
        with CaptureQueriesContext(connection) as streamed:
            b"".join(response.streaming_content)
        return len(streamed)

    start(table)
    fold_to_the_end(table, by_seat)
    one_hand = queries_to_download()
    for _ in range(4):
        start(table)
        fold_to_the_end(table, by_seat)
    assert one_hand >= 3 and queries_to_download() == one_hand


def test_under_asgi_the_whole_history_streams_piece_by_piece(seat_three):
    """Served by daphne, the download is an asynchronous stream, so Django does not read it whole first."""
    import warnings

    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    table, players = seat_three
    hands = [play_to_showdown(table, players), fold_to_the_big_blind(table, players)]

    async def download_over_asgi():
        client = AsyncClient()
        await client.aforce_login(players["alice"])
        response = await client.get(reverse("history:export_history"))
        return response, [piece async for piece in response.streaming_content]

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "must consume synchronous iterators" would fail the test
        response, pieces = async_to_sync(download_over_asgi)()
    assert response.is_async and len(pieces) == len(hands)
    installation = installation_number()
    assert hand_numbers(b"".join(pieces).decode()) == [exported_hand_number(installation, h.pk) for h in hands]
