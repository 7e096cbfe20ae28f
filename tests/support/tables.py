"""Driving tables through the services, as players would."""

from __future__ import annotations

import random
import uuid

from tables import services
from tables.models import Hand, Table
from tables.selectors.hands import rebuild

from .decks import SHOWDOWN_DECK, deck_from


def sit(table, player, seat_number, buy_in=None, post_now=False, request_id=None):
    """Take a seat the way the seat form does: a buy-in (the table maximum unless given), wait
    for the big blind or post one now, and a fresh request id unless the test names one."""
    return services.take_seat(
        user=player,
        table_id=table.pk,
        seat_number=seat_number,
        buy_in=table.max_buy_in if buy_in is None else buy_in,
        post_big_blind_now=post_now,
        request_id=uuid.uuid4().hex if request_id is None else request_id,
    )


def start_hand(table, deck_text: str = SHOWDOWN_DECK) -> Hand:
    """Deal the next hand from an arranged deck; it must be due."""
    hand = services.start_hand_if_due(table_id=table.pk, deck=deck_from(deck_text))
    assert hand is not None
    return hand


def running_hand(table) -> Hand | None:
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def act(table, player, kind, amount=None, sequence=None):
    """``player`` acts in the running hand, at its current sequence unless one is given."""
    hand = running_hand(table)
    return services.act(
        table_id=table.pk,
        user=player,
        kind=kind,
        amount=amount,
        sequence=hand.sequence if sequence is None else sequence,
    )


def fold_to_the_end(table, players_by_seat):
    """Everyone to act folds until one player is left."""
    while (hand := running_hand(table)) is not None:
        seat = rebuild(hand).to_act
        services.act(table_id=table.pk, user=players_by_seat[seat], kind="fold", amount=None, sequence=hand.sequence)


def play_random_action(table, players_by_seat, rng: random.Random):
    """Make the seat to act take a random legal action, through the service."""
    hand = running_hand(table)
    engine = rebuild(hand)
    legal = engine.legal_actions()
    choices = ["fold"] + (["check"] if legal.can_check else ["call"])
    if legal.bet_kind:
        choices.append(legal.bet_kind)
    kind = rng.choice(choices)
    amount = rng.randint(legal.min_to, legal.max_to) if kind in ("bet", "raise") else None
    services.act(table_id=table.pk, user=players_by_seat[legal.seat], kind=kind, amount=amount, sequence=hand.sequence)


def table_version(table) -> int:
    """The table's version now: every change bumps it, and the felt of every screen shows it."""
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def six_handed(make_player, make_table, spanish_seats=(2, 5)):
    """A table of six seated players by seat number, those of ``spanish_seats`` reading Spanish,
    seat 3's name one the HTML must escape (in the controls of those waiting for them)."""
    table = make_table()
    players = {}
    for number in range(1, 7):
        player = make_player()
        if number == 3:
            type(player).objects.filter(pk=player.pk).update(username="o'neil&<b>")
            player.refresh_from_db()
        if number in spanish_seats:
            player.language = "es"
            player.save(update_fields=["language"])
        sit(table, player, number)
        players[number] = player
    return table, players
