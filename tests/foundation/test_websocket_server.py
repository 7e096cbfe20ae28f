"""autobahn's per-connection debug formatting is deferred (config/websocket_server.py): a
connection no longer pretty-prints its settings for a debug line nobody writes, and a line
that is written still reads as before."""

import pprint

from autobahn.websocket import protocol

import config.asgi  # noqa: F401  (installs it, as daphne's import of the application does)
from config.websocket_server import LazyPformat


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
