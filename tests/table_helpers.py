"""What only the table's browser tests share (tests/table/test_live.py, test_undo.py,
test_offline.py, test_after_the_match.py): a phone's timers run now rather than waited out.

A page whose clock is installed (``page.clock.install()`` before the page is opened) keeps time
as a real page does, so everything else on it runs as it always does; these jump its clock to
the timer a test is waiting for (the live region's poll every 2 s, the outbox's next try after
1 ... 30 s), which then fires at once. A timer that fires too early to see the change (a poll
answered before another phone's save) is followed by the next as on any phone: the test waits
for what the page shows, never for time, and only waits longer."""

# ms: the live region polls every 2 s (templates/table/_live_poll.html), the board every 3 s
# (templates/tournaments/_board_live.html); the outbox tries again after 30 s at most
# (static/sending.js, AGAIN).
POLL = 3_000
OUTBOX = 30_000


def polled_now(page) -> None:
    """The page's polls sent now: its clock moved on past their timers."""
    page.clock.fast_forward(POLL)


def sent_again_now(page) -> None:
    """The outbox's next try (and the polls) made now: its clock moved on past their timers."""
    page.clock.fast_forward(OUTBOX)
