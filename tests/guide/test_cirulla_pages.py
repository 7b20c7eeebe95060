"""Cirulla on the pages (issue 34): its rules page in it, en and fr drawn from the engine, the
referee's deal check, and a match of three players played to 51 through the forms."""

import pytest

from companion.rules import check_deal, parse_cards, rules_for
from companion.rules.deal import deal_plan
from helpers import match_form
from markup import nodes, one, text, texts, words

CIRULLA = rules_for("cirulla")


def read(client, path, lang="en"):
    client.set_cookie("lang", lang)
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("lang, glance, grande", [
    ("en", "2 or 3 players, or two teams of two; 40 cards; first to 51", "together score 5 points"),
    ("it", "2 o 3 giocatori, o due coppie; 40 carte; si gioca a 51", "insieme valgono 5 punti"),
    ("fr", "2 ou 3 joueurs, ou deux équipes de deux ; 40 cartes ; en 51 points",   # words() folds the U+00A0
     "ensemble valent 5 points"),
])
def test_the_rules_page_in_each_language(client, lang, glance, grande):
    page = read(client, "/rules/cirulla", lang)
    assert glance in words(one(page, '[data-testid="glance"]'))
    assert grande in words(one(page, '[data-testid="grande"]'))
    assert one(page, '[data-testid="matta"]') is not None


def test_every_deal_plan_shown_adds_up_to_forty(client):
    page = read(client, "/rules/cirulla")
    rows = texts(page, '[data-testid="deals"] tbody th')
    assert rows == ["2", "3", "4"]              # no 6: Cirulla seats 2, 3 or two teams of two
    for players in map(int, rows):
        plan = deal_plan(CIRULLA, players)
        assert sum(plan.hands) * players + plan.table == 40


def test_the_first_tables_drawn_are_the_engines_own(client):
    """15 gives the dealer one scopa, 30 two, the matta makes 15, two Aces void the deal
    (regoledelgioco.com: "se la somma di queste carte è 15 il mazziere le raccoglie e segna una
    Scopa, se la somma è 30, ne segna due")."""
    page = read(client, "/rules/cirulla")
    shown = [(figure.attributes["data-table"], figure.attributes["data-scope"],
              figure.attributes["data-void"]) for figure in nodes(page, '[data-testid="first-table"]')]
    assert [(scope, void) for _, scope, void in shown] == [("1", "no"), ("2", "no"), ("1", "no"),
                                                            ("0", "yes")]
    for table, scope, void in shown:
        check = check_deal(parse_cards(table.split()), CIRULLA)
        assert (str(check.scope), "yes" if check.void else "no") == (scope, void)


def test_the_referee_tells_the_dealer_his_scope(client):
    answer = client.get("/referee/deal?variant=cirulla&table=10d&table=10c&table=4s&table=6b")
    assert answer.status_code == 200
    assert text(answer, '[data-testid="dealer-scope"]') == "The dealer scores 2 scope"
    voided = client.get("/referee/deal?variant=cirulla&table=1d&table=1c&table=5s&table=8b")
    assert text(voided, '[data-testid="verdict"]') == "Deal again"


FIRST = " ".join([f"{value}d" for value in range(1, 11)] + ["7c", "7s", "7b", "6c", "6s", "6b",
                                                             "1c", "1s", "5c", "5s", "5b"])


def hand_form(rest=1):
    """Anna's pile (grande, every coin but the piccola counts 6, settebello, primiera, most
    cards), three sweeps, a decino for Anna and a cirulla for Carla: 28 for Anna, 3 for Carla."""
    data = {"mode": "piles", "rest": str(rest), "save": "1",
            "sweeps_0": "3", "sweeps_1": "0", "sweeps_2": "0",
            "decl_0_side": "0", "decl_0_deal": "2", "decl_0_cards": ["4c", "4s", "4b"],
            "decl_1_side": "2", "decl_1_deal": "3", "decl_1_cards": ["1b", "2c", "3s"]}
    for card in FIRST.split():
        data[f"c_{card}"] = "0"
    for card in ("2s", "2b", "3b"):
        data[f"c_{card}"] = "2"
    return data


def test_a_match_of_three_to_fifty_one_through_the_pages(client):
    made = client.post("/matches/new", data=match_form("cirulla", layout="3", player3="Carla"))
    assert made.status_code == 303, made.get_data(as_text=True)[-800:]
    match_id = int(made.headers["Location"].rsplit("/", 1)[1])
    for expected in ([28, 0, 3], [56, 0, 6]):
        saved = client.post(f"/matches/{match_id}/hands/new", data=hand_form())
        assert saved.status_code == 303, saved.get_data(as_text=True)[-800:]
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        assert [int(t) for t in texts(page, '[data-testid^="total-"]')] == expected
    assert "Anna wins" in words(one(page, '[data-testid="outcome"]'))


def test_four_players_each_for_themselves_are_refused_in_words(client):
    data = match_form("cirulla", layout="4", player3="Carla", player4="Dario")
    answer = client.post("/matches/new", data=data)
    assert answer.status_code == 400
    assert "two or three players, or by two teams of two" in answer.get_data(as_text=True)



def test_the_hand_by_counts_asks_for_the_runs_of_the_grande_and_the_piccola(client):
    made = client.post("/matches/new", data=match_form("cirulla"))
    page = client.get(made.headers["Location"] + "/hands/new").get_data(as_text=True)
    for name in ("t_napola_0", "t_alta_0", "t_napola_1", "t_alta_1"):
        assert len(nodes(page, f'input[name="{name}"]')) == 1, name
