"""HandConfig validation and serialisation (RULES 1.1, 2.3, 2.4, 2.5, 7.1, 7.2)."""

import json

import pytest

from tables.engine import HandConfig, SeatSetup, Variant

SEATS = (SeatSetup(1, 100, name="ann"), SeatSetup(4, 80), SeatSetup(6, 120, posts_big_blind=True))


def pot_limit(**changes):
    spec = {
        "variant": Variant.POT_LIMIT,
        "small_blind": 1,
        "big_blind": 2,
        "big_bet": 0,
        "seats": (*SEATS[:2], SeatSetup(5, 50)),
        "button": 1,
        "small_blind_seat": 4,
        "big_blind_seat": 5,
    }
    spec.update(changes)
    return HandConfig(**spec)


def test_config_round_trips_through_json():
    config = HandConfig(Variant.LIMIT, 2, 5, 10, (*SEATS, SeatSetup(8, 60)), 1, 4, 8, 0)
    data = json.loads(json.dumps(config.to_dict()))
    assert HandConfig.from_dict(data) == config
    assert data["variant"] == "limit"
    assert config.seat_numbers == (1, 4, 6, 8)


def test_variant_may_be_given_as_text():
    assert pot_limit(variant="pot_limit").variant is Variant.POT_LIMIT


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seats": (SeatSetup(1, 100),)}, "2 to 10 players"),
        ({"seats": tuple(SeatSetup(s, 100) for s in range(1, 12))}, "2 to 10 players"),
        ({"seats": (SeatSetup(1, 100), SeatSetup(1, 100), SeatSetup(5, 9))}, "only once"),
        ({"seats": (SeatSetup(1, 100), SeatSetup(4, 100), SeatSetup(11, 9))}, "numbered 1 to 10"),
        ({"seats": (SeatSetup(1, 100), SeatSetup(4, 0), SeatSetup(5, 9))}, "at least 1 chip"),
        ({"big_blind_seat": 3}, "not dealt in"),
        ({"small_blind_seat": 5}, "both blinds"),
        ({"small_blind": 1, "big_blind": 3}, "RULES 2.5"),
        ({"big_bet": 4}, "big_bet=0"),
        ({"small_blind": -1}, ">= 0"),
        ({"big_blind_ante": 1.5}, ">= 0"),
        ({"button": 0}, "seat number"),
        ({"variant": "no_limit"}, "no_limit"),
    ],
)
def test_invalid_configs_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        pot_limit(**changes)


def test_rule_2_3_heads_up_the_button_posts_the_small_blind():
    seats = (SeatSetup(2, 100), SeatSetup(7, 100))
    with pytest.raises(ValueError, match=r"RULES 2\.3"):
        HandConfig(Variant.POT_LIMIT, 1, 2, 0, seats, 2, 7, 2)
    assert HandConfig(Variant.POT_LIMIT, 1, 2, 0, seats, 2, 2, 7).small_blind_seat == 2


def test_rule_2_4_limit_big_bet_is_at_least_the_small_bet():
    with pytest.raises(ValueError, match="big bet"):
        HandConfig(Variant.LIMIT, 2, 5, 4, SEATS, 1, 4, 6)


def test_rule_2_4_limit_small_blind_may_round_down_to_nothing():
    seats = (SeatSetup(1, 10), SeatSetup(2, 10), SeatSetup(3, 10))
    config = HandConfig(Variant.LIMIT, 0, 1, 2, seats, 1, 2, 3)
    assert config.small_blind == 0


def test_an_extra_big_blind_cannot_be_a_blind_seat():
    seats = (SeatSetup(1, 10), SeatSetup(2, 10), SeatSetup(3, 10, posts_big_blind=True))
    with pytest.raises(ValueError, match="already posts a blind"):
        HandConfig(Variant.POT_LIMIT, 1, 2, 0, seats, 1, 2, 3)
