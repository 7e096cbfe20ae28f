"""The web app manifest: the room added to a phone's home screen opens full screen on the
lobby, in the room's colours. There is no service worker and no offline play: the room is
live (README "On a phone")."""

from django.http import JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

THEME_COLOUR = "#0b3d26"  # the header's green (static/css/site.css --felt-dark)


@require_GET
def manifest(request):
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    lobby = reverse("lobby")
    body = {
        "name": gettext("Omaha Room"),
        "short_name": gettext("Omaha"),
        "description": gettext("Play-money Omaha High poker, Limit and Pot Limit."),
        "lang": get_language(),
        "id": lobby,
        "start_url": lobby,
        "scope": "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=3600"
    response["Vary"] = "Accept-Language, Cookie"
    return response
