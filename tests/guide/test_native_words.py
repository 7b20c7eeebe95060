"""Words a native player signs (issue 42), searched as tests/guide/test_rules_words.py searches
them: each slip the issue lists, and those a native reading of every rules page found, gone from
the catalogues and from every page that showed them (the rules pages and the list, a hand's
form, a match's breakdown, the referee's card, a player's record, a tournament, a match's
delete); Chkobba's points in its players' words; a refusal said alone is a sentence."""

import re

import pytest
from babel.messages.pofile import read_po
from copied_store import app_on_a_copy
from test_rules_words import read as read_page

from companion.rules import PRESETS
from helpers import HAND, finish, organiser
from markup import one, texts, words

CATALOGUE = "companion/translations/{}/LC_MESSAGES/messages.po"

# Each phrase as a page showed it (a blank filled) or as the catalogue had it.
SLIPS = {
    "it": ["seme privilegiato", "non si può calare", "si può anche calare", "Non sono compresi qui",
           "Il controllo della distribuzione dell'arbitro", "Non si sommano punti",
           "nella Scopa d'Assi prendere tutto", "0 vinta", "0 persa", "anche 0 mani", "busso (tre carte",
           "un busso:", "un tris:", "fanno 8, 9 o meno", "con anche il 4",
           # the second native reading (r42-native): the cards lie "in tavola", never on "il
           # tavolo" in the same breath; calques of the English; one word for one thing
           "tutto il tavolo", "a tavolo vuoto", "A tavolo vuoto", "il tavolo è vuoto", "mai al tavolo",
           "carte dal tavolo", "Alcuni tavoli", "Un tavolo che vuole", "chi sta davanti a tutti",
           "e li somma", "qualcuno non passa davanti", "questa versione", "el velo", "o tris)", "di fila dal",
           "altrimenti non piglia mai tutto", "altrimenti mai tutto", "fanno 15 con essa"],
    "fr": ["enseigne de bonus", "Absents ici", "Qui l’a\u00a0? La calculer",
           "des plus de points de classement aux moins", "terminée\u00a0: le tour", "Sa 0 manche",
           "10 ♦ carreau", "les 10 ♦ carreau", "3 scopa\u00a0:", "à la Scopa d’Assi, prendre",
           "à la Scopa Corse, la prise", "la carte est posée", "jusqu’au bout, personne ne la marque",
           "peut être posée sur la table", "dont les valeurs additionnées", "Tour 1 terminée",
           # the second native reading (r42-native)
           "Vider la table fait", "vider la table fait", "sont parmi les premières", "et les additionne",
           "un camp passe devant", "À égalité jusqu’au bout", "livres de Hurrikan", "cette version",
           "el velo", "l’application les applique", "Dame et Valet (", "Avant que l’on joue",
           "chaque autre variante", "en apporte de nouvelles", "la partie double", "il ne prend jamais tout",
           "sinon jamais toute la table", "Quatre premières cartes qui font", "Certaines tables donnent",
           "parce qu’elle est de la même valeur"],
    "en": ["in Scopa d'Assi taking the table", "in Scopa Corse capturing", "a busso (three cards",
           "The card must capture: it may not be placed",
           # Cirulla's Ace read as the opposite of its rule ("otherwise" = with no Ace on the
           # table); Spanish's article in an English sentence
           "otherwise it never takes all", "never the whole table otherwise", "el velo"],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory, migrated_store):
    app = app_on_a_copy(migrated_store, tmp_path_factory.mktemp("words") / "w.sqlite",
                        SECRET_KEY="words", WTF_CSRF_ENABLED=False)
    return organiser(app)


def read(client, path: str, lang: str) -> str:
    """The page as test_rules_words reads it, its apostrophes as the catalogues write them."""
    return read_page(client, path, lang).replace("&#39;", "'")


@pytest.fixture(scope="module")
def shown(client):
    """Every page that showed one of the slips, its path in a match or a tournament made here."""
    paths = ["/rules", *(f"/rules/{preset}" for preset in PRESETS),
             *(f"/referee/rules?variant={preset}" for preset in ("chkobba", "cirulla", "sbarazzina"))]
    for variant in ("classica", "cirulla", "chkobba", "bazzica"):
        match = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "variant": variant})
        match_id = match.get_json()["id"]
        assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
        paths += [f"/matches/{match_id}", f"/matches/{match_id}/hands/new?mode=tallies"]
    empty = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    paths.append(f"/matches/{empty}/delete")
    # Anna loses a finished match to Bruno: her head-to-head has a 0 won.
    lost = client.post("/api/v1/matches", json={"players": ["Bruno", "Anna"]}).get_json()["id"]
    finish(client, lost)
    anna = next(p["id"] for p in client.get("/api/v1/players").get_json()["players"] if p["name"] == "Anna")
    paths += [f"/players/{anna}", "/players?order=rating", "/players/rating"]
    night = client.post("/api/v1/tournaments", json={"name": "Giovedì", "format": "round-robin",
                                                     "options": {"target": 5}, "entrants": ["Carla", "Dario"]})
    tournament = client.post(f"/api/v1/tournaments/{night.get_json()['id']}/rounds", json={}).get_json()
    finish(client, tournament["rounds"][0]["tables"][0]["match"])
    paths.append(f"/tournaments/{tournament['id']}")
    return paths


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_the_slips_are_gone_from_the_catalogue(lang):
    with open(CATALOGUE.format(lang), encoding="utf-8") as po:
        said = " ".join(str(message.string) for message in read_po(po) if message.id)
    for slip in SLIPS[lang]:
        assert slip not in said, slip


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_the_slips_are_gone_from_every_page(client, shown, lang):
    for path in shown:
        page = read(client, path, lang)
        for slip in SLIPS[lang]:
            assert slip not in page, (path, slip)


