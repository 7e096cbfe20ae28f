"""A change renders, for each audience, only the fragments whose view model changed since
this process rendered for it last (``tables.presentation.view_models``): the HTML reused is
exactly what rendering would give."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from tables.models import Table
from tables.presentation import fragments
from tables.presentation.fragments import render_fragment, viewer_fragments
from tables.presentation.screens import screens, views_for
from tables.presentation.table_view import public_view
from tables.presentation.view_models import RenderedFragments
from tables.selectors.hands import rebuild
from tables.selectors.table_state import load_table_state
from tables.services import seat_options

from ..support.tables import act, play_random_action, running_hand, six_handed, start_hand

pytestmark = pytest.mark.django_db


def test_reused_fragments_are_exactly_what_rendering_gives(make_player, make_table):
    table, players = six_handed(make_player, make_table)
    memo = RenderedFragments()
    rng = random.Random(24)
    now = timezone.now()
    checked = escaped_waits = 0
    for hand_number in range(4):
        start_hand(table)
        while running_hand(table) is not None:
            state = load_table_state(table.pk)
            now += timedelta(milliseconds=rng.randint(0, 3000))
            assert screens(state, now, memo) == screens(state, now)
            public = screens(state, now, memo).public
            for language in ("en", "es"):  # the felt from its seat boxes: as the template writes it
                with translation.override(language):
                    direct = render_fragment("tables/felt.html", {"view": public_view(state, now), "me": None})
                assert public[language]["felt"] == direct
                with translation.override(language):  # the log from its lines kept: as the template writes it
                    direct = render_fragment("tables/hand_log.html", {"view": public_view(state, now), "me": None})
                assert public[language]["hand-log"] == direct
            for player in players.values():  # the controls' slot filled in: as the template writes them
                view, me = views_for(state, player, now)
                direct = render_fragment("tables/controls.html", {"view": view, "me": me, "request_id": "x"})
                assert viewer_fragments(view, me, "x")["controls"] == direct
                escaped_waits += "Waiting for o&#39;neil&amp;&lt;b&gt;" in direct
            checked += 1
            play_random_action(table, players, rng)
            if hand_number == 1 and checked % 5 == 0:  # seat options and top-ups change the seat panel
                seat = rng.choice(list(players))
                seat_options.set_seat_options(
                    user=players[seat], table_id=table.pk, sit_out_next_big_blind=False,
                    leave_after_hand=False, auto_top_up_to=table.max_buy_in,
                )  # fmt: skip
        state = load_table_state(table.pk)
        assert screens(state, now, memo) == screens(state, now)
        Table.objects.filter(pk=table.pk).update(next_hand_at=None)  # the next hand is due now
    assert checked > 20 and escaped_waits > 0


def test_an_action_renders_only_the_fragments_whose_view_model_changed(make_player, make_table, monkeypatch):
    table, players = six_handed(make_player, make_table, spanish_seats=())
    rendered: list[str] = []
    real_render = fragments._render
    monkeypatch.setattr(fragments, "_render", lambda name, context: rendered.append(name) or real_render(name, context))
    # With the memo the felt and the controls are put together from pieces: count the pieces rendered.
    for piece in ("_controls_body_html", "_seat_extras_html", "_seat_piece"):
        real = getattr(fragments, piece)
        monkeypatch.setattr(
            fragments, piece, lambda *args, real=real, piece=piece: rendered.append(piece) or real(*args)
        )
    memo = RenderedFragments()
    start_hand(table)
    screens(load_table_state(table.pk), timezone.now(), memo)
    renders, changes = [], 0
    while (hand := running_hand(table)) is not None:
        act(table, players[hand.turn_seat], "check" if rebuild(hand).legal_actions().can_check else "call")
        rendered.clear()
        state = load_table_state(table.pk)
        screens(state, timezone.now(), memo)
        renders.append(list(rendered))
        changes += 1
        rendered.clear()
        screens(state, timezone.now())  # without the memo: every fragment of every audience
        assert rendered.count("tables/seat_panel.html") == 6 and rendered.count("tables/controls.html") == 6
    # A seat panel changes only with its own seat, and a call moves only its stack: the line
    # that says it and the form to add chips are rendered again, not the panel; nor at the
    # hand's end (what leaving asks to confirm is a piece of its own). The controls of a
    # player waiting name whom they wait for, and the turn comes round again: reused.
    assert not any("tables/seat_panel.html" in change for change in renders)
    assert not any("tables/controls.html" in change or "tables/felt.html" in change for change in renders)
    controls = sum(change.count("_controls_body_html") for change in renders)
    assert controls < 2 * len(renders) < 6 * len(renders)
    # The felt, in each of the two languages, and the own boxes of the two players concerned:
    # only pieces of the boxes of the seat that acted (its head, its stack or cards, its clock)
    # and of the seat to act (its head and clock), not the 4 pieces of every seat's (6 * 4 * 3).
    assert all(change.count("_seat_piece") <= 5 * 3 for change in renders[:-1])
    assert all(change.count("_seat_extras_html") <= 2 * 2 for change in renders[:-1])
    # The next hand's deal: every seat's cards and the commitment to the next seed are new,
    # and go into the pieces and slots of the panels kept.
    Table.objects.filter(pk=table.pk).update(next_hand_at=None)
    start_hand(table)
    rendered.clear()
    screens(load_table_state(table.pk), timezone.now(), memo)
    assert "tables/seat_panel.html" not in rendered and "_seat_piece" in rendered


def test_a_sockets_snapshot_reuses_what_the_tables_last_change_rendered(make_player, make_table, monkeypatch):
    """A connect renders with the same memo as the changes (``screens.screen_for``): what it
    shows is exactly what rendering gives, and right after a change a seated player's snapshot
    renders no piece again (the sockets of a table opening together render it once)."""
    from tables.presentation.screens import screen_for

    table, players = six_handed(make_player, make_table)
    memo = RenderedFragments()
    rng = random.Random(7)
    rendered: list[str] = []
    for piece in ("_render", "_controls_body_html", "_seat_extras_html", "_seat_piece"):
        real = getattr(fragments, piece)
        monkeypatch.setattr(
            fragments, piece, lambda *args, real=real, piece=piece: rendered.append(piece) or real(*args)
        )
    watcher = make_player()
    start_hand(table)
    checked = 0
    while running_hand(table) is not None:
        state, now = load_table_state(table.pk), timezone.now()
        screens(state, now, memo)
        for number, player in players.items():
            language = "es" if number in (2, 5) else "en"
            with translation.override(language):
                rendered.clear()
                with_memo = screen_for(state, player, now, memo)
                reused = list(rendered)
                assert with_memo == screen_for(state, player, now)
            assert reused == []  # every piece reused
            checked += 1
        with translation.override("en"):  # a watcher: the public fragments reused, its own rendered
            assert screen_for(state, watcher, now, memo) == screen_for(state, watcher, now)
        play_random_action(table, players, rng)
    assert checked >= 12


def test_the_seat_panel_shows_a_new_note_and_a_used_protected_all_in(make_player, make_table):
    """Between hands a skipped auto top-up leaves a note on the seat, and a protected all-in
    (RULES 6.5) takes one from the count left, neither moving the stack: the seat panel a change
    sends shows both, not the one rendered before them."""
    from tables.models import Seat

    table, players = six_handed(make_player, make_table, spanish_seats=(2,))
    memo = RenderedFragments()
    now = timezone.now()
    before = screens(load_table_state(table.pk), now, memo)
    for number in (1, 2):
        Seat.objects.filter(table=table, number=number).update(note=Seat.Note.TOP_UP_SKIPPED)
    Seat.objects.filter(table=table, number=3).update(protected_all_ins_at=[(now - timedelta(hours=1)).isoformat()])
    state = load_table_state(table.pk)
    after = screens(state, now, memo)
    assert after == screens(state, now)
    for number in (1, 2, 3):
        assert after.players[players[number].pk]["seat-panel"] != before.players[players[number].pk]["seat-panel"]


def test_a_hands_end_screens_take_the_settled_engine_and_word_only_its_new_lines(
    make_player, make_table, monkeypatch, django_capture_on_commit_callbacks
):
    """The action that ends a hand settles it, and its screens read the table's rows again, but
    not the log: the settled engine is the hand's replay (the log replayed gives the same
    events), so the lines worded while the hand ran are kept and only the end's are worded."""
    from tables.presentation.wording import HandWords
    from tables.selectors import table_state as table_state_module

    table, players = six_handed(make_player, make_table, spanish_seats=())
    memo = RenderedFragments()
    with django_capture_on_commit_callbacks(execute=True):
        start_hand(table)
    replays, worded = [], []
    real_rebuild, real_lines = table_state_module.rebuild, HandWords.lines
    monkeypatch.setattr(table_state_module, "rebuild", lambda hand: replays.append(hand) or real_rebuild(hand))
    monkeypatch.setattr(HandWords, "lines", lambda words, event: worded.append(event) or real_lines(words, event))
    screens(load_table_state(table.pk), timezone.now(), memo)
    while (hand := running_hand(table)) is not None:
        events_before = len(rebuild(hand).events)
        replays.clear()
        with django_capture_on_commit_callbacks(execute=True):  # as a server: the screens once it commits
            act(table, players[hand.turn_seat], "check" if rebuild(hand).legal_actions().can_check else "call")
        state = load_table_state(table.pk)
        worded.clear()
        screens(state, timezone.now(), memo)
        assert replays == []  # the engine the writer held, not the log read and replayed
        assert 0 < len(worded) <= 2 * (len(state.events) - events_before)  # the new events, in each language
    assert state.hand.state == "complete"
    assert state.events == rebuild(state.hand).events  # the settled engine is the log replayed


