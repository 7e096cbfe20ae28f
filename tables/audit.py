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

from cashier.audit import AuditQuery
from cashier.models import LedgerAccount, LedgerEntry, LedgerTransaction

from .models import Hand, Seat, SeatSession, Table
from .selectors.hands import rebuild

TABLE_MOVEMENTS = (LedgerTransaction.Kind.BUY_IN, LedgerTransaction.Kind.TOP_UP, LedgerTransaction.Kind.CASH_OUT)

# The audit's queries, compiled once (cashier.audit.AuditQuery).
_ESCROWS = AuditQuery(
    lambda: LedgerAccount.objects.filter(kind=LedgerAccount.Kind.TABLE).values_list("table_id", "balance")
)
_CHIPS_AT_TABLES = AuditQuery(
    lambda: (
        Seat.objects.filter(table__is_tournament=False)
        .values_list("table_id")
        .annotate(chips=Sum(F("stack") + F("pending_top_up")))
        .order_by()
    )
)
_RUNNING_HANDS = AuditQuery(lambda: Hand.objects.filter(state=Hand.State.RUNNING, table__is_tournament=False))
# Chips each occupancy's movements put into its table's escrow.
_TABLE_MOVEMENTS = AuditQuery(
    lambda: LedgerEntry.objects.filter(
        account__kind=LedgerAccount.Kind.TABLE, transaction__kind__in=TABLE_MOVEMENTS
    ).values_list("transaction__reference", "transaction__kind", "amount")
)
_OCCUPANCIES = AuditQuery(
    lambda: SeatSession.objects.filter(table__is_tournament=False).values_list(
        "pk", "table_id", "player_id", "seat_number", "buy_in", "cashed_out", "ended_at"
    )
)
_SEATS = AuditQuery(
    lambda: Seat.objects.filter(table__is_tournament=False).values_list(
        "pk", "session_id", "table_id", "player_id", "number"
    )
)
# A movement made before occupancies were recorded names its table ("table:"), no occupancy.
_UNBOUND_MOVEMENTS = AuditQuery(
    lambda: (
        LedgerTransaction.objects.filter(kind__in=TABLE_MOVEMENTS)
        .exclude(reference__startswith="seat-session:")
        .exclude(reference__startswith="table:")
        .values_list("pk")
    )
)


def table_escrow_problems() -> list[str]:
    problems: list[tuple[int, str]] = []  # (table id, what is wrong): the tables' names come last
    escrows = {table_id: int(balance) for table_id, balance in _ESCROWS.rows()}
    at_tables = {table_id: int(chips) for table_id, chips in _CHIPS_AT_TABLES.rows()}
    running = {hand.table_id: hand for hand in _RUNNING_HANDS.objects()}
    # Every table with an escrow or with someone seated: a seat at a table no chips reached is a problem too.
    for table_id in sorted({*escrows, *at_tables}):
        balance, at_table, in_hand = escrows.get(table_id, 0), at_tables.get(table_id, 0), 0
        hand = running.get(table_id)
        if hand is not None:
            started_with = sum(seat["stack"] for seat in hand.config["seats"])
            in_hand = started_with - sum(rebuild(hand).stacks.values())
            if in_hand < 0:
                problems.append((table_id, f"hand #{hand.number} holds {in_hand} chips"))
        if balance != at_table + in_hand:
            problems.append(
                (table_id, f"escrow {balance} but stacks {at_table} + in hand {in_hand} = {at_table + in_hand}")
            )
    names = dict(Table.objects.filter(pk__in={table_id for table_id, _ in problems}).values_list("pk", "name"))
    return [f"{names[table_id]}: {problem}" for table_id, problem in problems]


def seat_occupancy_problems() -> list[str]:
    problems: list[str] = []
    paid: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for reference, kind, amount in _TABLE_MOVEMENTS.rows():
        paid[reference][kind].append(int(amount))
    sessions = {row[0]: row for row in _OCCUPANCIES.rows()}
    for seat_id, session_id, table_id, player_id, number in _SEATS.rows():
        session = sessions.get(session_id)
        if session is None or session[6] is not None:
            problems.append(f"{Seat.objects.get(pk=seat_id)}: no open seat occupancy")
        elif session[1:4] != (table_id, player_id, number):
            problems.append(f"{Seat.objects.get(pk=seat_id)}: its occupancy #{session_id} is for another seat")
    for session_id, _table_id, _player_id, _number, buy_in, cashed_out, ended_at in sessions.values():
        movements = paid.get(f"seat-session:{session_id}", {})
        wrong = []
        buy_ins = movements.get(LedgerTransaction.Kind.BUY_IN, [])
        if buy_ins != [buy_in]:
            wrong.append(f"buy-in {buy_in} but the ledger has {buy_ins}")
        cash_outs = [-amount for amount in movements.get(LedgerTransaction.Kind.CASH_OUT, [])]
        if ended_at is None and cash_outs:
            wrong.append("cashed out while still seated")
        if ended_at is not None and cash_outs != ([cashed_out] if cashed_out else []):
            wrong.append(f"ended with {cashed_out} but the ledger cashed out {cash_outs}")
        if wrong:
            session = SeatSession.objects.get(pk=session_id)
            problems.extend(f"{session}: {problem}" for problem in wrong)
    unbound = len(_UNBOUND_MOVEMENTS.rows())
    if unbound:
        problems.append(f"{unbound} table movements name no seat occupancy")
    return problems
