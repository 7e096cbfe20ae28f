"""A winner nobody called may show their cards after the hand (RULES 5.1): an event in the log."""

import pytest
from django.conf import settings
from django.utils import timezone

from tables import services
from tables.engine import Action, ActionKind, Hand, IllegalAction
from tables.models import HandEvent
from tables.presentation.screens import screens
from tables.selectors.table_state import load_table_state
from tables.services.errors import TableError
from tables.services.showing import show_cards
from tests.engine.support import make_config, stacked_deck

from ..support.decks import SEAT_1_CARDS
from ..support.tables import act, start_hand

pytestmark = pytest.mark.django_db


def engine_hand_won_by_a_fold() -> Hand:
    config = make_config({1: 200, 2: 200}, button=1)
    hand = Hand(config, stacked_deck(config, {1: "As Ad Kc Qd"}, "2c 7d 9h Js 3s"))
    hand.start()
    hand.apply(Action(1, ActionKind.RAISE, 6))
    hand.apply(Action(2, ActionKind.FOLD))
    return hand


def test_rule_5_1_the_uncalled_winner_may_show_once_and_nobody_else():
    hand = engine_hand_won_by_a_fold()
    with pytest.raises(IllegalAction, match="winner nobody called"):
        hand.show_uncontested(2)
    assert hand.show_uncontested(1) == [{"type": "cards_shown", "seat": 1, "cards": ["As", "Ad", "Kc", "Qd"]}]
    with pytest.raises(IllegalAction, match="shown already"):
        hand.show_uncontested(1)


def test_rule_5_1_no_show_during_the_hand():
    config = make_config({1: 200, 2: 200}, button=1)
    hand = Hand(config, stacked_deck(config, {1: "As Ad Kc Qd"}, "2c 7d 9h Js 3s"))
    hand.start()
    with pytest.raises(IllegalAction, match="only after the hand"):
        hand.show_uncontested(1)


def test_showing_records_the_event_and_every_screen_shows_the_cards(heads_up):
    table, alice, bob = heads_up
    start_hand(table)
    act(table, alice, "raise", 6)
    act(table, bob, "fold")
    rendered = screens(load_table_state(table.pk), timezone.now())
    assert "show-cards-form" in rendered.players[alice.pk]["controls"]
    assert "show-cards-form" not in rendered.players[bob.pk]["controls"]
    show_cards(user=alice, table_id=table.pk)
    assert HandEvent.objects.filter(type="cards_shown").get().payload["cards"] == SEAT_1_CARDS
    rendered = screens(load_table_state(table.pk), timezone.now())
    public = rendered.public[settings.LANGUAGE_CODE]
    assert 'data-card="Kd"' in public["felt"] and "alice shows:" in public["hand-log"]
    assert "show-cards-form" not in rendered.players[alice.pk]["controls"]
    with pytest.raises(TableError, match="shown already"):
        show_cards(user=alice, table_id=table.pk)
    assert HandEvent.objects.filter(type="cards_shown").count() == 1


def test_the_loser_the_hand_running_or_a_watcher_cannot_show(heads_up, make_player):
    table, alice, bob = heads_up
    start_hand(table)
    with pytest.raises(TableError, match="only after the hand"):
        show_cards(user=alice, table_id=table.pk)
    act(table, alice, "raise", 6)
    act(table, bob, "fold")
    with pytest.raises(TableError, match="winner nobody called"):
        show_cards(user=bob, table_id=table.pk)
    with pytest.raises(TableError, match="did not play"):
        show_cards(user=make_player(), table_id=table.pk)
    assert not HandEvent.objects.filter(type="cards_shown").exists()
    services.start_hand_if_due(table_id=table.pk)  # the next hand: too late to show the last one
    with pytest.raises(TableError, match="only after the hand"):
        show_cards(user=alice, table_id=table.pk)
