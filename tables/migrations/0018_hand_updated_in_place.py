"""A running hand's row is written on every action (its sequence, whose turn, the deadline):
written in place, not as a new row with an entry in every index of the table.

PostgreSQL updates a row in place (a heap-only tuple) when no indexed column changes and the
row's page has room for the new version. The index on ``turn_deadline`` made every action's
write a new row, with a new entry in each of the hand table's five indexes (none of 1,438
updates in place over a 100-table run); it goes, and the hand table's pages are filled only
half on insert (a hand's row is about 1.5 KB), leaving room for the versions its actions write.
The clock's query for overdue turns reads the running hands through their partial index.

Two indexes that repeat the first column of a unique constraint's go too: the hand's on its
table (``(table, number)``) and the event's on its hand (``(hand, sequence)``). Only those plain
indexes are dropped: Django's own way (``AlterField`` to ``db_index=False``) drops every index
on the column, the partial unique index that keeps one running hand per table with them."""

import django.db.models.deletion
from django.db import migrations, models

FILL = "ALTER TABLE {table} SET (fillfactor = {fill})"
PLAIN_INDEXES = [("Hand", "table"), ("HandEvent", "hand")]  # (model, foreign key): its own index goes


def half_filled(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FILL.format(table=apps.get_model("tables", "Hand")._meta.db_table, fill=50))


def filled(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FILL.format(table=apps.get_model("tables", "Hand")._meta.db_table, fill=100))


def drop_plain_indexes(apps, schema_editor):
    connection = schema_editor.connection
    for model_name, field_name in PLAIN_INDEXES:
        model = apps.get_model("tables", model_name)
        column = model._meta.get_field(field_name).column
        with connection.cursor() as cursor:
            found = connection.introspection.get_constraints(cursor, model._meta.db_table)
        for name, index in found.items():
            plain = index["index"] and not index["unique"] and not index["primary_key"]
            if plain and index["columns"] == [column] and not index.get("definition"):
                schema_editor.execute(schema_editor._delete_index_sql(model, name))


def create_plain_indexes(apps, schema_editor):
    for model_name, field_name in PLAIN_INDEXES:
        model = apps.get_model("tables", model_name)
        schema_editor.execute(schema_editor._create_index_sql(model, fields=[model._meta.get_field(field_name)]))


class Migration(migrations.Migration):
    dependencies = [("tables", "0017_lock_and_stamp")]

    operations = [
        migrations.AlterField(
            model_name="hand",
            name="turn_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="hand",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hands",
                        to="tables.table",
                    ),
                ),
                migrations.AlterField(
                    model_name="handevent",
                    name="hand",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="tables.hand",
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(drop_plain_indexes, create_plain_indexes, elidable=False)],
        ),
        migrations.RunPython(half_filled, filled, elidable=False),
    ]
