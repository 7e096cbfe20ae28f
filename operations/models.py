"""What staff did to the running room, and the room's maintenance windows."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models import Seat


class StaffAction(models.Model):
    """The audit log of staff actions: one row per action done from the admin, never edited."""

    class Kind(models.TextChoices):
        CANCEL_HAND = "cancel_hand", "Cancel a running hand"
        STAND_UP = "stand_up", "Stand a player up and cash them out"
        DEALER_MESSAGE = "dealer_message", "Dealer message"
        MAINTENANCE_START = "maintenance_start", "Maintenance started"
        MAINTENANCE_END = "maintenance_end", "Maintenance ended"

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey("tables.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    detail = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.staff}: {self.get_kind_display()}"


class Maintenance(models.Model):
    """A maintenance window: from ``started_at`` no new hand is dealt (running hands finish), and
    the lobby says when the room reopens, until staff end it (``ended_at``)."""

    started_at = models.DateTimeField(auto_now_add=True)
    reopens_at = models.DateTimeField(help_text="When the lobby says the room reopens.")
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Maintenance from {self.started_at:%Y-%m-%d %H:%M}"


class DealerMessage(models.Model):
    """A message staff had the dealer say at one table, or at every open table."""

    created_at = models.DateTimeField(auto_now_add=True)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty: every open table.",
    )
    text = models.CharField(max_length=300)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.text[:60]


class SeatedPlayer(Seat):
    """The seats taken, as staff see them to stand a player up."""

    class Meta:
        proxy = True
        verbose_name = "seated player"
