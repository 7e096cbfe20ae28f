"""Seat occupancies: every seat taken now belongs to one, and chip movements name it.

Seats taken before this get an occupancy opened when they sat down, with their stack as its
buy-in.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def open_occupancies_for_taken_seats(apps, schema_editor):
    Seat = apps.get_model("tables", "Seat")
    SeatSession = apps.get_model("tables", "SeatSession")
    for seat in Seat.objects.filter(session__isnull=True):
        seat.session = SeatSession.objects.create(
            table_id=seat.table_id, seat_number=seat.number, player_id=seat.player_id, buy_in=seat.stack
        )
        seat.save(update_fields=["session"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatSession",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat_number", models.PositiveSmallIntegerField()),
                ("buy_in", models.PositiveIntegerField()),
                ("started_at", models.DateTimeField(auto_now_add=True)),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "cashed_out",
                    models.PositiveBigIntegerField(blank=True, help_text="Chips returned when it ended.", null=True),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seat_sessions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="seat_sessions", to="tables.table"
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.AddField(
            model_name="seat",
            name="session",
            field=models.OneToOneField(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="seat", to="tables.seatsession"
            ),
        ),
        migrations.AddConstraint(
            model_name="seatsession",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True)),
                fields=("table", "player"),
                name="one_open_seat_session_per_player",
            ),
        ),
        migrations.RunPython(open_occupancies_for_taken_seats, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="session",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="seat", to="tables.seatsession"
            ),
        ),
    ]
