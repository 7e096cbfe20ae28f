"""autobahn's per-connection debug formatting is deferred (config/websocket_server.py): a
connection no longer pretty-prints its settings for a debug line nobody writes, and a line
that is written still reads as before; a client's small frames are unmasked as autobahn's own
masker unmasks them."""

import itertools
import pprint
import socket
from collections import deque

from autobahn.websocket import protocol
from hypothesis import given
from hypothesis import strategies as st

import config.asgi  # noqa: F401  (installs it, as daphne's import of the application does)
from config.websocket_server import SMALL_FRAME_BYTES, LazyPformat, SmallFrameMasker, send_text_frame


def test_autobahn_formats_its_debug_values_only_when_a_line_is_written(monkeypatch):
    assert protocol.pformat is LazyPformat
    calls = []
    monkeypatch.setattr(pprint, "pformat", lambda value: calls.append(value) or "formatted")
    deferred = protocol.pformat([("autoPingInterval", 0, "factory")])
    assert calls == []  # handed to the logger unformatted
    assert f"\n{deferred}" == "\nformatted" and len(calls) == 1


def test_a_written_line_reads_as_pprint_writes_it():
    settings = [(f"option{n}", n * 1000, "WebSocketServerFactory") for n in range(12)]
    assert f"{LazyPformat(settings)}" == pprint.pformat(settings)
    assert str(LazyPformat({"a": 1})) == repr(LazyPformat({"a": 1})) == "{'a': 1}"


def test_timings_still_print_as_a_string():
    timings = protocol.Timings()
    timings.track("onOpen")
    assert isinstance(str(timings), str) and "onOpen" in str(timings)


def test_frame_debug_values_are_coloured_only_when_a_line_is_written(monkeypatch):
    import click
    from autobahn.twisted import websocket
    from autobahn.util import hltype, hlval

    styled = []
    monkeypatch.setattr(click, "style", lambda text, **kwargs: styled.append(text) or text)
    for module in (protocol, websocket):
        name_value = module.hltype(test_timings_still_print_as_a_string)
        peer_value = module.hlval("tcp:127.0.0.1:5000")
        assert styled == []  # nothing coloured for the debug line nobody writes
        assert (
            f"{name_value} {peer_value}"
            == f"{hltype(test_timings_still_print_as_a_string)} {hlval('tcp:127.0.0.1:5000')}"
        )
        styled.clear()
    assert protocol.hlval("x", color="blue") == hlval("x", color="blue")  # a colour asked for: as before


# --- a table socket's text frames straight to the connection (send_text_frame) ---------------


class _Plain:
    """The parts of Twisted's plain TCP transport that ``send_text_frame`` reads, over a real socket."""

    TLS = False

    def __init__(self, sock):
        self.socket = sock
        self.connected, self.disconnecting, self._writeDisconnected = True, False, False
        self._tempDataBuffer: list[bytes] = []
        self.dataBuffer = b""
        self.written: list[bytes] = []  # what went into Twisted's buffer

    def write(self, data: bytes) -> None:
        self.written.append(data)


def _open_protocol(transport):
    """An autobahn server protocol, open, over ``transport`` (daphne's ``serverSend`` added)."""
    from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol

    class Protocol(WebSocketServerProtocol):
        def serverSend(self, content, binary=False):  # as daphne's
            self.sendMessage(content.encode("utf8"), binary)

    factory = WebSocketServerFactory()
    factory.protocol = Protocol
    opened = factory.buildProtocol(None)
    opened.transport = transport
    for name, value in factory.__dict__.items():  # the options a connection copies from its factory
        if name in opened.CONFIG_ATTRS_SERVER or name in opened.CONFIG_ATTRS_COMMON:
            setattr(opened, name, value)
    opened.state, opened.send_state = opened.STATE_OPEN, opened.SEND_STATE_GROUND
    opened._perMessageCompress, opened.send_queue, opened.trackedTimings = None, deque(), None
    opened.trafficStats = protocol.TrafficStats()
    return opened


