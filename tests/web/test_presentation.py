"""What the pages make of engine state: action controls, the hand log, card names, seat layout."""

from types import SimpleNamespace

import pytest
from django.template import engines

from tables.engine import Action, ActionKind, Hand, HandConfig, SeatSetup, Variant
from tables.engine import events as ev
from tables.engine.projection import view_for, visible_events
from tables.presentation.cards import card_view, card_views
from tables.presentation.controls import action_controls
from tables.presentation.layout import seat_spots
from tables.presentation.log_lines import log_lines
from tests.support.decks import SEAT_1_CARDS, SEAT_2_CARDS, deck_from


def heads_up_hand(variant=Variant.POT_LIMIT, stacks=(200, 200)) -> Hand:
    limit = variant is Variant.LIMIT
    config = HandConfig(
        variant=variant,
        small_blind=5 if limit else 1,
        big_blind=10 if limit else 2,
        big_bet=20 if limit else 0,
        seats=(SeatSetup(1, stacks[0], name="alice"), SeatSetup(2, stacks[1], name="bob")),
        button=1,
        small_blind_seat=1,
        big_blind_seat=2,
    )
    hand = Hand(config, deck_from("Ac Kd Ad Kh 8c 2c 5d 4s 2d Ks 7h 7d 2h 3c 3d 9s"))
    hand.start()
    return hand


def controls_for(hand: Hand, sequence: int = 7):
    return action_controls(view_for(hand, hand.to_act), sequence)


def test_only_the_seat_to_act_gets_controls():
    hand = heads_up_hand()
    assert hand.to_act == 1
    assert action_controls(view_for(hand, 2), 1) is None
    assert action_controls(view_for(hand, None), 1) is None
    assert controls_for(hand).sequence == 7


def test_rule_3_5_limit_offers_one_fixed_raise_and_none_after_the_cap():
    hand = heads_up_hand(Variant.LIMIT)
    raises = []
    while (controls := controls_for(hand)).wager_kind:
        assert controls.fixed_wager and controls.presets == []
        raises.append(controls.min_to)
        hand.apply(Action(hand.to_act, ActionKind.RAISE, controls.min_to))
    assert raises == [20, 30, 40]  # the big blind is the first of the four bets
    capped = controls_for(hand)
    assert (capped.can_check, capped.call_amount, capped.wager_kind) == (False, 10, None)


def test_rule_3_6_pot_limit_presets_are_minimum_half_pot_and_pot():
    hand = heads_up_hand()
    hand.apply(Action(1, ActionKind.RAISE, 6))  # bob faces 4 more, the pot after his call is 12
    controls = controls_for(hand)
    assert (controls.min_to, controls.max_to, controls.call_amount) == (10, 18, 4)
    assert [(p.label, p.amount) for p in controls.presets] == [("Min", 10), ("½ Pot", 12), ("Pot", 18)]


def limped_to_the_flop(variant) -> Hand:
    hand = heads_up_hand(variant)
    hand.apply(Action(1, ActionKind.CALL))
    hand.apply(Action(2, ActionKind.CHECK))
    return hand  # heads-up the big blind (seat 2) acts first after the flop


@pytest.mark.parametrize("variant", [Variant.POT_LIMIT, Variant.LIMIT])
@pytest.mark.parametrize(("deal", "kind"), [(heads_up_hand, "raise"), (limped_to_the_flop, "bet")])
def test_the_wager_form_sends_the_action_as_its_text(variant, deal, kind):
    """ActionKind is a StrEnum: the form carries "raise" or "bet", which the socket reads back (RULES 3.3)."""
    controls = controls_for(deal(variant))
    assert controls.wager_kind == kind
    controls_html = engines["fragments"].env.get_template("tables/controls.html")
    me = SimpleNamespace(controls=controls, my_cards=[], in_running_hand=True, readout=None, own_seat=None)
    html = controls_html.render({"me": me, "view": SimpleNamespace(hand=None, clock=None)})
    assert f'name="action" value="{kind}"' in html and f'data-act="{kind}"' in html
    assert "ActionKind" not in html


def test_pot_limit_presets_say_all_in_when_the_stack_is_short_of_a_pot_raise():
    hand = heads_up_hand(stacks=(200, 15))
    hand.apply(Action(1, ActionKind.RAISE, 6))
    controls = controls_for(hand)
    assert controls.max_to == 15 and controls.wager_is_all_in
    assert [(p.label, p.amount) for p in controls.presets] == [("Min", 10), ("½ Pot", 12), ("All-in", 15)]


