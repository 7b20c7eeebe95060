"""Every page in Italian, English, French and Spanish, and nothing in a second language.

The catalogues are checked against the code (every message extracted by pybabel is translated
in all four languages, its blanks kept, and the compiled .mo files say what the .po files say);
then every page a player meets is rendered in each language: its ``lang``, no message left in the
source language, none of the other languages' giveaway words, cards named in words.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from copied_store import app_on_a_copy

import companion
from companion.rules import PRESETS
from helpers import organiser
from markup import form_data, parse, reading

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = Path(companion.__file__).resolve().parent / "translations"
LANGUAGES = ("it", "en", "fr", "es")
BLANK = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]")


@pytest.fixture
def csrf():
    """This module's companion checks CSRF tokens, as a real server does."""
    return True


def catalogue(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages of the code and templates now, as pybabel extracts them (docs/development.md,
    "Translations")."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    CommandLineInterface().run([
        "pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "said", "-k", "said_n:1,2",
        "-k", "_l", "-k", "lazy_gettext", "--no-location", "-o", str(pot), str(ROOT)])
    with open(pot, "rb") as f:
        messages = [m for m in read_po(f) if m.id]
    assert len(messages) > 400         # the extraction found the code's messages
    return messages


def forms(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_code_is_translated_with_its_blanks(extracted, lang):
    translated = catalogue(lang)
    problems = []
    for message in extracted:
        found = translated.get(message.id if isinstance(message.id, str) else message.id[0])
        if found is None or found.fuzzy or not all(forms(found)):
            problems.append(f"not translated: {message.id!r}")
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        blanks = set(BLANK.findall(ids[0])) | set(BLANK.findall(ids[-1]))
        for text in forms(found):
            kept = set(BLANK.findall(text))
            # a singular may say "one" for its count ("1 mano" needs no %(num)d)
            if kept - blanks or blanks - kept - {"%(num)d", "{n}"}:
                problems.append(f"blanks differ: {message.id!r} -> {text!r}")
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_says_what_the_po_says(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        compiled = {tuple(m.id) if isinstance(m.id, list) else m.id: tuple(m.string)
                    if isinstance(m.string, list) else m.string for m in read_mo(mo) if m.id}
    written = {m.id: m.string for m in catalogue(lang) if m.id and not m.fuzzy}
    stale = [msgid for msgid, text in written.items() if compiled.get(msgid) != text]
    assert stale == [], "run: pybabel compile -d companion/translations"


# -- Every page in each language ------------------------------------------------------------

def visible(page: str, hints: bool = False) -> tuple[str | None, str]:
    """The page's ``lang``, and the words a player reads or hears: text, and the title,
    aria-label and alt of elements, a button's value, the placeholders (the notation a typed
    field takes) if ``hints``; not scripts, and not an element marked with its own ``lang``
    (the language switch names each language in itself)."""
    lang, words, placeholders = read_once(page)
    return lang, " ".join(" ".join(words + (placeholders if hints else [])).split())


@functools.cache
def read_once(page: str) -> tuple[str | None, list[str], list[str]]:
    """``visible``'s reading of a page: its ``lang``, its words and its placeholders, each page
    parsed and walked once for the module (issue 44: the tour's pages were read again by each
    test that reads them, and twice by each test of a page, with and without its hints)."""
    tree = parse(page)
    words, placeholders = [], []
    for node in reading(tree, skip="script, style, [lang]:not(html)"):
        if node.is_text_node:
            words += [node.text_content.strip()] if node.text_content.strip() else []
        elif node.tag != "html":
            attributes = node.attributes
            words += [attributes[name] for name in ("title", "aria-label", "alt") if attributes.get(name)]
            placeholders += [attributes["placeholder"]] if attributes.get("placeholder") else []
            if node.tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
                words.append(attributes["value"])
    return tree.root.attributes.get("lang"), words, placeholders


# Words that give another language away (whole words, any case): each is common in its own
# language and is never a game term, a variant's name ("Scopa di Quindici") or a word of the
# others ("carte" and "il" are French too), but for those in SHARED.
GIVEAWAYS = {
    "en": ["the", "and", "hand", "hands", "match", "wins", "with", "cards", "save", "delete",
           "tap", "enter", "players", "who", "deals", "of", "back", "new", "not", "rules", "sweep"],
    "it": ["mano", "mani", "partita", "partite", "vince", "della", "delle", "gioca", "giocatori",
           "salva", "elimina", "tocca", "regole", "nessuno", "chi", "sono", "questa"],
    "fr": ["manche", "manches", "partie", "parties", "gagne", "les", "avec", "joueurs",
           "enregistrer", "supprimer", "touchez", "règles", "personne", "donne", "des", "une"],
    "es": ["manos", "partida", "partidas", "gana", "jugadores", "guardar", "borrar", "toca", "reglas",
           "nadie", "reparte", "los", "las", "cartas", "puntos", "quién", "esta", "mesa"],
}
# A giveaway of one language that is a word of another: Spanish says "mano" as Italian does, and
# "les" ("les da más cartas").
SHARED = {"es": {"mano", "les"}}
# A variant's own terms, which its pages keep in every language as Chkobba's keep karta and
# dinari: Escoba's point for the most cards is the cartas in English, Italian and French too
# (RULES.md section 12, "Words"). Only on that variant's pages: elsewhere they give a page away.
OWN_TERMS = {"escoba": {"cartas"}}


def giveaways(text: str, lang: str, variant: str | None = None) -> list[str]:
    """The words of another language in ``text``, but for those shared with ``lang`` and the
    own terms of ``variant``, whose page it is.

    >>> giveaways("Cartas: 1 point for the most cards (cartas)", "en")
    ['cartas']
    >>> giveaways("Cartas: 1 point for the most cards (cartas)", "en", "escoba")
    []
    >>> giveaways("Cartas: 1 point for the most cards of the partida", "en", "escoba")
    ['partida']
    """
    words = set(re.findall(r"[^\W\d_]+", text.lower()))
    allowed = SHARED.get(lang, set()) | OWN_TERMS.get(variant, set())
    return sorted(word for other in LANGUAGES if other != lang for word in GIVEAWAYS[other]
                  if word in words and word not in allowed)


# The pages a player meets; {m} a match with every bonus, finished, {p} one with a PIN.
PAGES = {
    "home": "/",
    "matches": "/matches",
    "new match": "/matches/new",
    "new match, Scopone": "/matches/new?preset=scopone",
    "match with every bonus": "/matches/{m}",
    "a hand's breakdown": "/matches/{m}/hands/{h}",
    "hand by cards": "/matches/{s}/hands/new?mode=piles",
    "hand by counts": "/matches/{s}/hands/new?mode=tallies",
    "edit a hand": "/matches/{s}/hands/{sh}/edit",
    "delete a hand": "/matches/{s}/hands/{sh}/delete",
    "join": "/matches/{m}/join",
    "PIN": "/matches/{p}/pin",
    "watching a match with a PIN": "/matches/{p}",
    "backup": "/backup",
    "leaderboard by rating": "/players?order=rating",
    "a player's rating": "/players/1",
    "organiser": "/organiser",
    "referee": "/referee/",
    "captures": "/referee/captures?table=7d&table=3c&table=4s&played=7c",
    "captures under Asso pigliatutto": "/referee/captures?variant=asso-pigliatutto&table=7d&played=1c",
    "captures of a match": "/referee/captures?match={s}&table=7d&table=3c&table=4s&played=7c",
    "primiera": "/referee/primiera?best_0_d=7&best_0_c=6&best_0_s=1&best_0_b=5&best_1_d=7&best_1_c=7",
    "primiera, most sevens": "/referee/primiera?variant=sco-papa&cards_0=7d+7c+6s&cards_1=7s+6d+6c",
    "deal": "/referee/deal?table=10d&table=10c&table=10s&table=4b",
    "rules of a match": "/referee/rules?match={m}",
    "rules of Bazzica": "/referee/rules?variant=bazzica",
    "claim": "/referee/claim?claimer=0&total_0=9&total_1=4&c_7d=0&c_1d=0&c_2d=0&c_3d=0&sweeps_0=1",
    "claim, refused": "/referee/claim?claimer=abc",
    "no such page": "/no/such/page",
    "no such match": "/matches/999",
    # The rules pages: every variant, a match's own rules, and the items a query may change.
    "the variants": "/rules",
    **{f"the rules of {name}": f"/rules/{name}" for name in PRESETS},
    "the rules of a match": "/rules/classica?match={m}",
    "the rules with items changed": "/rules/napola?deck=36&napola=to-horse&cappotto=1&claims=1&double_under=8"
                                    "&capture=scopa-d-assi&ace_takes_itself=1&void_deal=aces&bonus_suit=c",
    "the rules, a change refused": "/rules/classica?target=abc",
}
VARIANT_OF = {f"the rules of {name}": name for name in PRESETS}    # the pages of one variant


@pytest.fixture(scope="module")
def tour(tmp_path_factory, migrated_store):
    """A store with a finished match scoring every bonus at once, a match in play with the
    Scalette and a hand, and a match with a PIN; and the pages drawn from it so far (render)."""
    app = app_on_a_copy(migrated_store, tmp_path_factory.mktemp("tour") / "t.sqlite",
                        SECRET_KEY="tour", WTF_CSRF_ENABLED=False)
    api = organiser(app)
    # Anna takes every denari and coppe (the Napola and the Re Bello with them) and a sweep;
    # Bruno the spade and bastoni, the Piva among them; a bazzica of Anna's after deal 1.
    every = api.post("/api/v1/matches", json={
        "players": ["Anna", "Bruno"], "first_dealer": 0,
        "options": {"re_bello": True, "napola": "to-six", "piva": True, "declarations": "bazzica",
                    "target": 5}}).get_json()
    piles = [[f"{v}{s}" for s in "dc" for v in range(1, 11)],
             [f"{v}{s}" for s in "sb" for v in range(1, 11)]]
    hand = api.post(f"/api/v1/matches/{every['id']}/hands", json={
        "piles": piles, "sweeps": [1, 0],
        "declarations": [{"side": 0, "deal": 1, "cards": ["1c", "2c", "3s"]}]}).get_json()
    assert hand["match"]["outcome"]["over"], hand
    scalette = api.post("/api/v1/matches", json={
        "players": ["Carla", "Dario"], "first_dealer": 1,
        "options": {"scalette": True, "re_bello": True}}).get_json()
    second = api.post(f"/api/v1/matches/{scalette['id']}/hands", json={
        "piles": piles[::-1], "sweeps": [0, 2]}).get_json()
    pinned = api.post("/api/v1/matches", json={"players": ["Elena", "Franco"], "pin": "432198"}).get_json()
    ids = {"m": every["id"], "h": hand["hand"]["id"], "s": scalette["id"],
           "sh": second["hand"]["id"], "p": pinned["id"]}
    return app, ids, {}


def render(tour, path: str, lang: str) -> tuple[int, str]:
    """The page at ``path`` in ``lang``, drawn once for the module: the tests of the tour only
    read its store (GETs), so a page drawn again is the same page. (Issue 44: every page was
    drawn in Italian, French and Spanish twice, and in Spanish three times.)"""
    app, ids, drawn = tour
    if (path, lang) not in drawn:
        client = organiser(app)
        client.set_cookie("lang", lang)
        answer = client.get(path.format(**ids), follow_redirects=True)
        drawn[path, lang] = answer.status_code, answer.get_data(as_text=True)
    return drawn[path, lang]


# Cards in words on the pages that name cards: the settebello, Re Bello and Piva of the
# finished match's breakdown and the referee's answers.
CARD_WORDS = {
    "it": ["7 di denari", "Re di denari", "2 di bastoni"],
    "en": ["Seven of coins", "King of coins", "Two of clubs"],
    "fr": ["7 de deniers", "Roi de deniers", "2 de bâtons"],
    "es": ["siete de oros", "rey de oros", "dos de bastos"],
}
CARD_PAGES = {"match with every bonus": 3, "a hand's breakdown": 3, "captures": 1, "primiera": 1}
CARD_CODE = re.compile(r"\b(?:10|[1-9])[dcsb]\b")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_speaks_one_language(tour, name, lang):
    status, page = render(tour, PAGES[name], lang)
    assert status < 500
    page_lang, text = visible(page)
    assert page_lang == lang
    assert giveaways(visible(page, hints=True)[1], lang, VARIANT_OF.get(name)) == [], text
    # no card left as a code where a player reads it (codes stay in the API, and in the
    # placeholder of a field where cards are typed, which shows the notation it takes)
    assert CARD_CODE.findall(text) == [], text
    for words in CARD_WORDS[lang][:CARD_PAGES.get(name, 0)]:
        assert words in text, text


@pytest.mark.parametrize("lang", ("it", "fr", "es"))
def test_no_page_shows_a_message_in_the_source_language(tour, extracted, lang):
    """An English sentence of the catalogue (three words or more, its blanks aside) found on
    an Italian, French or Spanish page is a message the page forgot to translate."""
    translated = catalogue(lang)
    sentences = set()
    for message in extracted:
        if forms(translated.get(message.id if isinstance(message.id, str) else message.id[0]))[0] == (
                message.id if isinstance(message.id, str) else message.id[0]):
            continue            # the same in both languages ("Bazzica: bazzica 3, bazzicotto 10")
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for piece in BLANK.split(msgid):
                piece = " ".join(piece.split()).strip(" .,:;()")
                if len(piece.split()) >= 3 and not re.search(r"[\"{}_=]|JSON|PIN", piece):
                    sentences.add(piece)
    found = {}
    for name, path in PAGES.items():
        _, text = visible(render(tour, path, lang)[1])
        left = [s for s in sentences if s in text]
        if left:
            found[name] = left
    assert found == {}


SAME_IN_SPANISH = {"Sbarazzina: bazzica 2 o 3, tris 7"}      # a variant's names and figures


def test_no_spanish_page_shows_an_italian_sentence(tour, extracted):
    """Spanish is the language nearest to Italian, the game's own: an Italian sentence of the
    catalogue (three words or more, its blanks aside) on a Spanish page is a message copied
    rather than translated, which the English sentences alone would not catch. Sentences the
    same in Italian and English ("Cirulla: busso 3, tris 10") are no language's, and so are the
    names and figures of SAME_IN_SPANISH."""
    italian = catalogue("it")
    sentences = set()
    for message in extracted:
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        for text in set(forms(italian.get(msgid))) - {msgid}:
            for piece in BLANK.split(text):
                piece = " ".join(piece.split()).strip(" .,:;()")
                if len(piece.split()) >= 3 and not re.search(r"[\"{}_=]|JSON|PIN", piece):
                    sentences.add(piece)
    sentences -= SAME_IN_SPANISH
    assert len(sentences) > 500           # the catalogue's Italian sentences were found
    found = {}
    for name, path in PAGES.items():
        _, text = visible(render(tour, path, "es")[1])
        left = [s for s in sentences if s in text]
        if left:
            found[name] = left
    assert found == {}


def test_the_outcome_and_the_breakdown_in_each_language(tour):
    texts = {lang: visible(render(tour, "/matches/{m}", lang)[1])[1] for lang in LANGUAGES}
    # Anna 13, Bruno -5 (the Piva): the outcome as each language says it
    assert "Anna wins 13 to -5" in texts["en"]
    assert re.search(r"Anna vince 13 a [-−]5", texts["it"]), texts["it"]
    assert re.search(r"Anna gagne 13 à [-−]5", texts["fr"]), texts["fr"]
    assert re.search(r"Anna gana 13 a [-−]5", texts["es"]), texts["es"]
    for lang, words in {"it": ["Carte", "Denari", "Settebello", "Primiera", "Napola", "Re Bello", "Piva"],
                        "en": ["Cards", "Coins", "Settebello", "Primiera", "Napola", "Re Bello", "Piva"],
                        "fr": ["Cartes", "Deniers", "Settebello", "Primiera", "Napola", "Re Bello", "Piva"],
                        "es": ["Cartas", "Oros", "Settebello", "Primiera", "Napola", "Re Bello", "Piva"]}.items():
        for word in words:
            assert word in texts[lang], (lang, word)


def test_a_tie_is_said_in_each_language(app):
    api = organiser(app)
    match = api.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                              "options": {"target": 2}}).get_json()
    # Anna the coppe and spade, Bruno the denari and bastoni: 1 to 1 at the target? Each side
    # takes 20 cards (a tie), Bruno the denari and the settebello, Anna one sweep more.
    piles = [[f"{v}{s}" for s in "cs" for v in range(1, 11)],
             [f"{v}{s}" for s in "db" for v in range(1, 11)]]
    api.post(f"/api/v1/matches/{match['id']}/hands", json={"piles": piles, "sweeps": [2, 0]})
    client = organiser(app)
    said = {}
    for lang in LANGUAGES:
        client.set_cookie("lang", lang)
        said[lang] = visible(client.get(f"/matches/{match['id']}").get_data(as_text=True))[1]
    totals = re.search(r"(\d+) all: play another hand", said["en"])
    assert totals, said["en"]
    assert f"{totals.group(1)} pari: si gioca un'altra mano" in said["it"]
    assert f"{totals.group(1)} partout : on joue une autre manche" in said["fr"]     # (a no-break space)
    assert f"empate a {totals.group(1)}: se juega otra mano" in said["es"]


