"""The function that takes a table's row lock and reads the stamp of its rows in one round trip
(``tables.services.owned_tables.lock``), on PostgreSQL only (the embedded SQLite reads the rows).

Each statement of a VOLATILE PL/pgSQL function takes its own snapshot: the stamp is read after
the lock is held, as the two statements it replaces did, and so sees what the writer it waited
for committed."""

from django.conf import settings
from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION tables_lock_and_stamp(p_table bigint, p_running text)
RETURNS TABLE (o_table_xmin text, o_version bigint, o_hand_id bigint, o_hand_xmin text, o_sequence bigint, o_seats text)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM 1 FROM {table} WHERE id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT t.xmin::text, t.version::bigint, h.id::bigint, h.xmin::text, h.sequence::bigint,
           (SELECT coalesce(string_agg(s.id::text || ':' || s.xmin::text || ':' || u.xmin::text, ',' ORDER BY s.id), '')
              FROM {seat} s JOIN {user} u ON u.id = s.player_id WHERE s.table_id = t.id)
      FROM {table} t LEFT JOIN {hand} h ON h.table_id = t.id AND h.state = p_running
     WHERE t.id = p_table;
END
$fn$
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    names = {
        "table": apps.get_model("tables", "Table")._meta.db_table,
        "hand": apps.get_model("tables", "Hand")._meta.db_table,
        "seat": apps.get_model("tables", "Seat")._meta.db_table,
        "user": apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table,
    }
    schema_editor.execute(FUNCTION.format(**names))


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS tables_lock_and_stamp(bigint, text)")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_hand_tournament_level"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
