"""ASGI entry point: daphne serves HTTP and the table websockets."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

sys.setswitchinterval(settings.GIL_SWITCH_SECONDS)  # the action threads' returns from the database

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.websocket_server import defer_debug_formatting  # noqa: E402

defer_debug_formatting()  # autobahn formats every connection's settings for a debug line otherwise

from accounts.socket_users import CachedUserAuthMiddlewareStack  # noqa: E402
from config.websocket_origin import SameOriginWebsocketValidator  # noqa: E402
from operations.routing import websocket_urlpatterns as staff_websocket_urlpatterns  # noqa: E402
from tables.realtime.embedded_clock import StartEmbeddedClock  # noqa: E402
from tables.realtime.graceful_shutdown import CloseSocketsOnSigterm  # noqa: E402
from tables.realtime.quiet_outages import RefuseWhileAway  # noqa: E402
from tables.realtime.refusals import RefuseWhenSwamped  # noqa: E402
from tables.realtime.routing import websocket_urlpatterns  # noqa: E402
from tournaments.realtime.routing import websocket_urlpatterns as tournament_websocket_urlpatterns  # noqa: E402

application = CloseSocketsOnSigterm(
    StartEmbeddedClock(
        ProtocolTypeRouter(
            {
                "http": django_asgi_app,
                "websocket": SameOriginWebsocketValidator(
                    RefuseWhileAway(
                        # At twice the bound of work in flight, refused before the session is read.
                        RefuseWhenSwamped(
                            CachedUserAuthMiddlewareStack(
                                URLRouter(
                                    [
                                        *websocket_urlpatterns,
                                        *tournament_websocket_urlpatterns,
                                        *staff_websocket_urlpatterns,
                                    ]
                                )
                            )
                        )
                    )
                ),
            }
        )
    )
)

# The server's garbage collector: its pauses measured, and what was loaded by now (for the
# process's life) kept out of them (``operations.gc_pauses``).
from django.conf import settings  # noqa: E402

from operations import gc_pauses  # noqa: E402

gc_pauses.measure()
if settings.WEB_GC_TUNING:
    gc_pauses.tune(settings.WEB_GC_THRESHOLDS)
    gc_pauses.freeze_what_start_loaded()
