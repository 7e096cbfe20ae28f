"""Every command a table's websocket takes, in one table: the form that checks its frame,
the service it calls, whether it carries the seat forms' one-time request id (a command that
moves chips), whether it needs a seat at the table, and whether it is a chat command (a
visitor is told to log in to chat rather than to play).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms

from tables import services
from tables.forms import (
    ActionForm,
    ChatForm,
    ContributeForm,
    MuteForm,
    NoFieldsForm,
    SeatOptionsForm,
    SitInForm,
    TakeSeatForm,
    TopUpForm,
)
from tables.services import chat, seat_options, showing

# A service called for a frame: (the user, the table's id, the frame's cleaned data).
Service = Callable[[Any, int, dict], object]


@dataclass(frozen=True)
class Command:
    form: type[forms.Form]
    service: Service
    keyed: bool = False  # carries the seat forms' one-time request id (it moves chips)
    needs_seat: bool = False  # only a seated player may send it (the service refuses the others)
    chat: bool = False
    acts: bool = False  # an action in the running hand: on time if it arrived before the deadline (RULES 6)


def _act(kind: str) -> Command:
    def act(user, table_id: int, data: dict) -> object:
        return services.act(table_id=table_id, user=user, kind=kind, amount=data["amount"], sequence=data["sequence"])

    return Command(ActionForm, act, needs_seat=True, acts=True)


COMMANDS: dict[str, Command] = {
    **{kind: _act(kind) for kind in ("fold", "check", "call", "bet", "raise")},
    "sit": Command(
        TakeSeatForm,
        lambda user, table_id, data: services.take_seat(
            user=user,
            table_id=table_id,
            seat_number=data["seat_number"],
            buy_in=data["buy_in"],
            post_big_blind_now=data["big_blind"] == "now",
            request_id=data["request_id"],
        ),
        keyed=True,
    ),
    "top_up": Command(
        TopUpForm,
        lambda user, table_id, data: services.top_up(
            user=user, table_id=table_id, amount=data["amount"], request_id=data["request_id"]
        ),
        keyed=True,
        needs_seat=True,
    ),
    "sit_in": Command(
        SitInForm,
        lambda user, table_id, data: services.sit_in(
            user=user, table_id=table_id, post_big_blind_now=data["big_blind"] == "now"
        ),
        needs_seat=True,
    ),
    "sit_out": Command(
        NoFieldsForm, lambda user, table_id, data: services.sit_out(user=user, table_id=table_id), needs_seat=True
    ),
    "leave": Command(
        NoFieldsForm, lambda user, table_id, data: services.leave(user=user, table_id=table_id), needs_seat=True
    ),
    "show_cards": Command(
        NoFieldsForm, lambda user, table_id, data: showing.show_cards(user=user, table_id=table_id), needs_seat=True
    ),
    "join_waiting_list": Command(
        NoFieldsForm, lambda user, table_id, data: services.join_waiting_list(user=user, table_id=table_id)
    ),
    "leave_waiting_list": Command(
        NoFieldsForm, lambda user, table_id, data: services.leave_waiting_list(user=user, table_id=table_id)
    ),
    "seat_options": Command(
        SeatOptionsForm,
        lambda user, table_id, data: seat_options.set_seat_options(
            user=user,
            table_id=table_id,
            sit_out_next_big_blind=data["sit_out_next_big_blind"],
            leave_after_hand=data["leave_after_hand"],
            auto_top_up_to=data["auto_top_up_to"] if data["auto_top_up"] else 0,
        ),
        needs_seat=True,
    ),
    "chat": Command(
        ChatForm,
        lambda user, table_id, data: chat.send_message(user=user, table_id=table_id, text=data["text"]),
        chat=True,
    ),
    "mute": Command(
        MuteForm,
        lambda user, table_id, data: chat.mute(user=user, player_id=data["player"], table_id=table_id),
        chat=True,
    ),
    "unmute": Command(
        MuteForm, lambda user, table_id, data: chat.unmute(user=user, player_id=data["player"]), chat=True
    ),
    "contribute": Command(
        ContributeForm,
        lambda user, table_id, data: services.contribute(
            user=user, table_id=table_id, seed_commitment=data["seed_commitment"], value=data["value"]
        ),
        needs_seat=True,
    ),
}

# The form of each command, for ``tables.forms.parse_frame``.
FRAME_FORMS: dict[str, type[forms.Form]] = {name: command.form for name, command in COMMANDS.items()}
