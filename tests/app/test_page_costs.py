"""What a page's words cost (issue 41): the catalogue is looked up once per request, not once per
message. Proved by counting Flask-Babel's lookups, never by timing."""

from flask_babel import force_locale, gettext

from companion.i18n import fitting
from helpers import HAND, new_match


def test_a_page_looks_its_catalogue_up_once(app, client, monkeypatch):
    """The match page of a few hands says hundreds of messages; each looked Flask-Babel's
    catalogue and locale up again (a fifth of the match page's time at 200 hands). Now once a
    request, and the page reads the same."""
    match_id = new_match(client, options={"target": 1000})
    for _ in range(5):
        client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    before = client.get(f"/matches/{match_id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    lookups = []
    real = fitting.get_translations
    monkeypatch.setattr(fitting, "get_translations", lambda: lookups.append(1) or real())
    page = client.get(f"/matches/{match_id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert len(lookups) == 1
    assert page.count("Mano") == 0 and page.count("Manche") == before.count("Manche") > 0


def test_a_locale_forced_for_a_while_is_its_own(app):
    """A message said under ``force_locale`` is in that language, and the page's language
    comes back after it: the kept catalogue is the locale's, not the request's."""
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert gettext("Cards") == "Carte"
        with force_locale("fr"):
            assert gettext("Cards") == "Cartes"
        assert gettext("Cards") == "Carte"
