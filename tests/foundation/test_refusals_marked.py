"""Every refusal a player can read is marked for translation (README "Languages").

An AST check over every app of the project: each ``raise`` of a refusal class (the table's
``TableError`` and its kin, ``ChatRefused``, the cashier's ``CashierError`` family, the
accounts' ``RequestIdRefused``, a form's ``ValidationError``) must give a message that went
through ``gettext`` (``ngettext``, ``pgettext``, their lazy forms, the engine's ``_``) or that
names one; a plain string, an f-string, a literal's ``.format`` or ``%``, or ``str(...)`` of
another exception (which drops its translation) fails. Internal ``ValueError``s are not refusals.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

from django.apps import apps
from django.core.exceptions import ValidationError

from accounts.request_ids import RequestIdRefused
from cashier.errors import CashierError
from tables.engine.errors import IllegalAction
from tables.services.errors import TableError

from ..support.processes import ROOT

MARKERS = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_lazy", "ngettext_lazy", "pgettext_lazy", "_"}
BASES = (TableError, CashierError, RequestIdRefused, IllegalAction, ValidationError)


def _project_apps() -> list[Path]:
    paths = {Path(c.path) for c in apps.get_app_configs() if Path(c.path).is_relative_to(ROOT)}
    return sorted(path for path in paths if "site-packages" not in path.parts and not path.name.startswith("."))


def _refusal_names() -> set[str]:
    """The names of every refusal class: the bases and each subclass the apps define."""
    for app in _project_apps():
        package = ".".join(app.relative_to(ROOT).parts)
        for module in pkgutil.walk_packages([str(app)], prefix=f"{package}."):
            if ".migrations" not in module.name and ".management" not in module.name:
                importlib.import_module(module.name)
    names, pending = set(), list(BASES)
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return names


def _is_marked(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in MARKERS
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_marked(node.left)  # gettext("... %(x)s") % {...}
    return False


def _unmarked(node: ast.expr, literals: set[str]) -> bool:
    """A message made of an unmarked literal (or of another exception's text)."""
    if _is_marked(node):
        return False
    if isinstance(node, (ast.Constant, ast.JoinedStr)):
        return isinstance(node, ast.JoinedStr) or isinstance(node.value, str)
    if isinstance(node, ast.BinOp):
        return _unmarked(node.left, literals) or _unmarked(node.right, literals)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "str":
            return True  # str(refusal): the other exception's text, untranslated
        if isinstance(func, ast.Attribute) and func.attr == "format":
            return _unmarked(func.value, literals)
        return False
    if isinstance(node, ast.Name):
        return node.id in literals  # a module constant holding an unmarked literal
    return False


def _module_literals(tree: ast.Module) -> set[str]:
    found = set()
    for statement in tree.body:
        value = statement.value if isinstance(statement, ast.Assign) else None
        if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            assert isinstance(statement, ast.Assign)
            found.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return found


def unmarked_refusals(source: str, refusals: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    literals = _module_literals(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name not in refusals:
            continue
        message = (
            node.exc.args[0]
            if node.exc.args
            else next((k.value for k in node.exc.keywords if k.arg == "message"), None)
        )
        if message is None or _unmarked(message, literals):
            found.append((node.lineno, ast.unparse(node.exc)))
    return found


def test_every_refusal_a_player_reads_is_marked_for_translation():
    refusals = _refusal_names()
    assert {"TableError", "ChatRefused", "InsufficientChips", "RequestIdExpired"} <= refusals
    found = []
    for app in _project_apps():
        for path in sorted(app.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for line, call in unmarked_refusals(path.read_text(), refusals):
                found.append(f"{path.relative_to(ROOT)}:{line}: raise {call}")
    assert found == [], "\n".join(found)


def test_the_check_catches_every_way_of_raising_an_unmarked_message():
    refusals = {"TableError", "ChatRefused"}
    source = """
LIMIT = "A message is too long."
raise TableError("You are already on the waiting list.")
raise ChatRefused(f"A message is at most {n} characters.")
raise TableError("Auto top-up goes to %s." % n)
raise TableError("Seat {}".format(n))
raise TableError(str(refusal)) from None
raise ChatRefused(LIMIT)
raise TableError()
raise TableError(gettext("Seat %(n)s is taken.") % {"n": n})
raise ChatRefused(ngettext("one", "many", n) % {"n": n})
raise TableError(refusal_text(refusal)) from None
raise TableError(status.reason)
raise ValueError(f"CHAT_RATE is wrong: {rate!r}")
"""
    assert [line for line, _call in unmarked_refusals(source, refusals)] == [3, 4, 5, 6, 7, 8, 9]
