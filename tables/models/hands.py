"""A hand as the database keeps it: configuration, deck commitment, players and event log."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Hand(models.Model):
    """One hand: its configuration, its deck commitment and its event log.

    The hand *is* its events: the engine state is rebuilt from
    (config, deck, events). `sequence` counts the player actions applied;
    every action request carries the sequence it was made against.
    """

    class State(models.TextChoices):
        RUNNING = "running", _("Running")
        COMPLETE = "complete", _("Complete")
        CANCELLED = "cancelled", _("Cancelled")  # by staff: every stack back to what it was at the deal

    # Its own index would repeat the first column of (table, number)'s: one index fewer to write
    # a new row into (migration 0018).
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="hands", db_index=False)
    number = models.PositiveIntegerField(help_text=_("Counts the table's hands from 1."))
    button = models.PositiveSmallIntegerField()
    config = models.JSONField(help_text=_("The engine's HandConfig."))
    deck = models.CharField(max_length=160, help_text=_("The shuffled deck; secret until the full reveal."))
    server_seed = models.CharField(max_length=64, help_text=_("Secret until the full reveal."))
    seed_commitment = models.CharField(max_length=64, help_text=_("Published before the players' contributions."))
    contributions = models.JSONField(
        default=list, help_text=_("[{seat, value, source}] in seat order; source: player or server.")
    )
    merkle_root = models.CharField(
        max_length=64, help_text=_("Root over the 52 card commitments, published at the deal.")
    )
    state = models.CharField(max_length=16, choices=State.choices, default=State.RUNNING)
    # At a tournament table: the level the hand was dealt at (RULES 8.3); its history names it.
    tournament_level = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    sequence = models.PositiveIntegerField(default=0)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Not indexed: every action moves it, and an index on it made every action's write of the
    # hand's row a new row with an entry in each of the hand's indexes, not an update in place
    # (migration 0018). The clock finds overdue turns among the running hands (their own index).
    turn_deadline = models.DateTimeField(null=True, blank=True)
    grace_given = models.BooleanField(default=False, help_text=_("RULES 6.3: reconnect grace used this turn."))
    time_bank_started_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When this turn's time ran out and the player's time bank started.")
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique_per_table"),
            models.UniqueConstraint(fields=["table"], condition=Q(state="running"), name="one_running_hand_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"


class DealContribution(models.Model):
    """A seated player's random value for the hand dealt under ``seed_commitment`` (one each)."""

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="deal_contributions")
    seed_commitment = models.CharField(max_length=64)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    value = models.CharField(max_length=64)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seed_commitment", "player"], name="one_contribution_per_hand_and_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.seed_commitment[:12]}"


class HandPlayer(models.Model):
    """Who played a hand, from which seat, and how it went for them (for the history)."""

    hand = models.ForeignKey("tables.Hand", on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands_played")
    seat = models.PositiveSmallIntegerField()
    starting_stack = models.BigIntegerField()
    final_stack = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="hand_player_seat_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.hand}, seat {self.seat}"

    @property
    def net(self) -> int | None:
        return None if self.final_stack is None else self.final_stack - self.starting_stack


class HandEvent(models.Model):
    """The append-only log of a hand, as the engine emitted it."""

    # Indexed by (hand, sequence) (an action's events are each a new row of it): not by hand again.
    hand = models.ForeignKey("tables.Hand", on_delete=models.CASCADE, related_name="events", db_index=False)
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "sequence"]
        constraints = [models.UniqueConstraint(fields=["hand", "sequence"], name="hand_event_sequence_unique")]

    def __str__(self) -> str:
        return f"{self.hand} event {self.sequence}: {self.type}"
