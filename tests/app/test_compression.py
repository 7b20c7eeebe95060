"""Pages, fragments and JSON gzipped for a phone that accepts it (web/compression.py, which
replaced flask-compress in issue 45): what is worth it, and only that; the ETags that name the
encoding, as the API's clients read them."""

import gzip

import pytest
from flask import Flask, Response

from companion.web import compression
from helpers import FOUR_NIL, new_match

BIG = "<p>" + "Anna e Bruno, 11 a 9. " * 80 + "</p>"      # about 1.8 KB of HTML


@pytest.fixture
def bare():
    return Flask(__name__)


def answered(bare, body, headers=None, status=200, mimetype="text/html", etag=None, accept="gzip",
             **request_headers):
    with bare.test_request_context(headers={"Accept-Encoding": accept, **request_headers}):
        response = Response(body, status=status, mimetype=mimetype, headers=headers)
        if etag:
            response.set_etag(*etag)
        return compression.compressed(response)


def test_a_page_is_gzipped_for_a_phone_that_accepts_it(bare):
    response = answered(bare, BIG, accept="gzip, deflate, br")
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.get_data()).decode() == BIG
    assert int(response.headers["Content-Length"]) == len(response.get_data()) < len(BIG) / 5
    assert "Accept-Encoding" in response.vary


@pytest.mark.parametrize("case", ["no Accept-Encoding", "gzip refused", "small", "an image",
                                  "a stream", "an error", "encoded already"])
def test_what_is_sent_as_it_is(bare, case):
    given = {"body": BIG}
    given.update({
        "no Accept-Encoding": {"accept": ""},
        "gzip refused": {"accept": "gzip;q=0, identity"},
        "small": {"body": BIG[:900]},               # fits in one packet either way
        "an image": {"mimetype": "image/png"},
        "a stream": {"body": iter([BIG.encode()])},
        "an error": {"status": 404},
        "encoded already": {"headers": {"Content-Encoding": "br"}},
    }[case])
    response = answered(bare, **given)
    assert response.headers.get("Content-Encoding") in (None, "br")
    if case != "a stream":
        assert response.get_data() == (given["body"] if isinstance(given["body"], bytes) else given["body"].encode())


def test_a_strong_etag_names_the_encoding_a_weak_one_stays(bare):
    strong = answered(bare, BIG, etag=("3",))
    assert strong.get_etag() == ("3:gzip", False)
    weak = answered(bare, BIG, etag=("m1-v3", True))
    assert weak.get_etag() == ("m1-v3", True)
    again = answered(bare, BIG, etag=("3",), **{"If-None-Match": '"3:gzip"'})
    assert again.status_code == 304          # sent with no body (werkzeug drops it)


def test_the_apis_hand_answers_gzipped_keep_their_version(client):
    """A hand's ETag, gzipped, is "1:gzip": an If-None-Match with it is answered 304, and an
    If-Match with it edits the hand made from version 1."""
    match_id = new_match(client)
    saved = client.post(f"/api/v1/matches/{match_id}/hands", json=FOUR_NIL)
    url = saved.headers["Location"]
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.get_etag() == ("1:gzip", False)
    assert client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": '"1:gzip"'}).status_code == 304
    edited = client.put(url, json=FOUR_NIL, headers={"If-Match": '"1:gzip"'})
    assert edited.status_code == 200 and edited.get_etag()[0] == "2"
