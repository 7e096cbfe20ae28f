"""The tournaments' part of the chip audit (settings.CHIP_AUDITS), RULES 8.1:

- the prize pool account holds the buy-ins and add-ons of the entries not refunded, less the
  prizes paid: once a tournament is over it is empty;
- every entry paid one buy-in (and its fee), a refunded entry got exactly those back;
- the chips at a running tournament's tables (stacks and chips in running hands) are the
  starting chips of its seated entries plus their add-ons: tournament chips are conserved;
- no tournament table holds bankroll chips.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Sum

from cashier.audit import AuditQuery
from cashier.models import LedgerAccount, LedgerEntry, LedgerTransaction
from tables.models import Hand, Seat
from tables.selectors.hands import rebuild

from .models import Entry, Result, Tournament, TournamentTable

Kind = LedgerTransaction.Kind

# The audit's queries, compiled once (cashier.audit.AuditQuery).
_TOURNAMENTS = AuditQuery(lambda: Tournament.objects.all())
# A tournament table's escrow that holds chips: it holds bankroll chips.
_TOURNAMENT_TABLE_ESCROWS = AuditQuery(
    lambda: (
        LedgerAccount.objects.filter(kind=LedgerAccount.Kind.TABLE, table__is_tournament=True)
        .exclude(balance=0)
        .values_list("pk")
    )
)


def tournament_problems() -> list[str]:
    problems: list[str] = []
    tournaments = _TOURNAMENTS.objects()
    balances: dict[int, int] = {}
    moved: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    if tournaments:  # a room without tournaments has no prize pool or tournament movement to read
        balances = dict(
            LedgerAccount.objects.filter(kind=LedgerAccount.Kind.TOURNAMENT).values_list("tournament_id", "balance")
        )
        for reference, kind, amount in LedgerEntry.objects.filter(
            transaction__kind__in=[Kind.TOURNEY_BUY_IN, Kind.TOURNEY_FEE, Kind.TOURNEY_REFUND, Kind.PRIZE],
            account__kind=LedgerAccount.Kind.BANKROLL,
        ).values_list("transaction__reference", "transaction__kind", "amount"):
            moved[reference][kind].append(-amount if kind in (Kind.TOURNEY_BUY_IN, Kind.TOURNEY_FEE) else amount)
    for tournament in tournaments:
        entries = list(Entry.objects.filter(tournament=tournament))
        paid_in = 0
        for entry in entries:
            movements = moved.get(entry.reference, {})
            buy_ins = sorted(movements.get(Kind.TOURNEY_BUY_IN, []))
            expected = sorted([entry.buy_in] + ([tournament.add_on_price] if entry.add_on else []))
            if buy_ins != expected:
                problems.append(f"{entry}: bought in {expected} but the ledger has {buy_ins}")
            if movements.get(Kind.TOURNEY_FEE, []) != ([entry.fee] if entry.fee else []):
                problems.append(f"{entry}: fee {entry.fee} but the ledger has {movements.get(Kind.TOURNEY_FEE)}")
            refunds = sorted(movements.get(Kind.TOURNEY_REFUND, []))
            if entry.state == Entry.State.REFUNDED:
                if refunds != sorted(filter(None, [entry.buy_in, entry.fee])):
                    problems.append(f"{entry}: refunded but the ledger returned {refunds}")
            else:
                if refunds:
                    problems.append(f"{entry}: not refunded but the ledger returned {refunds}")
                paid_in += sum(expected)
        results = list(Result.objects.filter(tournament=tournament))
        paid_out = 0
        for result in results:
            prizes = moved.get(result.reference, {}).get(Kind.PRIZE, [])
            if prizes != ([result.prize] if result.paid and result.prize else []):
                problems.append(f"{result}: prize {result.prize} but the ledger paid {prizes}")
            paid_out += sum(prizes)
        balance = balances.get(tournament.pk, 0)
        if balance != paid_in - paid_out:
            problems.append(f"{tournament}: prize pool {balance} but buy-ins {paid_in} - prizes {paid_out}")
        over = tournament.state in (Tournament.State.FINISHED, Tournament.State.CANCELLED)
        if over and balance:
            problems.append(f"{tournament}: over with {balance} chips left in its prize pool")
        if tournament.state == Tournament.State.FINISHED and paid_out != paid_in:
            problems.append(f"{tournament}: prizes {paid_out} but the pool was {paid_in}")
        players = {entry.player_id for entry in entries if entry.state != Entry.State.REFUNDED}
        if tournament.state == Tournament.State.FINISHED and sorted(r.player_id for r in results) != sorted(players):
            problems.append(f"{tournament}: not every player has exactly one finishing place")
        if tournament.state == Tournament.State.RUNNING:
            problems.extend(_chip_problems(tournament, entries))
    escrows = [pk for (pk,) in _TOURNAMENT_TABLE_ESCROWS.rows()]
    if escrows:
        accounts = LedgerAccount.objects.filter(pk__in=escrows).select_related("table")
        problems.extend(f"{account}: a tournament table holds bankroll chips" for account in accounts)
    return problems


def _chip_problems(tournament: Tournament, entries: list[Entry]) -> list[str]:
    """Tournament chips are conserved (RULES 8.1): at its tables there are the starting chips of
    every entry seated or eliminated, plus the add-ons."""
    table_ids = list(TournamentTable.objects.filter(tournament=tournament).values_list("table_id", flat=True))
    stacks = Seat.objects.filter(table_id__in=table_ids).aggregate(total=Sum("stack"))["total"] or 0
    in_hands = 0
    for hand in Hand.objects.filter(table_id__in=table_ids, state=Hand.State.RUNNING):
        started_with = sum(seat["stack"] for seat in hand.config["seats"])
        in_hands += started_with - sum(rebuild(hand).stacks.values())
    played = [entry for entry in entries if entry.state in (Entry.State.PLAYING, Entry.State.ELIMINATED)]
    expected = tournament.starting_chips * len(played) + tournament.add_on_chips * sum(e.add_on for e in played)
    if stacks + in_hands != expected:
        return [f"{tournament}: {stacks} chips at its tables + {in_hands} in hands, but {expected} were given out"]
    return []