@pytest.mark.parametrize("preset", ["sbarazzina", "piva"])
def test_sbarazzina_and_piva_say_what_their_own_ace_does(client, preset):
    # 003, Sbarazzina: "As in Scopa d'Assi an Ace takes all the cards on the table but this does
    # not count as a sweep." Issue 42: "The Sbarazzina and Piva pages state what Scopa d'Assi does
    # with the Ace". The rule is theirs; the reasons no longer name another game.
    page = read(client, f"/rules/{preset}", "it")
    reasons = " ".join(texts(page, '[data-testid="capture-example"] .reasons li'))
    assert "prendere tutte le carte in tavola con un Asso non è mai scopa" in reasons
    assert "Scopa d'Assi" not in reasons
    assert "Non è mai scopa." in words(one(page, '[data-testid="capture-rule"]'))


CHKOBBA = {  # seed 003: "Kārṭa", "Dīnārī", "Barmīla", "Sabʿa l-ḥayya"; a sweep "is called a chkobba"
    "it": ["Karta (carte)", "Dinari (quadri)", "Sabaa el haya (settebello)", "Bermila (primiera)", "Chkobba (scope)"],
    "fr": ["Karta (cartes)", "Dinari (carreaux)", "Sabaa el haya (sept de carreau)", "Bermila (primiera)",
           "Chkobba (scope)"],
    "en": ["Karta (cards)", "Dinari (diamonds)", "Sabaa el haya (seven of diamonds)", "Bermila (primiera)",
           "Chkobba (scope)"],
}


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_chkobba_names_its_points_as_its_players_do(client, lang):
    page = read(client, "/rules/chkobba", lang)
    assert texts(page, "#points dt") == CHKOBBA[lang]
    assert all(label in read(client, "/referee/rules?variant=chkobba", lang) for label in CHKOBBA[lang])
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "variant": "chkobba"}).get_json()["id"]
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
    breakdown = texts(read(client, f"/matches/{match_id}", lang), 'table.breakdown th[scope="rowgroup"]')
    assert [label for label in CHKOBBA[lang] if not any(row.startswith(label) for row in breakdown)] == []
    form = read(client, f"/matches/{match_id}/hands/new?mode=tallies", lang)
    assert CHKOBBA[lang][0] in texts(form, ".tally-label") and CHKOBBA[lang][4] in texts(form, ".sweeps h2")
    # Another game keeps its own words.
    assert texts(read(client, "/rules/classica", lang), "#points dt")[0] == {"it": "Carte", "fr": "Cartes",
                                                                             "en": "Cards"}[lang]


@pytest.mark.parametrize("lang, heading", [("fr", "Scope"), ("it", "Scope"), ("en", "Scope")])
def test_the_scopes_headings_are_plural(client, lang, heading):
    # Issue 42: French "the Scopas' headings in the singular".
    assert heading in texts(read(client, "/rules/classica", lang), "#points dt")


@pytest.mark.parametrize("lang, refusal", [
    ("it", "In tavola vanno 4 carte: ne sono state indicate 5"),
    ("fr", "La table de départ compte 4 cartes : 5 cartes indiquées"),
    ("en", "The first table is 4 cards: 5 cards were given"),
])
def test_a_refusal_said_alone_starts_with_a_capital(client, lang, refusal):
    # Issue 42: "error messages starting in lower case (all catalogues)".
    client.set_cookie("lang", lang)
    table = "&".join(f"table={card}" for card in ("1d", "2d", "3d", "4d", "5d"))
    page = client.get(f"/referee/deal?variant=classica&{table}").get_data(as_text=True)
    said = words(one(page, '[data-testid="error"]'))
    assert said[0].isupper() and said == refusal


def test_no_sentence_counts_zero_hands(client):
    match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    said = {lang: words(one(read(client, f"/matches/{match_id}/delete", lang), '[data-testid="goes-with-it"]'))
            for lang in ("it", "fr", "en")}
    assert said["it"].startswith("Non ha ancora nessuna mano.")
    assert said["fr"].startswith("Aucune manche n’y est encore enregistrée.")
    assert said["en"].startswith("No hand has been recorded in it yet.")


@pytest.mark.parametrize("preset", PRESETS)
def test_italian_rules_pages_put_the_cards_in_tavola(client, preset):
    # The native reading (r42-native): "A tavolo vuoto l'Asso ... resta in tavola" named the
    # table the cards lie on two ways in one sentence. It is "la tavola" ("in tavola", "la tavola
    # è vuota"); "il tavolo" is a tournament's table, which no rules page shows.
    said = " ".join(texts(read(client, f"/rules/{preset}", "it"), "main"))
    assert re.findall(r".{0,30}\btavol[oi]\b.{0,20}", said) == []


@pytest.mark.parametrize("lang, none, other", [("it", "nessun accuso", "nessuna dichiarazione"),
                                                ("fr", "aucun accuso", "aucune déclaration"),
                                                ("en", "no accusi", "no declarations")])
def test_a_cirulla_hand_without_accusi_says_so_in_cirullas_word(client, lang, none, other):
    # A Cirulla hand's breakdown headed its line "Accusi" and said "nessuna dichiarazione" beside
    # it (r42-native); Bazzica's declarations keep their word.
    said = {}
    for variant in ("cirulla", "bazzica"):
        match_id = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"], "variant": variant}).get_json()["id"]
        assert client.post(f"/api/v1/matches/{match_id}/hands", json=HAND).status_code == 201
        said[variant] = " ".join(texts(read(client, f"/matches/{match_id}", lang), "table.breakdown"))
    assert none in said["cirulla"] and other not in said["cirulla"]
    assert other in said["bazzica"]
