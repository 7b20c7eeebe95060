"""What only the table's browser tests share (tests/table/test_live.py, test_undo.py,
test_offline.py, test_after_the_match.py...): a phone's timers run now rather than waited out,
and the phones of a module kept open for all its tests.

A page whose clock is installed (``page.clock.install()`` before the page is opened) keeps time
as a real page does, so everything else on it runs as it always does; these jump its clock to
the timer a test is waiting for (the live region's poll every 2 s, the outbox's next try after
1 ... 30 s), which then fires at once. A timer that fires too early to see the change (a poll
answered before another phone's save) is followed by the next as on any phone: the test waits
for what the page shows, never for time, and only waits longer."""

import pytest

from helpers import phone_context

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


def page_scripts(page):
    """A switch for the page's own scripts, through the DevTools protocol: ``switch(False)``
    before a page is opened makes it a phone without JavaScript (no ``js`` class on <html>,
    ``<noscript>`` drawn, nothing of static/ run), on the module's phone with JavaScript rather
    than a context of its own (a renderer started, its scripts and styles fetched: a second on a
    busy machine); ``switch(True)`` lets a check run a script of its own (axe never settles
    without them). tests/app/test_accessibility.py's phones without JavaScript use it too."""
    devtools = page.context.new_cdp_session(page)
    return lambda on: devtools.send("Emulation.setScriptExecutionDisabled", {"value": not on})


class Phones:
    """The phones of a module's browser tests: one browser context for each kind of phone (its
    language, JavaScript on or off: ``helpers.phone_context``), opened at its first use and kept
    for the module; each test opens its pages in it (``page``).

    A new context for every test made Chromium start a renderer for its first page and fetch the
    pages' scripts, styles and fonts again into an empty cache: a second or more of every test on
    a busy machine, where a page in a context already open takes a tenth of it. What one test
    leaves in the context is cleared after it (``clear``), so that the next starts as a phone
    that never opened the companion: the pages closed, the cookies (the session, its CSRF token
    and PINs, the language chosen, the phone's id) gone, the storage (the outbox, the
    celebrations seen) emptied, the network back, permissions taken back. Each test makes its
    own matches, so nothing else of one reaches another. A test that needs what no phone of
    these has (a server behind a relay, a context's init script) opens a context of its own."""

    def __init__(self, browser, server: str):
        self.browser, self.server = browser, server
        self.contexts: dict[tuple[str, bool], object] = {}
        self.used: set[tuple[str, bool]] = set()        # the kinds the test under way opened a page on
        self.kept: dict[tuple[str, bool], object] = {}   # each phone's page kept open (``context``)

    def context(self, locale: str = "en-GB", scripts: bool = True):
        """The module's phone of this kind, opened at its first use, with a page of its own kept
        open on the companion's health check (a page with no script): a context whose last page
        closes lets its renderer go, and its next page waits for a new one (a second on a busy
        machine). The storage is cleared on that page."""
        key = (locale, scripts)
        if key not in self.contexts:
            context = self.contexts[key] = phone_context(self.browser, self.server, scripts=scripts, locale=locale)
            self.kept[key] = context.new_page()
            self.kept[key].goto(self.server + "/healthz")
        return self.contexts[key]

    def page(self, locale: str = "en-GB", scripts: bool = True):
        """A new page on the phone of this kind."""
        self.used.add((locale, scripts))
        return self.context(locale, scripts).new_page()

    def clear(self) -> None:
        """What the test left on every phone cleared (the class's docstring)."""
        for key in self.used:
            context, kept = self.contexts[key], self.kept[key]
            for page in context.pages:
                if page != kept:
                    page.close()
            context.set_offline(False)
            if key[1]:                  # the companion's storage, emptied from its kept page
                kept.evaluate("() => localStorage.clear()")
            context.clear_cookies()
            context.clear_permissions()
        self.used.clear()

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()


@pytest.fixture(scope="module")
def phones(browser, server):
    """The module's kept phones (``Phones``); a test asks for ``phone_page`` instead."""
    kept = Phones(browser, server)
    yield kept
    kept.close()


@pytest.fixture
def phone_page(phones):
    """``phone_page(locale="en-GB", scripts=True)``: a new page on the module's phone of that
    kind (``page.context`` is the phone), whatever the test leaves on it cleared after it."""
    yield phones.page
    phones.clear()
