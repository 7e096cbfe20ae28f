"""The lock and stamp of every action (``tables.services.owned_tables.lock``) finds its rows by
index whatever the size of the room's history.

Its hand was joined on a state passed as a parameter: the function's cached, generic plan
could not use the partial index of running hands, and read every hand the table ever played
through the (table, number) index, to keep the one running (a table's history grows by a hand
a minute). Each seat's player was hash-joined to a scan of every user. The hand is now the
table's running one by that partial index, and each seat's player is read by its key.

It takes the table alone (``tables_lock_and_stamp(bigint)``); the two-argument version of
migration 0017 stays for code deployed before this one."""

from django.conf import settings
from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION tables_lock_and_stamp(p_table bigint)
RETURNS TABLE (o_table_xmin text, o_version bigint, o_hand_id bigint, o_hand_xmin text, o_sequence bigint, o_seats text)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM 1 FROM {table} WHERE id = p_table FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT t.xmin::text, t.version::bigint, h.id::bigint, h.xmin::text, h.sequence::bigint,
           (SELECT coalesce(string_agg(s.id::text || ':' || s.xmin::text || ':'
                                       || (SELECT u.xmin::text FROM {user} u WHERE u.id = s.player_id),
                                       ',' ORDER BY s.id), '')
              FROM {seat} s WHERE s.table_id = t.id)
      FROM {table} t LEFT JOIN {hand} h ON h.table_id = t.id AND h.state = 'running'
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
        schema_editor.execute("DROP FUNCTION IF EXISTS tables_lock_and_stamp(bigint)")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0018_hand_updated_in_place"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