@pytest.mark.parametrize("lang, expected", [
    (None, "a match has 2, 3 or 4 sides"),
    ("it-IT,it;q=0.9", "una partita si gioca tra 2, 3 o 4 giocatori o squadre"),
    ("fr", "une partie se joue à 2, 3 ou 4 camps"),
    ("es-AR,es;q=0.9", "una partida se juega entre 2, 3 o 4 jugadores o equipos"),
    ("es-419", "una partida se juega entre 2, 3 o 4 jugadores o equipos"),
    ("de-DE,es;q=0.5", "una partida se juega entre 2, 3 o 4 jugadores o equipos"),
])
def test_the_api_answers_errors_in_english_unless_asked_for_another_language(client, lang, expected):
    headers = {"Accept-Language": lang} if lang else {}
    answer = client.post("/api/v1/score", json={"tallies": []}, headers=headers)
    assert answer.status_code == 400 and answer.get_json() == {"error": expected}


@pytest.mark.parametrize("lang, words", [("it", "Bruno ha il 7d"), ("fr", "Bruno a le 7d"),
                                         ("es", "Bruno tiene el 7d"), (None, "Bruno has the 7d")])
def test_the_api_explains_in_the_asked_language_with_cards_as_codes(client, lang, words):
    headers = {"Accept-Language": lang} if lang else {}
    piles = [[f"{v}{s}" for s in "cs" for v in range(1, 11)],
             [f"{v}{s}" for s in "db" for v in range(1, 11)]]
    answer = client.post("/api/v1/score", headers=headers,
                         json={"piles": piles, "names": ["Anna", "Bruno"]})
    why = {line["item"]: line["why"] for line in answer.get_json()["breakdown"]}
    assert why["settebello"] == words


