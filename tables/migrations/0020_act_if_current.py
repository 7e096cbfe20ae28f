"""A mid-hand action written in the one round trip that locks the table
(``tables.services.owned_tables.write_action_if_current``).

The process that wrote a table's last action holds its rows and engine with their stamp. It
applies the next action to them before anything is read, and sends the write with the stamp it
holds: the function takes the lock and the stamp as every action under the lock does
(``tables_lock_and_stamp``: the stamp read in a statement of its own once the lock is held,
its own snapshot). When the stamp is the same, nobody wrote the table since, and the function
writes the events, the stacks that changed, the hand's row and the table's version; when it is
not, it writes nothing and returns no row, and the action is applied again under the lock,
from the rows as they are. Outside a transaction the statement is its own: one round trip for
the lock, the check and the commit.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION tables_act_if_current(
    p_table bigint, p_table_xmin text, p_version bigint, p_hand bigint, p_hand_xmin text, p_sequence bigint,
    p_seats text, p_types text[], p_payloads jsonb[], p_first bigint, p_now timestamptz,
    p_seat_ids bigint[], p_stacks bigint[], p_to_act integer, p_deadline timestamptz)
RETURNS TABLE (o_hand_xmin text, o_written bigint, o_seat_ids bigint[], o_disconnected timestamptz[],
               o_allowances text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    stamp record;
BEGIN
    -- The lock and the stamp read once it is held, as every action under the lock takes them
    -- (migration 0019): the same stamp, compared with the one the rows were held with.
    SELECT * INTO stamp FROM tables_lock_and_stamp(p_table);
    IF NOT FOUND OR stamp.o_table_xmin IS DISTINCT FROM p_table_xmin OR stamp.o_version IS DISTINCT FROM p_version
       OR stamp.o_hand_id IS DISTINCT FROM p_hand OR stamp.o_hand_xmin IS DISTINCT FROM p_hand_xmin
       OR stamp.o_sequence IS DISTINCT FROM p_sequence OR stamp.o_seats IS DISTINCT FROM p_seats THEN
        RETURN;  -- no such table, or written by another since: nothing is written here
    END IF;
    RETURN QUERY
    WITH e AS (
        INSERT INTO {event} (hand_id, sequence, type, payload, created_at)
        SELECT p_hand, p_first + i - 1, p_types[i], p_payloads[i], p_now FROM generate_subscripts(p_types, 1) AS i
        RETURNING 1
    ), s AS (
        UPDATE {seat} AS seat SET stack = v.stack FROM unnest(p_seat_ids, p_stacks) AS v(id, stack)
         WHERE seat.id = v.id
        RETURNING seat.id, seat.disconnected_at, seat.protected_all_ins_at
    ), h AS (
        UPDATE {hand} SET sequence = p_sequence + 1, turn_seat = p_to_act, turn_started_at = p_now,
                          turn_deadline = p_deadline, grace_given = false
         WHERE id = p_hand
        RETURNING xmin::text AS xmin
    ), t AS (
        UPDATE {table} SET version = p_version + 1 WHERE id = p_table RETURNING 1
    )
    SELECT h.xmin, (SELECT count(*) FROM e), (SELECT array_agg(s.id) FROM s),
           (SELECT array_agg(s.disconnected_at) FROM s), (SELECT array_agg(s.protected_all_ins_at::text) FROM s)
      FROM h;
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
        "event": apps.get_model("tables", "HandEvent")._meta.db_table,
    }
    schema_editor.execute(FUNCTION.format(**names))


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP FUNCTION IF EXISTS tables_act_if_current(bigint, text, bigint, bigint, text, bigint, text, text[], "
            "jsonb[], bigint, timestamptz, bigint[], bigint[], integer, timestamptz)"
        )


class Migration(migrations.Migration):
    dependencies = [("tables", "0019_lock_and_stamp_by_index")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
