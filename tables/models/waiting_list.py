"""Players waiting for a seat at a full table."""

from django.conf import settings
from django.db import models


class WaitingListEntry(models.Model):
    """A player waiting for a seat at a full table, first come first served.

    When a seat frees, the first in line without an offer is offered it until
    ``offered_until`` (``WAITING_LIST_OFFER_SECONDS``); nobody else may take it meanwhile.
    An offer that runs out takes the player off the list and goes to the next.
    """

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="waiting_list")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waiting_for")
    joined_at = models.DateTimeField()
    offered_until = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="waiting_once_per_table")]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.table}"
