"""Every screen of a table at one version, rendered once for all its sockets.

The public fragments are rendered once per version whatever the number of
sockets; each seated player's own fragments once per player. A socket of
someone without a seat adds its own seat forms only when what they offer
changes (``spectator_key``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cashier.selectors import bankroll_balance
from tables.selectors.table_state import TableState

from .fragments import public_fragments, viewer_fragments
from .table_view import TableView, public_view
from .viewer_view import ViewerView, viewer_view


@dataclass(frozen=True)
class Screens:
    version: int
    public: dict[str, str]
    players: dict[int, dict[str, str]]  # seated user id -> their own fragments
    spectator_key: list  # what the seat forms of a viewer without a seat depend on


def screens(state: TableState, now: datetime) -> Screens:
    view = public_view(state, now)
    players = {
        seat.player_id: viewer_fragments(view, viewer_view(state, view, seat.player_id))
        for seat in state.seats.values()
    }
    return Screens(state.version, public_fragments(view), players, spectator_key(view))


def screen_for(state: TableState, user, now: datetime) -> tuple[Screens, dict[str, str]]:
    """The screen of one socket's viewer: its snapshot on connect.

    Returns the table's screens as far as they concern this viewer, and the viewer's own fragments."""
    view, me = views_for(state, user, now)
    own = viewer_fragments(view, me)
    players = {me.seat.player_id: own} if me.seat else {}
    return Screens(state.version, public_fragments(view), players, spectator_key(view)), own


def views_for(state: TableState, user, now: datetime) -> tuple[TableView, ViewerView]:
    """The public view and ``user``'s own (a user, possibly anonymous)."""
    view = public_view(state, now)
    user_id = user.pk if user.is_authenticated else None
    seated = any(seat.player_id == user_id for seat in state.seats.values())
    bankroll = bankroll_balance(user) if user_id is not None and not seated else None
    return view, viewer_view(state, view, user_id, bankroll)


def spectator_key(view: TableView) -> list:
    table = view.table
    return [
        view.seats_open,
        view.free_seats,
        table.min_buy_in,
        table.max_buy_in,
        table.is_active,
        table.closing,
        [(player, until.isoformat() if until else None) for player, until in view.waiting],
    ]
