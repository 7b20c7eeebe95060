"""Escoba's points, captures and first tables as RULES §12 words them, worked out here by a
scorer of its own: small, written from the section's words alone and independent of the
engine, which tests/rules/test_escoba.py and tests/api/test_escoba_api.py check against it.

Cards are "7d" strings; a side's pile a set of them.
"""

from __future__ import annotations

from itertools import combinations


def _only_top(figures: list) -> int | None:
    """The one side strictly ahead, or None: "A tie in cartas, oros or setenta scores nothing"."""
    best = max(figures)
    return figures.index(best) if figures.count(best) == 1 else None


def _value(code: str) -> int:
    return int(code[:-1])


# The primiera's points (RULES §3's standard scale), for `primiera: standard`.
PRIMIERA_POINTS = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
# Uruguay's setenta: "La mayor cantidad de sietes. En caso de empate se cuentan los seis, luego
# los unos y luego los cincos, en ese orden" (entretodos.com.uy); then on down (RULES §3).
COUNT_DOWN = (7, 6, 1, 5, 4, 3, 2, 10, 9, 8)


def _setenta(piles: list[set[str]], method: str) -> int | None:
    if method == "sevens":
        return _only_top([sum(1 for c in pile if _value(c) == 7) for pile in piles])
    if method == "count-down":
        keys = []
        for pile in piles:
            counts = [sum(1 for c in pile if _value(c) == v) for v in COUNT_DOWN[:7]]
            counts.append(sum(1 for c in pile if _value(c) >= 8))       # the figures together
            keys.append(tuple(counts))
        return _only_top(keys)
    totals, whole = [], []
    for pile in piles:
        best = {suit: max((PRIMIERA_POINTS[_value(c)] for c in pile if c[-1] == suit), default=None)
                for suit in "dcsb"}
        totals.append(sum(v for v in best.values() if v is not None))
        whole.append(None not in best.values())
    if any(whole):      # the missing suit loses to any side with all four
        totals = [t if w else -1 for t, w in zip(totals, whole)]
    return _only_top(totals)


def reference_points(piles: list[set[str]], escobas: list[int], method: str = "sevens") -> list[dict]:
    """Each side's points: cartas, oros, velo, setenta 1 each to the one side ahead, and 1 an
    escoba (RULES §12)."""
    n = len(piles)
    points = [{"cartas": 0, "oros": 0, "velo": 0, "setenta": 0, "escobas": escobas[i]} for i in range(n)]
    for item, winner in (("cartas", _only_top([len(p) for p in piles])),
                         ("oros", _only_top([sum(1 for c in p if c.endswith("d")) for p in piles])),
                         ("velo", next(i for i, p in enumerate(piles) if "7d" in p)),
                         ("setenta", _setenta(piles, method))):
        if winner is not None:
            points[winner][item] = 1
    return points




def reference_captures(table: list[str], played: str) -> set[frozenset[str]]:
    """Every set of table cards making 15 with the card played (RULES §12)."""
    need = 15 - _value(played)
    return {frozenset(chosen) for size in range(1, len(table) + 1)
            for chosen in combinations(table, size) if sum(map(_value, chosen)) == need}


def reference_dealer_escobas(table: list[str]) -> int:
    """RULES §12: "A first table adding up to 15 is taken by the dealer as one escoba, 30 (two
    fifteens) as two (`deal_scope: 15-30`)": what the four cards add up to decides, as it does
    for `deal_scope` under every variant (RULES §8, §11)."""
    return {15: 1, 30: 2}.get(sum(_value(c) for c in table), 0)