def test_a_players_fragments_put_together_again_from_the_same_pieces_are_the_same_strings(
    make_player, make_table, monkeypatch
):
    """The own seat, the controls and the seat panel are put together from pieces on every
    change; while the pieces are the same, so is the string (kept with its pieces), and the
    digest worked out when it was first sent is found again instead of hashing equal HTML."""
    from tables.presentation import deltas

    table, players = six_handed(make_player, make_table, spanish_seats=())
    memo = RenderedFragments()
    start_hand(table)
    state, now = load_table_state(table.pk), timezone.now()
    first = screens(state, now, memo)
    again = screens(state, now, memo)
    composed = ("own-seat", "controls", "seat-panel")
    for user_id, own in first.players.items():
        for key in composed:
            assert again.players[user_id][key] is own[key], key
            assert own[key] == screens(state, now).players[user_id][key]  # as rendering gives
    hashed = []
    real_blake = deltas.hashlib.blake2b
    monkeypatch.setattr(deltas.hashlib, "blake2b", lambda data, **kw: hashed.append(data) or real_blake(data, **kw))
    deltas.digests(first.players[players[1].pk])
    hashed.clear()
    deltas.digests(again.players[players[1].pk])
    assert hashed == []
    # A change that moves a piece makes a new string for the player it concerns.
    hand = running_hand(table)
    act(table, players[hand.turn_seat], "call")
    mover = players[hand.turn_seat].pk
    after = screens(load_table_state(table.pk), now, memo)
    assert after.players[mover]["own-seat"] != first.players[mover]["own-seat"]
