"""One at a time, the lowest rank first: a lock whose waiters are served by rank, then in the order
they came (``web.access``: the PIN hashes of a process, a clean address's before a guessing one's).

Python's ``threading.Lock`` wakes its waiters in no promised order, and no library on PyPI that
the project could take gives a lock with priorities (``queue.PriorityQueue`` orders items, not
threads waiting for a turn), so this is a Condition over a heap of tickets, (rank, arrival): the
holder's release wakes the waiters and the one whose ticket is first takes the turn.

>>> turns = Turns()
>>> with turns.turn(0):
...     turns.waiting()
0
"""

from __future__ import annotations

import heapq
import itertools
import threading
from contextlib import contextmanager
from typing import Iterator


class Turns:
    """A turn at a time; among those waiting, the lowest ``rank``, then the first come."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._tickets: list[tuple[int, int]] = []
        self._arrivals = itertools.count()
        self._taken = False

    @contextmanager
    def turn(self, rank: int) -> Iterator[None]:
        """Wait for this turn (every lower rank, and every equal rank come before, goes first),
        hold it for the block, give it back after, an error too."""
        with self._changed:
            ticket = (rank, next(self._arrivals))
            heapq.heappush(self._tickets, ticket)
            self._changed.notify_all()          # one more waiting (until_waiting)
            try:
                self._changed.wait_for(lambda: not self._taken and self._tickets[0] == ticket)
            except BaseException:       # never left in the heap, or the next in line waits forever
                self._tickets.remove(ticket)
                heapq.heapify(self._tickets)
                self._changed.notify_all()
                raise
            heapq.heappop(self._tickets)
            self._taken = True
        try:
            yield
        finally:
            with self._changed:
                self._taken = False
                self._changed.notify_all()

    def waiting(self) -> int:
        """How many wait for a turn now."""
        with self._changed:
            return len(self._tickets)

    def until_waiting(self, count: int, timeout: float) -> bool:
        """Until ``count`` wait for a turn (False when ``timeout`` seconds pass first): a test
        queues its waiters in a known order so, without sleeping."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._tickets) >= count, timeout)
