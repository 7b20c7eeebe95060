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
     "valent ensemble 5 points"),
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
    Scopa, se la somma è 30, ne segna due"), 9 or less three (it.wikipedia.org: "meno di 10, il
    mazziere le raccoglie e segna rispettivamente 1, 2 o 3 scope")."""
    page = read(client, "/rules/cirulla")
    shown = [(figure.attributes["data-table"], figure.attributes["data-scope"],
              figure.attributes["data-void"]) for figure in nodes(page, '[data-testid="first-table"]')]
    assert [(scope, void) for _, scope, void in shown] == [("1", "no"), ("2", "no"), ("1", "no"),
                                                            ("0", "yes"), ("3", "no")]
    assert "if they make 9 or less, three scope" in words(one(page, '[data-testid="deal-scope"]'))
    without = read(client, "/rules/cirulla?deal_scope=15-30")
    assert len(nodes(without, '[data-testid="first-table"]')) == 4
    assert "9 or less" not in words(one(without, '[data-testid="deal-scope"]'))
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


# -- Issue 42: the accusi in the words of the page, the form and the breakdown ----------------

ACCUSI_WORDS = {
    # RULES §11: "The Italian pages use *cirulla* and *decino* (the Sanremo rules: "accusare
    # cirulla ... e decino"), naming *busso* and *tris* as other names; English and French pages
    # use the same two words with a gloss."
    "it": ("una cirulla (detta anche busso): tre carte che fanno 9 o meno",
           "un decino (detto anche tris): tre carte dello stesso valore"),
    "en": ("a cirulla (also called busso): three cards adding up to 9 or less",
           "a decino (also called tris): three cards of one value"),
    "fr": ("une cirulla (aussi appelée busso) : trois cartes qui font 9 ou moins",
           "un decino (aussi appelé tris), un brelan : trois cartes de même valeur"),
}
ACE_SCOPA = {"it": "Un Asso giocato quando non ci sono Assi in tavola prende tutte le carte.",
             "en": "An Ace played when no Ace is on the table takes the whole table.",
             "fr": "Un As joué quand il n’y a pas d’As sur la table prend toute la table."}


@pytest.mark.parametrize("lang", ["it", "en", "fr"])
def test_the_rules_page_names_the_accusi_cirulla_and_decino(client, lang):
    page = read(client, "/rules/cirulla", lang)
    accusi = texts(page, '[data-testid="accusi"] li')
    for said, expected in zip(accusi, ACCUSI_WORDS[lang]):
        assert expected in said
    shown = texts(page, '[data-testid="declarations"] li > span:last-child')
    assert [said.split(":")[0].strip() for said in shown] == ["cirulla", "decino", "decino", "cirulla"]
    assert "busso:" not in words(one(page, "main")) and "tris:" not in words(one(page, "main"))


@pytest.mark.parametrize("lang", ["it", "en", "fr"])
def test_the_rules_page_says_the_aces_take_all_is_a_scopa(client, lang):
    # sourceforge.net/p/cirulla/wiki: "L'asso piglia tutto e fa scopa". Issue 42: "The rules
    # page says no source tells whether the Ace's take-all is a scopa".
    page = read(client, "/rules/cirulla", lang)
    rule = words(one(page, '[data-testid="capture-rule"]'))
    scopa = {"it": "Questa presa vale una scopa.", "en": "That is a scopa.", "fr": "C’est une scopa."}
    assert f"{ACE_SCOPA[lang]} {scopa[lang]}" in rule
    silent = {"it": "non dicono", "en": "do not say", "fr": "ne disent pas"}[lang]
    assert silent not in words(one(page, '[data-testid="readings"]'))
    # The first example of an Ace, on a table without one, is drawn as the scopa it is.
    aces = [figure for figure in nodes(page, '[data-testid="capture-example"]')
            if figure.attributes["data-played"] == "1d"]
    assert aces[0].css_first(".capture").attributes["data-sweep"] == "yes"


HEADINGS = {"it": ("Accusi cirulla o decino: tre carte mostrate dopo una distribuzione", "Accuso 1"),
            "en": ("Accusi a cirulla or a decino: three cards shown after a deal", "Accuso 1"),
            "fr": ("Accusi une cirulla ou un decino : trois cartes montrées après une donne", "Accuso 1")}


