"""Issue 12 without JavaScript: a table plays safely on a phone whose browser runs no script.
Without scripts a page is its HTML: its links and forms, sent as a browser sends them. So the
flow is walked here by a test client that does only what such a browser does (``Browser``):
it follows the links the page draws and sends the forms the page draws, each field as the page
fills it, the button tapped adding its own name and value, to the form's action or the button's
``formaction``, the CSRF token the page holds included (checked, as a real server checks it).
What needs the browser itself (the hint a script would fill hidden by the CSS, the page at
360 px) is in tests/app/test_browser.py (``test_without_javascript_the_hand_form_fits_at_360_px``).
"""

from urllib.parse import urljoin

import pytest
from werkzeug.datastructures import MultiDict

from companion.rules import deck
from markup import content, form_data, nodes, one, text, words


@pytest.fixture
def csrf() -> bool:
    """As a real server: the forms' tokens checked."""
    return True


class Browser:
    """A phone's browser without JavaScript: the page it shows (``page``, its HTML and
    address), the links it follows and the forms it sends, following each redirect."""

    def __init__(self, client):
        self.client = client
        self.url = self.page = None
        self.status = 0

    def open(self, url: str, data: list[tuple[str, str]] | None = None) -> "Browser":
        answer = (self.client.get(url, follow_redirects=True) if data is None
                  else self.client.post(url, data=MultiDict(data), follow_redirects=True))
        self.url, self.status = answer.request.path + ("?" + answer.request.query_string.decode()
                                                       if answer.request.query_string else ""), answer.status_code
        self.page = answer.get_data(as_text=True)
        return self

    def link(self, label: str) -> "Browser":
        """The one link whose words hold ``label`` followed (as Playwright's ``get_by_role``
        finds it by its name)."""
        found = [a for a in nodes(self.page, "a[href]") if label.lower() in words(a).lower()]
        assert len(found) == 1, f"{len(found)} links read {label!r} at {self.url}"
        return self.open(urljoin(self.url, found[0].attributes["href"]))

    def press(self, label: str, **fields: str) -> "Browser":
        """The one button whose words hold ``label`` tapped, after ``fields`` were set in its form
        (a select's option chosen, a radio checked, a field typed in: each must be a field of
        that form; an empty value clears it)."""
        buttons = [b for b in nodes(self.page, "button") if label.lower() in words(b).lower()]
        assert len(buttons) == 1, f"{len(buttons)} buttons read {label!r} at {self.url}"
        button = buttons[0]
        form = button.parent
        while form is not None and form.tag != "form":
            form = form.parent
        assert form is not None, f"{label!r} is in no form at {self.url}"
        names = {field.attributes.get("name") for field in form.css("input, select, textarea")}
        assert set(fields) <= names, f"no field {sorted(set(fields) - names)} in the form of {label!r}"
        sent = [(name, value) for name, value in form_data(form.html, "form") if name not in fields]
        sent += [(name, value) for name, value in fields.items()]
        if button.attributes.get("name"):
            sent.append((button.attributes["name"], button.attributes.get("value") or ""))
        action = button.attributes.get("formaction") or form.attributes.get("action") or self.url
        assert (form.attributes.get("method") or "get").lower() == "post", label
        return self.open(urljoin(self.url, action), sent)


def test_without_javascript_a_table_plays_safely(client):
    """A new match (the variant's seating loaded by its button), a hand whose cards were put in
    the wrong pile refused with the count, the score shown on request, the hand saved; then the
    rematch, the archive and a confirmed delete. Each step only what the page drew."""
    phone = Browser(client).open("/matches/new")
    phone.press("Load this variant's rules", preset="scopone")
    assert "checked" in one(phone.page, 'input[name="layout"][value="2x2"]').attributes
    phone.press("Load this variant's rules", preset="classica")
    phone.press("Start the match", layout="2", player1="Anna", player2="Bruno", target="3", first_dealer="0")
    match_url = phone.url
    assert match_url.startswith("/matches/"), match_url
    phone.link("Tap the cards")
    # The trap the issue saw: cards given to Bruno while Bruno also gets the rest.
    phone.press("Save hand 1", rest="1", c_1c="1", c_2c="1", c_3c="1")
    assert phone.status == 400
    assert "37 cards are in no pile" in text(phone.page, '[data-testid="error"]')
    # Put right: Anna's 18 cards, the score asked for, then saved.
    anna = {f"c_{card}": "0" for card in [str(c) for c in deck() if c.suit in "cs"][:18]}
    phone.press("Show the score", rest="1", **{"c_1c": "", "c_2c": "", "c_3c": "", **anna})
    assert "Anna 0, Bruno 4" in content(phone.page, '[data-testid="preview-totals"]')
    assert text(phone.page, '.pile-count[data-pile="0"]') == "18 cards, 0 coins"
    phone.press("Save hand 1")
    # Bruno takes every point with every coin: asked first, as a page (test_undo.py).
    phone.press("Yes, save Bruno 4 – Anna 0")
    assert phone.url == match_url
    assert text(phone.page, '[data-testid="outcome"]') == "Bruno wins 4 to 0"
    phone.press("Rematch")
    assert phone.url != match_url and "Bruno deals" in text(phone.page, ".next-hand")
    phone.open(match_url).press("Move to the archive")
    old_id = match_url.rsplit("/", 1)[1]
    assert "is archived" in text(phone.page, ".flash")
    assert not nodes(phone.page, f'a.match-item[href="/matches/{old_id}"]')
    phone.open("/matches?state=archived")
    assert len(nodes(phone.page, f'a.match-item[href="/matches/{old_id}"]')) == 1
    phone.open(match_url).link("Delete…")
    assert "Delete Anna – Bruno?" in text(phone.page, "h1")
    phone.press("Yes, delete it")
    assert "Anna – Bruno deleted: for a day the organiser can bring it back." in text(phone.page, ".flash")
    assert phone.open(match_url).status == 404
