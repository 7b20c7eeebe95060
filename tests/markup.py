"""A page read as a browser reads it, by CSS selectors: what a test looks for in HTML, never a
regular expression over its text (which breaks when an attribute moves or a line wraps).

selectolax's Lexbor parser is the HTML5 parser of a browser engine, small and quick; each
function takes the page as a string, bytes or a Flask/Werkzeug response.

>>> page = '<ol class="hands"><li id="hand-1">Anna <b>4</b></li><li id="hand-2">Bruno\\n 2</li></ol>'
>>> texts(page, "ol.hands li")
['Anna 4', 'Bruno 2']
>>> text(page, "#hand-2"), attr(page, "li", "id"), count(page, "li b")
('Bruno 2', 'hand-1', 1)
>>> text(page, "#hand-1"), content('<p>Anna <b>4</b>, Bruno</p>', "p")
('Anna 4', 'Anna 4, Bruno')
"""
from __future__ import annotations

import re
from collections.abc import Iterator

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


def content(page, selector: str) -> str:
    """The text of the one node the selector finds as its ``textContent`` reads, white space
    folded: nothing added between elements, so ``<b>Anna 4</b>, <b>Bruno 0</b>`` reads
    ``Anna 4, Bruno 0`` (``text`` puts a space before the comma)."""
    return re.sub(r"\s+", " ", one(page, selector).text(separator="")).strip()


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


def reading(page, skip: str = "script, style") -> Iterator[LexborNode]:
    """Every element and text node of the page in the page's order, as a reader meets them: the
    content of a ``<template>`` included (a browser's parser keeps it out of the tree, where a
    script finds it), the subtrees the ``skip`` selector finds left out.

    >>> page = '<p title="t">a<script>x()</script> <b lang="fr">b</b><template><i>c</i></template></p>'
    >>> [node.text_content if node.is_text_node else node.tag for node in reading(page, "script, [lang]")]
    ['html', 'head', 'body', 'p', 'a', ' ', 'template', 'i', 'c']
    """
    tree = parse(page)
    left_out = {node.mem_id for node in tree.css(skip)}
    for fragment in tree.root.template_fragments():
        left_out |= {node.mem_id for node in fragment.css(skip)}
    yield from _reading(tree.root, left_out)


def _reading(node: LexborNode, left_out: set[int]) -> Iterator[LexborNode]:
    if node.is_text_node:
        yield node
        return
    if not node.is_element_node or node.mem_id in left_out:
        return                                                  # a comment, or left out
    yield node
    inner = node.template_fragments()[0] if node.tag == "template" else node
    child = inner.child
    while child is not None:
        yield from _reading(child, left_out)
        child = child.next


def form_data(page, selector: str = "form") -> list[tuple[str, str]]:
    """What a browser sends for the one form the selector finds when nobody has touched it: each
    enabled named field's value (a checkbox or a radio only when checked, a select's chosen
    option, its first if none is marked), in the page's order; buttons send nothing here.

    >>> form_data('<form><input name="a" value="1"><input type="checkbox" name="b" value="y">'
    ...           '<input type="radio" name="c" value="x" checked><input name="d" disabled value="2">'
    ...           '<select name="e"><option>one<option value="2" selected>two</select></form>')
    [('a', '1'), ('c', 'x'), ('e', '2')]
    """
    sent = []
    for field in one(page, selector).css("input[name], select[name], textarea[name]"):
        given, kind = field.attributes, (field.attributes.get("type") or "text").lower()
        if "disabled" in given or kind in ("submit", "button", "image", "reset", "file"):
            continue
        if field.tag == "select":
            options = field.css("option")
            chosen = [option for option in options if "selected" in option.attributes] or options[:1]
            if "multiple" not in given:
                chosen = chosen[-1:]
            sent += [(given["name"], option.attributes["value"] if option.attributes.get("value") is not None
                      else words(option)) for option in chosen]
        elif field.tag == "textarea":
            sent.append((given["name"], field.text()))
        elif kind not in ("checkbox", "radio") or "checked" in given:
            default = "on" if kind in ("checkbox", "radio") else ""
            sent.append((given["name"], default if given.get("value") is None else given["value"]))
    return sent
