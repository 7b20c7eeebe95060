"""Charts drawn on the server as inline SVG: they show without JavaScript and under the pages'
Content-Security-Policy (no inline style or script: classes and presentation attributes only)."""

from __future__ import annotations

from math import ceil
from typing import Any

from ..matches import Match
from ..web.charts import numbered, round_step

# The drawing's size, and its margins: the points' figures on the left, the hands' numbers below.
WIDTH, HEIGHT = 320, 170
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 24
GAP = 13        # the least room between two figures on the left, in the drawing's units
HAND_LABELS = 8     # hands numbered below at most: every hand, or every second, third...


def ticks(bottom: int, top: int, target: int | None, y) -> list[int]:
    """The points figured on the left: a few round values from ``bottom`` to ``top`` (0 among
    them), and the target's, a round value too close to it left out.

    >>> ticks(0, 11, 11, lambda v: 150 - v * 10)
    [0, 5, 11]
    >>> ticks(-5, 21, 21, lambda v: 150 - v * 5)
    [0, 10, 21]
    """
    step = round_step(top - bottom)
    values = set(range(ceil(bottom / step) * step, top + 1, step))
    if target is not None:
        values = {v for v in values if abs(y(v) - y(target)) >= GAP} | {target}
    return sorted(values)


def running_totals(match: Match) -> dict[str, Any] | None:
    """The running totals hand by hand, from 0 before the first hand: one line per side, the
    target as a line across, a ring where the sides level; the points figured on the left (a few
    round values and the target), the hands numbered below. None before any hand is counted.
    The legend (each side's colour and name) is the page's, in HTML, where a long name wraps."""
    counted = match.counted
    if not counted:
        return None
    series = [[0, *(hand.totals_after[side] for hand in counted)] for side in range(len(match.sides))]
    target = None if match.rules.hands else match.rules.target
    top = max(max(max(s) for s in series), target or 0, 1)
    bottom = min(0, min(min(s) for s in series))
    steps = len(counted)

    # Whole units of a 320-wide drawing: finer would add bytes to every poll, not sharpness.
    def x(i: int) -> int:
        return round(LEFT + i * (WIDTH - LEFT - RIGHT) / steps)

    def y(value: int) -> int:
        return round(HEIGHT - BOTTOM - (value - bottom) * (HEIGHT - TOP - BOTTOM) / (top - bottom))

    lines = [{"side": side, "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))}
             for side, values in enumerate(series)]
    ties = [(x(i), y(values[0])) for i, values in enumerate(zip(*series))
            if i and len(set(values)) == 1]
    hands = [(x(i), i) for i in numbered(steps, HAND_LABELS)]
    return {"width": WIDTH, "height": HEIGHT, "lines": lines, "ties": ties,
            "target": None if target is None else y(target), "left": LEFT, "right": WIDTH - RIGHT,
            "zero": y(0), "totals": [s[-1] for s in series],
            "figures": [(y(v), v) for v in ticks(bottom, top, target, y)], "figure_x": LEFT - 5,
            "hands": hands, "hand_y": HEIGHT - 8}

