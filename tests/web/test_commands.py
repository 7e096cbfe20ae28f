"""The table socket's commands are one table (``tables.realtime.commands``): each names its
form, its service, whether it carries the seat forms' request id and whether it needs a seat."""

import pytest

from tables import services
from tables.realtime.commands import COMMANDS

from ..support.tables import sit

pytestmark = pytest.mark.django_db

# Cleaned data each command's service takes.
SAMPLES = {
    **{key: {"amount": 10, "sequence": 0} for key in ("fold", "check", "call", "bet", "raise")},
    "top_up": {"amount": 10, "request_id": "top-up-1"},
    "sit_in": {"big_blind": "wait"},
    "sit_out": {},
    "leave": {},
    "show_cards": {},
    "seat_options": {"sit_out_next_big_blind": True, "leave_after_hand": False, "auto_top_up": False,
                     "auto_top_up_to": None},
    "contribute": {"seed_commitment": "0" * 64, "value": "0" * 64},
}  # fmt: skip


def test_only_the_commands_that_move_chips_carry_the_request_id_and_chat_is_told_apart():
    assert {name for name, command in COMMANDS.items() if command.keyed} == {"sit", "top_up"}
    assert {name for name, command in COMMANDS.items() if command.chat} == {"chat", "mute", "unmute"}


def test_a_command_that_needs_a_seat_is_refused_to_a_player_without_one(make_table, make_player):
    table = make_table()
    sit(table, make_player(), 1)
    visitor = make_player()
    needing = {name for name, command in COMMANDS.items() if command.needs_seat}
    assert needing == set(SAMPLES)
    for name in sorted(needing):
        with pytest.raises(services.REFUSALS):
            COMMANDS[name].service(visitor, table.pk, SAMPLES[name])
