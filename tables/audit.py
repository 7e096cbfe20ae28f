"""The tables' part of the chip audit: each escrow holds exactly the chips at its table.

escrow = stacks behind + top-ups waiting for the hand to end + chips in the running hand.
"""

from __future__ import annotations

from cashier.models import LedgerAccount

from .models import Hand, Seat
from .services.hand_log import rebuild


def table_escrow_problems() -> list[str]:
    problems: list[str] = []
    escrows = LedgerAccount.objects.filter(kind=LedgerAccount.Kind.TABLE).select_related("table")
    for escrow in escrows:
        table = escrow.table
        at_table = sum(seat.stack + seat.pending_top_up for seat in Seat.objects.filter(table=table))
        hand = Hand.objects.filter(table=table, state=Hand.State.RUNNING).first()
        in_hand = 0
        if hand is not None:
            engine = rebuild(hand)
            started_with = sum(seat["stack"] for seat in hand.config["seats"])
            in_hand = started_with - sum(engine.stacks.values())
            if in_hand < 0:
                problems.append(f"{table}: hand #{hand.number} holds {in_hand} chips")
        if escrow.balance != at_table + in_hand:
            problems.append(
                f"{table}: escrow {escrow.balance} but stacks {at_table} + in hand {in_hand} = {at_table + in_hand}"
            )
    return problems
