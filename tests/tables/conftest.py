"""Helpers for driving tables through the services, as players would."""

import random
import uuid

import pytest

from tables import services
from tables.engine.cards import parse_cards
from tables.models import Hand
from tables.selectors.hands import rebuild


@pytest.fixture(autouse=True)
def no_pause_between_hands(settings):
    settings.HAND_PAUSE_SECONDS = 0


def deck_from(text: str):
    """A full deck whose first cards are `text` (in dealing order), the rest in a fixed order."""
    head = list(parse_cards(text))
    rest = [card for card in range(52) if card not in head]
    return tuple(head + rest)


def sit(table, player, seat_number, buy_in=None, post_now=False):
    return services.take_seat(
        user=player,
        table_id=table.pk,
        seat_number=seat_number,
        buy_in=buy_in or table.max_buy_in,
        post_big_blind_now=post_now,
        request_id=uuid.uuid4().hex,
    )


def running(table):
    return Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()


def act(table, player, kind, amount=None, sequence=None):
    hand = running(table)
    return services.act(
        table_id=table.pk,
        user=player,
        kind=kind,
        amount=amount,
        sequence=hand.sequence if sequence is None else sequence,
    )


def play_random_action(table, players_by_seat, rng: random.Random):
    """Make the seat to act take a random legal action, through the service."""
    hand = running(table)
    engine = rebuild(hand)
    legal = engine.legal_actions()
    choices = ["fold"] + (["check"] if legal.can_check else ["call"])
    if legal.bet_kind:
        choices.append(legal.bet_kind)
    kind = rng.choice(choices)
    amount = rng.randint(legal.min_to, legal.max_to) if kind in ("bet", "raise") else None
    services.act(table_id=table.pk, user=players_by_seat[legal.seat], kind=kind, amount=amount, sequence=hand.sequence)


@pytest.fixture
def heads_up(make_player, make_table):
    """A Pot Limit 1/2 table with two players seated with 200 each (alice seat 1 sat first)."""
    table = make_table()
    alice, bob = make_player("alice"), make_player("bob")
    sit(table, alice, 1)
    sit(table, bob, 4)
    return table, alice, bob
