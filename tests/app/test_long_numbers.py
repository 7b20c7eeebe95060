"""Issue 32, finding 9: no number in a request makes a 500, however long. Python refuses to read
an integer of more than 4,300 digits (``ValueError``): every route of the app's ``url_map`` is
asked with a 5,000-digit number in each part of its path, in each query parameter the code
reads (one at a time, so that none hides behind another refused first), in ``If-Match`` and
``If-None-Match``, and in a form's and a JSON body's fields, by the organiser and by a phone.
None answers 500; a refusal says what is wrong in the phone's language (JSON for the API).

A route is asked with a long number only in the query parameters it reads (issue 44: the sweep
asked every route with every parameter, 5,500 requests a caller, most of them whole pages drawn
for a parameter nobody read; 219 worker-seconds). Which ones it reads is not guessed: the
request's parameters note every name the code asks for (``Noting``), and a route is asked with
each name it asked for, then with each name that request made it ask for in turn. A parameter a
route never asks for changes nothing in its answer, so the sweep proves what it proved before."""

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.datastructures import ImmutableMultiDict

from companion.api import queries
from companion.rules.rulesets import ITEMS
from helpers import HAND, new_match, phone

LONG = "9" * 5000
CODE = Path(__file__).parents[2] / "companion"
# Each path part's value in a route when it is not the long number: things that exist.
REAL = {"match_id": "1", "hand_id": "1", "player_id": "1", "change_id": "1", "tournament_id": "1",
        "variant": "classica", "code": "it"}
FORM_FIELDS = ("number", "hand", "version", "sweeps_0", "sweeps_1", "total_0", "total_1",
               "points_0", "points_1", "target", "players", "rounds", "first_dealer", "layout",
               "page", "claimer", "selected", "match")


@functools.cache
def parameters_read() -> frozenset[str]:
    """Every query parameter the code reads by name (``request.args.get("x")``,
    ``request.args["x"]``, ``"x" in request.args``, the API's ``query_number("x", ...)``), and
    the rule items the guide and the referee read from the query (``?target=21``)."""
    names = set(ITEMS)
    for path in CODE.rglob("*.py"):
        text = path.read_text()
        names |= set(re.findall(r'request\.args(?:\.get)?[\(\[]"(\w+)"', text))
        names |= set(re.findall(r'"(\w+)" (?:not )?in request\.args', text))
        names |= set(re.findall(r'query_number\("(\w+)"', text))
    # The API's listings read their queries through one model each (api/queries.py).
    names |= {name for model in vars(queries).values() if isinstance(model, type) and issubclass(model, queries.Query)
              for name in model.model_fields}
    return frozenset(names)


def test_the_sweep_reads_the_parameters_the_issue_names():
    assert {"target", "limit", "page", "before", "match", "sides", "since", "round"} <= parameters_read()


def address(rule, values: dict[str, str]) -> str:
    """The rule's path with each part's value."""
    path = rule.rule
    for name in rule.arguments:
        path = re.sub(r"<(?:[^:<>]+:)?" + name + ">", values.get(name, "1"), path)
    return path


def noted(method, what):
    """``method`` of werkzeug's MultiDict, noting ``what`` it reads (``"key"``: the name asked
    for, else every name) in ``Noting.read`` first."""
    def noting(self, *args, **kwargs):
        Noting.read.add(args[0] if what == "key" else Noting.EVERY)
        return method(self, *args, **kwargs)
    return noting


class Noting(ImmutableMultiDict):
    """A request's parameters (its query's and its form's: werkzeug's ``parameter_storage_class``)
    that note each name the code asks for in ``read``, and every name it may be given (``EVERY``)
    when the code goes through them all (``request.args.items()``)."""

    read: set[str] = set()
    EVERY = "every name"


for _name in ("__getitem__", "__contains__", "getlist"):
    setattr(Noting, _name, noted(getattr(ImmutableMultiDict, _name), "key"))
for _name in ("__iter__", "keys", "items", "lists", "values", "listvalues", "to_dict"):
    setattr(Noting, _name, noted(getattr(ImmutableMultiDict, _name), "every"))


def asked(client, method: str, path: str, **kwargs) -> tuple[int | str, set[str]]:
    """The answer's status (or the error the tests' app let through) and the parameters the
    code asked for (``parameters_read()`` whole if it went through them all)."""
    Noting.read = set()
    try:            # the tests' app lets an error through (TESTING) where a server answers 500
        status: int | str = client.open(path, method=method, **kwargs).status_code
    except Exception as error:      # noqa: BLE001 - each one is listed
        status = f"{type(error).__name__}: {str(error)[:50]}"
    names = parameters_read()
    return status, names if Noting.EVERY in Noting.read else Noting.read & names


