"""Who sits where: a seat and the occupancy (seat session) its chips belong to."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tables.engine.config import MAX_SEATS


class SeatSession(models.Model):
    """One occupancy of a seat, from sitting down to leaving; kept after it ends.

    Every chip that moves between the player's bankroll and the table belongs to one
    occupancy (``reference``): its one buy-in, its top-ups (one per request) and its one
    cash-out, so a replayed request can never pay for another seat or sitting.
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="seat_sessions")
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seat_sessions")
    buy_in = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    cashed_out = models.PositiveBigIntegerField(null=True, blank=True, help_text=_("Chips returned when it ended."))
    time_bank_ms_left = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("The time bank the player left with (RULES 7.5: they keep it if they come back)."),
    )

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"], condition=Q(ended_at__isnull=True), name="one_open_seat_session_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}, seat {self.seat_number} (#{self.pk})"

    @property
    def reference(self) -> str:
        """What the cashier binds this occupancy's chip movements to."""
        return f"seat-session:{self.pk}"


class Seat(models.Model):
    """A player sitting at a table, with the chips in front of them (table stakes, RULES 3.8).

    The row exists while the seat is taken. Requests made during a hand
    (sit out, leave, top up) wait in the pending fields until it ends.
    """

    class Note(models.TextChoices):
        TOP_UP_SKIPPED = "top_up_skipped", _("Your auto top-up was skipped: your bankroll could not pay for it.")

    class State(models.TextChoices):
        WAITING_FOR_BIG_BLIND = "waiting_bb", _("Waiting for the big blind")
        PLAYING = "playing", _("Playing")
        SITTING_OUT = "sitting_out", _("Sitting out")
        LEAVING = "leaving", _("Leaving after this hand")

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    session = models.OneToOneField("tables.SeatSession", on_delete=models.PROTECT, related_name="seat")
    stack = models.BigIntegerField(help_text=_("Chips behind; chips bet in the running hand are in the hand."))
    state = models.CharField(max_length=16, choices=State.choices, default=State.WAITING_FOR_BIG_BLIND)
    posts_big_blind_now = models.BooleanField(
        default=False, help_text=_("RULES 2.7: post a big blind to be dealt in at once instead of waiting.")
    )
    pending_sit_out = models.BooleanField(default=False)
    pending_top_up = models.PositiveIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True, help_text=_("When the player's last socket closed."))
    time_bank_ms = models.PositiveIntegerField(
        default=0, help_text=_("Milliseconds left in the time bank, kept across hands at this seat.")
    )
    hands_since_refill = models.PositiveSmallIntegerField(
        default=0, help_text=_("Hands dealt in since the last refill.")
    )
    sit_out_next_big_blind = models.BooleanField(
        default=False, help_text=_("Play on until the big blind comes round, then sit out instead of posting it.")
    )
    leave_after_hand = models.BooleanField(default=False, help_text=_("Play the current hand out, then leave."))
    auto_top_up_to = models.PositiveIntegerField(
        default=0, help_text=_("Between hands, top up from the bankroll back to this stack (0: off).")
    )
    note = models.CharField(
        max_length=32,
        blank=True,
        default="",
        choices=Note.choices,
        help_text=_("Something the seated player should read on their seat until the next hand ends (a code)."),
    )
    sat_out_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the player last sat out (RULES 7.6: stood up after the table's limit)."),
    )
    protected_all_ins_at = models.JSONField(
        default=list,
        blank=True,
        help_text=_("When the player's protected all-ins of the last 24 hours were (RULES 6.5), for their screen."),
    )
    sat_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="one_seat_per_player_per_table"),
            models.CheckConstraint(condition=Q(stack__gte=0), name="seat_stack_never_negative"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=MAX_SEATS), name="seat_number_1_to_10"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number} ({self.player})"

    @property
    def state_label(self) -> str:
        """The state's name in the active language (what ``get_state_display`` says, without
        building the field's choices again on every call: the seat panel shows it on each change)."""
        return str(self.State(self.state).label)
