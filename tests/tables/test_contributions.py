"""The next hand's server seed and the players' contributions (docs/fair-dealing.md): the
commitment is published before any contribution can be sent, each seated player sends at most
one per hand, and the deal uses them (the server's own value, marked, for who sent none)."""

from __future__ import annotations

import secrets

import pytest

from tables import services
from tables.engine import fairness
from tables.engine.cards import parse_cards
from tables.models import DealContribution, Table
from tables.selectors.hands import logged_events, rebuild
from tests.support.tables import sit

pytestmark = [pytest.mark.django_db]


def published(table) -> str:
    return Table.objects.get(pk=table.pk).next_seed_commitment


def contribute(table, player, value=None, commitment=None):
    return services.contribute(
        user=player,
        table_id=table.pk,
        seed_commitment=published(table) if commitment is None else commitment,
        value=secrets.token_hex(32) if value is None else value,
    )


def test_the_first_seat_publishes_the_first_hands_seed_commitment(make_table, make_player):
    table = make_table()
    assert published(table) == ""
    sit(table, make_player("alice"), 1)
    fresh = Table.objects.get(pk=table.pk)
    assert len(fresh.next_seed_commitment) == 64
    assert fairness.seed_commitment(bytes.fromhex(fresh.next_server_seed)).hex() == fresh.next_seed_commitment


def test_the_deal_uses_the_contributions_and_draws_the_servers_for_who_sent_none(heads_up):
    table, alice, _ = heads_up
    commitment = published(table)
    value = secrets.token_hex(32)
    contribute(table, alice, value)

    hand = services.start_hand_if_due(table_id=table.pk)

    assert hand.seed_commitment == commitment  # the one published before alice sent her value
    by_seat = {each["seat"]: each for each in hand.contributions}
    assert by_seat[1] == {"seat": 1, "value": value, "source": "player"}
    stand_in = fairness.stand_in_contribution(bytes.fromhex(hand.server_seed), 2).hex()
    assert by_seat[2] == {"seat": 2, "value": stand_in, "source": "server"}  # fixed by the committed seed
    contributions = [
        fairness.Contribution(c["seat"], bytes.fromhex(c["value"]), fairness.Source(c["source"]))
        for c in hand.contributions
    ]
    dealt = fairness.deal(bytes.fromhex(hand.server_seed), contributions)
    assert dealt.deck == parse_cards(hand.deck) and dealt.root.hex() == hand.merkle_root
    # The next hand's seed is new and already published; the used values are gone.
    assert published(table) not in ("", commitment)
    assert not DealContribution.objects.filter(table=table).exists()


def test_a_replay_rebuilds_the_hand_from_its_record(heads_up):
    """Crash recovery reads the hand's record: config, deck (the seeds' deck) and events."""
    table, alice, _ = heads_up
    contribute(table, alice)
    hand = services.start_hand_if_due(table_id=table.pk)
    hand.refresh_from_db()
    assert rebuild(hand).events == logged_events(hand)


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("not seated", "no seat"),
        ("stale commitment", "already been dealt"),
        ("not hex", "64 hexadecimal digits"),
        ("short", "64 hexadecimal digits"),
        ("second", "already in"),
    ],
)
def test_a_refused_contribution_changes_nothing(heads_up, make_player, case, message):
    table, alice, _ = heads_up
    contribute(table, alice)
    before = list(DealContribution.objects.values_list("player_id", "value"))
    player, kwargs = alice, {}
    if case == "not seated":
        player = make_player("carol")
    elif case == "stale commitment":
        kwargs["commitment"] = secrets.token_hex(32)
    elif case == "not hex":
        kwargs["value"] = "z" * 64
    elif case == "short":
        kwargs["value"] = "ab" * 16
    with pytest.raises(services.TableError, match=message):
        contribute(table, player, **kwargs)
    assert list(DealContribution.objects.values_list("player_id", "value")) == before


def test_a_contribution_for_a_hand_already_dealt_is_refused(heads_up):
    table, alice, _ = heads_up
    old = published(table)
    services.start_hand_if_due(table_id=table.pk)
    with pytest.raises(services.TableError, match="already been dealt"):
        contribute(table, alice, commitment=old)


def test_a_player_seated_but_not_dealt_in_adds_nothing_to_the_deck(heads_up, make_player):
    table, _, _ = heads_up
    carol = make_player("carol")
    sit(table, carol, 4)
    services.sit_out(user=carol, table_id=table.pk)  # seated, not dealt in
    contribute(table, carol)
    hand = services.start_hand_if_due(table_id=table.pk)
    assert [each["seat"] for each in hand.contributions] == [1, 2]
