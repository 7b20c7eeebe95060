"""axe-core on the pages a phone without JavaScript goes through to keep the score, and every page
held to a 360 px screen with its text drawn at 130% and 200% (tests/app/test_accessibility.py,
whose pages, phones and check these are; cut from it so that pytest-xdist's workers share its
time)."""

import urllib.request

import pytest
from test_accessibility import NO_JS_CASES, PAGES, check, made, phones  # noqa: F401  (made, phones: the fixtures)

from helpers import SPILLING

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("spec, js, lang", NO_JS_CASES)
def test_no_serious_or_critical_violation_without_javascript(spec, js, lang, phones, made):   # noqa: F811
    check(spec, js, lang, phones, made)


# -- Text drawn larger ---------------------------------------------------------------------------
# Two ways a phone draws text larger, each at 130% and at 200%:
# - Chrome on Android's text scaling (the system's font size) multiplies every font's size and
#   leaves the boxes as they are, sized in rem or px: what text-size-adjust does in Chromium with
#   a phone's viewport, set here on the page's root;
# - a larger default font size (other browsers' text size settings) grows the root's font size,
#   and with it whatever the page sizes in rem: text, margins and paddings alike.
TEXT_SIZES = (130, 200)
SCALINGS = {"text scaling": "webkitTextSizeAdjust = '{size}%'",
            "root font size": "fontSize = '{pixels}px'"}

@pytest.mark.parametrize("spec", PAGES, ids=[page.name for page in PAGES])
def test_every_page_holds_with_text_drawn_larger(spec, phones, made):   # noqa: F811
    """Issue 22: with the phone's text at 130% and at 200%, every page stays within a 360 px
    screen and nothing in it is cut off or spills over its box (a word may break, then only)."""
    phone = phones[spec.scripted]
    page = phone.page
    if spec.before:
        spec.before(page, made)
    page.goto(f"/lang/en?next={urllib.request.quote(spec.path.format(**made))}")
    if spec.then:
        spec.then(page, made)
    root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    found = {}
    for way, style in SCALINGS.items():
        for size in TEXT_SIZES:
            page.evaluate("document.documentElement.style."
                          + style.format(size=size, pixels=root * size / 100))
            width = page.evaluate("document.scrollingElement.scrollWidth")
            spilling = page.evaluate(SPILLING)
            if width > 360 or spilling:
                found[f"{way} {size}%"] = [f"page {width} px wide", *spilling]
            page.evaluate("document.documentElement.removeAttribute('style')")
    assert found == {}, f"{spec.name}: {found}"
