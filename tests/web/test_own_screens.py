"""A seated player's own fragments are reused whole while nothing they show moved
(``tables.presentation.own_screens``): at every change of hands played with everything that
moves a player's own screen between them (top-ups mid-hand, seat options, a player gone and
back, time passing), what a change's screens reuse is exactly what working them out gives;
and an action works out again the views of the players it concerns only."""

import contextlib
import random
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from markupsafe import escape

from tables.models import Table
from tables.presentation import own_screens
from tables.presentation.screens import screens
from tables.presentation.view_models import RenderedFragments
from tables.selectors.table_state import load_table_state
from tables.services import presence, seat_options, seating
from tables.services.errors import TableError

from ..support.tables import act, play_random_action, running_hand, six_handed, start_hand

pytestmark = pytest.mark.django_db


def _something_moves(table, players, rng):
    """One of the things that change a player's own screen outside the actions, or nothing."""
    player = players[rng.choice(list(players))]
    choice = rng.randrange(6)
    if choice == 0:
        with contextlib.suppress(TableError):  # refused (the table maximum): nothing moved
            seating.top_up(user=player, table_id=table.pk, amount=rng.choice([5, 50]), request_id=uuid.uuid4().hex)
    elif choice == 1:
        seat_options.set_seat_options(
            user=player, table_id=table.pk, sit_out_next_big_blind=rng.random() < 0.5,
            leave_after_hand=False, auto_top_up_to=rng.choice([0, table.max_buy_in]),
        )  # fmt: skip
    elif choice == 2:
        presence.player_disconnected(table_id=table.pk, user=player)
    elif choice == 3:
        presence.player_connected(table_id=table.pk, user=player)


def test_reused_own_fragments_are_exactly_what_working_them_out_gives(make_player, make_table):
    table, players = six_handed(make_player, make_table)
    memo = RenderedFragments()
    rng = random.Random(7)
    now = timezone.now()
    checked = reused = 0
    for _ in range(5):
        start_hand(table)
        while running_hand(table) is not None:
            state = load_table_state(table.pk)
            now += timedelta(milliseconds=rng.randint(0, 4000))
            before = {audience: list(kept) for audience, kept in _wholes(memo)}
            assert screens(state, now, memo) == screens(state, now)  # reused, and worked out from nothing
            reused += sum(1 for audience, kept in _wholes(memo) if kept and before.get(audience) == kept)
            checked += 1
            play_random_action(table, players, rng)
            _something_moves(table, players, rng)
        state = load_table_state(table.pk)
        assert screens(state, now, memo) == screens(state, now)
        for player in players.values():  # everyone back for the next hand
            presence.player_connected(table_id=table.pk, user=player)
        Table.objects.filter(pk=table.pk).update(next_hand_at=None)
    assert checked > 30 and reused > checked  # most players' fragments were reused whole


def _wholes(memo):
    return [(name, audience.get(own_screens.WHOLE) or []) for name, audience in memo._by_audience.items()]


def test_an_action_works_out_the_views_of_the_players_it_concerns_only(make_player, make_table, monkeypatch):
    table, players = six_handed(make_player, make_table)
    memo = RenderedFragments()
    now = timezone.now()
    start_hand(table)
    screens(load_table_state(table.pk), now, memo)
    worked_out = []
    real = own_screens.viewer_view
    monkeypatch.setattr(
        own_screens,
        "viewer_view",
        lambda state, view, player_id: worked_out.append(player_id) or real(state, view, player_id),
    )
    hand = running_hand(table)
    actor = players[hand.turn_seat]
    act(table, actor, "call")
    next_to_act = players[running_hand(table).turn_seat]
    after = screens(load_table_state(table.pk), now, memo)
    assert sorted(worked_out) == sorted([actor.pk, next_to_act.pk])
    assert after == screens(load_table_state(table.pk), now)
    # Those waiting read whom they wait for now, each in their own controls.
    waiting = [player for player in players.values() if player not in (actor, next_to_act)]
    name = str(escape(next_to_act.username))
    assert all(name in after.players[player.pk]["controls"] for player in waiting)
