"""The facts a tournament hand's history needs (``tables.history.tournament_facts``), a batch at a time.

Registered when the app starts. For a batch of hands of tournament tables, at most eight
queries whatever its length: the tables' tournaments, their levels, the players busted in the
batch, their results and last complete hands there, each finished tournament's last hand and
winner, and the seats of those players.

- The level: the one the hand was dealt at (``Hand.tournament_level``, RULES 8.3); a hand dealt
  before the level was kept is matched to the first level of its stakes.
- Finishing lines (RULES 8.6, 8.10): a player placed in the tournament finished it in the last
  complete hand they played there if they had no chips after it (a player who re-entered
  finished it in the hand that busted their last entry); the winner, in the tournament's last
  hand. Places are given once the places paid are fixed, so a hand exported before that has none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Max, Q

from tables.history.tournament_facts import Finish, TournamentHand
from tables.models import Hand, HandPlayer

from .models import BlindLevel, Result, Tournament, TournamentTable

TOURNAMENT_OF_HAND = "hand__table__tournament_table__tournament_id"


def tournament_hand_facts(hands: Sequence[Hand]) -> dict[int, TournamentHand]:
    links = {
        link.table_id: link
        for link in TournamentTable.objects.filter(table_id__in={hand.table_id for hand in hands}).select_related(
            "tournament"
        )
    }
    hands = [hand for hand in hands if hand.table_id in links]
    tournaments = {link.tournament_id: link.tournament for link in links.values()}
    if not hands:
        return {}
    levels: dict[int, list[BlindLevel]] = defaultdict(list)
    for level in BlindLevel.objects.filter(tournament_id__in=tournaments).order_by("number"):
        levels[level.tournament_id].append(level)
    finishes = _finishes(hands, links, tournaments)
    facts = {}
    for hand in hands:
        link = links[hand.table_id]
        tournament = link.tournament
        facts[hand.pk] = TournamentHand(
            tournament_id=tournament.pk,
            buy_in=tournament.buy_in,
            fee=tournament.fee,
            level=hand.tournament_level or _level_of_stakes(hand, tournament, levels[tournament.pk]),
            table_number=link.number,
            finishes=tuple(sorted(finishes[hand.pk], key=lambda finish: (-finish.place, finish.seat))),
        )
    return facts


def _finishes(
    hands: list[Hand], links: dict[int, TournamentTable], tournaments: dict[int, Tournament]
) -> dict[int, list[Finish]]:
    hand_ids = [hand.pk for hand in hands]
    tournament_of = {hand.pk: links[hand.table_id].tournament_id for hand in hands}
    busted = list(HandPlayer.objects.filter(hand_id__in=hand_ids, final_stack=0).values_list("player_id", flat=True))
    complete = Q(hand__state=Hand.State.COMPLETE)
    # Each busted player's last complete hand in each tournament, and each finished tournament's last hand.
    last_of_player = {
        (row[TOURNAMENT_OF_HAND], row["player_id"]): row["last"]
        for row in HandPlayer.objects.filter(
            complete, player_id__in=busted, **{f"{TOURNAMENT_OF_HAND}__in": tournaments}
        )
        .values(TOURNAMENT_OF_HAND, "player_id")
        .annotate(last=Max("hand_id"))
        .order_by()
    }
    finished = [pk for pk, tournament in tournaments.items() if tournament.state == Tournament.State.FINISHED]
    last_hands: dict[int, int] = {}
    if finished:
        last_hands = dict(
            Hand.objects.filter(state=Hand.State.COMPLETE, table__tournament_table__tournament_id__in=finished)
            .values_list("table__tournament_table__tournament_id")
            .annotate(last=Max("id"))
            .order_by()
        )
    results = {
        (result.tournament_id, result.player_id): result
        for result in Result.objects.filter(tournament_id__in=tournaments, player_id__in=busted)
    }
    winners = {result.tournament_id: result for result in Result.objects.filter(tournament_id__in=finished, place=1)}
    finishes: dict[int, list[Finish]] = defaultdict(list)
    last_in_batch = [hand_id for hand_id in last_hands.values() if hand_id in tournament_of]
    rows = HandPlayer.objects.filter(Q(final_stack=0) | Q(hand_id__in=last_in_batch), hand_id__in=hand_ids)
    for hand_id, player_id, seat, final_stack in rows.values_list("hand_id", "player_id", "seat", "final_stack"):
        tournament_id = tournament_of[hand_id]
        result = results.get((tournament_id, player_id))
        if final_stack == 0 and result is not None and last_of_player.get((tournament_id, player_id)) == hand_id:
            finishes[hand_id].append(Finish(seat, result.place, result.prize))
        winner = winners.get(tournament_id)
        if winner is not None and winner.player_id == player_id and last_hands.get(tournament_id) == hand_id:
            finishes[hand_id].append(Finish(seat, 1, winner.prize))
    return finishes


def _level_of_stakes(hand: Hand, tournament: Tournament, levels: list[BlindLevel]) -> int:
    config = hand.config
    stakes = (config["small_blind"], config["big_blind"], config["big_bet"])
    for level in levels:
        if level.stakes(tournament.variant) == stakes and level.ante == config.get("big_blind_ante", 0):
            return level.number
    return 1
