"""A player who closes their account, and their tournaments (RULES 8.1, 8.12).

``accounts.closing`` calls ``refuse_while_entered`` (through ``settings.ACCOUNT_DEPARTURE_STEPS``)
before anything else leaves: closing is refused while the player has an entry in a tournament
that has not ended, as its refund or prize would be owed to a closed bankroll. They unregister
first, or play it out. A ban leaves the entry as it is: the chips stay the player's, and a
refund or prize reaches the bankroll the ban keeps.
"""

from __future__ import annotations

from django.utils.translation import gettext

from accounts.closing import DepartureRefused

from .models import Entry, Tournament


def refuse_while_entered(*, user, closing: bool, placeholder: str | None) -> None:
    if not closing:
        return
    open_entries = Entry.objects.filter(
        player=user, tournament__state__in=[Tournament.State.REGISTERING, Tournament.State.RUNNING]
    ).exclude(state=Entry.State.REFUNDED)
    if open_entries.exists():
        raise DepartureRefused(
            gettext("You are entered in a tournament: unregister, or play it out, before closing your account.")
        )