REFUSALS = {   # a refused hand by counts, and what the page says, in each language (a sentence)
    "en": ["The coins entered add up to more than 10", "The cards entered add up to more than 40",
           "Anna cannot have made 3 sweeps: 4 cards taken"],
    "it": ["Il totale di denari inserito supera 10", "Il totale di carte inserito supera 40",
           "Anna non può aver fatto 3 scope: ha preso 4 carte"],
    "fr": ["Le total des deniers dépasse 10", "Le total des cartes dépasse 40",
           "Anna ne peut pas avoir fait 3 scope : 4 cartes au total"],
    "es": ["El total de oros introducido pasa de 10", "El total de cartas introducido pasa de 40",
           "Anna no puede haber hecho 3 escobas: se llevó 4 cartas"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("csrf", [False])         # the form posted as a script posts it
def test_a_refused_hand_and_a_saved_one_are_said_in_the_pages_language(client, lang):
    client.set_cookie("lang", lang)
    match = client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]}).get_json()["id"]
    base = {"mode": "tallies", "rest": "1", "sweeps_0": "0", "sweeps_1": "0", "save": "1",
            "settebello": "0", "t_coins_0": "6"}
    for fields, said in zip([{"t_cards_0": "22", "t_coins_0": "11"}, {"t_cards_0": "41"},
                             {"t_cards_0": "4", "t_coins_0": "2", "sweeps_0": "3"}], REFUSALS[lang]):
        page = client.post(f"/matches/{match}/hands/new", data={**base, **fields})
        assert page.status_code == 400
        assert said in visible(page.get_data(as_text=True))[1]
    saved = client.post(f"/matches/{match}/hands/new", data={**base, "t_cards_0": "22"},
                        follow_redirects=True)
    assert {"en": "Hand 1 saved.", "it": "Mano 1 salvata.", "fr": "Manche 1 enregistrée.",
            "es": "Mano 1 guardada."}[lang] in \
        visible(saved.get_data(as_text=True))[1]


