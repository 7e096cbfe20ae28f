from django.utils.functional import SimpleLazyObject

from .maintenance import current_maintenance


def room_maintenance(request) -> dict:
    """``room_maintenance``: the open maintenance window or None, read only if a page shows it."""
    return {"room_maintenance": SimpleLazyObject(current_maintenance)}
