"""Charts drawn on the server as inline SVG: they show without JavaScript and under the pages'
Content-Security-Policy (no inline style or script: classes and presentation attributes only)."""

from __future__ import annotations

from typing import Any

from ..matches import Match

WIDTH, HEIGHT, PAD = 320, 150, 12


def running_totals(match: Match) -> dict[str, Any] | None:
    """The running totals hand by hand, from 0 before the first hand: one line per side, the
    target as a line across, a ring where the sides level. None before any hand is counted."""
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
        return round(PAD + i * (WIDTH - 2 * PAD) / steps)

    def y(value: int) -> int:
        return round(HEIGHT - PAD - (value - bottom) * (HEIGHT - 2 * PAD) / (top - bottom))

    lines = [{"side": side, "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))}
             for side, values in enumerate(series)]
    ties = [(x(i), y(values[0])) for i, values in enumerate(zip(*series))
            if i and len(set(values)) == 1]
    return {"width": WIDTH, "height": HEIGHT, "lines": lines, "ties": ties,
            "target": None if target is None else y(target), "left": PAD, "right": WIDTH - PAD,
            "zero": y(0), "totals": [s[-1] for s in series]}