def test_numbers_and_dates_as_each_language_writes_them(app):
    """The half scale's 19.5 is 19,5 in Italian, French and Spanish; a match's date in the list
    is the language's own ('22 nov 2026', 'Nov 22, 2026', '22 nov. 2026')."""
    api = organiser(app)
    match = api.post("/api/v1/matches", json={"players": ["Anna", "Bruno"],
                                              "options": {"primiera": "half"}}).get_json()["id"]
    # Anna: the denari, the coppe and the Ace of spade, 7 + 7 + 5.5 = 19.5; Bruno 7 + 7 = 14.
    anna = [f"{v}{s}" for s in "dc" for v in range(1, 11)] + ["1s"]
    bruno = [f"{v}{s}" for s in "sb" for v in range(1, 11) if f"{v}{s}" != "1s"]
    api.post(f"/api/v1/matches/{match}/hands", json={"piles": [anna, bruno]})
    with app.app_context():
        from companion import store
        store.get_db().execute("UPDATE matches SET created = '2026-11-22T12:00:00+00:00'")
        store.get_db().conn.commit()
    client = organiser(app)
    expected = {"en": ("19.5 to 14", "Nov 22, 2026"), "it": ("19,5 a 14", "22 nov 2026"),
                "fr": ("19,5 à 14", "22 nov. 2026"), "es": ("19,5 a 14", "22 nov 2026")}
    for lang, (figures, date) in expected.items():
        client.set_cookie("lang", lang)
        assert figures in visible(client.get(f"/matches/{match}").get_data(as_text=True))[1]
        assert date in visible(client.get("/").get_data(as_text=True))[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_small_whole_numbers_are_written_as_babel_writes_them(app, lang):
    """show() skips Babel for a score under a thousand: it must write what Babel would."""
    from babel.numbers import format_decimal

    from companion.i18n import show
    for value in (*range(-999, 1000), 1000, -1000, 12345, 5.5, -0.5, 76.0):
        assert show(value, lang) == format_decimal(value, locale=lang), value


# Issue 44: the rules engine's words, the JSON API's too (tests/app/test_same_refusals.py), which
# name the target as the page does, where the page said WTForms' "the number must be between".
@pytest.mark.parametrize("lang, said", [("it", "Il traguardo deve essere un numero intero da 1 a 1000"),
                                        ("fr", "Le score à atteindre doit être un nombre entier de 1 à 1000"),
                                        ("es", "La meta debe ser un número entero del 1 al 1000")])
@pytest.mark.parametrize("csrf", [False])         # the form posted as a script posts it
def test_a_wrong_target_is_said_once_in_the_pages_words(client, lang, said):
    client.set_cookie("lang", lang)
    form = form_data(client.get("/matches/new"), "form.new-match")
    data = {"player1": "Anna", "player2": "Bruno", "layout": "2", "first_dealer": "0", "preset": "classica",
            "target": "0"}
    page = client.post("/matches/new", data={**{k: v for k, v in form if k not in data and v}, **data})
    text = visible(page.get_data(as_text=True))[1]
    assert page.status_code == 400 and said in text
    assert "target" not in text          # not the rule item's code name


def test_a_wrong_method_is_said_in_the_pages_language(client):
    client.set_cookie("lang", "it")
    answer = client.delete("/")
    assert answer.status_code == 405 and "GET" in answer.headers["Allow"]
    assert "L'app non può farlo" in visible(answer.get_data(as_text=True))[1]
