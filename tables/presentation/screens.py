"""Every screen of a table at one version, rendered once for all its sockets.

The public fragments are rendered once per version and language whatever the number of
sockets (``settings.LANGUAGES``: two players at one table may read it in two languages);
each seated player's own fragments once per player, in that player's language. A socket of
someone without a seat adds its own seat forms only when what they offer changes
(``spectator_key``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation

from accounts.languages import language_of_user
from cashier.selectors import bankroll_balance
from config.speaking import speaking
from tables.selectors.coming_back import coming_back
from tables.selectors.table_state import TableState

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

from .fragments import public_fragments, viewer_fragments
from .own_screens import own_fragments
from .table_view import TableView, public_view
from .view_models import Memo, RenderedFragments
from .viewer_view import ViewerView, viewer_view


@dataclass(frozen=True)
class Screens:
    version: int
    public: dict[str, dict[str, str]]  # language -> the public fragments in it
    players: dict[int, dict[str, str]]  # seated user id -> their own fragments
    languages: dict[int, str]  # seated user id -> the language their own fragments are in
    spectator_key: list[object]  # what the seat forms of a viewer without a seat depend on


def room_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def screens(
    state: TableState, now: datetime, memo: RenderedFragments | None = None, languages: Iterable[str] | None = None
) -> Screens:
    """``memo``: what this process rendered last for each of the table's audiences: a fragment
    whose view model did not change since is reused from there, not rendered again.
    ``languages``: those the public fragments are rendered in (those some socket of the table
    reads; every language of the room when not given). A seated player's own fragments are
    rendered in their language whatever it is."""
    table_id = state.table.pk
    public_languages = (
        room_languages() if languages is None else [code for code in room_languages() if code in languages]
    )
    views: dict[str, TableView] = {}

    def view_in(language: str) -> TableView:
        if language not in views:
            with speaking(language):
                views[language] = public_view(state, now)
        return views[language]

    public: dict[str, dict[str, str]] = {}
    languages_of = {seat.player_id: language_of_user(seat.player) for seat in state.seats.values()}
    own: dict[int, dict[str, str]] = {}
    for language in dict.fromkeys([*public_languages, *languages_of.values()]):  # each made active once
        with speaking(language):
            view = views[language] = public_view(state, now)
            if language in public_languages:
                public[language] = public_fragments(view, _audience(memo, f"{table_id}|{language}"))
            for player_id in (player for player, spoken in languages_of.items() if spoken == language):
                own_memo = _audience(memo, f"{table_id}|{player_id}|{language}")
                own[player_id] = own_fragments(state, view, player_id, own_memo)
    players = {player_id: own[player_id] for player_id in languages_of}  # in the order of the seats
    return Screens(state.version, public, players, languages_of, spectator_key(view_in(settings.LANGUAGE_CODE)))


def _audience(memo: RenderedFragments | None, name: str) -> Memo | None:
    return None if memo is None else memo.audience(name)


def screen_for(
    state: TableState, user: User | AnonymousUser, now: datetime, memo: RenderedFragments | None = None
) -> tuple[Screens, dict[str, str]]:
    """The screen of one socket's viewer, in the active language: its snapshot on connect.
    ``memo``: as for ``screens`` (the same audiences): a connect reuses what the table's last
    change rendered, and the sockets of a table opening together render its public fragments
    once.

    Returns the table's screens as far as they concern this viewer, and the viewer's own fragments."""
    language = translation.get_language()
    table_id = state.table.pk
    view, me = views_for(state, user, now)
    seated = me.seat.player_id if me.seat else None
    own_memo = _audience(memo, f"{table_id}|{seated}|{language}") if seated is not None else None
    own = viewer_fragments(view, me, memo=own_memo)
    players = {seated: own} if seated is not None else {}
    languages = dict.fromkeys(players, language)
    public = public_fragments(view, _audience(memo, f"{table_id}|{language}"))
    return Screens(state.version, {language: public}, players, languages, spectator_key(view)), own


def views_for(state: TableState, user: User | AnonymousUser, now: datetime) -> tuple[TableView, ViewerView]:
    """The public view and ``user``'s own (a user, possibly anonymous)."""
    view = public_view(state, now)
    player = user if user.is_authenticated else None
    user_id = player.pk if player is not None else None
    seated = any(seat.player_id == user_id for seat in state.seats.values())
    bankroll = bankroll_balance(player) if player is not None and not seated else None
    back = (
        coming_back(player_id=player.pk, table_id=state.table.pk, now=now)
        if player is not None and bankroll is not None
        else None
    )
    return view, viewer_view(state, view, user_id, bankroll, back)


def spectator_key(view: TableView) -> list[object]:
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
