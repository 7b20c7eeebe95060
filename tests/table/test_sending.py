"""The pages' side of issue 31 (static/sending.js does the rest, tested in a browser in
test_offline.py): every write at the table is a form with its real action and method, so it
works without JavaScript, and carries hx-boost, so that with JavaScript it is sent without
leaving the page; the writes that may be sent again by themselves are marked for the outbox,
with a label in the page's language; every page has the words the script shows."""

from dataclasses import dataclass

from helpers import HAND, new_match
from markup import parse


@dataclass
class Forms:
    """Each form of a page (its attributes), and each element with an id (its attributes)."""
    forms: list[dict]
    ids: dict[str, dict]


def a_hand(client, match_id: int) -> int:
    """Hand 1 recorded through the JSON API: its id."""
    response = client.post(f"/api/v1/matches/{match_id}/hands", json=HAND)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["hand"]["id"]


def forms_of(client, url: str) -> Forms:
    response = client.get(url)
    assert response.status_code == 200, url
    page = parse(response)
    return Forms(forms=[form.attributes for form in page.css("form")],
                 ids={node.attributes["id"]: node.attributes for node in page.css("[id]")})


def posts(parsed: Forms) -> list[dict]:
    return [form for form in parsed.forms if form.get("method") == "post"]


def test_every_write_at_the_table_posts_to_its_action_and_is_sent_by_htmx(client):
    match_id = new_match(client)
    hand_id = a_hand(client, match_id)
    pages = [f"/matches/{match_id}/hands/new", f"/matches/{match_id}/hands/{hand_id}/edit",
             f"/matches/{match_id}/hands/{hand_id}/delete", f"/matches/{match_id}", "/matches/new"]
    for url in pages:
        for form in posts(forms_of(client, url)):
            assert form.get("action", "").startswith("/"), (url, form)
            assert form.get("hx-boost") == "true", (url, form)


def test_a_hand_and_its_delete_wait_in_the_outbox_a_new_match_does_not(client):
    match_id = new_match(client)
    hand_id = a_hand(client, match_id)
    new_hand = posts(forms_of(client, f"/matches/{match_id}/hands/new"))[0]
    # Only the buttons that save: not "Cards"/"Counts" or the primiera tool.
    assert new_hand["data-outbox"].split() == ["save", "confirm_extreme", "resolve"]
    assert new_hand["data-outbox-label"] == "Anna – Bruno · Hand 2"
    delete = posts(forms_of(client, f"/matches/{match_id}/hands/{hand_id}/delete"))[0]
    assert delete["data-outbox"] == "" and delete["data-outbox-label"] == "Anna – Bruno · Delete hand 1?"
    new_match_form = posts(forms_of(client, "/matches/new"))[0]
    assert "data-outbox" not in new_match_form


def test_every_page_has_the_words_the_script_shows_in_its_language(client):
    match_id = new_match(client)
    client.get("/lang/it")
    parsed = forms_of(client, f"/matches/{match_id}")
    banner = parsed.ids["offline-banner"]
    assert banner["role"] == "status"
    assert banner["data-text"] == "Offline dalle {time}: il punteggio potrebbe non essere aggiornato"
    assert "hidden" in parsed.ids["outbox"]
    text = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
    assert ("Non inviato: l'app non è raggiungibile. Resta su questo telefono e sarà inviato "
            "appena possibile.") in text
