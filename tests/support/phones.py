"""Phones for the browser tests: Chromium emulating a touch phone (``is_mobile``, ``has_touch``:
a page wider than the screen is zoomed out, as a phone does) and what a layout check measures
on a page: the document's width against the screen's, every control under 44 x 44 CSS px
(WCAG 2.5.5; inline text links are exempt), and the felt's fairness line over a seat."""

from __future__ import annotations

from .browser import BROWSER_WAIT_MS, MARK_SOCKET_OPEN

# (name, width, height): the portrait phones the room is laid out for, and two landscape ones.
PHONES = [
    ("320", 320, 568),
    ("360", 360, 640),
    ("390", 390, 844),
    ("414", 414, 896),
    ("740x360", 740, 360),
    ("844x390", 844, 390),
]
MIN_TARGET = 44  # CSS px, WCAG 2.5.5

# Controls a finger must hit: buttons, fields, selects, disclosures, links styled as buttons
# and the header's links; a checkbox or radio counts by its label (the label is its target).
MEASURE = """
() => {
  const targets = new Set();
  const selector = 'button, input:not([type=hidden]), select, textarea, summary, a.button, .site-header a';
  for (const element of document.querySelectorAll(selector)) {
    const target = element.matches('input[type=checkbox], input[type=radio]') ? (element.closest('label') || element) : element;
    targets.add(target);
  }
  const describe = element => {
    const text = (element.innerText || element.value || element.getAttribute('aria-label') || element.name || '').trim();
    return `${element.tagName.toLowerCase()}${element.id ? '#' + element.id : ''} "${text.slice(0, 40)}"`;
  };
  const small = [];
  for (const target of targets) {
    if (target.closest('.sr-only, [hidden]')) continue;
    const style = getComputedStyle(target);
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (box.width < %(min)s - 0.5 || box.height < %(min)s - 0.5) {
      small.push(`${describe(target)}: ${Math.round(box.width)} x ${Math.round(box.height)}`);
    }
  }
  // The fairness line must not cover a seat, a bet or the button, nor they it.
  const covered = [];
  const fair = document.querySelector('#felt .fair-deal');
  if (fair && fair.getBoundingClientRect().height > 0) {
    const f = fair.getBoundingClientRect();
    for (const other of document.querySelectorAll('#felt .seat, #felt .bet, #felt .dealer-button')) {
      const o = other.getBoundingClientRect();
      if (o.width && f.left < o.right && o.left < f.right && f.top < o.bottom && o.top < f.bottom) covered.push(describe(other));
    }
  }
  return {document: document.documentElement.scrollWidth, screen: screen.width, small, covered};
}
""" % {"min": MIN_TARGET}  # noqa: UP031 (the script's own braces)


def phone_context(chromium, base_url: str, width: int, height: int, locale: str | None = None):
    """A browser context of a touch phone of this size (one person: its own cookies)."""
    options = {"locale": locale} if locale else {}
    context = chromium.new_context(
        viewport={"width": width, "height": height}, screen={"width": width, "height": height},
        device_scale_factor=2, is_mobile=True, has_touch=True, base_url=base_url, bypass_csp=True, **options,
    )  # fmt: skip
    context.set_default_timeout(BROWSER_WAIT_MS)
    context.add_init_script(MARK_SOCKET_OPEN)
    return context


def layout_problems(page) -> list[str]:
    """What a phone player could not do on this page: scroll sideways, or tap a small control.
    Every disclosure is opened first, so what it holds is measured too."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    measured = page.evaluate(MEASURE)
    problems = [f"a control under {MIN_TARGET} px: {each}" for each in measured["small"]]
    problems += [f"the fairness line overlaps {each}" for each in measured["covered"]]
    if measured["document"] > measured["screen"]:
        problems.insert(0, f"the page is {measured['document']} px wide on a {measured['screen']} px screen")
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = false; })")
    return problems
