"""What a bot reads on its screens: the fragments of a table's frames, and its turn, sequence
and legal actions in the ``#controls`` fragment, exactly as a browser shows them."""

from __future__ import annotations

import re
from dataclasses import dataclass

FRAGMENT_START = re.compile(r'<(?:section|div) id="(felt|controls|seat-panel|hand-log|table-error)"')
SEQUENCE = re.compile(r'data-sequence="(\d+)"')
HAND_NUMBER = re.compile(r'data-hand="(\d*)"')
ACTION = re.compile(r'name="action" value="(fold|check|call|bet|raise)"')
FIXED_AMOUNT = re.compile(r'<input type="hidden" name="amount" value="(\d+)">')
RANGE_AMOUNT = re.compile(r'<input type="number" name="amount"[^>]*\bmin="(\d+)" max="(\d+)"')
ERROR_TEXT = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)
VERSION = re.compile(r'data-version="(\d+)"')
SEAT_SUMMARY = re.compile(r"Seat (\d+) · (\d+) chips")
REQUEST_ID = re.compile(r'name="request_id" value="([^"]+)"')
TOP_UP_MAX = re.compile(r'name="amount" inputmode="numeric" min="1" max="(\d+)"')


def split_fragments(text: str) -> dict[str, str]:
    marks = [(m.start(), m.group(1)) for m in FRAGMENT_START.finditer(text)]
    return {
        name: text[start : (marks[i + 1][0] if i + 1 < len(marks) else len(text))]
        for i, (start, name) in enumerate(marks)
    }


@dataclass
class Controls:
    hand: str  # sequences restart with every hand: a turn is (hand, sequence)
    sequence: int
    actions: list[str]
    min_to: int | None = None
    max_to: int | None = None


def parse_controls(html: str) -> Controls | None:
    head = html[: html.find(">") + 1]
    m = SEQUENCE.search(head)
    if not m:
        return None
    hand = HAND_NUMBER.search(head)
    controls = Controls(hand.group(1) if hand else "", int(m.group(1)), ACTION.findall(html))
    if fixed := FIXED_AMOUNT.search(html):
        controls.min_to = controls.max_to = int(fixed.group(1))
    elif ranged := RANGE_AMOUNT.search(html):
        controls.min_to, controls.max_to = int(ranged.group(1)), int(ranged.group(2))
    return controls
