"""Tournaments (RULES 8): their structure, entries, tables and finishing places."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tables.engine import Variant
from tables.engine.config import MAX_SEATS, MIN_SEATS, check_stakes
from tables.models.table import VARIANT_LABELS

from . import rules


def default_payout_table() -> list[dict[str, object]]:
    """The issue's defaults as rows; larger fields fall through to ``rules.default_payout_percentages``."""
    return [
        {"max_entries": 3, "percentages": [100]},
        {"max_entries": 6, "percentages": [65, 35]},
        {"max_entries": 10, "percentages": [50, 30, 20]},
    ]


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SIT_AND_GO = "sit_and_go", _("Sit & go")
        SCHEDULED = "scheduled", _("Scheduled")

    class State(models.TextChoices):
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.SIT_AND_GO)
    variant = models.CharField(
        max_length=16, choices=[(variant.value, label) for variant, label in VARIANT_LABELS.items()]
    )
    seats_per_table = models.PositiveSmallIntegerField(default=6)
    buy_in = models.PositiveIntegerField(help_text=_("Play chips from the bankroll into the prize pool."))
    fee = models.PositiveIntegerField(default=0, help_text=_("Entry fee to the house (not in the prize pool)."))
    starting_chips = models.PositiveIntegerField(default=1500)
    starts_at = models.DateTimeField(null=True, blank=True, help_text=_("Scheduled tournaments: the start."))
    late_registration_levels = models.PositiveSmallIntegerField(
        default=0, help_text=_("Registration stays open until the end of this level (0: closes at the start).")
    )
    re_entries = models.PositiveSmallIntegerField(default=0, help_text=_("Re-entries allowed per player."))
    add_on_chips = models.PositiveIntegerField(default=0, help_text=_("Chips of the add-on (0: no add-on)."))
    add_on_price = models.PositiveIntegerField(default=0)
    min_entrants = models.PositiveSmallIntegerField(default=2)
    max_entrants = models.PositiveIntegerField(default=6)
    payout_table = models.JSONField(
        default=default_payout_table,
        blank=True,
        help_text=_(
            'Rows {"max_entries": N, "percentages": [..]} in rising order; larger fields pay about the top 15 %.'
        ),
    )
    break_every_levels = models.PositiveSmallIntegerField(
        default=0, help_text=_("A break after every N levels (0: none).")
    )
    break_minutes = models.PositiveSmallIntegerField(default=5)
    recurring = models.BooleanField(default=False, help_text=_("Sit & go: a new one opens whenever this one fills."))
    action_seconds = models.PositiveSmallIntegerField(default=10)
    countdown_seconds = models.PositiveSmallIntegerField(default=20)

    state = models.CharField(max_length=16, choices=State.choices, default=State.REGISTERING, editable=False)
    level = models.PositiveSmallIntegerField(default=0, editable=False, help_text=_("The current level (1, 2, ...)."))
    level_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    break_until = models.DateTimeField(null=True, blank=True, editable=False)
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Fixed when late registration closes (RULES 8.10).
    payout_percentages = models.JSONField(null=True, blank=True, editable=False)
    # The table ids in the order they break (RULES 8.8), drawn at the start.
    break_order = models.JSONField(default=list, blank=True, editable=False)
    hand_for_hand = models.BooleanField(default=False, editable=False)
    next_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next", editable=False
    )
    version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=MIN_SEATS, seats_per_table__lte=MAX_SEATS),
                name="tournament_seats_2_to_10",
            ),
            models.CheckConstraint(condition=Q(min_entrants__gte=2), name="tournament_two_entrants_at_least"),
            models.CheckConstraint(condition=Q(starting_chips__gt=0), name="tournament_starting_chips"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_sit_and_go(self) -> bool:
        return self.kind == self.Kind.SIT_AND_GO

    def clean(self) -> None:
        errors: dict[str, object] = {}
        if not MIN_SEATS <= (self.seats_per_table or 0) <= MAX_SEATS:
            errors["seats_per_table"] = _("A table seats %(min)s to %(max)s players (RULES 1.1).") % {
                "min": MIN_SEATS,
                "max": MAX_SEATS,
            }
        if self.max_entrants is not None and self.min_entrants is not None and self.max_entrants < self.min_entrants:
            errors["max_entrants"] = _("The maximum must be at least the minimum.")
        if self.kind == self.Kind.SIT_AND_GO and self.max_entrants and self.max_entrants > (self.seats_per_table or 0):
            errors["max_entrants"] = _("A sit & go plays at one table: at most one entrant per seat.")
        if self.kind == self.Kind.SCHEDULED and self.starts_at is None:
            errors["starts_at"] = _("A scheduled tournament needs a start time.")
        if self.add_on_chips and not self.add_on_price:
            errors["add_on_price"] = _("An add-on has a price.")
        if self.recurring and self.kind != self.Kind.SIT_AND_GO:
            errors["recurring"] = _("Only sit & goes recur.")
        problem = rules.check_payout_table(self.payout_table)
        if problem:
            errors["payout_table"] = problem
        if errors:
            raise ValidationError(errors)


class BlindLevel(models.Model):
    """One level (RULES 8.3): Pot Limit small/big blind, or Limit small/big bet; the big blind ante (RULES 8.4)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    number = models.PositiveSmallIntegerField()
    small = models.PositiveIntegerField(help_text=_("Pot Limit: the small blind. Limit: the small bet."))
    big = models.PositiveIntegerField(help_text=_("Pot Limit: the big blind. Limit: the big bet."))
    ante = models.PositiveIntegerField(default=0, help_text=_("The big blind ante (RULES 8.4); 0: none."))
    minutes = models.PositiveSmallIntegerField(default=10)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_level_per_number"),
            models.CheckConstraint(condition=Q(minutes__gte=1), name="level_minutes_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.small}/{self.big}" + (f" ({self.ante})" if self.ante else "")

    def clean(self) -> None:
        if self.small is None or self.big is None or self.tournament_id is None:
            return
        stakes = self.stakes(self.tournament.variant)
        try:
            check_stakes(Variant(self.tournament.variant), stakes[0], stakes[1], stakes[2], self.ante)
        except ValueError as error:
            raise ValidationError({"big": str(error)}) from None

    def stakes(self, variant: str) -> tuple[int, int, int]:
        """(small blind, big blind, big bet) of the level (RULES 2.4, 2.5)."""
        if variant == Variant.LIMIT:
            return self.small // 2, self.small, self.big
        return self.small, self.big, 0


class TournamentTable(models.Model):
    """A table the tournament plays at (its ``Table`` is flagged ``is_tournament``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    table = models.OneToOneField("tables.Table", on_delete=models.PROTECT, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()
    broken = models.BooleanField(default=False)
    # Hand-for-hand (RULES 8.9): the table's hand number when the current round began.
    round_hand_number = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


class Entry(models.Model):
    """One buy-in of a player (a re-entry is another entry)."""

    class State(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        PLAYING = "playing", _("Playing")
        ELIMINATED = "eliminated", _("Eliminated")
        REFUNDED = "refunded", _("Refunded")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    state = models.CharField(max_length=16, choices=State.choices, default=State.REGISTERED)
    buy_in = models.PositiveIntegerField()
    fee = models.PositiveIntegerField(default=0)
    add_on = models.BooleanField(default=False)
    starting_stack = models.PositiveIntegerField(default=0, help_text=_("The stack of the last hand started."))
    # Eliminations: the players busted together share a group (in elimination order), placed by
    # their starting stacks; ``bust_order`` ranks them for the odd chips of shared prizes (RULES 8.6).
    bust_group = models.PositiveIntegerField(null=True, blank=True)
    bust_order = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(state__in=["registered", "playing"]),
                name="one_live_entry_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament} (#{self.pk})"

    @property
    def reference(self) -> str:
        """What the cashier binds this entry's movements to."""
        return f"entry:{self.pk}"


class Result(models.Model):
    """A player's one finishing place (RULES 8.10), whatever the number of their entries; tied
    players share the best place of the places they tie for (RULES 8.6)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="results")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_results")
    place = models.PositiveIntegerField()
    prize = models.PositiveBigIntegerField(default=0)
    paid = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "place", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_place_per_player")]

    def __str__(self) -> str:
        return f"{self.player}: {self.place} in {self.tournament}"

    @property
    def reference(self) -> str:
        return f"result:{self.pk}"
