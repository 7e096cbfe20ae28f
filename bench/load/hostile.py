"""Hostile input: malformed or hostile websocket frames against a table with a running hand.

Six seated players, one logged-in spectator and one anonymous visitor connect
to a table whose hand will not time out during the run. Each sends its share
of N frames: broken JSON, wrong types, huge numbers, actions for other seats,
stale and future sequence numbers, refused seat commands, and raw protocol
violations (invalid UTF-8, unmasked frames, reserved opcodes...). By
construction no frame is a legal command, so the table must not change at all.

Each frame must get the player's error fragment back (the connection stays
usable) or, for protocol violations, a clean close; the server must log no
error; a snapshot of the table, its hand, its seats and the whole ledger
taken before must equal the one taken after.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from .screens import ERROR_TEXT, split_fragments
from .stack import HOST
from .ws import BINARY, CLOSE, CONT, PING, TEXT, ConnectionClosed, HandshakeError, WebSocket


@dataclass
class HostileClient:
    role: str  # "to_act", "seated", "spectator", "anonymous"
    session_key: str | None
    seat: int | None = None
    ws: WebSocket | None = None


def setup_table(prefix: str = "hostile"):
    """A full six-seat table with a running hand that will not time out soon; two more accounts."""
    from tables import services
    from tables.models import Hand

    from .world import make_session, make_table, make_user, seat_bots

    tag = uuid.uuid4().hex[:6]
    table = make_table(f"{prefix}-{tag}", action_seconds=600, countdown_seconds=60, reconnect_grace_seconds=0)
    clients = [
        HostileClient("seated", make_session(user), seat=seat)
        for seat, user in enumerate(seat_bots(table, 6, f"{prefix}{tag}"), start=1)
    ]
    services.start_hand_if_due(table_id=table.pk)
    hand = Hand.objects.get(table=table, state=Hand.State.RUNNING)
    for client in clients:
        if client.seat == hand.turn_seat:
            client.role = "to_act"
    clients.append(HostileClient("spectator", make_session(make_user(f"{prefix}{tag}watch"))))
    clients.append(HostileClient("anonymous", None))
    return table, hand, clients


def snapshot(table_id: int) -> dict:
    """Everything a hostile frame could change (presence timestamps excluded)."""
    from cashier.models import LedgerAccount, LedgerTransaction
    from tables.models import Hand, HandEvent, Seat, Table, TimeoutRecord

    table = Table.objects.get(pk=table_id)
    return {
        "table": (table.version, table.is_active, table.closing, table.next_hand_at),
        "hands": list(
            Hand.objects.filter(table=table).values_list(
                "number", "state", "sequence", "turn_seat", "turn_deadline", "grace_given"
            )
        ),
        "events": HandEvent.objects.filter(hand__table=table).count(),
        "seats": list(
            Seat.objects.filter(table=table)
            .order_by("number")
            .values_list(
                "number", "player_id", "stack", "state", "posts_big_blind_now", "pending_sit_out", "pending_top_up"
            )
        ),
        "timeouts": TimeoutRecord.objects.filter(hand__table=table).count(),
        "transactions": LedgerTransaction.objects.count(),
        "balances": sorted(LedgerAccount.objects.values_list("pk", "balance")),
    }


def json_frames(role: str, seq: int, rng: random.Random) -> list[tuple[str, object]]:
    """(kind, frame) pairs: a str is sent as text, bytes as a binary frame."""
    uid = str(uuid.uuid4())
    stale = [seq - 1, seq + 1, seq + 1000, 0 if seq else 5, 10**9, -1]
    frames: list[tuple[str, object]] = [
        ("empty", ""),
        ("brace", "{"),
        ("null", "null"),
        ("list", "[]"),
        ("list2", "[1, 2]"),
        ("number", "123"),
        ("string", '"fold"'),
        ("true", "true"),
        ("bad-json", "{action: fold}"),
        ("garbage", "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(1, 200)))),
        ("unicode", "".join(chr(rng.randint(0x80, 0x2FFF)) for _ in range(rng.randint(1, 100)))),
        ("nul", '{"action": "fold\u0000", "sequence": 1}'),
        ("deep-list", "[" * 2000 + "]" * 2000),
        ("deep-object", '{"a":' * 1000 + "1" + "}" * 1000),
        ("too-long", json.dumps({"action": "fold", "sequence": seq, "pad": "x" * 5000})),
        ("huge-digits", '{"action": "raise", "amount": ' + "9" * 4000 + f', "sequence": {seq}}}'),
        ("nan", f'{{"action": "raise", "amount": NaN, "sequence": {seq}}}'),
        ("infinity", f'{{"action": "raise", "amount": Infinity, "sequence": {seq}}}'),
        ("action-null", json.dumps({"action": None})),
        ("action-int", json.dumps({"action": 1})),
        ("action-list", json.dumps({"action": ["fold"]})),
        ("action-obj", json.dumps({"action": {"fold": 1}})),
        ("action-case", json.dumps({"action": "FOLD", "sequence": seq})),
        ("action-timeout", json.dumps({"action": "timeout", "sequence": seq})),
        ("action-dunder", json.dumps({"action": "__class__", "sequence": seq})),
        ("action-unknown", json.dumps({"action": "allin", "sequence": seq})),
        ("seq-string", json.dumps({"action": "fold", "sequence": "7; DROP TABLE tables_hand"})),
        ("seq-bool", json.dumps({"action": "fold", "sequence": True})),
        ("seq-list", json.dumps({"action": "fold", "sequence": [seq]})),
        ("seq-float", json.dumps({"action": "fold", "sequence": seq + 0.5})),
        ("seq-huge", json.dumps({"action": "fold", "sequence": 10**30})),
        ("seq-missing", json.dumps({"action": "call"})),
        ("amount-str", json.dumps({"action": "raise", "amount": "1e3", "sequence": seq})),
        ("amount-float", json.dumps({"action": "raise", "amount": 4.5, "sequence": seq})),
        ("amount-neg", json.dumps({"action": "raise", "amount": -5, "sequence": seq})),
        ("amount-huge", json.dumps({"action": "raise", "amount": 10**13, "sequence": seq})),
        ("amount-bool", json.dumps({"action": "bet", "amount": False, "sequence": seq})),
        ("headers-obj", json.dumps({"action": "fold", "sequence": seq + 1, "HEADERS": {"HX-Request": "true"}})),
        ("headers-str", json.dumps({"action": "fold", "sequence": seq + 1, "HEADERS": "x" * 100})),
        (
            "sit-seat-0",
            json.dumps({"action": "sit", "seat_number": 0, "buy_in": 100, "big_blind": "wait", "request_id": uid}),
        ),
        (
            "sit-seat-7",
            json.dumps({"action": "sit", "seat_number": 7, "buy_in": 100, "big_blind": "wait", "request_id": uid}),
        ),
        (
            "sit-taken",
            json.dumps(
                {
                    "action": "sit",
                    "seat_number": rng.randint(1, 6),
                    "buy_in": 100,
                    "big_blind": "now",
                    "request_id": uid,
                }
            ),
        ),
        (
            "sit-buyin-huge",
            json.dumps({"action": "sit", "seat_number": 3, "buy_in": 10**12, "big_blind": "wait", "request_id": uid}),
        ),
        (
            "sit-buyin-0",
            json.dumps({"action": "sit", "seat_number": 3, "buy_in": 0, "big_blind": "wait", "request_id": uid}),
        ),
        (
            "sit-bb-bad",
            json.dumps({"action": "sit", "seat_number": 3, "buy_in": 100, "big_blind": "maybe", "request_id": uid}),
        ),
        (
            "sit-rid-bad",
            json.dumps({"action": "sit", "seat_number": 3, "buy_in": 100, "big_blind": "wait", "request_id": "x"}),
        ),
        ("sit-rid-missing", json.dumps({"action": "sit", "seat_number": 3, "buy_in": 100, "big_blind": "wait"})),
        ("top-up-huge", json.dumps({"action": "top_up", "amount": 10**11, "request_id": uid})),
        ("top-up-zero", json.dumps({"action": "top_up", "amount": 0, "request_id": uid})),
        ("top-up-neg", json.dumps({"action": "top_up", "amount": -100, "request_id": uid})),
        ("sit-in-bad", json.dumps({"action": "sit_in", "big_blind": "sometimes"})),
        ("sit-in-playing", json.dumps({"action": "sit_in", "big_blind": "wait"})),
    ]
    frames += [
        (f"stale-{a}", json.dumps({"action": a, "sequence": s})) for a in ("fold", "call", "check") for s in stale
    ]
    frames += [("stale-raise", json.dumps({"action": "raise", "amount": 6, "sequence": s})) for s in stale]
    if role != "to_act":  # a frame this big may close the socket; the player to act must not reconnect (grace)
        frames.append(("huge", "x" * 200_000))
    frames.append(("binary-json", json.dumps({"action": "fold", "sequence": seq + 1}).encode()))
    if role in ("seated", "spectator", "anonymous"):
        # Not this socket's turn (or no seat at all): even the current sequence is refused.
        frames += [
            (f"other-seat-{a}", json.dumps({"action": a, "sequence": seq, "seat": rng.randint(1, 6)}))
            for a in ("fold", "call", "check", "bet", "raise")
        ]
        frames.append(("other-seat-raise", json.dumps({"action": "raise", "amount": 4, "sequence": seq})))
    if role == "to_act":
        # The current sequence, but commands the engine must refuse.
        frames += [
            ("illegal-check", json.dumps({"action": "check", "sequence": seq})),
            ("illegal-bet", json.dumps({"action": "bet", "amount": 4, "sequence": seq})),
            ("illegal-raise-small", json.dumps({"action": "raise", "amount": 1, "sequence": seq})),
            ("illegal-raise-huge", json.dumps({"action": "raise", "amount": 10**11, "sequence": seq})),
            ("illegal-raise-none", json.dumps({"action": "raise", "sequence": seq})),
        ]
    if role in ("spectator", "anonymous"):
        frames += [
            ("no-seat-sit-out", json.dumps({"action": "sit_out"})),
            ("no-seat-leave", json.dumps({"action": "leave"})),
            ("dup-keys", '{"action": "fold", "action": "leave"}'),
        ]
    return frames


RAW_FRAMES = ["invalid-utf8", "unmasked", "reserved-opcode", "rsv-bits", "bad-continuation", "ping", "close-weird"]


async def send_raw(ws: WebSocket, kind: str) -> None:
    if kind == "invalid-utf8":
        await ws.send_frame(TEXT, b'{"action": "fold\xff\xfe"}')
    elif kind == "unmasked":
        await ws.send_frame(TEXT, b'{"action": "fold", "sequence": 0}', mask=False)
    elif kind == "reserved-opcode":
        await ws.send_frame(0x3, b"hello")
    elif kind == "rsv-bits":
        await ws.send_frame(TEXT, b"{}", rsv=0x4)
    elif kind == "bad-continuation":
        await ws.send_frame(CONT, b"orphan continuation")
    elif kind == "ping":
        await ws.send_frame(PING, b"are you there")
    elif kind == "close-weird":
        await ws.send_frame(CLOSE, b"\x03\xe7 weird code")


@dataclass
class HostileResult:
    frames: int = 0
    outcomes: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    reconnects: int = 0
    seconds: float = 0.0


async def _connect(client: HostileClient, port: int, table_id: int) -> WebSocket:
    headers = {"Origin": f"http://127.0.0.1:{port}"}
    if client.session_key:
        headers["Cookie"] = f"sessionid={client.session_key}"
    for attempt in range(20):
        try:
            ws = await WebSocket.connect(HOST, port, f"/ws/tables/{table_id}/", headers=headers, timeout=5)
            # The snapshot: waited for (a busy server may take longer than the drain), then
            # anything that follows it, so no reply to a hostile frame is taken for it.
            await asyncio.wait_for(ws.recv(), 10)
            await _drain(ws, 0.3)
            return ws
        except (TimeoutError, OSError, HandshakeError, ConnectionClosed):
            await asyncio.sleep(0.2 * (attempt + 1))
    raise RuntimeError("hostile client could not connect")


async def _drain(ws: WebSocket, seconds: float) -> list[str]:
    got = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            _, payload = await asyncio.wait_for(ws.recv(), left)
            got.append(payload.decode("utf-8", "replace"))
        except TimeoutError:
            break
    return got


async def _expect_error(ws: WebSocket, timeout: float = 10.0) -> tuple[str, str]:
    """('error', message) when the reply is the error fragment, else ('other', text) / ('closed', code)."""
    try:
        _, payload = await asyncio.wait_for(ws.recv(), timeout)
    except ConnectionClosed as closed:
        return ("closed-clean" if closed.clean else "closed-abrupt"), str(closed.code)
    except TimeoutError:
        return "no-reply", ""
    text = payload.decode("utf-8", "replace")
    fragments = split_fragments(text)
    if set(fragments) == {"table-error"}:
        m = ERROR_TEXT.search(text)
        if m and m.group(1).strip():
            return "error", m.group(1).strip()
    return "other", text[:200]


async def run_hostile(
    *,
    ports: list[int],
    table_id: int,
    sequence: int,
    clients: list[HostileClient],
    frames: int,
    seed: int = 3,
    exclude: tuple[str, ...] = (),
) -> HostileResult:
    result = HostileResult()
    rng = random.Random(seed)
    t0 = time.monotonic()
    for i, client in enumerate(clients):
        client.ws = await _connect(client, ports[i % len(ports)], table_id)
    share = [frames // len(clients) + (1 if i < frames % len(clients) else 0) for i in range(len(clients))]

    async def one(i: int, client: HostileClient) -> None:
        port = ports[i % len(ports)]
        catalogue = [f for f in json_frames(client.role, sequence, random.Random(rng.random())) if f[0] not in exclude]
        local = random.Random(rng.random())
        for _n in range(share[i]):
            if client.ws is None or client.ws.closed:
                client.ws = await _connect(client, port, table_id)
                result.reconnects += 1
            raw = client.role != "to_act" and local.random() < 0.04
            if raw:
                kind = local.choice(RAW_FRAMES)
                with contextlib.suppress(ConnectionClosed):
                    await send_raw(client.ws, kind)
                result.kinds["raw:" + kind] += 1
                # A violation may close the socket (cleanly); if it did not, the socket must still answer.
                outcome, detail = await _expect_error(client.ws, timeout=2.0) if kind != "ping" else ("no-reply", "")
                if outcome == "no-reply":
                    try:
                        await client.ws.send_text("{")
                        outcome, detail = await _expect_error(client.ws)
                        outcome = "usable-after" if outcome == "error" else outcome
                    except ConnectionClosed:
                        outcome = "closed-clean" if client.ws.close_code else "closed-abrupt"
                result.outcomes["raw:" + outcome] += 1
                # autobahn fails a protocol violation by dropping the TCP connection (RFC 6455 7.1.7 allows it).
                if outcome in ("other", "no-reply"):
                    result.unexpected.append(f"raw {kind} from {client.role}: {outcome} {detail}")
            else:
                kind, frame = local.choice(catalogue)
                result.kinds[kind] += 1
                try:
                    if isinstance(frame, bytes):
                        await client.ws.send_frame(BINARY, frame)
                    else:
                        await client.ws.send_text(frame)
                except ConnectionClosed:
                    result.outcomes["send-failed"] += 1
                    result.unexpected.append(f"{kind} from {client.role}: socket gone before send")
                    continue
                outcome, detail = await _expect_error(client.ws)
                result.outcomes[outcome] += 1
                if outcome != "error" and not (kind == "huge" and outcome == "closed-clean"):
                    result.unexpected.append(f"{kind} from {client.role}: {outcome} {detail}")
            result.frames += 1

    try:
        await asyncio.gather(*(one(i, c) for i, c in enumerate(clients)))
    finally:
        for client in clients:
            if client.ws is not None:
                await client.ws.close()
    result.seconds = time.monotonic() - t0
    return result
