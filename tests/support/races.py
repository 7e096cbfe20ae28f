"""Fire several calls at the same instant from threads, each with its own database connection."""

import threading
import time
from functools import partial

from django.db import connection


def at_once(calls, *, expected=(Exception,), timeout: float = 30):
    """Run every callable in its own thread, released together by a barrier.

    Returns each call's result, or the exception it raised if that exception is one of
    `expected`. Any other exception is raised again here, in the test's own thread; a call
    still running after `timeout` seconds fails the test with an AssertionError naming it.
    """
    barrier = threading.Barrier(len(calls), timeout=timeout)
    outcomes: list = [None] * len(calls)
    unexpected: list[BaseException] = []

    def run(index, call):
        try:
            barrier.wait()
            try:
                outcomes[index] = call()
            except expected as error:
                outcomes[index] = error
        except BaseException as error:  # given to the test's thread: a thread's own death passes unseen
            unexpected.append(error)
        finally:
            connection.close()

    # Daemon threads: a call that hangs must not keep the test run from ending.
    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    hung = [
        f"call {i} ({_describe(call)})" for i, (call, t) in enumerate(zip(calls, threads, strict=True)) if t.is_alive()
    ]
    if hung:
        raise AssertionError(f"still running after {timeout} s: {', '.join(hung)}")
    if len(unexpected) == 1:
        raise unexpected[0]
    if unexpected:
        raise BaseExceptionGroup(f"{len(unexpected)} calls raised an exception not expected", unexpected)
    return outcomes


def _describe(call) -> str:
    if isinstance(call, partial):
        return repr(call)
    code = getattr(call, "__code__", None)
    where = f" at {code.co_filename}:{code.co_firstlineno}" if code else ""
    return f"{getattr(call, '__qualname__', repr(call))}{where}"