def _autobahns_frame(text: str) -> bytes:
    from twisted.internet.testing import StringTransport

    transport = StringTransport()
    _open_protocol(transport).sendMessage(text.encode())
    return transport.value()


def _received(sock, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def test_a_frame_sent_straight_is_the_frame_autobahn_sends():
    for text in ["v", "x" * 125, "x" * 126, "é" * 200, "x" * 65535, "x" * 65536, "<div>ñ</div>" * 9000]:
        server, client = socket.socketpair()
        server.setblocking(False)
        transport = _Plain(server)
        expected = _autobahns_frame(text)
        send_text_frame(_open_protocol(transport), text)
        assert not transport.written  # the kernel took it all, at once
        assert _received(client, len(expected)) == expected, len(text)
        server.close(), client.close()


def test_a_frame_goes_behind_what_twisted_still_holds():
    """Something is waiting in Twisted's buffer: the frame goes behind it, by autobahn's way."""
    server, client = socket.socketpair()
    server.setblocking(False)
    transport = _Plain(server)
    transport._tempDataBuffer.append(b"earlier")
    send_text_frame(_open_protocol(transport), "later")
    client.setblocking(False)
    try:
        on_the_socket = client.recv(100)
    except BlockingIOError:
        on_the_socket = b""
    assert on_the_socket == b"" and b"".join(transport.written) == _autobahns_frame("later")
    server.close(), client.close()


def test_what_the_kernel_does_not_take_waits_in_twisteds_buffer():
    server, client = socket.socketpair()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server.setblocking(False)
    transport = _Plain(server)
    text = "<p>" + "x" * 2_000_000 + "</p>"
    expected = _autobahns_frame(text)
    send_text_frame(_open_protocol(transport), text)
    assert transport.written  # the kernel took part of it, the rest waits for Twisted to write it
    client.setblocking(False)
    taken = b""
    while True:
        try:
            chunk = client.recv(1 << 20)
        except BlockingIOError:
            break
        if not chunk:
            break
        taken += chunk
    assert 0 < len(taken) < len(expected) and taken + b"".join(transport.written) == expected
    server.close(), client.close()


def test_a_closing_or_tls_connection_takes_autobahns_way():
    for unusual in ("disconnecting", "TLS"):
        server, client = socket.socketpair()
        transport = _Plain(server)
        setattr(transport, unusual, True)
        send_text_frame(_open_protocol(transport), "hello")
        assert b"".join(transport.written) == _autobahns_frame("hello")
        server.close(), client.close()


# --- a client's small frames unmasked without autobahn's native masker (SmallFrameMasker) -----


@given(
    mask=st.binary(min_size=4, max_size=4),
    payload=st.binary(max_size=300),
    cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=4),
)
def test_a_small_frame_unmasks_as_autobahns_masker_does_in_any_chunks(mask, payload, cuts):
    native = protocol.create_xor_masker.native(mask, len(payload))
    ours = SmallFrameMasker(mask)
    bounds = [0, *sorted(cut for cut in cuts if cut <= len(payload)), len(payload)]
    chunks = [payload[start:end] for start, end in itertools.pairwise(bounds)]
    assert [ours.process(chunk) for chunk in chunks] == [native.process(chunk) for chunk in chunks]
    assert ours.pointer() == native.pointer() == len(payload)
    ours.reset()
    assert ours.pointer() == 0 and ours.process(payload) == bytes(
        byte ^ mask[index % 4] for index, byte in enumerate(payload)
    )


def test_autobahn_takes_the_small_masker_for_small_frames_only():
    small = protocol.create_xor_masker(b"abcd", 60)
    assert isinstance(small, SmallFrameMasker)
    large = protocol.create_xor_masker(b"abcd", SMALL_FRAME_BYTES + 1)
    assert not isinstance(large, SmallFrameMasker)
    assert large.process(b"\x00" * 8) == b"abcdabcd"
