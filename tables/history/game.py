"""How a hand's game, stakes and players are named, from its configuration
(``HandConfig.to_dict()`` or the ``hand_started`` event, which carry the same keys)."""

from tables.engine import Variant

GAME_NAMES = {Variant.LIMIT.value: "Limit Omaha High", Variant.POT_LIMIT.value: "Pot Limit Omaha High"}


def game_name(config: dict) -> str:
    return GAME_NAMES[config["variant"]]


def stakes_label(config: dict) -> str:
    """Limit: small bet/big bet (RULES 7.1). Pot Limit: small blind/big blind (RULES 7.2)."""
    if config["variant"] == Variant.LIMIT.value:
        return f"{config['big_blind']}/{config['big_bet']}"
    return f"{config['small_blind']}/{config['big_blind']}"


def player_names(config: dict) -> dict[int, str]:
    """Seat -> the player's name when the hand started ("Seat 3" if none was recorded)."""
    return {entry["seat"]: entry["name"] or f"Seat {entry['seat']}" for entry in config["seats"]}
