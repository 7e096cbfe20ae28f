"""The tables' part of the chip audit.

- Each escrow holds exactly the chips at its table: stacks behind + top-ups waiting for the
  hand to end + chips in the running hand.
- Every seat is paid for: it belongs to an open seat occupancy whose one buy-in moved the
  chips it started with from the player's bankroll, and an occupancy that ended was cashed
  out at most once, for what it had.

Tournament tables hold tournament chips, not bankroll chips (RULES 8.1): they have no escrow
and no paid occupancies; the tournaments app audits them (``tournaments.audit``).
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F, Sum

from cashier.models import LedgerAccount, LedgerEntry, LedgerTransaction

from .models import Hand, Seat, SeatSession, Table
from .selectors.hands import rebuild

TABLE_MOVEMENTS = (LedgerTransaction.Kind.BUY_IN, LedgerTransaction.Kind.TOP_UP, LedgerTransaction.Kind.CASH_OUT)


def table_escrow_problems() -> list[str]:
    problems: list[str] = []
    escrows = dict(LedgerAccount.objects.filter(kind=LedgerAccount.Kind.TABLE).values_list("table_id", "balance"))
    at_tables = dict(
        Seat.objects.filter(table__is_tournament=False)
        .values_list("table_id")
        .annotate(chips=Sum(F("stack") + F("pending_top_up")))
        .order_by()
    )
    running = {
        hand.table_id: hand for hand in Hand.objects.filter(state=Hand.State.RUNNING, table__is_tournament=False)
    }
    names = dict(Table.objects.filter(pk__in={*escrows, *at_tables, *running}).values_list("pk", "name"))
    # Every table with an escrow or with someone seated: a seat at a table no chips reached is a problem too.
    for table_id in sorted({*escrows, *at_tables}):
        balance, at_table, in_hand = escrows.get(table_id, 0), at_tables.get(table_id, 0), 0
        hand = running.get(table_id)
        if hand is not None:
            started_with = sum(seat["stack"] for seat in hand.config["seats"])
            in_hand = started_with - sum(rebuild(hand).stacks.values())
            if in_hand < 0:
                problems.append(f"{names[table_id]}: hand #{hand.number} holds {in_hand} chips")
        if balance != at_table + in_hand:
            problems.append(
                f"{names[table_id]}: escrow {balance} but stacks {at_table} + in hand {in_hand} = {at_table + in_hand}"
            )
    return problems


def seat_occupancy_problems() -> list[str]:
    problems: list[str] = []
    # Chips each occupancy's movements put into its table's escrow, by kind.
    paid: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    entries = LedgerEntry.objects.filter(
        account__kind=LedgerAccount.Kind.TABLE, transaction__kind__in=TABLE_MOVEMENTS
    ).values_list("transaction__reference", "transaction__kind", "amount")
    for reference, kind, amount in entries:
        paid[reference][kind].append(amount)
    sessions = {session.pk: session for session in SeatSession.objects.filter(table__is_tournament=False)}
    for seat in Seat.objects.filter(table__is_tournament=False):
        session = sessions.get(seat.session_id)
        if session is None or session.ended_at is not None:
            problems.append(f"{seat}: no open seat occupancy")
        elif (session.table_id, session.player_id, session.seat_number) != (seat.table_id, seat.player_id, seat.number):
            problems.append(f"{seat}: its occupancy #{session.pk} is for another seat")
    for session in sessions.values():
        movements = paid.get(session.reference, {})
        buy_ins = movements.get(LedgerTransaction.Kind.BUY_IN, [])
        if buy_ins != [session.buy_in]:
            problems.append(f"{session}: buy-in {session.buy_in} but the ledger has {buy_ins}")
        cash_outs = [-amount for amount in movements.get(LedgerTransaction.Kind.CASH_OUT, [])]
        if session.ended_at is None and cash_outs:
            problems.append(f"{session}: cashed out while still seated")
        if session.ended_at is not None and cash_outs != ([session.cashed_out] if session.cashed_out else []):
            problems.append(f"{session}: ended with {session.cashed_out} but the ledger cashed out {cash_outs}")
    # A movement made before occupancies were recorded names its table ("table:"), no occupancy.
    unbound = (
        LedgerTransaction.objects.filter(kind__in=TABLE_MOVEMENTS)
        .exclude(reference__startswith="seat-session:")
        .exclude(reference__startswith="table:")
        .count()
    )
    if unbound:
        problems.append(f"{unbound} table movements name no seat occupancy")
    return problems
