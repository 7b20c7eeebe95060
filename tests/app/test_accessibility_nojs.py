"""axe-core on the pages a phone without JavaScript goes through to keep the score; a page that
is only for such a phone is held to a 360 px screen with its text drawn at 130% and 200% in the
same load (tests/app/test_accessibility.py, whose pages, phones and check these are; cut from it
so that pytest-xdist's workers share its time)."""

import pytest
from test_accessibility import NO_JS_CASES, check, made, phones  # noqa: F401  (made, phones: the fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("spec, js, lang", NO_JS_CASES)
def test_no_serious_or_critical_violation_without_javascript(spec, js, lang, phones, made):   # noqa: F811
    check(spec, js, lang, phones, made)
