"""The phone walk of every page (tests/web/test_phone_layout*.py, one module per language so
the two walks run on different workers): no sideways scrolling and no control under a
fingertip (44 x 44 CSS px), at 320, 360, 390 and 414 px portrait and 740 x 360 and
844 x 390 landscape, for a visitor, a player and a player seated in a hand.

The pages come from the URLconf (every named GET page that answers with HTML), so pages
added later are walked too; the admin is exempt."""

from __future__ import annotations

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tables.models import Hand

from ..tournaments.support import make_tournament
from .browser import in_thread, screenshot
from .phones import PHONES, layout_problems, phone_context
from .sockets import logged_in_session
from .tables import act, fold_to_the_end, sit, start_hand


def named_pages(prefix: str = "", patterns=None, namespace: str = ""):
    """(name, the converters' parameter names) of every named URL, the admin's left out."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from named_pages(prefix, entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", sorted(entry.pattern.converters)


def page_urls(ids: dict[str, int]) -> list[str]:
    urls = []
    for name, parameters in named_pages():
        if all(parameter in ids for parameter in parameters):
            urls.append(reverse(name, kwargs={p: ids[p] for p in parameters}))
    return urls


def _log_in(context, base_url, user) -> None:
    session = in_thread(logged_in_session, user)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": base_url}])


def _walkable(page, urls) -> list[str]:
    """The pages this viewer opens as HTML (not an export, a fragment, a form's POST target or a
    page they may not open)."""
    walkable = []
    for url in urls:
        response = page.request.get(url, max_redirects=0)
        if response.status == 200 and "<html" in response.text()[:200]:
            walkable.append(url)
    return walkable


def _walk(page, urls, viewer, language) -> list[str]:
    """Each page opened once and measured at every size: the phone turns to each size in turn
    (the viewport and the screen both change, as on a real phone turned or another model; the
    room's layout is CSS alone, no script reads the window's size)."""
    problems = []
    for url in urls:
        page.goto(url)
        if page.locator("#table-page").count():
            page.wait_for_function("window.socketOpen === true && (window.socketMessages || 0) > 0")
        for size, width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            found = layout_problems(page)
            if found:
                name = f"phone-{language}-{size}-{viewer}-{url.strip('/').replace('/', '-') or 'lobby'}"
                screenshot(page, name)
                problems += [f"{url} ({viewer}, {size}, {language}): {each}" for each in found]
    return problems


def phone_room(make_table, make_player):
    """A heads-up table in its second hand, alice to act; the first hand over, in the history;
    and a tournament's page (RULES 8)."""

    def deal():
        table = make_table(name="Phone PL")
        alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
        sit(table, alice, 1)
        sit(table, bob, 2)
        start_hand(table)
        fold_to_the_end(table, {1: alice, 2: bob})
        start_hand(table)
        act(table, bob, "call")  # bob, on the button, completes: alice's option
        first = Hand.objects.filter(table=table).order_by("number").first()
        tournament = make_tournament(name="Phone sit & go")  # its page, registering (RULES 8)
        return {"table": table, "alice": alice, "carol": carol, "hand": first, "tournament": tournament}

    return in_thread(deal)


def walk_every_page(chromium, live_server_url, room, language: str) -> None:
    ids = {"table_id": room["table"].pk, "hand_id": room["hand"].pk, "tournament_id": room["tournament"].pk}
    urls = page_urls(ids)
    assert {"/", f"/tables/{room['table'].pk}/", "/hands/", "/accounts/signup/", "/tournaments/"} <= set(urls)
    assert f"/tournaments/{room['tournament'].pk}/" in urls
    problems = []
    walkable: dict[str, list[str]] = {}
    _, width, height = PHONES[0]
    for viewer in ("visitor", "carol", "alice"):
        context = phone_context(chromium, live_server_url, width, height, locale=language)
        if viewer != "visitor":
            _log_in(context, live_server_url, room[viewer])
        page = context.new_page()
        walkable[viewer] = _walkable(page, urls)
        problems += _walk(page, walkable[viewer], viewer, language)
        context.close()
    # Every viewer walked the pages they open: the lobby, and a table page for each.
    assert all({"/", f"/tables/{room['table'].pk}/"} <= set(pages) for pages in walkable.values()), walkable
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)
