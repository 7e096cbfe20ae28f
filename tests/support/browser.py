"""Chromium for the browser tests, and calling the services beside Playwright's event loop."""

from concurrent.futures import ThreadPoolExecutor

from .processes import ROOT

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
]  # fmt: skip


def in_thread(function, *args, **kwargs):
    """Call a service from a thread of its own: its after-commit broadcast uses async_to_sync,
    which refuses to run on the thread where Playwright keeps its event loop."""
    from django.db import connection

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(call).result()