def test_a_call_of_the_whole_stack_says_all_in():
    hand = heads_up_hand(stacks=(200, 5))
    hand.apply(Action(1, ActionKind.RAISE, 6))
    controls = controls_for(hand)
    assert controls.call_is_all_in and controls.call_amount == 3 and controls.wager_kind is None


def _play_to_showdown(hand: Hand) -> None:
    for seat, kind, amount in [(1, "raise", 6), (2, "call", None)] + [(2, "check", None), (1, "check", None)] * 3:
        hand.apply(Action(seat, ActionKind(kind), amount))
    assert hand.is_over


def test_the_log_tells_the_hand_and_shows_hole_cards_only_to_their_owner():
    hand = heads_up_hand()
    _play_to_showdown(hand)
    texts = [line.text for line in log_lines(visible_events(hand.events, 2))]
    assert texts[:5] == [
        "Button: seat 1 (alice)", "alice posts the small blind: 1", "bob posts the big blind: 2",
        "Dealt to you:", "alice raises to 6",
    ]  # fmt: skip
    assert texts[-3:] == [
        "bob shows Two pair, aces and sevens:",
        "alice shows Kings full of sevens:",
        "alice wins the pot (12)",
    ]
    for viewer, own in [(1, SEAT_1_CARDS), (2, SEAT_2_CARDS), (None, [])]:
        dealt = [line for line in log_lines(visible_events(hand.events, viewer)) if line.kind == "private"]
        assert [card.text for line in dealt for card in line.cards] == own


def test_a_growing_log_words_only_its_new_events_and_says_what_wording_all_of_it_says():
    """A held hand's log is the same events with new ones appended: each call words only those
    after the lines it kept, and gives exactly the lines of the whole log worded afresh."""
    from tables.presentation import log_lines as module

    hand = heads_up_hand()
    moves = [(1, "raise", 6), (2, "call", None)] + [(2, "check", None), (1, "check", None)] * 3
    worded: list[int] = []
    real = module._event_lines
    module._event_lines = lambda words, said, event: worded.append(1) or real(words, said, event)
    try:
        for seat, kind, amount in [(None, None, None), *moves]:
            if seat is not None:
                hand.apply(Action(seat, ActionKind(kind), amount))
            worded.clear()
            grown = log_lines(hand.events, dealt_slot=True)
            added = len(worded)
            module._so_far.clear(), module._worded.clear()
            assert grown == log_lines(hand.events, dealt_slot=True)
            # The new events only; the hand's end goes over them all (a pot's award is worded by
            # how many pots there are), from the lines kept per event.
            assert added <= (len(hand.events) if seat is None or hand.is_over else 8)
    finally:
        module._event_lines = real
    assert hand.is_over


def test_rule_2_9_the_log_names_a_dead_small_blind_and_a_dead_button():
    def opening_lines(button, small_blind_seat, big_blind_seat):
        config = HandConfig(
            variant=Variant.POT_LIMIT, small_blind=1, big_blind=2, big_bet=0,
            seats=(SeatSetup(1, 200, name="alice"), SeatSetup(2, 200, name="bob"), SeatSetup(4, 200, name="dave")),
            button=button, small_blind_seat=small_blind_seat, big_blind_seat=big_blind_seat,
        )  # fmt: skip
        hand = Hand(config, list(range(52)))
        hand.start()
        return [line.text for line in log_lines(visible_events(hand.events, None))][:3]

    # Seat 3, last hand's big blind, has left: nobody posts the small blind.
    assert opening_lines(2, None, 4) == [
        "Button: seat 2 (bob)", "No small blind this hand (dead small blind)", "dave posts the big blind: 2",
    ]  # fmt: skip
    # The hand after: the button is on seat 3, where nobody is dealt in.
    assert opening_lines(3, 4, 1) == [
        "Button: seat 3 (dead button)", "dave posts the small blind: 1", "alice posts the big blind: 2",
    ]  # fmt: skip


