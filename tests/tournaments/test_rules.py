"""The pure tournament rules: payouts (RULES 8.10), finishing places (RULES 8.6), balancing and
breaking (RULES 8.7, 8.8)."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments import rules
from tournaments.rules import Bust


def test_rule_8_10_default_payouts_follow_the_issue():
    assert rules.default_payout_percentages(2) == (100,)
    assert rules.default_payout_percentages(3) == (100,)
    assert rules.default_payout_percentages(4) == (65, 35)
    assert rules.default_payout_percentages(6) == (65, 35)
    assert rules.default_payout_percentages(7) == (50, 30, 20)
    assert rules.default_payout_percentages(10) == (50, 30, 20)


@given(entries=st.integers(2, 2000))
def test_rule_8_10_payouts_sum_to_100_pay_about_15_percent_and_never_rise(entries):
    percents = rules.default_payout_percentages(entries)
    assert sum(percents) == 100
    assert all(p > 0 for p in percents)
    assert list(percents) == sorted(percents, reverse=True)
    if entries > 10:
        assert len(percents) == min(rules.MAX_PLACES_PAID, max(4, -(-entries * 15 // 100)))


@given(pool=st.integers(0, 10**9), entries=st.integers(2, 500))
def test_rule_8_10_prizes_are_whole_chips_summing_to_the_pool_remainder_to_the_top(pool, entries):
    percents = rules.default_payout_percentages(entries)
    amounts = rules.prize_amounts(pool, percents)
    assert sum(amounts) == pool
    assert amounts[0] - pool * percents[0] // 100 < len(percents)


def test_rule_8_10_a_payout_table_is_checked():
    assert rules.check_payout_table([{"max_entries": 3, "percentages": [100]}]) is None
    assert rules.check_payout_table([{"max_entries": 3, "percentages": [60, 30]}]) is not None
    assert rules.check_payout_table([{"max_entries": 3, "percentages": [30, 70]}]) is not None
    assert rules.payout_percentages(5, [{"max_entries": 9, "percentages": [70, 30]}]) == (70, 30)
    assert rules.payout_percentages(50, [{"max_entries": 9, "percentages": [70, 30]}]) == (
        rules.default_payout_percentages(50)
    )


def test_rule_8_6_busted_together_bigger_starting_stack_places_higher():
    placed = rules.place_busts([Bust(1, 50), Bust(2, 400), Bust(3, 200)], 5, [50, 30, 20])
    assert [(p.player, p.place, p.prize) for p in placed] == [(2, 3, 20), (3, 4, 0), (1, 5, 0)]


def test_rule_8_6_equal_stacks_share_the_places_prizes_odd_chip_left_of_the_button_first():
    # Tied for 2nd and 3rd with prizes 31 and 20: 51 shared, the odd chip to order 0.
    placed = rules.place_busts([Bust(1, 100, order=1), Bust(2, 100, order=0)], 3, [49, 31, 20])
    assert [(p.player, p.place, p.prize) for p in placed] == [(2, 2, 26), (1, 2, 25)]


@given(
    stacks=st.lists(st.integers(1, 50), min_size=1, max_size=6),
    remaining=st.integers(0, 10),
    pool=st.integers(0, 10_000),
)
def test_rule_8_6_places_are_distinct_blocks_and_prizes_of_those_places_are_paid_out(stacks, remaining, pool):
    remaining += len(stacks)
    prizes = rules.prize_amounts(pool, rules.default_payout_percentages(max(remaining, 2)))
    busts = [Bust(k, stack, order=k) for k, stack in enumerate(stacks)]
    placed = rules.place_busts(busts, remaining, prizes)
    assert sorted(p.player for p in placed) == list(range(len(stacks)))
    first = remaining - len(stacks) + 1
    assert sum(p.prize for p in placed) == sum(rules.prize_of(prizes, place) for place in range(first, remaining + 1))
    by_player = {p.player: p for p in placed}
    for a in busts:
        for b in busts:
            if a.starting_stack > b.starting_stack:
                assert by_player[a.player].place < by_player[b.player].place
            if a.starting_stack == b.starting_stack:
                assert by_player[a.player].place == by_player[b.player].place
                assert abs(by_player[a.player].prize - by_player[b.player].prize) <= 1


@given(counts=st.dictionaries(st.integers(1, 20), st.integers(0, 10), min_size=1, max_size=8))
def test_rule_8_7_balancing_moves_from_the_fullest_to_the_shortest_until_within_one(counts):
    counts = dict(counts)
    moves = 0
    while (move := rules.balancing_move(counts)) is not None:
        source, target = move
        assert counts[source] == max(counts.values()) and counts[target] == min(counts.values())
        counts[source] -= 1
        counts[target] += 1
        moves += 1
        assert moves < 100
    assert max(counts.values()) - min(counts.values()) <= 1


@given(players=st.integers(2, 100), seats=st.integers(2, 10))
def test_rule_8_7_the_first_seating_is_balanced_on_as_few_tables_as_needed(players, seats):
    sizes = rules.initial_tables(players, seats)
    assert sum(sizes) == players and max(sizes) <= seats
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-players // seats)


def test_rule_8_8_a_table_breaks_in_the_fixed_order_once_the_field_fits_on_one_fewer():
    assert rules.table_to_break({1: 5, 2: 5, 3: 3}, [3, 1, 2], 6) is None  # 13 > 12
    assert rules.table_to_break({1: 4, 2: 4, 3: 4}, [2, 3, 1], 6) == 2  # 12 fit on two tables
    assert rules.table_to_break({1: 4}, [1], 6) is None  # the final table never breaks


def test_rule_8_7_the_mover_is_the_next_big_blind_into_the_seat_posting_it_soonest():
    assert rules.next_big_blind([1, 3, 5, 6], last_big_blind=3, seat_count=6) == 5
    assert rules.next_big_blind([1, 3, 5, 6], last_big_blind=6, seat_count=6) == 1
    assert rules.worst_free_seat([2, 4], occupied=[1, 3, 5], last_big_blind=3, seat_count=6) == 4
    assert rules.worst_free_seat([2, 6], occupied=[1, 3, 5], last_big_blind=5, seat_count=6) == 6


def test_the_rules_docstring_examples_hold():
    import doctest

    result = doctest.testmod(rules)
    assert result.attempted and not result.failed
