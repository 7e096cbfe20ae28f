"""Tables, seats and hands as the database keeps them.

The rules live in tables.engine; these models store what the engine needs
(a table's configuration, who sits where, each hand's deck and event log).
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from tables.engine.stakes import Blinds, limit_blinds, pot_limit_blinds


class Table(models.Model):
    class Variant(models.TextChoices):
        LIMIT = "limit", "Limit Omaha High"
        POT_LIMIT = "pot_limit", "Pot Limit Omaha High"

    name = models.CharField(max_length=60, unique=True)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    stake_small = models.PositiveIntegerField(
        help_text="Limit: the small bet (also the big blind). Pot Limit: the small blind."
    )
    stake_big = models.PositiveIntegerField(help_text="Limit: the big bet (turn and river). Pot Limit: the big blind.")
    small_blind_override = models.PositiveIntegerField(
        null=True, blank=True, help_text="Limit only: a small blind other than half the small bet rounded down."
    )
    seat_count = models.PositiveSmallIntegerField(default=6, help_text="2 to 10 seats.")
    min_buy_in = models.PositiveIntegerField()
    max_buy_in = models.PositiveIntegerField()
    action_seconds = models.PositiveSmallIntegerField(default=10, help_text="Time to act before the countdown.")
    countdown_seconds = models.PositiveSmallIntegerField(default=20, help_text="The visible countdown that follows.")
    reconnect_grace_seconds = models.PositiveSmallIntegerField(
        default=20, help_text="Extra time, once per turn, for a player who reconnects."
    )
    is_active = models.BooleanField(default=True, help_text="Closed tables accept no players and start no hands.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=2, seat_count__lte=10), name="table_seats_2_to_10"),
            models.CheckConstraint(condition=Q(max_buy_in__gte=F("min_buy_in")), name="table_buy_in_range"),
            models.CheckConstraint(condition=Q(stake_small__gt=0, stake_big__gte=F("stake_small")), name="table_stakes"),
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

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if not 2 <= (self.seat_count or 0) <= 10:
            errors["seat_count"] = "A table seats 2 to 10 players (RULES 1.1)."
        if self.min_buy_in is not None and self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            errors["max_buy_in"] = "The maximum buy-in must be at least the minimum buy-in."
        if self.stake_small and self.stake_big and self.stake_big < self.stake_small:
            errors["stake_big"] = "The second stake must be at least the first."
        if self.variant == self.Variant.POT_LIMIT:
            if self.stake_small and self.stake_big and self.stake_big != 2 * self.stake_small:
                errors["stake_big"] = "In Pot Limit the big blind is twice the small blind (RULES 2.5)."
            if self.small_blind_override is not None:
                errors["small_blind_override"] = "Only Limit tables may override the small blind."
        elif self.small_blind_override is not None and self.stake_small and self.small_blind_override >= self.stake_small:
            errors["small_blind_override"] = "The small blind must be less than the big blind (the small bet)."
        if self.min_buy_in and self.stake_small and self.stake_big and self.min_buy_in < self.blinds.big_blind:
            errors["min_buy_in"] = "The minimum buy-in must cover at least one big blind."
        if errors:
            raise ValidationError(errors)
