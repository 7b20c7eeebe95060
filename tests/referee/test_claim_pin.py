"""A claim is recorded only by a phone that may record in the match: one without the match's
PIN is sent to the PIN page, then back to the claim, as every page that records is
(``web.access.pin_page``, which ``pin_required`` uses too)."""

from helpers import new_match, phone


def test_a_phone_without_the_pin_is_sent_to_the_pin_page_and_back_to_the_claim(app, client):
    match_id = new_match(client, pin="246810", options={"claims": True})
    guest = phone(app)
    answer = guest.post(f"/referee/claim?match={match_id}&sides=3", data={"claimer": "1", "c_1c": "1"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/matches/{match_id}/pin?next=/referee/claim?match%3D{match_id}"
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"] == []
    asked = guest.get(f"/referee/claim?match={match_id}&claimer=1&c_1c=1")
    assert asked.status_code == 200         # asking changes nothing: no PIN needed


def test_a_page_that_records_sends_a_phone_without_the_pin_the_same_way(app, client):
    match_id = new_match(client, pin="246810")
    answer = phone(app).get(f"/matches/{match_id}/hands/new?mode=tallies")
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/matches/{match_id}/pin?next=/matches/{match_id}/hands/new?mode%3Dtallies"
