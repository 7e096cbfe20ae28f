"""Every ledger transaction names what it pays for (``reference``) and, when a player or staff
member asked for it, the request id it answers (one movement per request).

Transactions made before this get a reference from their accounts: the player's bankroll for
grants, reloads and adjustments ("user:<id>"), the table for movements made before seat
occupancies were recorded ("table:<id>").
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

USER_KINDS = ("grant", "reload", "adjustment")


def name_what_old_movements_paid_for(apps, schema_editor):
    LedgerTransaction = apps.get_model("cashier", "LedgerTransaction")
    LedgerEntry = apps.get_model("cashier", "LedgerEntry")
    for record in LedgerTransaction.objects.filter(reference=""):
        accounts = LedgerEntry.objects.filter(transaction=record).values_list("account__user_id", "account__table_id")
        users = [user for user, _ in accounts if user is not None]
        tables = [table for _, table in accounts if table is not None]
        if record.kind in USER_KINDS and users:
            record.reference = f"user:{users[0]}"
        elif tables:
            record.reference = f"table:{tables[0]}"
        else:
            record.reference = f"transaction:{record.pk}"
        record.save(update_fields=["reference"])


class Migration(migrations.Migration):
    dependencies = [
        ("cashier", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="ledgertransaction",
            name="reference",
            field=models.CharField(
                db_index=True,
                default="",
                help_text="What the movement pays for: a seat occupancy (seat-session:17) or a player (user:5).",
                max_length=60,
            ),
        ),
        migrations.RunPython(name_what_old_movements_paid_for, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="ledgertransaction",
            name="reference",
            field=models.CharField(
                db_index=True,
                help_text="What the movement pays for: a seat occupancy (seat-session:17) or a player (user:5).",
                max_length=60,
            ),
        ),
        migrations.AddField(
            model_name="ledgertransaction",
            name="request_id",
            field=models.CharField(
                blank=True, help_text="The nonce of the server-made request id it answers.", max_length=64, null=True
            ),
        ),
        migrations.AlterField(
            model_name="ledgertransaction",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                help_text="Who asked for it: the player (buy-in, top-up, reload) or the staff member (adjustment).",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="ledgertransaction",
            constraint=models.UniqueConstraint(fields=("created_by", "request_id"), name="one_movement_per_request"),
        ),
    ]
