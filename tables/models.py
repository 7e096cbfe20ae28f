"""Tables, seats and hands as the database keeps them.

The rules live in tables.engine; these models store what the engine needs
(a table's configuration, who sits where, each hand's deck and event log).
"""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tables.engine import Variant
from tables.engine.config import MAX_SEATS, MIN_SEATS, check_stakes
from tables.engine.stakes import Blinds, limit_blinds, pot_limit_blinds

# The game's name for people, per engine variant; the database stores the variant's value.
VARIANT_LABELS = {Variant.LIMIT: _("Limit Omaha High"), Variant.POT_LIMIT: _("Pot Limit Omaha High")}


class Table(models.Model):
    Variant = Variant  # the engine's own: ``Table.Variant.LIMIT`` is ``tables.engine.Variant.LIMIT``

    name = models.CharField(max_length=60, unique=True)
    variant = models.CharField(
        max_length=16, choices=[(variant.value, label) for variant, label in VARIANT_LABELS.items()]
    )
    stake_small = models.PositiveIntegerField(
        help_text=_(
            "Limit: the small bet (also the big blind). Pot Limit: the small blind. "
            "Limit stakes on PokerStars' ladder (2/4, 5/10, 10/20, 15/30 with small blind 10, 20/40, 50/100, "
            "100/200...) are the ones poker trackers accept in exported hand histories."
        )
    )
    stake_big = models.PositiveIntegerField(
        help_text=_("Limit: the big bet (turn and river). Pot Limit: the big blind.")
    )
    small_blind_override = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Limit only: a small blind other than half the small bet rounded down.")
    )
    seat_count = models.PositiveSmallIntegerField(
        default=6, help_text=format_lazy(_("{min} to {max} seats."), min=MIN_SEATS, max=MAX_SEATS)
    )
    min_buy_in = models.PositiveIntegerField()
    max_buy_in = models.PositiveIntegerField()
    action_seconds = models.PositiveSmallIntegerField(default=10, help_text=_("Time to act before the countdown."))
    countdown_seconds = models.PositiveSmallIntegerField(default=20, help_text=_("The visible countdown that follows."))
    reconnect_grace_seconds = models.PositiveSmallIntegerField(
        default=20, help_text=_("Extra time, once per turn, for a player who reconnects.")
    )
    time_bank_initial_seconds = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Time bank a player starts with on sitting down: extra seconds once the time to act runs out."),
    )
    time_bank_refill_seconds = models.PositiveSmallIntegerField(
        default=0, help_text=_("Seconds added to a player's time bank every so many hands dealt in.")
    )
    time_bank_refill_hands = models.PositiveSmallIntegerField(default=10, help_text=_("Hands dealt in per refill."))
    time_bank_cap_seconds = models.PositiveSmallIntegerField(
        default=0, help_text=_("The most a time bank holds. 0 turns the time bank off.")
    )
    waiting_count = models.PositiveIntegerField(
        default=0, editable=False, help_text=_("Players on the waiting list (kept by the waiting list's service).")
    )
    is_active = models.BooleanField(default=True, help_text=_("Closed tables accept no players and start no hands."))
    closing = models.BooleanField(default=False, help_text=_("Set by the close action: close after the current hand."))
    version = models.PositiveBigIntegerField(default=0, help_text=_("Bumped by every change; screens re-render on it."))
    next_hand_at = models.DateTimeField(null=True, blank=True, help_text=_("Earliest start of the next hand."))
    # The next hand's server seed: secret until its hand's full reveal; its commitment is public
    # before any player can send a contribution for that hand (docs/fair-dealing.md).
    next_server_seed = models.CharField(max_length=64, blank=True, default="")
    next_seed_commitment = models.CharField(
        max_length=64, blank=True, default="", help_text=_("SHA-256 commitment to the next hand's server seed.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_SEATS, seat_count__lte=MAX_SEATS), name="table_seats_2_to_10"
            ),
            models.CheckConstraint(condition=Q(max_buy_in__gte=F("min_buy_in")), name="table_buy_in_range"),
            models.CheckConstraint(
                condition=Q(stake_small__gt=0, stake_big__gte=F("stake_small")), name="table_stakes"
            ),
            models.CheckConstraint(condition=Q(min_buy_in__gt=0), name="table_min_buy_in_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def blinds(self) -> Blinds:
        if self.variant == self.Variant.LIMIT:
            return limit_blinds(
                small_bet=self.stake_small, big_bet=self.stake_big, small_blind_override=self.small_blind_override
            )
        return pot_limit_blinds(small_blind=self.stake_small, big_blind=self.stake_big)

    @property
    def stakes_label(self) -> str:
        return f"{self.stake_small}/{self.stake_big}"

    @property
    def time_to_act(self) -> int:
        return self.action_seconds + self.countdown_seconds

    @property
    def has_time_bank(self) -> bool:
        return self.time_bank_cap_seconds > 0 and (
            self.time_bank_initial_seconds > 0 or self.time_bank_refill_seconds > 0
        )

    @property
    def initial_time_bank_ms(self) -> int:
        """What a player sitting down starts with: the initial bank within the cap (0: no bank)."""
        return min(self.time_bank_initial_seconds, self.time_bank_cap_seconds) * 1000

    def clean(self) -> None:
        """The table's own limits here; the stakes by the engine's rules (``check_stakes``)."""
        errors: dict[str, object] = {}
        if not MIN_SEATS <= (self.seat_count or 0) <= MAX_SEATS:
            errors["seat_count"] = _("A table seats %(min)s to %(max)s players (RULES 1.1).") % {
                "min": MIN_SEATS,
                "max": MAX_SEATS,
            }
        if self.min_buy_in is not None and self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            errors["max_buy_in"] = _("The maximum buy-in must be at least the minimum buy-in.")
        if self.time_bank_refill_seconds and not self.time_bank_refill_hands:
            errors["time_bank_refill_hands"] = _("A refill needs a number of hands (at least 1).")
        if self.small_blind_override is not None and self.variant != self.Variant.LIMIT:
            errors["small_blind_override"] = _("Only Limit tables may override the small blind.")
        elif self.variant and self.stake_small and self.stake_big:
            blinds = self.blinds
            try:
                check_stakes(Variant(self.variant), blinds.small_blind, blinds.big_blind, blinds.big_bet)
            except ValueError as error:
                field = "small_blind_override" if self.small_blind_override is not None else "stake_big"
                errors[field] = str(error)
            else:
                if self.min_buy_in and self.min_buy_in < blinds.big_blind:
                    errors["min_buy_in"] = _("The minimum buy-in must cover at least one big blind.")
        if errors:
            raise ValidationError(errors)


class SeatSession(models.Model):
    """One occupancy of a seat, from sitting down to leaving; kept after it ends.

    Every chip that moves between the player's bankroll and the table belongs to one
    occupancy (``reference``): its one buy-in, its top-ups (one per request) and its one
    cash-out, so a replayed request can never pay for another seat or sitting.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seat_sessions")
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seat_sessions")
    buy_in = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    cashed_out = models.PositiveBigIntegerField(null=True, blank=True, help_text=_("Chips returned when it ended."))

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

    class State(models.TextChoices):
        WAITING_FOR_BIG_BLIND = "waiting_bb", _("Waiting for the big blind")
        PLAYING = "playing", _("Playing")
        SITTING_OUT = "sitting_out", _("Sitting out")
        LEAVING = "leaving", _("Leaving after this hand")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    session = models.OneToOneField(SeatSession, on_delete=models.PROTECT, related_name="seat")
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


class Hand(models.Model):
    """One hand: its configuration, its deck commitment and its event log.

    The hand *is* its events: the engine state is rebuilt from
    (config, deck, events). `sequence` counts the player actions applied;
    every action request carries the sequence it was made against.
    """

    class State(models.TextChoices):
        RUNNING = "running", _("Running")
        COMPLETE = "complete", _("Complete")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
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
    sequence = models.PositiveIntegerField(default=0)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deal_contributions")
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

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="players")
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

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "sequence"]
        constraints = [models.UniqueConstraint(fields=["hand", "sequence"], name="hand_event_sequence_unique")]

    def __str__(self) -> str:
        return f"{self.hand} event {self.sequence}: {self.type}"


class ClockPolicy(models.Model):
    """Room-wide settings of the time to act, edited in the admin (a single row)."""

    protected_all_ins_per_day = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Protected all-ins (RULES 6.2) a player may get per 24 hours. Empty: no limit. "
            "Past the limit a timeout checks when checking is free and folds otherwise."
        ),
    )

    class Meta:
        verbose_name = verbose_name_plural = _("clock policy")

    def __str__(self) -> str:
        return "Clock policy"

    @classmethod
    def current(cls) -> "ClockPolicy":
        policy, _created = cls.objects.get_or_create(pk=1)
        return policy


class TimeoutRecord(models.Model):
    """A player's turn ran out, and what it became (fold, protected all-in, or check/fold past the limit)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="timeouts")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="timeouts")
    became = models.CharField(max_length=24)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.player} timed out in {self.hand}: {self.became}"


def _new_installation_number() -> int:
    return INSTALLATION_NUMBERS.start + secrets.randbelow(len(INSTALLATION_NUMBERS))


# Six digits, so every installation's exported hand numbers have the same width (tables.history.numbering).
INSTALLATION_NUMBERS = range(100_000, 1_000_000)


class Installation(models.Model):
    """This installation of the room, one row created once: its random number sets it apart from
    every other installation (and from this one after a database reset) in exported hand numbers."""

    number = models.PositiveIntegerField(
        default=_new_installation_number, help_text="Drawn at random when the row is created; never changed."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Installation {self.number}"

    @classmethod
    def current(cls) -> "Installation":
        installation, _ = cls.objects.get_or_create(pk=1)
        return installation


class ChatMessage(models.Model):
    """A line of a table's chat: a player's message, or the dealer's (a hand started, who won).

    A dealer line keeps what it says as ``params`` (worded in each reader's language when
    shown); a player's keeps their ``text`` as typed, shown escaped. Lines older than
    ``CHAT_RETENTION_HOURS`` are pruned.
    """

    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        HAND_STARTED = "hand_started", _("Hand started")
        POT_WON = "pot_won", _("Pot won")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_messages"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PLAYER)
    text = models.CharField(max_length=500, blank=True)
    params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["table", "-id"], name="chat_recent_per_table")]

    def __str__(self) -> str:
        return f"{self.table} chat #{self.pk}"

    @property
    def is_dealer(self) -> bool:
        return self.kind != self.Kind.PLAYER


class ChatMute(models.Model):
    """``owner`` no longer sees ``muted``'s chat messages, at any table."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(owner=F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} mutes {self.muted}"


class WaitingListEntry(models.Model):
    """A player waiting for a seat at a full table, first come first served.

    When a seat frees, the first in line without an offer is offered it until
    ``offered_until`` (``WAITING_LIST_OFFER_SECONDS``); nobody else may take it meanwhile.
    An offer that runs out takes the player off the list and goes to the next.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="waiting_list")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waiting_for")
    joined_at = models.DateTimeField()
    offered_until = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="waiting_once_per_table")]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.table}"
