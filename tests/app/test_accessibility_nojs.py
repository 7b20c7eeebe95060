"""axe-core on the pages a phone without JavaScript goes through to keep the score; a page that
is only for such a phone is held to a 360 px screen with its text drawn at 130% and 200% in the
same load (tests/app/test_accessibility.py, whose pages, phones and check these are; cut from it
so that pytest-xdist's workers share its time)."""

import urllib.error
import urllib.request

import pytest
from test_accessibility import BY_NAME, NO_JS_CASES, NO_JS_SAME, SCRIPTED, check, made, phones  # noqa: F401  (made, phones: the fixtures)

from helpers import ORGANISER_HEADERS
from markup import nodes

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("spec, js, lang", NO_JS_CASES)
def test_no_serious_or_critical_violation_without_javascript(spec, js, lang, phones, made):   # noqa: F811
    check(spec, js, lang, phones, made)


def test_the_pages_checked_with_javascript_alone_hold_nothing_the_scripts_change(made):   # noqa: F811
    """Each page of NO_JS_SAME, as the server sends it, has no part the page's scripts change
    (test_accessibility.SCRIPTED), and is checked as it opens: a phone without JavaScript sees
    what the phone with it sees, whose check it is left to."""
    for name in NO_JS_SAME:
        spec = BY_NAME[name]
        assert spec.then is None and spec.before is None, name
        try:
            # as the suite's browser asks it: the organiser's (tournament-new is theirs alone)
            asked = urllib.request.Request(made["server"] + spec.path.format(**made), headers=ORGANISER_HEADERS)
            with urllib.request.urlopen(asked, timeout=10) as answer:
                html = answer.read().decode()
        except urllib.error.HTTPError as refused:       # the 404 page, drawn all the same
            assert refused.code == spec.status, (name, refused.code)
            html = refused.read().decode()
        scripted = [node.html[:80] for node in nodes(html, SCRIPTED)]
        assert scripted == [], f"{name}: check it without JavaScript too (test_accessibility.NO_JS_SAME): {scripted}"
