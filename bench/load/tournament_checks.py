"""What a tournament run checks and counts from the database's records (run in the harness process).

- ``deal_problems``: a table dealt a hand while the seats at the tournament's tables (from the
  seat occupancies' start and end times) made it the table that must lose a player (RULES 8.7:
  the fullest, two players more than the shortest) or the table due to break (RULES 8.8);
- ``sample``: the live picture (players per table, running hands, the tournament's state), which
  the run reads every half second for the unbalanced-while-idle check and hand-for-hand;
- ``moves``: balancing moves and the players moved by table breaks, from the occupancies;
- ``result_problems``: one winner, every entrant exactly one finishing place, the prizes paid
  sum to the prize pool.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.utils import timezone


def sample(tournament_id: int) -> dict:
    from django.db.models import Count

    from tables.models import Hand, Seat
    from tournaments.models import Tournament, TournamentTable

    tournament = Tournament.objects.get(pk=tournament_id)
    links = list(TournamentTable.objects.filter(tournament=tournament, broken=False).values_list("table_id", flat=True))
    counts = dict(Seat.objects.filter(table_id__in=links).values_list("table_id").annotate(n=Count("id")).order_by())
    running = Hand.objects.filter(table_id__in=links, state=Hand.State.RUNNING)
    overdue = running.filter(turn_deadline__lt=timezone.now() - timedelta(seconds=15))
    return {
        "state": tournament.state,
        "level": tournament.level,
        "hand_for_hand": tournament.hand_for_hand,
        "counts": {table_id: counts.get(table_id, 0) for table_id in links},
        "running": set(running.values_list("table_id", flat=True)),
        "overdue": [
            f"table {h.table_id} hand #{h.number} seq {h.sequence} deadline {h.turn_deadline}" for h in overdue
        ],
        "break_order": list(tournament.break_order),
        # Grows with every hand dealt and every action: a running tournament where it stays put stands still.
        "progress": sum(running.values_list("sequence", flat=True)) + Hand.objects.filter(table_id__in=links).count(),
        "seats_per_table": tournament.seats_per_table,
    }


def unbalanced_source(counts: dict[int, int], break_order: list[int], seats: int) -> tuple[str, int] | None:
    """The table that must not deal now, and why: a player must move from it (RULES 8.7) or it breaks (8.8)."""
    from tournaments import rules

    move = rules.balancing_move(counts)
    if move is not None:
        return "balancing", move[0]
    breaking = rules.table_to_break(counts, break_order, seats)
    if breaking is not None:
        return "breaking", breaking
    return None


def _occupancy(tournament_id: int):
    from tables.models import SeatSession
    from tournaments.models import TournamentTable

    table_ids = list(TournamentTable.objects.filter(tournament_id=tournament_id).values_list("table_id", flat=True))
    sessions = list(
        SeatSession.objects.filter(table_id__in=table_ids)
        .order_by("started_at", "pk")
        .values("pk", "table_id", "player_id", "started_at", "ended_at")
    )
    return table_ids, sessions


def _counts_at(sessions: list[dict], table_ids: list[int], at: datetime) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for s in sessions:
        if s["started_at"] <= at and (s["ended_at"] is None or s["ended_at"] > at):
            counts[s["table_id"]] += 1
    return {table_id: counts[table_id] for table_id in table_ids if counts[table_id]}


def deal_problems(tournament_id: int) -> tuple[int, list[str]]:
    """(hands checked, hands dealt at a table that had to lose a player or break first)."""
    from tables.models import Hand
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    table_ids, sessions = _occupancy(tournament_id)
    problems = []
    hands = list(
        Hand.objects.filter(table_id__in=table_ids).order_by("started_at").values("table_id", "number", "started_at")
    )
    for hand in hands:
        counts = _counts_at(sessions, table_ids, hand["started_at"])
        due = unbalanced_source(counts, tournament.break_order, tournament.seats_per_table)
        if due is not None and due[1] == hand["table_id"]:
            problems.append(
                f"table {hand['table_id']} dealt hand #{hand['number']} while {due[0]} was due there: {counts}"
            )
    return len(hands), problems


def moves(tournament_id: int) -> dict:
    """Players moved by balancing and by table breaks, and the tables broken (the final table,
    closed at the finish, is not a break)."""
    from tournaments.models import Tournament, TournamentTable

    tournament = Tournament.objects.get(pk=tournament_id)
    _, sessions = _occupancy(tournament_id)
    by_player: dict[int, list[dict]] = defaultdict(list)
    for s in sessions:
        by_player[s["player_id"]].append(s)
    last_end: dict[int, datetime] = {}
    for s in sessions:
        if s["ended_at"] is not None:
            last_end[s["table_id"]] = max(last_end.get(s["table_id"], s["ended_at"]), s["ended_at"])
    broken = set(TournamentTable.objects.filter(tournament=tournament, broken=True).values_list("table_id", flat=True))
    final = None
    if tournament.finished_at is not None:
        # The table still seating players when the tournament finished.
        final = next(
            (s["table_id"] for s in sessions if s["ended_at"] and s["ended_at"] >= tournament.finished_at), None
        )
    breaks = sorted(t for t in broken if t != final)
    balancing = breaking = 0
    for seq in by_player.values():
        for before in seq[:-1]:  # each occupancy followed by another: a move
            table = before["table_id"]
            at_break = table in breaks and last_end[table] - before["ended_at"] < timedelta(seconds=0.5)
            breaking += at_break
            balancing += not at_break
    return {"balancing_moves": balancing, "players_moved_by_breaks": breaking, "table_breaks": len(breaks),
            "final_table": final}  # fmt: skip


def hands_between(tournament_id: int, spans: list[tuple[datetime, datetime]]) -> int:
    """Hands dealt at the tournament's tables within any of ``spans`` (wall-clock)."""
    from tables.models import Hand
    from tournaments.models import TournamentTable

    table_ids = TournamentTable.objects.filter(tournament_id=tournament_id).values_list("table_id", flat=True)
    starts = Hand.objects.filter(table_id__in=table_ids).values_list("started_at", flat=True)
    return sum(any(a <= at <= b for a, b in spans) for at in starts)


