"""The chat panel: lines as the page shows them, the dealer's in the reader's language.

A player's text is shown as typed and escaped by the template (no HTML, a link is text).
A new line is one fragment for every socket of the table (appended to ``chat-lines``);
the whole list, without the lines of players the viewer muted, is sent on connecting.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tables.models import ChatMessage

from .templates import render_fragment


@dataclass(frozen=True)
class ChatLine:
    id: int
    is_dealer: bool
    author: str  # "" for the dealer
    author_id: int | None
    text: str


def chat_line(message: ChatMessage) -> ChatLine:
    if message.is_dealer:
        return ChatLine(message.pk, True, "", None, _dealer_words(message))
    author = message.author
    assert author is not None  # a player's line (only the dealer's have no author)
    return ChatLine(message.pk, False, author.username, message.author_id, message.text)


def _dealer_words(message: ChatMessage) -> str:
    params = message.params
    if message.kind == ChatMessage.Kind.HAND_STARTED:
        return gettext("Hand #%(number)s starts.") % {"number": params["number"]}
    if message.kind == ChatMessage.Kind.POT_WON:
        return gettext("%(player)s wins %(amount)s.") % {"player": params["player"], "amount": params["amount"]}
    if message.kind == ChatMessage.Kind.STAFF:
        return gettext("From the room's staff: %(text)s") % {"text": params["text"]}
    if message.kind == ChatMessage.Kind.HAND_CANCELLED:
        return gettext("Hand #%(number)s is cancelled: every stack is back to what it was at the deal.") % {
            "number": params["number"]
        }
    return ""


def chat_append_fragment(message: ChatMessage) -> str:
    """One new line, appended to every screen's list."""
    return render_fragment("tables/chat_append.html", {"line": chat_line(message)})


def chat_panel_fragments(
    messages: list[ChatMessage], *, logged_in: bool, muted: list[tuple[int, str]]
) -> dict[str, str]:
    """The lines and the viewer's muted players, sent whole on connecting and after a mute."""
    context = {"lines": [chat_line(message) for message in messages], "logged_in": logged_in, "muted": muted}
    return {
        "chat-lines": render_fragment("tables/chat_lines.html", context),
        "chat-mutes": render_fragment("tables/chat_mutes.html", context),
    }
