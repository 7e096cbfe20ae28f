"""Hand-for-hand (RULES 8.9): while the next elimination decides who is paid, at two tables or
more, every table plays one hand at a time and waits for all the others.

It may begin while a table is in a hand (the elimination that brings the field to the bubble
happens at one table while another deals): that table finishes the hand it was dealing, an
ordinary hand whose busts are placed as they come (RULES 8.6), and no table deals the first
hand-for-hand hand until every table has finished the hand it was dealing. Each table's
``round_hand_number`` is its latest hand when the round began (the running one included): a
table has played its round's hand once a hand numbered above it was dealt there.
"""

from __future__ import annotations

from django.db.models import Max

from tables.models import Hand

from ..models import Tournament, TournamentTable


def latest_hand_number(table_id: int) -> int:
    return Hand.objects.filter(table_id=table_id).aggregate(n=Max("number"))["n"] or 0


def finishing_before_the_round(links: dict[int, TournamentTable]) -> set[int]:
    """The tables still in the hand they were dealing when the round began (not a round's hand)."""
    running = Hand.objects.filter(table_id__in=list(links), state=Hand.State.RUNNING).values_list("table_id", "number")
    return {table_id for table_id, number in running if number <= links[table_id].round_hand_number}


def table_waits(tournament: Tournament, link: TournamentTable) -> bool:
    """Whether a table waits in hand-for-hand: it played the round's hand already, or another
    table is still finishing the hand it was dealing when hand-for-hand began."""
    if latest_hand_number(link.table_id) > link.round_hand_number:
        return True
    links = {other.table_id: other for other in TournamentTable.objects.filter(tournament=tournament, broken=False)}
    return bool(finishing_before_the_round(links))


def round_over(links: dict[int, TournamentTable], idle: set[int], counts: dict[int, int]) -> bool:
    """The round is over once every table has played its hand (or cannot deal); the next round
    starts from each table's latest hand."""
    if idle != set(links):
        return False
    if not all(latest_hand_number(t) > link.round_hand_number or counts[t] < 2 for t, link in links.items()):
        return False
    for table_id, link in links.items():
        link.round_hand_number = latest_hand_number(table_id)
        link.save(update_fields=["round_hand_number"])
    return True


def before_the_round(links: dict[int, TournamentTable], idle: set[int]) -> set[int]:
    """The idle tables whose last hand is the one they were dealing when hand-for-hand began:
    their busts are ordinary eliminations, placed at once (RULES 8.6), not the round's."""
    return {table_id for table_id in idle if latest_hand_number(table_id) <= links[table_id].round_hand_number}


def set_hand_for_hand(tournament: Tournament, links: dict[int, TournamentTable], alive: int) -> None:
    """RULES 8.9: hand-for-hand while the next elimination decides who is paid, at two tables or more."""
    paid = len(tournament.payout_percentages or [])
    wanted = bool(paid) and len(links) > 1 and alive == paid + 1
    if wanted and not tournament.hand_for_hand:
        for table_id, link in links.items():
            link.round_hand_number = latest_hand_number(table_id)
            link.save(update_fields=["round_hand_number"])
    tournament.hand_for_hand = wanted
