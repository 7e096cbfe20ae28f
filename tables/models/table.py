"""A table: its game, stakes, seats, buy-ins and clock settings (the aggregate's root)."""

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
    sit_out_minutes = models.PositiveSmallIntegerField(
        default=10,
        help_text=_("A player sitting out this long is stood up and cashed out (RULES 7.6)."),
    )
    waiting_count = models.PositiveIntegerField(
        default=0, editable=False, help_text=_("Players on the waiting list (kept by the waiting list's service).")
    )
    is_active = models.BooleanField(default=True, help_text=_("Closed tables accept no players and start no hands."))
    is_tournament = models.BooleanField(
        default=False,
        editable=False,
        help_text=_(
            "A tournament's table (RULES 8.2): seated by its tournament, stakes from the level for each hand, "
            "no buy-in, not in the cash lobby."
        ),
    )
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
