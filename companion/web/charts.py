"""What the pages' charts share (the match's running totals, a player's rating): the round
step of the figures on the left, and which points are numbered below. Plain Python."""

from __future__ import annotations

from math import ceil
from typing import Sequence

STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def round_step(span: float, steps: Sequence[int] = STEPS, most: int = 4) -> int:
    """The smallest of ``steps`` that marks ``span`` in ``most`` steps or fewer.

    >>> round_step(11), round_step(86, (10, 20, 25, 50))
    (5, 25)
    """
    return next((step for step in steps if span / step <= most), steps[-1])


def numbered(count: int, most: int) -> list[int]:
    """Which of the points 1 to ``count`` are numbered below a chart: at most about ``most``,
    evenly, and the last always, not crowded by the one before it.

    >>> numbered(5, 8), numbered(20, 8), numbered(17, 8)
    ([1, 2, 3, 4, 5], [3, 6, 9, 12, 15, 20], [3, 6, 9, 12, 17])
    """
    every = ceil(count / most)
    shown = [i for i in range(1, count + 1) if i % every == 0 or i == count]
    if len(shown) > 1 and shown[-1] - shown[-2] < every:
        del shown[-2]
    return shown
