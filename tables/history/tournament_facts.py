"""What a tournament hand's history says that the hand itself does not: the seam to tournaments.

The tables app knows nothing of tournaments (pyproject.toml's import contracts); the
tournaments app registers a ``FactsProvider`` when it starts (``tournaments/hand_facts.py``),
and the exporters ask it for the hands of tournament tables, a batch at a time: the
tournament, its buy-in and fee, the level the hand was dealt at, and who finished the
tournament in that hand (RULES 8.6, 8.10). Cash hands never reach the provider.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tables.models import Hand


@dataclass(frozen=True, slots=True)
class Finish:
    """A player who finished the tournament in the hand: their place and prize (RULES 8.6, 8.10)."""

    seat: int
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """``finishes``: worst place first, the winner (place 1) last, as PokerStars writes them."""

    tournament_id: int
    buy_in: int
    fee: int
    level: int
    table_number: int
    finishes: tuple[Finish, ...] = ()


FactsProvider = Callable[[Sequence[Hand]], dict[int, TournamentHand]]
"""Given hands of tournament tables, each one's facts by hand id."""

_providers: list[FactsProvider] = []


def register(provider: FactsProvider) -> None:
    """One provider; registering again replaces it."""
    _providers[:] = [provider]


def tournament_facts(hands: Sequence[Hand]) -> dict[int, TournamentHand]:
    """The facts of the tournament hands among ``hands`` (their ``table`` selected), by hand id;
    no query at all when none is a tournament hand."""
    at_tournaments = [hand for hand in hands if hand.table.is_tournament]
    if not at_tournaments or not _providers:
        return {}
    return _providers[0](at_tournaments)