def answers(client, rule, method: str) -> Iterator[tuple[str, int | str]]:
    """Every way a long number reaches ``rule`` and what each answered: in each part of its path,
    in each query parameter it reads, in the headers that carry a version, in a form's or a JSON
    body's fields."""
    real = address(rule, REAL)
    if rule.arguments:
        yield "the path", asked(client, method, address(rule, {name: LONG for name in rule.arguments}))[0]
    status, reads = asked(client, method, real)
    yield "no parameter", status
    tried: set[str] = set()
    while reads - tried:
        name = min(reads - tried)
        tried.add(name)
        status, more = asked(client, method, real, query_string={name: LONG})
        yield f"?{name}", status
        reads |= more
    yield "If-Match", asked(client, method, real, headers={"If-Match": f'"{LONG}"',
                                                           "If-None-Match": f'"{LONG}"'})[0]
    if method != "GET":
        if real.startswith("/api/"):
            fields = ", ".join(f'"{name}": {LONG}' for name in ("version", "number", "limit", "claimer"))
            yield "JSON", asked(client, method, real, data="{%s}" % fields,
                                content_type="application/json")[0]
        else:
            yield "a form", asked(client, method, real, data={name: LONG for name in FORM_FIELDS})[0]


def noting(app, monkeypatch) -> None:
    """``app``'s requests from now on with parameters that note what the code reads."""
    monkeypatch.setattr(app, "request_class", type("NotingRequest", (app.request_class,),
                                                   {"parameter_storage_class": Noting}))


def test_the_sweep_sees_which_parameters_a_route_reads(app, client, monkeypatch):
    """The sweep asks a route with the names it read: were a request's parameters not noted,
    it would ask nothing but the path."""
    noting(app, monkeypatch)
    assert asked(client, "GET", "/api/v1/matches") == (200, {"limit", "before", "state"})
    status, names = asked(client, "GET", "/referee/captures")      # goes through them all
    assert status == 200 and names == parameters_read()


@pytest.mark.parametrize("reads", [True, False], ids=["reads", "writes"])
@pytest.mark.parametrize("who", ["organiser", "phone"])
def test_no_long_number_anywhere_makes_a_500(app, client, who, reads, monkeypatch):
    match_id = new_match(client)
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    assert client.post("/api/v1/tournaments", json={"name": "Sera", "format": "round-robin",
                                                    "entrants": ["A", "B", "C", "D"]}).status_code == 201
    asker = client if who == "organiser" else phone(app)
    noting(app, monkeypatch)
    failures = []
    # The reads and the writes each on a store of their own (a write may take away what a
    # read would reach).
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"
             and (rule.methods == {"GET", "HEAD", "OPTIONS"}) == reads]
    for rule in rules:
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for where, status in answers(asker, rule, method):
                if not isinstance(status, int) or status >= 500:
                    failures.append(f"{method} {rule.rule} {where}: {status}")
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("path, words", [
    ("/api/v1/matches?limit=L", "limit is at most 200"),
    ("/api/v1/players?limit=L", "limit is at most 500"),
    ("/api/v1/players?page=L", "page is at most 1000000"),
])
def test_the_api_says_which_number_is_too_big(client, path, words):
    response = client.get(path.replace("L", LONG))
    assert response.status_code == 400 and response.get_json()["error"] == words


def test_a_long_before_is_past_every_match(client):
    """``before`` past SQLite's biggest id leaves no match out, however long it is written."""
    new_match(client)
    assert len(client.get(f"/api/v1/matches?before={LONG}").get_json()["matches"]) == 1


def test_a_long_version_is_a_version_the_hand_never_had(client):
    match_id = new_match(client)
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    response = client.delete(f"/api/v1/matches/{match_id}/hands/1", headers={"If-Match": f'"{LONG}"'})
    assert response.status_code in (409, 412) and response.is_json
    assert client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]


@pytest.mark.parametrize("language, words", [
    ("it", "il traguardo deve essere un numero intero da 1 a 1000"),
    ("fr", "le score à atteindre doit être un nombre entier de 1 à 1000"),
    ("en", "target must be a whole number from 1 to 1000"),
])
def test_a_long_target_is_refused_in_the_phones_language(client, language, words):
    response = client.get(f"/rules/classica?target={LONG}", headers={"Accept-Language": language})
    assert response.status_code == 400 and words in response.get_data(as_text=True)


def test_a_version_in_other_digits_is_refused_not_a_500(client):
    """``"²".isdigit()`` is true, but ``int("²")`` is a ValueError: only ASCII digits are read."""
    match_id = new_match(client)
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    response = client.delete(f"/api/v1/matches/{match_id}/hands/1", headers={"If-Match": '"²"'})
    assert response.status_code == 400 and "version" in response.get_json()["error"]


@pytest.mark.parametrize("language, words", [
    ("en", "a number in the JSON has more than 4300 digits"),
    ("it", "un numero nel JSON ha più di 4300 cifre"),
    ("fr", "un nombre du JSON a plus de 4300 chiffres"),
])
def test_a_long_number_in_a_json_body_is_named(client, language, words):
    """Python's JSON reader refuses the body: the API says why, not "send a JSON object"."""
    response = client.post("/api/v1/captures", data='{"table": [], "played": "7d", "page": %s}' % LONG,
                           content_type="application/json", headers={"Accept-Language": language})
    assert response.status_code == 400 and response.get_json()["error"] == words
