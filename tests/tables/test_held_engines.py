"""The engine a process holds after writing a hand is the hand's log replayed, and a change
that does not commit leaves nothing held."""

import pytest

from tables import services
from tables.engine import IllegalAction
from tables.selectors.hands import rebuild
from tables.services import held_engines

from ..support.tables import running_hand, sit

pytestmark = pytest.mark.django_db


def test_the_held_engine_is_the_log_replayed_after_every_action(
    make_player, make_table, django_capture_on_commit_callbacks
):
    table = make_table()
    players = [make_player() for _ in range(6)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    by_seat = dict(enumerate(players, start=1))
    checked = 0
    while (hand := running_hand(table)) is not None:
        replayed = rebuild(hand)
        held = held_engines.take(hand)
        assert held is not replayed and held.events == replayed.events
        assert held.stacks == replayed.stacks and held.to_act == replayed.to_act
        held_engines.keep_on_commit(hand, held)  # put it back as it was
        kind = "check" if replayed.legal_actions().can_check else "call"
        with django_capture_on_commit_callbacks(execute=True):
            services.act(
                table_id=table.pk, user=by_seat[hand.turn_seat], kind=kind, amount=None, sequence=hand.sequence
            )
        checked += 1
    assert checked > 20


def test_a_refused_action_leaves_no_engine_held(make_player, make_table, django_capture_on_commit_callbacks):
    table = make_table()
    players = [make_player() for _ in range(2)]
    for number, player in enumerate(players, start=1):
        sit(table, player, number)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_hand_if_due(table_id=table.pk)
    hand = running_hand(table)
    actor = players[hand.turn_seat - 1]
    with pytest.raises(IllegalAction), django_capture_on_commit_callbacks(execute=True):
        services.act(table_id=table.pk, user=actor, kind="raise", amount=10**9, sequence=hand.sequence)
    assert hand.pk not in held_engines._held  # taken by the refused action, not put back
    assert running_hand(table).sequence == hand.sequence  # and nothing changed