def test_split_and_side_pots_are_named():
    config = HandConfig(
        variant=Variant.POT_LIMIT, small_blind=1, big_blind=2, big_bet=0,
        seats=(SeatSetup(1, 21, name="alice"), SeatSetup(2, 36, name="bob")),
        button=1, small_blind_seat=1, big_blind_seat=2,
    )  # fmt: skip
    events = [
        ev.hand_started(config),
        ev.pot_awarded(0, 12, [1, 2], [(1, 6), (2, 6)]),
        ev.pot_awarded(1, 30, [2], [(2, 30)]),
    ]
    assert [line.text for line in log_lines(events)][1:] == [
        "The main pot (12) is split: alice 6, bob 6", "bob wins side pot 1 (30)",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "printed", "name"),
    [
        ("Kd", "K♦", "King of diamonds"),
        ("Th", "10♥", "Ten of hearts"),
        ("As", "A♠", "Ace of spades"),
        ("2c", "2♣", "Two of clubs"),
    ],
)
def test_cards_are_printed_and_named_for_screen_readers(text, printed, name):
    card = card_view(text)
    assert (card.rank + card.symbol, card.name, card.suit) == (printed, name, text[1])


def test_winning_cards_are_marked():
    assert [card.highlighted for card in card_views(["Kd", "2c", "Ks"], highlight=["Kd", "Ks"])] == [True, False, True]


@pytest.mark.parametrize("seat_count", range(2, 11))
def test_seats_go_clockwise_around_the_oval_with_the_viewer_at_the_bottom(seat_count):
    spots = seat_spots(seat_count, bottom_seat=2)
    for oval in ("wide", "tall"):
        points = {number: getattr(spot, oval) for number, spot in spots.items()}
        assert points[2].x == 50.0 and points[2].y > 90  # six o'clock
        assert all(0 <= point.x <= 100 and 0 <= point.y <= 100 for point in points.values())
        assert len({(point.x, point.y) for point in points.values()}) == seat_count
        if seat_count > 2:
            assert points[3].x < 50  # the next seat clockwise is to the viewer's left on screen


def test_a_card_drawn_once_is_drawn_again_in_each_language_and_for_each_highlight():
    """``kept`` draws a macro once per arguments and language: a card first drawn in English is
    still named in Spanish on a Spanish screen, and its winning mark is not lost."""
    from django.utils import translation

    from config.jinja2 import fragment_translations

    env = engines["fragments"].env
    template = env.from_string('{% from "tables/ui.html" import card %}{{ kept(card, c) }}')
    drawn = {}
    for language in ("en", "es", "en", "es"):
        for highlighted in (False, True):
            with translation.override(language), fragment_translations():
                drawn[language, highlighted] = template.render(c=card_view("Kd", highlighted=highlighted))
    assert 'aria-label="King of diamonds"' in drawn["en", False]
    assert 'aria-label="Rey de diamantes"' in drawn["es", False]
    assert "winning" in drawn["en", True] and "winning" not in drawn["en", False]
    with translation.override("es"):  # outside a fragment's render: Django's active language
        assert "Rey de diamantes" in template.render(c=card_view("Kd"))
    # The same arguments in two languages: drawn in each.
    confirm = env.from_string(
        '{% from "tables/seat_panel_parts.html" import leave_confirm %}{{ kept(leave_confirm, x) }}'
    )
    said = []
    for language in ("en", "es"):
        with translation.override(language), fragment_translations():
            said.append(confirm.render(x=True))
    assert said[0].startswith("Leave the table?") and said[1].startswith("¿")


@pytest.mark.parametrize(
    "source",
    [
        '{{ _("Fold") }}',
        '{{ _("Dealt to you") }} {% trans %}Fold{% endtrans %}',
        '{{ _("100%% of the pot") }}',  # formatting turns "%%" into "%"
        '{{ _("Raise to %(amount)s", amount="<b>9</b>") }}',  # a variable is escaped
        '{% trans who="<i>ann</i>" %}{{ who }} folds{% endtrans %}',
        '{{ _("<em>safe</em> as Jinja marks it") }}',
    ],
)
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_fragments_gettext_says_what_jinjas_own_says(source, language):
    """The fragments' ``gettext`` skips formatting a translation with nothing to format: what it
    renders is what Jinja's own new-style gettext renders, with and without variables."""
    from django.utils import translation
    from jinja2 import Environment

    from config.jinja2 import _gettext, _gettext_formatted, _ngettext, fragment_translations

    ours = engines["fragments"].env
    assert ours.globals["_"] is ours.globals["gettext"] is _gettext_formatted
    stock = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    stock.install_gettext_callables(_gettext, _ngettext, newstyle=True)
    with translation.override(language), fragment_translations():
        assert ours.from_string(source).render() == stock.from_string(source).render()
