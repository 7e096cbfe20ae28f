"""Hands played on the embedded SQLite (scripts/run): the deal, the actions and the settlement
take the ORM's way there (the one-statement writes are PostgreSQL's), and every chip is
accounted for."""

import json

from ..support.processes import PRODUCTION_SECRET_KEY, python_output

PLAY_TWO_HANDS = """
import json, os, uuid
os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'
import django; django.setup()
from django.core.management import call_command
call_command('migrate', verbosity=0)
from bench.load.report import audit
from bench.load.world import make_table, make_user
from tables import services
from tables.engine import Action, ActionKind
from tables.models import Hand, Table
from tables.selectors.hands import rebuild
table = make_table('embedded', action_seconds=300, countdown_seconds=60)
users = {n: make_user(f'embedded{n}') for n in (1, 2, 3)}
for n, user in users.items():
    services.take_seat(user=user, table_id=table.pk, seat_number=n, buy_in=table.max_buy_in,
                       post_big_blind_now=True, request_id=uuid.uuid4().hex)
hands = []
for _ in range(2):
    Table.objects.filter(pk=table.pk).update(next_hand_at=None)
    services.start_hand_if_due(table_id=table.pk)
    hand = Hand.objects.filter(table=table).order_by('-number').first()
    engine = rebuild(hand)
    while hand.state == Hand.State.RUNNING:
        kind = 'check' if engine.legal_actions().can_check else 'call'
        hand = services.act(table_id=table.pk, user=users[hand.turn_seat], kind=kind, amount=None,
                            sequence=hand.sequence)
        if hand.state == Hand.State.RUNNING:
            engine.apply(Action(engine.to_act, ActionKind(kind)))
    hands.append([hand.state, sorted(hand.players.values_list('seat', 'starting_stack', 'final_stack'))])
print(json.dumps({'hands': hands, 'problems': audit()['problems']}))
"""


def test_hands_play_to_the_end_on_the_embedded_sqlite(tmp_path):
    out = python_output(
        PLAY_TWO_HANDS,
        DATABASE_URL=f"sqlite:///{tmp_path / 'room.sqlite3'}",
        HAND_PAUSE_SECONDS="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
    )
    played = json.loads(out.splitlines()[-1])
    assert played["problems"] == []
    for state, players in played["hands"]:
        assert state == "complete"
        assert len(players) == 3 and all(final is not None for _, _, final in players)
        assert sum(final for _, _, final in players) == sum(start for _, start, _ in players)
