"""Fire several calls at the same instant from threads, each with its own database connection."""

import threading

from django.db import connection


def at_once(calls, *, expected=(Exception,)):
    """Run every callable in its own thread, released together by a barrier.

    Returns each call's result, or the exception it raised if that exception is
    one of `expected` (anything else fails the test through the thread).
    """
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            outcomes[index] = call()
        except expected as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes
