"""The server's seed for a table's next hand and the players' contributions to its deck.

The next hand's seed is drawn, and its commitment published, when a table's first player sits
down and again at every deal for the hand after it, so the commitment is out before any
contribution for that hand can be sent. A seated player's browser then sends one random value
per hand (``contribute``); at the deal the values of the players dealt in are used, and for
anyone who sent none a stand-in that follows from the seed (marked as the server's), see
``tables.engine.fairness``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypedDict

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext

from tables.engine import fairness
from tables.models import DealContribution, Seat, Table

from .errors import TableError
from .locking import lock_table

if TYPE_CHECKING:
    from accounts.models import User

HEX_32_BYTES = re.compile(r"[0-9a-f]{64}")


def publish_next_seed(table: Table, *, save: bool = True) -> None:
    """Draw the next hand's server seed and publish its commitment (under the table lock);
    ``save`` False: on the row held, for the caller to write with the table's version."""
    seed = fairness.new_seed()
    table.next_server_seed = seed.hex()
    table.next_seed_commitment = fairness.seed_commitment(seed).hex()
    if save:
        Table.objects.filter(pk=table.pk).update(
            next_server_seed=table.next_server_seed, next_seed_commitment=table.next_seed_commitment
        )


def ensure_next_seed(table: Table) -> None:
    if not table.next_server_seed:
        publish_next_seed(table)


# The table's columns ``take_next_seed(save=False)`` leaves for its caller to write.
SEED_FIELDS = ("next_server_seed", "next_seed_commitment")


def take_next_seed(table: Table, *, save: bool = True) -> tuple[bytes, str]:
    """The seed (and its commitment) of the hand being dealt now; the next hand's is published
    (``save`` False: the caller writes ``SEED_FIELDS`` in the same transaction)."""
    if not table.next_server_seed:
        publish_next_seed(table, save=save)
    seed, commitment = bytes.fromhex(table.next_server_seed), table.next_seed_commitment
    publish_next_seed(table, save=save)
    return seed, commitment


def gather_contributions(
    table: Table, seed: bytes, commitment: str, players: dict[int, int]
) -> list[fairness.Contribution]:
    """One contribution per seat dealt in (``players``: seat -> user id), in seat order, the
    seed's stand-in for a player who sent none; the table's stored values are used up."""
    # The table's stored values are used up, in the statement that reads them.
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {DealContribution._meta.db_table} WHERE table_id = %s RETURNING player_id, value, seed_commitment",
            [table.pk],
        )
        sent = {player_id: value for player_id, value, committed in cursor.fetchall() if committed == commitment}
    contributions = []
    for seat, player_id in sorted(players.items()):
        value = sent.get(player_id)
        if value is None:
            stand_in = fairness.stand_in_contribution(seed, seat)
            contributions.append(fairness.Contribution(seat, stand_in, fairness.Source.SERVER))
        else:
            contributions.append(fairness.Contribution(seat, bytes.fromhex(value), fairness.Source.PLAYER))
    return contributions


class ContributionRecord(TypedDict):
    """One contribution as ``Hand.contributions`` keeps it (JSON)."""

    seat: int
    value: str  # hexadecimal
    source: str  # a ``fairness.Source`` value


def contributions_record(contributions: list[fairness.Contribution]) -> list[ContributionRecord]:
    return [
        {"seat": each.seat, "value": each.value.hex(), "source": each.source.value}
        for each in sorted(contributions, key=lambda each: each.seat)
    ]


def contribute(*, user: User, table_id: int, seed_commitment: str, value: str) -> DealContribution:
    """Record a seated player's random value for the hand to be dealt under ``seed_commitment``."""
    seed_commitment, value = str(seed_commitment).lower(), str(value).lower()
    if not HEX_32_BYTES.fullmatch(value):
        raise TableError(gettext("A contribution is 64 hexadecimal digits (32 bytes)."))
    with transaction.atomic():
        table = lock_table(table_id)
        if not Seat.objects.filter(table=table, player=user).exists():
            raise TableError(gettext("You have no seat at this table."))
        if not table.next_seed_commitment or seed_commitment != table.next_seed_commitment:
            raise TableError(gettext("That hand has already been dealt: your browser will send for the next one."))
        try:
            with transaction.atomic():
                return DealContribution.objects.create(
                    table=table, seed_commitment=seed_commitment, player=user, value=value
                )
        except IntegrityError:
            raise TableError(gettext("Your contribution to the next hand is already in.")) from None
