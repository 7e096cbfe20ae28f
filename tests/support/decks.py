"""Arranged decks for hands dealt through the services, and the cards they deal."""

from tables.engine.cards import parse_cards

# Seat 1 sits first (button, small blind heads-up); seat 2 is the big blind. The deal starts
# left of the button, one card at a time: seat 2 gets Ac Ad 8c 5d, seat 1 gets Kd Kh 2c 4s;
# board Ks 7h 7d / 3c / 9s. Seat 1 wins with kings full of sevens.
SHOWDOWN_DECK = "Ac Kd Ad Kh 8c 2c 5d 4s 2d Ks 7h 7d 2h 3c 3d 9s"
SEAT_1_CARDS = ["Kd", "Kh", "2c", "4s"]
SEAT_2_CARDS = ["Ac", "Ad", "8c", "5d"]


def deck_from(text: str) -> tuple[int, ...]:
    """A full deck whose first cards are ``text`` (in dealing order), the rest in a fixed order."""
    head = list(parse_cards(text))
    return tuple(head + [card for card in range(52) if card not in head])
