"""The standard-library verifier, ``verify_hand.py`` at the repository root, as a module."""

from __future__ import annotations

import importlib.util
from pathlib import Path

VERIFY_HAND = Path(__file__).resolve().parents[2] / "verify_hand.py"


def load_verifier():
    """``verify_hand.py`` imported as the module a player runs (no Django, no project code)."""
    spec = importlib.util.spec_from_file_location("verify_hand", VERIFY_HAND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
