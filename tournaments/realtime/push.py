"""Push tournament changes to the open sockets, after commit (subscribed in ``tournaments.apps``).

- The tournament lobby: each change renders the list once per language of the room, here, in
  the process that made it, and every socket of the lobby's group forwards its language's
  version. What is one player's own (registered, their table) is not in the rendered rows: each
  row carries a slot, the message carries the marks of the changed tournament's players, and
  each socket fills the slots of its viewer (``marks``), so a change costs one render and no
  statement per socket.
- The start alert: when a tournament starts, every open page of each of its players (the
  lobbies, a tournament's page, any table) gets the alert with a link to their table, through
  the player's own group (``accounts.socket_sessions.user_group``), which every socket of a
  logged-in player joins.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone

from accounts.socket_sessions import user_group
from config import layer_sends
from config.outages import OUTAGES, describe
from tables.models import Seat
from tables.realtime.notify import in_every_language

from .. import selectors
from ..models import Tournament, TournamentTable
from .marks import marks_message

logger = logging.getLogger(__name__)

LOBBY_GROUP = "tournament-lobby"
TABLE_URL_SLOT = "__TABLE_URL__"


def rows_fragment() -> str:
    """The lobby's rows in the active language, without anyone's marks."""
    rows = selectors.lobby_rows(_nobody(), timezone.now())
    return render_to_string("tournaments/_lobby_rows.html", {"rows": rows})


def _nobody() -> AnonymousUser:
    return AnonymousUser()


def on_tournament_change(tournament_id: int) -> None:
    """The lobby's rows, rendered once per language, and the changed tournament's marks, to
    every socket of the tournament lobby."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        rows = selectors.lobby_rows(_nobody(), timezone.now())
        html = in_every_language(lambda: render_to_string("tournaments/_lobby_rows.html", {"rows": rows}))
        event = {"type": "tournaments.rows", "html": html, **marks_message(tournament_id)}
        layer_sends.send(layer, layer.group_send, LOBBY_GROUP, event)
    except OUTAGES as error:
        logger.warning("tournament %s: lobby not published (%s)", tournament_id, describe(error))


def start_alert(tournament: Tournament, table_url: str) -> str:
    """The alert, in the active language: the tournament started, and the link to the player's table."""
    context = {"tournament": tournament, "table_url": table_url, "sound": static("audio/turn.wav")}
    return render_to_string("tournaments/_start_alert.html", context)


def on_tournament_started(tournament_id: int) -> None:
    """Each seated player's open pages: the alert, the turn cue's sound and notification, and
    the link to their table. Rendered once per language; each player's link filled in."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return
        table_ids = TournamentTable.objects.filter(tournament=tournament, broken=False).values_list("table_id")
        seats = list(Seat.objects.filter(table_id__in=table_ids).values_list("player_id", "table_id"))
        html = in_every_language(lambda: start_alert(tournament, TABLE_URL_SLOT))
        alerts = []
        for player_id, table_id in seats:
            url = reverse("table", args=[table_id])
            filled = {language: text.replace(TABLE_URL_SLOT, url) for language, text in html.items()}
            alerts.append((user_group(player_id), {"type": "user.alert", "html": filled}))
        layer_sends.send(layer, _send_all, layer, alerts)
    except OUTAGES as error:  # committed all the same: the lobby and the tournament's page show the table
        logger.warning("tournament %s: start alerts not published (%s)", tournament_id, describe(error))


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    """Side by side: one round of trips to Redis, not one per player."""
    results = await asyncio.gather(*(layer.group_send(group, message) for group, message in messages),
                                   return_exceptions=True)  # fmt: skip
    failed = next((result for result in results if isinstance(result, BaseException)), None)
    if failed is not None:
        raise failed
