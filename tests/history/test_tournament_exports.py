"""Tournament hands in the history: listed, replayed, proven and exported as PokerStars writes a
tournament hand (tables/history/pokerstars_tournament.py; RULES 8.3, 8.4, 8.6, 8.10).

The format is PokerStars' published one, as fpdb's regression files hold it
(``regression-test-files/tour/Stars/Flop/NLHE-Play-STT-20110405.txt``: "Tournament #382394766,
300+20 Hold'em No Limit - Level I (10/20)", "Table '382394766 1' 9-max", "X finished the
tournament in 8th place"); ``bench/fpdb_check.py`` has fpdb's own parser read ours.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from tables.history.numbering import exported_hand_number, exported_tournament_number, installation_number
from tables.history.pokerstars_tournament import finish_lines, ordinal, roman, tournament_header
from tables.history.tournament_facts import Finish, TournamentHand
from tables.models import Hand, HandPlayer, Seat
from tests.support.pokerstars import check_chips_add_up, read_hand, read_hands
from tests.support.verifier import load_verifier
from tests.tournaments.support import make_tournament, play_to_the_end, register
from tournaments.models import BlindLevel, Result

pytestmark = [pytest.mark.django_db]

# One-minute levels, played a round a minute: the ante levels come (RULES 8.3, 8.4).
LEVELS = {
    "pot_limit": [(10, 20, 0, 1), (15, 30, 0, 1), (25, 50, 50, 1), (50, 100, 100, 1), (100, 200, 200, 1)],
    "limit": [(20, 40, 0, 1), (30, 60, 0, 1), (50, 100, 50, 1), (100, 200, 100, 1), (200, 400, 200, 1)],
}
NAMES = ("alice", "bob", "carol", "dave")


def played_sit_and_go(make_player, variant: str, seed: int = 5):
    """Four players (65/35 paid: a prize for 2nd) play a sit & go to the end at random."""
    tournament = make_tournament(variant=variant, max_entrants=4, levels=LEVELS[variant])
    players = {name: make_player(name) for name in NAMES}
    for player in players.values():
        register(tournament, player)
    play_to_the_end(tournament, random.Random(seed), timezone.now())
    hands = list(Hand.objects.filter(table__tournament_table__tournament=tournament).order_by("pk"))
    assert hands and all(hand.state == Hand.State.COMPLETE for hand in hands)
    return tournament, players, hands


def download_history(client, player) -> str:
    client.force_login(player)
    response = client.get(reverse("history:export_history"))
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


# --- the lines, as PokerStars writes them ----------------------------------------------------


def test_levels_in_roman_numerals_and_places_in_ordinals():
    assert [roman(n) for n in (1, 2, 3, 4, 9, 14, 40, 49)] == ["I", "II", "III", "IV", "IX", "XIV", "XL", "XLIX"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"
    ]  # fmt: skip
    with pytest.raises(ValueError):
        roman(0)


def test_the_header_names_the_tournament_buy_in_and_fee_the_level_and_its_stakes():
    facts = TournamentHand(tournament_id=7, buy_in=100, fee=0, level=3, table_number=2)
    header = tournament_header(
        41, 123456, facts, "Omaha Pot Limit", "25/50", "2026/12/02 12:05:48 UTC [2026/12/02 7:05:48 ET]",
        "6-max Seat #1 is the button",
    )  # fmt: skip
    assert header == [
        "PokerStars Hand #41: Tournament #123456000000000007, 100+0 Omaha Pot Limit - Level III (25/50)"
        " - 2026/12/02 12:05:48 UTC [2026/12/02 7:05:48 ET]",
        "Table '123456000000000007 2' 6-max Seat #1 is the button",
    ]
    free = TournamentHand(tournament_id=7, buy_in=0, fee=0, level=1, table_number=1)
    assert (
        "Tournament #123456000000000007, Freeroll Omaha Limit - Level I (20/40)"
        in tournament_header(41, 123456, free, "Omaha Limit", "20/40", "t", "6-max Seat #1 is the button")[0]
    )


def test_rules_8_6_and_8_10_finishing_lines_worst_place_first_then_the_winner():
    facts = TournamentHand(
        tournament_id=1, buy_in=100, fee=10, level=5, table_number=1,
        finishes=(Finish(seat=4, place=3, prize=0), Finish(seat=2, place=2, prize=60), Finish(seat=1, place=1, prize=100)),
    )  # fmt: skip
    assert finish_lines(facts, {1: "alice", 2: "bob", 4: "dave"}) == [
        "dave finished the tournament in 3rd place",
        "bob finished the tournament in 2nd place and received 60.",
        "alice wins the tournament and receives 100 - congratulations!",
    ]


# --- a sit & go played to the end, as each player downloads it -------------------------------


@pytest.mark.parametrize("variant", ["pot_limit", "limit"])
def test_every_hand_of_a_sit_and_go_reads_as_a_pokerstars_tournament_hand(client, make_player, variant):
    """The whole-history download of every player: each hand names the tournament, its buy-in and
    fee, the level it was dealt at (RULES 8.3) with the level's stakes, the tournament chip stacks,
    the big blind ante posted by the big blind (RULES 8.4), chips that add up; and every player's
    finishing place and prize is written once, in the hand that busted them, the winner's in the
    last hand (RULES 8.6, 8.10)."""
    tournament, players, hands = played_sit_and_go(make_player, variant)
    installation = installation_number()
    levels = {level.number: level for level in BlindLevel.objects.filter(tournament=tournament)}
    by_number = {exported_hand_number(installation, hand.pk): hand for hand in hands}
    finishes: dict[int, list[tuple[str, int, int]]] = {}
    antes = 0
    read_count = 0
    for player in players.values():
        for read in read_hands(download_history(client, player)):
            read_count += 1
            hand = by_number[read.number]
            level = levels[hand.tournament_level]
            assert (read.tournament, read.buy_in) == (exported_tournament_number(installation, tournament.pk), "100+10")
            assert read.level == roman(level.number)
            assert read.stakes == (level.small, level.big)  # Pot Limit the blinds, Limit the bets (RULES 7.1, 7.2)
            starting = {hp.player.username: hp.starting_stack for hp in HandPlayer.objects.filter(hand=hand)}
            assert read.stacks == starting
            check_chips_add_up(read)
            ante_lines = [line for line in read.lines if ": posts the ante " in line]
            if level.ante:
                antes += 1
                big_blind = hand.config["big_blind_seat"]
                [name] = [name for name, seat in read.seats.items() if seat == big_blind]
                posted = min(level.ante, starting[name] - min(starting[name], hand.config["big_blind"]))
                all_in = " and is all-in" if posted and posted == starting[name] - hand.config["big_blind"] else ""
                assert ante_lines == ([f"{name}: posts the ante {posted}{all_in}"] if posted else [])  # RULES 8.4
            else:
                assert ante_lines == []
            assert finishes.setdefault(read.number, read.finishes) == read.finishes  # the same for every viewer
            assert [place for _, place, _ in read.finishes] == sorted((p for _, p, _ in read.finishes), reverse=True)
    assert read_count == HandPlayer.objects.filter(hand__in=hands).count()
    assert antes, "no hand reached a level with an ante"
    results = {(r.player.username, r.place, r.prize) for r in Result.objects.filter(tournament=tournament)}
    written = [finish for hand_finishes in finishes.values() for finish in hand_finishes]
    assert sorted(written) == sorted(results)  # each place once
    last = exported_hand_number(installation, hands[-1].pk)
    [winner] = [name for name, place, _ in results if place == 1]
    assert finishes[last][-1][:2] == (winner, 1)  # the last line of the last hand
    for number, hand_finishes in finishes.items():
        for name, place, _ in hand_finishes:
            if place > 1:  # busted in that hand: no chips after it, and no later hand
                row = HandPlayer.objects.get(hand=by_number[number], player=players[name])
                assert row.final_stack == 0
                assert not HandPlayer.objects.filter(player=players[name], hand__in=hands, hand__pk__gt=row.hand_id)


# --- where players find them -----------------------------------------------------------------


def test_a_tournament_hand_is_listed_replayed_proven_and_downloaded_by_its_players_only(client, make_player):
    tournament, players, hands = played_sit_and_go(make_player, "pot_limit")
    alice = players["alice"]
    own = list(Hand.objects.filter(pk__in=[h.pk for h in hands], players__player=alice).order_by("pk"))
    hand = own[-1]
    client.force_login(alice)
    listed = client.get(reverse("history:list")).content.decode()
    assert f'id="hand-{hand.pk}"' in listed
    page = client.get(reverse("history:detail", args=[hand.pk]))
    assert page.status_code == 200 and escape(hand.table.name) in page.content.decode()  # the replayer
    proof = client.get(reverse("history:proof", args=[hand.pk]))
    assert proof.status_code == 200 and load_verifier().verify(proof.json()) == []
    text = client.get(reverse("history:export_text", args=[hand.pk]))
    assert text.status_code == 200 and text["Content-Type"] == "text/plain; charset=utf-8"
    read = read_hand(text.content.decode())
    assert read.tournament == exported_tournament_number(installation_number(), tournament.pk)
    assert read.dealt.keys() == {"alice"}  # only her own cards
    ranged = client.get(reverse("history:export_range"), {"from": own[0].pk, "to": own[-1].pk}).content.decode()
    assert [r.number for r in read_hands(ranged)] == [exported_hand_number(installation_number(), h.pk) for h in own]
    assert all(r.tournament for r in read_hands(ranged))

    stranger = make_player("stranger")
    client.force_login(stranger)
    for name in ("export_text", "detail", "proof", "export_phh"):
        assert client.get(reverse(f"history:{name}", args=[hand.pk])).status_code == 404
    assert re.search(r"PokerStars Hand", download_history(client, stranger)) is None


# --- a re-entry (RULES 8.1, 8.10): one place, written where the last entry ended ----------------


def test_rule_8_10_a_player_who_re_entered_finishes_the_tournament_in_the_hand_of_their_last_entry(client, make_player):
    """Alice busts in the second hand while late registration is open and re-enters: that hand
    writes no finishing line for her (she has not finished the tournament); her one place is
    written once, in the hand that ended her second entry or, if she wins, in the last hand."""
    from tables import services as table_services
    from tables.history.access import open_hand
    from tables.history.pokerstars import pokerstars_text
    from tables.selectors.hands import rebuild
    from tests.support.history import arranged_deck
    from tests.support.tables import act
    from tests.tournaments.support import running_hand, tables_of
    from tournaments.models import Entry, Tournament
    from tournaments.services.clock import tick

    now = timezone.now()
    tournament = make_tournament(kind=Tournament.Kind.SCHEDULED, starts_at=now, max_entrants=6,
                                 late_registration_levels=2, re_entries=1,
                                 levels=[(10, 20, 0, 5), (20, 40, 0, 5), (50, 100, 100, 5)])  # fmt: skip
    players = {name: make_player(name) for name in NAMES[:3]}
    for player in players.values():
        register(tournament, player, now)
    now = max(now, timezone.now()) + timedelta(seconds=1)  # past the pause after the last hand
    tick(now)  # starts it
    [table] = tables_of(tournament)
    by_seat = {seat.number: seat.player for seat in Seat.objects.filter(table=table)}
    alice_seat = next(n for n, p in by_seat.items() if p == players["alice"])

    def stacks() -> dict[int, int]:
        return dict(Seat.objects.filter(table=table).values_list("number", "stack"))

    while True:  # hands folded to the big blind, until another player covers alice
        last = table_services.start_hand_if_due(table_id=table.pk, now=now)
        assert last is not None
        while running_hand(table) is not None:
            act(table, by_seat[rebuild(running_hand(table)).legal_actions().seat], "fold")
        now = max(now, timezone.now()) + timedelta(seconds=1)  # past the pause after the last hand
        tick(now)
        if max(stack for seat, stack in stacks().items() if seat != alice_seat) >= stacks()[alice_seat]:
            break
    # The next hand: the button moves one seat on; dealt from the seat after it. Alice and the player
    # who covers her raise each other all-in, and her pair of kings loses to his aces full; the third folds.
    seats = sorted(by_seat)
    button = seats[(seats.index(last.config["button"]) + 1) % len(seats)]
    order = [seats[(seats.index(button) + k) % len(seats)] for k in range(1, len(seats) + 1)]
    winner_seat = max((seat for seat in seats if seat != alice_seat), key=lambda seat: stacks()[seat])
    cards = {alice_seat: "3c 4c 5h 6h", winner_seat: "Ac Ad Ah Kd"}
    holes = [cards.get(seat, "8d 8h 9s 9d") for seat in order]
    busting = table_services.start_hand_if_due(table_id=table.pk, now=now, deck=arranged_deck(holes, "As Kc Kh 2d 7c"))
    while running_hand(table) is not None:
        legal = rebuild(running_hand(table)).legal_actions()
        if legal.seat in (alice_seat, winner_seat) and legal.bet_kind:  # raising each other all-in
            act(table, by_seat[legal.seat], legal.bet_kind.value, legal.max_to)
        elif legal.seat in (alice_seat, winner_seat):
            act(table, by_seat[legal.seat], "check" if legal.can_check else "call")
        else:
            act(table, by_seat[legal.seat], "check" if legal.can_check else "fold")
    assert busting is not None
    busting_text = pokerstars_text(open_hand(players["alice"], busting.pk))
    assert f"Dealt to alice [{cards[alice_seat]}]" in busting_text
    assert HandPlayer.objects.get(hand=busting, player=players["alice"]).final_stack == 0, busting_text
    now = max(now, timezone.now()) + timedelta(seconds=1)  # past the pause after the last hand
    tick(now)  # alice is out; no place yet (late registration is open)
    register(tournament, players["alice"], now)
    assert Entry.objects.filter(tournament=tournament, player=players["alice"]).count() == 2
    play_to_the_end(tournament, random.Random(7), now)

    installation = installation_number()
    read = {r.number: r for r in read_hands(download_history(client, players["alice"]))}
    assert read[exported_hand_number(installation, busting.pk)].finishes == []
    alice_result = Result.objects.get(tournament=tournament, player=players["alice"])
    written = [(number, f) for number, r in read.items() for f in r.finishes if f[0] == "alice"]
    assert [f for _, f in written] == [("alice", alice_result.place, alice_result.prize)]
    last_hand = HandPlayer.objects.filter(player=players["alice"], hand__table__tournament_table__tournament=tournament)
    assert written[0][0] == exported_hand_number(installation, last_hand.order_by("-hand_id").first().hand_id)


def test_the_facts_of_tournament_hands_cost_the_same_queries_for_one_hand_or_all(make_player):
    """The whole-history download reads them a batch of hands at a time (tables/history/access.py):
    a fixed number of queries a batch, whatever its length; none for a batch of cash hands."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.history.tournament_facts import tournament_facts

    _, _, hands = played_sit_and_go(make_player, "pot_limit")
    hands = list(Hand.objects.filter(pk__in=[hand.pk for hand in hands]).select_related("table").order_by("pk"))

    def queries(batch) -> tuple[int, dict]:
        with CaptureQueriesContext(connection) as captured:
            facts = tournament_facts(batch)
        return len(captured), facts

    one, facts_of_one = queries(hands[-1:])
    every, facts_of_every = queries(hands)
    assert one == every and facts_of_every[hands[-1].pk] == facts_of_one[hands[-1].pk]
    assert facts_of_every.keys() == {hand.pk for hand in hands}
    assert facts_of_one[hands[-1].pk].finishes[-1].place == 1  # the last hand: the winner's line
    for hand in hands:
        hand.table.is_tournament = False  # as a batch of cash hands
    assert queries(hands) == (0, {})
