"""The room's clock policy and the record of turns that ran out."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClockPolicy(models.Model):
    """Room-wide settings of the time to act, edited in the admin (a single row)."""

    protected_all_ins_per_day = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        default=2,
        help_text=_(
            "Protected all-ins (RULES 6.2, 6.5) a player may get per rolling 24 hours: 2 by default, "
            "0 for none, empty for unlimited. Past the allowance a timeout checks when checking is "
            "free and folds otherwise."
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
    hand = models.ForeignKey("tables.Hand", on_delete=models.CASCADE, related_name="timeouts")
    became = models.CharField(max_length=24)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.player} timed out in {self.hand}: {self.became}"
