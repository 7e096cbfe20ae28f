"""The "How to play" page: its examples are worked out by the engine, and it is linked from the
lobby and the table."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_rule_5_2_the_seed_example_is_kings_full_of_sevens_with_two_cards_from_the_hand(client):
    page = client.get(reverse("how_to_play"))
    assert page.status_code == 200
    example = page.context["seed_example"]
    assert example.category == "Full house"
    best = re.findall(r'data-card="(\w\w)"', example.best)
    assert sorted(best) == sorted(["Kd", "7h", "Kc", "Kh", "7s"])  # K♦ 7♥ from the hand, K♣ K♥ 7♠ from the board
    # The five are highlighted where they stand, in the hand and on the board.
    assert re.findall(r'class="card suit-\w winning" data-card="(\w\w)"', example.hole) == ["Kd", "7h"]
    assert "kings full of sevens" in _text(page.content.decode())


def test_rule_5_2_four_hearts_on_the_board_and_one_in_hand_is_no_flush(client):
    example = client.get(reverse("how_to_play")).context["no_flush"]
    assert example.category != "Flush"
    assert {"Qs", "Qd"} <= set(re.findall(r'data-card="(\w\w)"', example.best))


def test_rule_3_6_the_pot_limit_example_is_the_engines_arithmetic(client):
    text = _text(client.get(reverse("how_to_play")).content.decode())
    assert "raise to anything from 4 to 7" in text
    assert "raise to anything from 12" in text and "up to 24" in text


def test_the_page_is_linked_from_the_lobby_and_the_table(client, make_table):
    link = f'href="{reverse("how_to_play")}"'
    assert link in client.get(reverse("lobby")).content.decode()
    assert link in client.get(reverse("table", args=[make_table().pk])).content.decode()