@pytest.mark.parametrize("lang", ["it", "en", "fr"])
def test_the_hand_forms_box_of_the_accusi_is_headed_accusi(client, lang):
    # RULES §11: "the hand form's box for the accusi is headed *Accusi* (never the name of
    # another game)". Issue 42: "The hand form's box for the accusi is headed "Sbarazzina", another
    # game, and lists "Dichiarazione 1..4"".
    made = client.post("/matches/new", data=match_form("cirulla"))
    page = read(client, made.headers["Location"] + "/hands/new", lang)
    heading, first = HEADINGS[lang]
    assert words(one(page, '[data-testid="declarations-heading"]')) == heading
    assert texts(page, "details.declaration summary")[0] == first
    assert "Sbarazzina" not in page and "Dichiarazione" not in page
    # After one of the hand's six deals (two players): RULES §11.
    assert texts(page, 'select[name="decl_0_deal"] option') == ["1", "2", "3", "4", "5", "6"]


def test_a_bazzicas_box_is_headed_declarations_never_another_game(client):
    made = client.post("/matches/new", data=match_form("piva"))
    page = read(client, made.headers["Location"] + "/hands/new", "it")
    assert words(one(page, '[data-testid="declarations-heading"]')) == (
        "Dichiarazioni bazzica o bazzicotto: tre carte mostrate dopo una distribuzione")
    assert texts(page, "details.declaration summary")[0] == "Dichiarazione 1"


def cirulla_hand(sides=3, **declared):
    """``hand_form``'s cards (for two sides, the third's pile goes with the rest to the second),
    and these declarations."""
    data = {key: value for key, value in hand_form().items() if not key.startswith("decl_")
            and (sides == 3 or key != "sweeps_2" and value != "2")}
    data.update(declared)
    return data


@pytest.mark.parametrize("lang, refused", [
    ("it", "Anna ha 2 accusi dopo la distribuzione 1: un giocatore accusa al massimo una volta a distribuzione"),
    ("en", "Anna has 2 accusi after deal 1: a player makes one a deal at most"),
    ("fr", "Anna a 2 accusi après la donne 1 : un joueur en fait au plus un par donne"),
])
def test_two_accusi_of_one_player_after_one_deal_are_refused_on_the_form(client, lang, refused):
    # Issue 42: "in a 1-v-1 match one side declared twice in deal 1 (six cards from a three-card
    # hand)". Nothing is recorded; the form says why in the page's language.
    made = client.post("/matches/new", data=match_form("cirulla", layout="3", player3="Carla"))
    match_url = made.headers["Location"]
    client.set_cookie("lang", lang)
    answer = client.post(match_url + "/hands/new", data=cirulla_hand(
        decl_0_side="0", decl_0_deal="1", decl_0_cards=["4c", "4s", "4b"],
        decl_1_side="0", decl_1_deal="1", decl_1_cards=["1b", "2c", "3s"]))
    assert answer.status_code == 400
    assert words(one(answer.get_data(as_text=True), '[data-testid="error"]')) == refused
    assert client.get(match_url).get_data(as_text=True).count('data-testid="hand-line"') == 0


def test_a_team_match_offers_the_three_deals_and_two_accusi_a_deal(client):
    # RULES §11: "3 for two teams of two"; "a team of two twice".
    data = match_form("cirulla", layout="2x2", player3="Carla", player4="Dario")
    match_url = client.post("/matches/new", data=data).headers["Location"]
    page = read(client, match_url + "/hands/new")
    assert texts(page, 'select[name="decl_0_deal"] option') == ["1", "2", "3"]
    saved = client.post(match_url + "/hands/new", data=cirulla_hand(
        2, confirm_extreme="1", decl_0_side="0", decl_0_deal="1", decl_0_cards=["4c", "4s", "4b"],
        decl_1_side="0", decl_1_deal="1", decl_1_cards=["1b", "2c", "3s"]))
    assert saved.status_code == 303, saved.get_data(as_text=True)[-600:]
