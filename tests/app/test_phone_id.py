"""A phone's own identity (``web.phone.phone_id``): one per session cookie, kept by the phone,
never shared by two phones, and not made for a phone that has not needed one."""

import pytest
from flask import session

from companion import create_app
from companion.web.phone import ID_KEY, phone_id
from helpers import phone


@pytest.fixture
def own_app(app_config, copy_of_migrated):
    """An app of the test's own, which it gives a route of its own: the ``app`` fixture's is
    the worker's, and Flask takes no route once an app has answered."""
    copy_of_migrated(app_config["DATABASE"])
    return create_app(app_config)


def test_each_phone_keeps_one_id_and_two_phones_differ(own_app):
    app = own_app
    app.add_url_rule("/test-phone-id", "test_phone_id", lambda: phone_id() or "")
    seen = {}
    for name, address in (("anna", "192.168.1.61"), ("bruno", "192.168.1.62")):
        client = phone(app, address)
        ids = {client.get("/test-phone-id").get_data(as_text=True) for _ in range(3)}
        assert len(ids) == 1, ids                   # the same phone keeps its id
        seen[name] = ids.pop()
    assert seen["anna"] != seen["bruno"]
    assert all(len(value) == 16 for value in seen.values())


def test_no_id_is_made_unless_asked_and_a_bad_one_is_replaced(app):
    with app.test_request_context("/"):
        assert phone_id(create=False) is None
        assert ID_KEY not in session
        session[ID_KEY] = "not-an-id"
        assert phone_id(create=False) is None
        made = phone_id()
        assert made != "not-an-id" and session[ID_KEY] == made
