"""A player's rating over time, drawn on the server as inline SVG like the match's chart (no script,
no inline style: classes and presentation attributes only), from ``store.rating_history``.
Plain Python: the page's template draws what this works out."""

from __future__ import annotations

from math import ceil, floor
from typing import Any, Sequence

from ..web.charts import numbered, round_step

WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 42, 10, 10, 22
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)
START = 1500        # a new player's figure (store.ratings.BASE): where every line starts
LABELS = 6          # matches numbered below at most


def rating_chart(history: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The line of a player's rating, from a new player's 1,500 to the figure after each
    finished match; the figures on the left (a few round values), the matches numbered below.
    None before the first finished match.

    >>> chart = rating_chart([{"rating": 1586}, {"rating": 1540}])
    >>> chart["points"], [value for _y, value in chart["figures"]], chart["last"]
    ('42,138 176,28 310,87', [1500, 1525, 1550, 1575, 1600], 1540)
    """
    if not history:
        return None
    values = [START, *(point["rating"] for point in history)]
    top, bottom = max(values), min(values)
    step = round_step(top - bottom, STEPS)
    bottom = floor(bottom / step) * step
    top = max(ceil(top / step) * step, bottom + step)
    steps = len(values) - 1

    def x(i: int) -> int:
        return round(LEFT + i * (WIDTH - LEFT - RIGHT) / steps)

    def y(value: float) -> int:
        return round(HEIGHT - BOTTOM - (value - bottom) * (HEIGHT - TOP - BOTTOM) / (top - bottom))

    matches = [(x(i), i) for i in numbered(steps, LABELS)]
    figures = [(y(v), v) for v in range(bottom, top + 1, step)]
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
            "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
            "start": y(START), "figures": figures, "figure_x": LEFT - 5,
            "matches": matches, "match_y": HEIGHT - 6, "end": (x(steps), y(values[-1])),
            "last": values[-1], "first": values[1]}