def result_problems(tournament_id: int) -> tuple[dict, list[str]]:
    from tournaments.models import Entry, Result, Tournament
    from tournaments.services.payouts import prize_pool

    tournament = Tournament.objects.get(pk=tournament_id)
    results = list(Result.objects.filter(tournament=tournament))
    entrants = set(
        Entry.objects.filter(tournament=tournament)
        .exclude(state=Entry.State.REFUNDED)
        .values_list("player_id", flat=True)
    )
    pool = prize_pool(tournament)
    paid = sum(r.prize for r in results)
    figures = {
        "state": tournament.state,
        "entrants": len(entrants),
        "results": len(results),
        "places_paid": sum(1 for r in results if r.prize),
        # The places that paid: players tied for a place (eliminated in the same hand with equal
        # stacks, RULES 8.6 and 8.9) share it and the prizes of the places under it.
        "paid_places": sorted({r.place for r in results if r.prize}),
        "prize_pool": pool,
        "prizes_paid": paid,
        "winner_prize": next((r.prize for r in results if r.place == 1), None),
        "levels_played": tournament.level,
    }
    problems = []
    if tournament.state != Tournament.State.FINISHED:
        problems.append(f"the tournament did not finish (state {tournament.state})")
        return figures, problems
    winners = [r for r in results if r.place == 1]
    if len(winners) != 1:
        problems.append(f"{len(winners)} winners")
    players = [r.player_id for r in results]
    if sorted(players) != sorted(entrants) or len(set(players)) != len(players):
        problems.append(f"{len(results)} finishing places for {len(entrants)} entrants, not one each")
    if paid != pool:
        problems.append(f"prizes {paid} but the prize pool was {pool}")
    if any(not r.paid for r in results if r.prize):
        problems.append("a prize was not paid")
    return figures, problems
