"""A page read as a browser reads it, by CSS selectors: what a test looks for in HTML, never a
regular expression over its text (which breaks when an attribute moves or a line wraps).

selectolax's Lexbor parser is the HTML5 parser of a browser engine, small and quick; each
function takes the page as a string, bytes or a Flask/Werkzeug response.

>>> page = '<ol class="hands"><li id="hand-1">Anna <b>4</b></li><li id="hand-2">Bruno\\n 2</li></ol>'
>>> texts(page, "ol.hands li")
['Anna 4', 'Bruno 2']
>>> text(page, "#hand-2"), attr(page, "li", "id"), count(page, "li b")
('Bruno 2', 'hand-1', 1)
"""
from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode


def parse(page) -> LexborHTMLParser:
    """The page parsed: ``page`` is HTML as str or bytes, or a response (its body)."""
    if hasattr(page, "get_data"):
        page = page.get_data()
    if isinstance(page, bytes):
        page = page.decode("utf-8")
    return page if isinstance(page, LexborHTMLParser) else LexborHTMLParser(page)


def words(node: LexborNode) -> str:
    """A node's text as a reader sees it: its words separated by single spaces."""
    return re.sub(r"\s+", " ", node.text(separator=" ")).strip()


def nodes(page, selector: str) -> list[LexborNode]:
    return parse(page).css(selector)


def one(page, selector: str) -> LexborNode:
    """The one node the selector finds; an AssertionError naming the selector if it finds none
    or several."""
    found = nodes(page, selector)
    assert len(found) == 1, f"{selector!r} finds {len(found)} nodes, not one"
    return found[0]


def texts(page, selector: str) -> list[str]:
    """The text of every node the selector finds, in the page's order."""
    return [words(node) for node in nodes(page, selector)]


def text(page, selector: str) -> str:
    """The text of the one node the selector finds."""
    return words(one(page, selector))


def attr(page, selector: str, name: str) -> str | None:
    """Attribute ``name`` of the first node the selector finds (None when it has none); an
    AssertionError if the selector finds nothing."""
    found = parse(page).css_first(selector)
    assert found is not None, f"{selector!r} finds nothing"
    return found.attributes.get(name)


def attrs(page, selector: str, name: str) -> list[str | None]:
    """Attribute ``name`` of every node the selector finds."""
    return [node.attributes.get(name) for node in nodes(page, selector)]


def count(page, selector: str) -> int:
    return len(nodes(page, selector))
