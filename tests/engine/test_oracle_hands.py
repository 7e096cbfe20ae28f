"""Real Pot Limit Omaha hands replayed to their recorded finishing stacks.

The hands (the 2023 WSOP $50K Players Championship PLO hands, with a big
blind ante, and Antonius-Blom 2009) come from the public PHH data set; see
``<repo>/../shared/oracle/README.md``. Every recorded decision also carries
the sizes PokerKit offered at that point (to call, min and max raise-to),
which our ``legal_actions`` must match: betting order, pot-limit sizes with
antes, uncalled bets, all-ins and showdowns all have to be right.
"""

import json
from pathlib import Path

import pytest

from tables.engine import Action, ActionKind, Hand, HandConfig, SeatSetup, Variant
from tables.engine.cards import parse_cards

from .support import stacked_deck

REPO = Path(__file__).resolve().parents[2]
ORACLE = REPO.parent / "shared" / "oracle" / "real_plo_hands_phh.json"


def load_hands():
    if not ORACLE.exists():
        return []
    return json.loads(ORACLE.read_text())


HANDS = load_hands()


def config_for(record) -> HandConfig:
    """PHH players are indexed from 0; our seats are index + 1."""
    blinds = record["blinds_posted"]
    antes = record["antes_posted"]
    big_blind_index = blinds.index(record["big_blind"])
    small_blind_index = blinds.index(record["small_blind"])
    ante_indices = [i for i, ante in enumerate(antes) if ante]
    assert ante_indices in ([], [big_blind_index]), "only big-blind antes are supported"
    return HandConfig(
        variant=Variant.POT_LIMIT,
        small_blind=record["small_blind"],
        big_blind=record["big_blind"],
        big_bet=0,
        seats=tuple(
            SeatSetup(i + 1, stack, name=name)
            for i, (stack, name) in enumerate(zip(record["starting_stacks"], record["players"], strict=True))
        ),
        button=record["button"] + 1,
        small_blind_seat=small_blind_index + 1,
        big_blind_seat=big_blind_index + 1,
        big_blind_ante=max(antes),
    )


def replay(record) -> Hand:
    config = config_for(record)
    holes = {i + 1: "".join(cards) for i, cards in enumerate(record["hole_cards"]) if cards}
    hand = Hand(config, stacked_deck(config, holes, "".join(record["board"])))
    hand.start()
    for step in record["actions"]:
        if step["action"] == "show":
            continue  # our showdown shows by itself (RULES 5.4)
        seat = step["player"] + 1
        legal = hand.legal_actions()
        assert legal.seat == seat
        options = step["options"]
        assert legal.call_amount == options["to_call"]
        assert (legal.min_to, legal.max_to) == (options["min_raise_to"], options["max_raise_to"])
        if step["action"] == "fold":
            action = Action(seat, ActionKind.FOLD)
        elif step["action"] == "check_call":
            action = Action(seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        else:
            kind = ActionKind.BET if legal.bet_kind == "bet" else ActionKind.RAISE
            action = Action(seat, kind, step["amount"])
        hand.apply(action)
    return hand


@pytest.mark.skipif(not HANDS, reason=f"oracle file not found at {ORACLE}")
@pytest.mark.parametrize("record", HANDS, ids=[record["id"] for record in HANDS])
def test_real_hand_reaches_its_recorded_finishing_stacks(record):
    hand = replay(record)
    assert hand.is_over
    finishing = {i + 1: stack for i, stack in enumerate(record["finishing_stacks"])}
    assert hand.stacks == finishing
    assert hand.board == parse_cards("".join(record["board"]))


def test_all_eight_oracle_hands_are_present():
    if not HANDS:
        pytest.skip(f"oracle file not found at {ORACLE}")
    assert len(HANDS) == 8
    assert "antonius-blom-2009" in {record["id"] for record in HANDS}
