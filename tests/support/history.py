"""Hands played through the services with arranged decks, for the history tests."""

from dataclasses import dataclass

from tables import services
from tables.engine.cards import CARD_COUNT, parse_cards
from tables.models import Hand, Table

from .tables import act


def arranged_deck(holes_in_dealing_order: list[str], board: str) -> tuple[int, ...]:
    """A full deck dealing these hole cards (players clockwise from left of the button,
    one card at a time, RULES 1.4) and this board (one card burned before each street)."""
    holes = [parse_cards(hole) for hole in holes_in_dealing_order]
    dealt = [hole[k] for k in range(4) for hole in holes]
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:]
    named = set(dealt) | set(flop + turn + river)
    spares = iter(card for card in range(CARD_COUNT) if card not in named)
    deck = [*dealt, next(spares), *flop, next(spares), *turn, next(spares), *river]
    return tuple(deck + list(spares))


def start(table, deck=None) -> Hand:
    hand = services.start_hand_if_due(table_id=table.pk, deck=deck)
    assert hand is not None
    return hand


@dataclass
class Played:
    table: Table
    hand: Hand
    players: dict  # name -> user


# Three-handed Pot Limit 1/2: alice (seat 1) sat first and has the button, bob posts the
# small blind, carol the big blind. Dealing starts with bob.
ALICE_CARDS = "Ah Ad Kc Qd"
BOB_CARDS = "Jh Js 5c 4d"
CAROL_CARDS = "9c 9d 8h 2s"
SHOWDOWN_BOARD = "Ac 2h 3d Ks Tc"


def play_to_showdown(table, players) -> Hand:
    """alice raises, bob folds, carol calls down; alice shows trip aces, carol mucks.
    Pot 73 to alice: alice 237, bob 199, carol 164."""
    alice, bob, carol = players["alice"], players["bob"], players["carol"]
    hand = start(table, arranged_deck([BOB_CARDS, CAROL_CARDS, ALICE_CARDS], SHOWDOWN_BOARD))
    act(table, alice, "raise", 6)
    act(table, bob, "fold")
    act(table, carol, "call")
    act(table, carol, "check")  # flop
    act(table, alice, "bet", 10)
    act(table, carol, "call")
    act(table, carol, "check")  # turn
    act(table, alice, "check")
    act(table, carol, "check")  # river
    act(table, alice, "bet", 20)
    act(table, carol, "call")
    hand.refresh_from_db()
    return hand


def fold_to_the_big_blind(table, players) -> Hand:
    """The second hand: the button moves to bob, carol posts the small blind, alice the big blind;
    bob and carol fold, alice (dealt the four sevens) wins carol's small blind."""
    hand = start(table, arranged_deck(["6c 6d 6h 6s", "7c 7d 7h 7s", "3c 3h 3s 4c"], "Kd Kh Qc Qh Qs"))
    act(table, players["bob"], "fold")
    act(table, players["carol"], "fold")
    hand.refresh_from_db()
    return hand
