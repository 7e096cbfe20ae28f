"""A table's chat lines and each player's mutes."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


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
        STAFF = "staff", _("Room staff")  # staff's ``text``, told by the dealer
        HAND_CANCELLED = "hand_cancelled", _("Hand cancelled")

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="chat_messages")
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
