"""The words as a native player writes them (issue 22): a name put into a sentence changes the
word before it ("ad Anna", "d’Amélie", "Bruno e Inés"), and a card the article before it in
Spanish ("la sota"), on both paths a sentence takes (Flask-Babel's messages and the rules'
sentences); French spacing before : ; ! ?; dates and numbers as the phone's own locale writes
them (en-GB is not en-US, es-MX not es-ES); the catalogues' own rules (no agreement with a player
of unknown gender in Italian, "tour" and "settebello" in French, "tú" and "escoba" in Spanish);
and nothing for developers on a player's page."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_translations import PAGES, render, tour  # noqa: F401  (tour: the pages' store)

import companion
from companion.i18n.fitting import fit
from helpers import organiser
from markup import nodes, reading, words

TRANSLATIONS = Path(companion.__file__).resolve().parent / "translations"


def catalogue(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return [m for m in read_po(po) if m.id]


def strings(message):
    return message.string if isinstance(message.string, tuple) else (message.string,)


def text_of(page: str) -> str:
    """A page's words as they are, spaces and all (no-break spaces kept): its text, and the
    title, aria-label and placeholder of its elements; not scripts or styles."""
    parts = []
    for node in reading(page, skip="script, style"):
        if node.is_text_node:
            parts.append(node.text_content)
        else:
            parts += [value for name, value in node.attributes.items()
                      if name in ("title", "aria-label", "placeholder") and value]
    return " ".join(parts)


# -- The word before a name ------------------------------------------------------------------

@pytest.mark.parametrize("text, values, lang, expected", [
    ("La primiera va a %(name)s", {"name": "Anna"}, "it", "La primiera va ad %(name)s"),
    # "ad" only before the same vowel, as Italian is written today: "a Elena", "a Ugo".
    ("La primiera va a %(name)s", {"name": "Elena"}, "it", "La primiera va a %(name)s"),
    ("La primiera va a %(name)s", {"name": "Àlvaro"}, "it", "La primiera va ad %(name)s"),
    ("La primiera va a %(name)s", {"name": "Bruno"}, "it", "La primiera va a %(name)s"),
    ("A %(name)s tocca", {"name": "Ugo"}, "it", "A %(name)s tocca"),
    ("A %(name)s tocca", {"name": "Alba"}, "it", "Ad %(name)s tocca"),
    ("{name} vince {total} a {other}", {"name": "Anna", "total": "13", "other": "8"}, "it",
     "{name} vince {total} a {other}"),
    ("Primiera de %(name)s :", {"name": "Amélie"}, "fr", "Primiera d’%(name)s :"),
    ("Primiera de %(name)s :", {"name": "Bruno"}, "fr", "Primiera de %(name)s :"),
    ("la même personne que %(name)s", {"name": "Yves"}, "fr", "la même personne qu’%(name)s"),
    ("{name} a le {card}", {"name": "Anna", "card": "As de deniers"}, "fr", "{name} a l’{card}"),
    ("the primiera of %(name)s", {"name": "Anna"}, "en", "the primiera of %(name)s"),
    ("grade %(name)s", {"name": "Anna"}, "fr", "grade %(name)s"),       # "de" inside a word
    # Spanish: "y" is "e" before an i sound, "o" is "u" before an o sound (not "y hielo")
    ("%(one)s y %(other)s", {"one": "Bruno", "other": "Inés"}, "es", "%(one)s e %(other)s"),
    ("%(one)s y %(other)s", {"one": "Bruno", "other": "Hilda"}, "es", "%(one)s e %(other)s"),
    ("%(one)s y %(other)s", {"one": "Bruno", "other": "Iago"}, "es", "%(one)s y %(other)s"),
    ("%(one)s y %(other)s", {"one": "Bruno", "other": "Yolanda"}, "es", "%(one)s y %(other)s"),
    ("{first} y {second}", {"first": "Ana", "second": "Anna"}, "es", "{first} y {second}"),
    ("{first} o {second}", {"first": "Ana", "second": "Óscar"}, "es", "{first} u {second}"),
    ("{first} o {second}", {"first": "Ana", "second": "Horacio"}, "es", "{first} u {second}"),
    # the article before a card or a suit follows its gender: "la sota", "de la reina"
    ("{name} tiene el {card}", {"name": "Anna", "card": "sota de copas"}, "es", "{name} tiene la {card}"),
    ("{name} tiene el {card}", {"name": "Anna", "card": "rey de copas"}, "es", "{name} tiene el {card}"),
    ("El %(card)s cuesta", {"card": "reina de picas"}, "es", "La %(card)s cuesta"),
    ("hasta el %(card)s, del %(card)s", {"card": "jota"}, "es", "hasta la %(card)s, de la %(card)s"),
    ("Al %(card)s, un %(card)s", {"card": "sota"}, "es", "A la %(card)s, una %(card)s"),
    ("los {suit}", {"suit": "♠ picas"}, "es", "las {suit}"),
    ("los {suit}", {"suit": "oros"}, "es", "los {suit}"),
    ("el {card}", {"card": "7d"}, "es", "el {card}"),                    # the API's notation
    ("vuelve a llamarse %(name)s", {"name": "Sotana"}, "es", "vuelve a llamarse %(name)s"),
])
def test_the_word_before_a_name_fits_the_name(text, values, lang, expected):
    assert fit(text, values, lang) == expected


@pytest.fixture
def names_app(app):
    """The companion the names' tests ask: the ``app`` fixture's, on a fresh copy of the
    migrated store (issue 44: an app made and migrated for each test was most of its time)."""
    return app


EVERY_CARD = [f"{v}{s}" for s in "dcsb" for v in range(1, 11)]


def played(client, first, second):
    """A finished match of ``first`` against ``second`` (the first takes the denari and the
    coppe and a scopa), its next dealer ``first``; and a match in play whose one hand, by
    counts, has the primiera marked for ``first`` by the players. Their ids."""
    over = client.post("/api/v1/matches", json={"players": [second, first], "first_dealer": 0,
                                                "options": {"target": 3}}).get_json()["id"]
    piles = [EVERY_CARD[20:], EVERY_CARD[:20]]
    assert client.post(f"/api/v1/matches/{over}/hands", json={"piles": piles, "sweeps": [0, 1]}).status_code == 201
    playing = client.post("/api/v1/matches", json={"players": [first, second]}).get_json()["id"]
    tallies = [{"cards": 20, "coins": 5, "settebello": True, "primiera": True, "sweeps": 0},
               {"cards": 20, "coins": 5, "settebello": False, "primiera": False, "sweeps": 0}]
    assert client.post(f"/api/v1/matches/{playing}/hands", json={"tallies": tallies}).status_code == 201
    return over, playing


def pages_about(client, first, second, lang):
    over, playing = played(client, first, second)
    client.set_cookie("lang", lang)
    paths = [f"/matches/{over}", f"/matches/{playing}", f"/matches/{playing}/hands/new?mode=tallies",
             f"/referee/rules?match={playing}", f"/referee/primiera?match={playing}&best_0_d=7&best_0_c=7",
             f"/referee/claim?match={playing}", "/players"]
    return {path: text_of(client.get(path).get_data(as_text=True)) for path in paths}


def test_italian_says_ad_before_a_name_that_starts_with_an_a(names_app):
    first = "Anna"
    client = organiser(names_app)
    pages = pages_about(client, first, "Bruno", "it")
    wrong = {path: re.findall(rf"\ba {first}\b.{{0,30}}", text) for path, text in pages.items()}
    assert {path: found for path, found in wrong.items() if found} == {}
    every = " ".join(pages.values())
    # Both paths: a message of the pages (the rematch's dealer), a sentence of the rules (the
    # primiera the players marked), and the referee's primiera.
    assert f"tocca ad {first} fare le carte" in every
    assert f"assegnata ad {first} dai giocatori" in every
    assert f"La primiera va ad {first}" in every


@pytest.mark.parametrize("first", ["Bruno", "Elena", "Ugo"])
def test_italian_keeps_a_before_any_other_letter(names_app, first):
    """Issue 35: "tocca ad Elena" reads old-fashioned; the "d" goes only before an a ("ad Anna")."""
    pages = pages_about(organiser(names_app), first, "Anna", "it")
    wrong = {path: re.findall(rf"\bad {first}\b.{{0,30}}", text) for path, text in pages.items()}
    assert {path: found for path, found in wrong.items() if found} == {}
    every = " ".join(pages.values())
    assert f"tocca a {first} fare le carte" in every and f"assegnata a {first} dai giocatori" in every


def test_spanish_pages_give_each_card_its_gender(tour):   # noqa: F811
    """The messages say "el {card}": a sota, a reina and a jota are feminine ("el rey, el
    caballo y la sota")."""
    scalette, cirulla = (" ".join(text_of(render(tour, f"/rules/{name}", "es")[1]).split())
                         for name in ("scalette", "cirulla"))
    assert "el rey, el caballo y la sota valen" in scalette
    assert "El rey, la reina y la jota de ♦ diamantes" in cirulla
    for text in (scalette, cirulla):
        assert not re.search(r"(?i)\b(el|del|al|un) (sota|reina|jota)\b", text)


def test_spanish_joins_names_with_e_before_an_i_in_the_rules_sentences_too(names_app):
    """The rules' sentences pass through fit as the pages' messages do: "Bruno e Inés"."""
    from companion.i18n import say
    from companion.rules.said import said
    with names_app.test_request_context("/", headers={"Cookie": "lang=es"}):
        assert say(said("{first} and {second}", first="Bruno", second="Inés")) == "Bruno e Inés"
        assert say(said("{first} and {second}", first="Inés", second="Bruno")) == "Inés y Bruno"


@pytest.mark.parametrize("first", ["Amélie", "Yves"])
def test_french_elides_de_and_que_before_a_name_that_starts_with_a_vowel(names_app, first):
    client = organiser(names_app)
    pages = pages_about(client, first, "Bruno", "fr")
    wrong = {path: re.findall(rf"\b(?:de|que|De|Que) {first}\b.{{0,30}}", text) for path, text in pages.items()}
    assert {path: found for path, found in wrong.items() if found} == {}
    every = " ".join(pages.values())
    assert f"Primiera d’{first}" in every               # a message of the pages
    assert f"Selon les règles d’{first} – Bruno" in every
    assert f"Scope d’{first}" in every                   # a field's name (plural: issue 42)
    assert f"Cartes d’{first}" in every


def test_a_name_typed_in_a_refusal_is_fitted_too(names_app):
    """A rule's sentence (i18n.say): "the sweeps of Élodie" in French."""
    client = organiser(names_app)
    client.set_cookie("lang", "fr")
    match = client.post("/api/v1/matches", json={"players": ["Élodie", "Bruno"]}).get_json()["id"]
    page = client.post(f"/matches/{match}/hands/new", data={
        "mode": "tallies", "rest": "1", "sweeps_0": "3", "sweeps_1": "0", "save": "1", "settebello": "0",
        "t_cards_0": "4", "t_coins_0": "2"})
    assert page.status_code == 400
    assert "Élodie ne peut pas avoir fait 3 scope" in text_of(page.get_data(as_text=True))


# -- French spacing --------------------------------------------------------------------------

# Where a colon is not French punctuation: a time (18:05), an address, a CSS or HTTP header.
NOT_PUNCTUATION = re.compile(r"\d:\d|https?:|[a-z-]+: [a-z/]+json|\w:\w")


@pytest.mark.parametrize("name", PAGES)
def test_french_pages_put_a_no_break_space_before_the_double_signs(tour, name):   # noqa: F811
    _, page = render(tour, PAGES[name], "fr")
    text = NOT_PUNCTUATION.sub("", text_of(page))
    bad = [text[max(0, m.start() - 25):m.end() + 5] for m in re.finditer(r"(?<![\u00a0\u202f])[:;!?]", text)]
    assert bad == []


def test_french_tournament_and_player_pages_space_their_double_signs(names_app):
    client = organiser(names_app)
    made = client.post("/api/v1/tournaments", json={"name": "Cercle", "format": "swiss", "rounds": 2,
                                                     "entrants": ["Amélie", "Bruno", "Carla"]}).get_json()
    client.post(f"/api/v1/tournaments/{made['id']}/rounds", json={})
    client.set_cookie("lang", "fr")
    player = client.get("/api/v1/players").get_json()["players"][0]["id"]
    bad = {}
    for path in (f"/tournaments/{made['id']}", f"/tournaments/{made['id']}/pairings",
                 f"/tournaments/{made['id']}/standings", f"/tournaments/{made['id']}/board", "/tournaments",
                 "/tournaments/new", "/players", f"/players/{player}", "/"):
        text = NOT_PUNCTUATION.sub("", text_of(client.get(path).get_data(as_text=True)))
        found = [text[max(0, m.start() - 25):m.end() + 5] for m in re.finditer(r"(?<![\u00a0\u202f])[:;!?]", text)]
        if found:
            bad[path] = found
    assert bad == {}


def test_every_french_message_puts_a_no_break_space_before_the_double_signs():
    bad = [s for m in catalogue("fr") for s in strings(m)
           if re.search(r"(?<![\u00a0\u202f])[:;!?]", NOT_PUNCTUATION.sub("", s))]
    assert bad == []


def test_french_writes_one_apostrophe_and_the_catalogues_own_words():
    texts = [s for m in catalogue("fr") for s in strings(m)]
    assert [s for s in texts if re.search(r"\w'\w", s)] == []           # l’As, not l'As
    assert [s for s in texts if re.search(r"(?i)sette bello|\brondes?\b|capturer|companion", s)] == []


# What Spanish says that is not tú: vosotros and usted (Spain), vos and its verbs stressed on the
# last vowel (Argentina: "podés", "tocá"). The words of the catalogue that end so and are none.
NOT_VOSEO = {"más", "además", "demás", "después", "atrás", "detrás", "estás", "holandés", "francés",
             "inglés", "jamás", "país", "está", "esté", "así", "aquí", "ahí", "allí", "qué", "sí", "quizá",
             "también", "tú", "mí", "través"}


def test_spanish_speaks_to_the_player_as_tu_readable_in_spain_and_argentina():
    """Issue 43: neutral Spanish. The catalogue says "tú" ("toca las cartas", "puedes"), which
    Argentina reads as it reads its apps; never vosotros, usted or vos."""
    texts = [s for m in catalogue("es") for s in strings(m)]
    assert [s for s in texts if re.search(r"(?i)\b(vosotr[oa]s|os|usted(es)?|vos)\b|\w(áis|éis)\b", s)] == []
    stressed = {word for s in texts for word in re.findall(r"\b\w+[áéí]s?\b", s)}
    assert {w for w in stressed if w.lower() not in NOT_VOSEO and not re.search(r"r[áé]s?$", w)} == set()
    assert len([s for s in texts if re.search(r"\b(toca|elige|escribe|puedes|vuelve a intentarlo)\b", s)]) > 20


def test_spanish_writes_the_games_words_and_no_developers_word():
    """A sweep is an escoba (what Spanish and Argentine players call it); the Italian terms that
    are names stay (primiera, settebello); "companion" only in the command's name."""
    texts = [s for m in catalogue("es") for s in strings(m)]
    assert [s for s in texts if re.search(r"\bscope\b|\bspariglio\b|\bmazziere\b|\bsette bello\b", s)] == []
    # words of one side of the ocean only: a phone is a teléfono, the server a máquina, and a
    # card levanta or se lleva (never "coger", which Argentina does not say at the table)
    assert [s for s in texts if re.search(r"(?i)\b(ordenador|computadora|móvil|celular|cog(er|e|en|ió))\b", s)] == []
    assert len([s for s in texts if "escoba" in s]) > 20 and len([s for s in texts if "primiera" in s]) > 20
    assert [s for s in texts if re.search(r"\bcompanion\b|_", re.sub(r"scopa-companion|%\(\w+\)\w|\{\w+\}|\w+_\w+", "", s))] == []


def test_italian_writes_one_apostrophe():
    """Issue 35: "all'italiana" beside "nell’ordine" on one form. The catalogue writes the
    straight one (all'organizzatore, l'Asso) in all but a dozen places: one style everywhere."""
    texts = [s for m in catalogue("it") for s in strings(m)]
    assert [s for s in texts if "’" in s] == []
    assert len([s for s in texts if re.search(r"\w'\w", s)]) > 100        # the style it keeps


def test_italian_never_agrees_with_a_player_of_unknown_gender():
    texts = [(m.id, s) for m in catalogue("it") for s in strings(m)]
    near_a_name = re.compile(r"%\((name|dealer|one|other|leader)\)s|\{(name|winner|claimer)\}")
    agreeing = re.compile(r"\bper prim[oa]\b|\bè (chiamat|arrivat|uscit)[oa]\b|\bsono stati\b")
    assert [(i, s) for i, s in texts if near_a_name.search(s) and agreeing.search(s)] == []
    assert [s for _, s in texts if re.search(r"\bcompanion\b|_", re.sub(r"%\(\w+\)\w|\{\w+\}|\w+_\w+", "", s))] == []


# -- Dates and numbers as the phone's locale writes them -------------------------------------

@pytest.mark.parametrize("cookie, accept, date", [
    ("en", "en-GB,en;q=0.9", "22 Nov 2026"),
    ("en", "en-US,en;q=0.9", "Nov 22, 2026"),
    ("en", "en", "Nov 22, 2026"),
    (None, "en-GB", "22 Nov 2026"),
    ("fr", "fr-CH", "22 nov. 2026"),
    ("it", "en-GB,en;q=0.9", "22 nov 2026"),        # an Italian page on a British phone
    (None, "es-AR,es;q=0.9", "22 nov 2026"),
    ("es", "es-MX", "22 nov 2026"),
])
def test_dates_follow_the_phones_locale_and_the_words_its_language(names_app, cookie, accept, date):
    client = organiser(names_app)
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    with names_app.app_context():
        from companion import store
        store.get_db().execute("UPDATE matches SET created = '2026-11-22T12:00:00+00:00'")
        store.get_db().conn.commit()
    if cookie:
        client.set_cookie("lang", cookie)
    page = text_of(client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True))
    assert date in page
    if accept.startswith("en-GB") and cookie != "it":
        assert not re.search(r"\d (AM|PM)\b", page)       # British phones read 24-hour times


def test_a_british_phone_gets_british_numbers_and_words(names_app):
    from babel.numbers import format_decimal

    from companion.i18n import regional, show
    with names_app.test_request_context("/", headers={"Accept-Language": "en-GB,fr-CH;q=0.8"}):
        assert regional("en") == "en_GB" and regional("fr") == "fr_CH" and regional("it") == "it"
        assert show(12345.5, "fr") == format_decimal(12345.5, locale="fr_CH")
    # A Mexican phone writes 12,345.5 where a Spanish one writes 12.345,5: the same words
    with names_app.test_request_context("/", headers={"Accept-Language": "es-MX,es;q=0.9"}):
        assert regional("es") == "es_MX" and show(12345.5, "es") == "12,345.5"
    with names_app.test_request_context("/", headers={"Accept-Language": "es-419"}):
        assert regional("es") == "es_419"
    with names_app.test_request_context("/", headers={"Accept-Language": "es-ES"}):
        assert show(12345.5, "es") == "12.345,5"
    with names_app.test_request_context("/", headers={"Accept-Language": "*, xx-YY"}):
        assert regional("en") == "en"


# -- Nothing for developers on a player's page -----------------------------------------------

@pytest.mark.parametrize("lang", ["it", "en", "fr", "es"])
def test_the_home_page_says_nothing_for_developers(client, lang):
    client.set_cookie("lang", lang)
    client.post("/api/v1/matches", json={"players": ["Anna", "Bruno"]})
    page = text_of(client.get("/").get_data(as_text=True))
    assert not re.search(r"openapi|JSON|\bAPI\b", page)


@pytest.mark.parametrize("lang", ["it", "en", "fr", "es"])
def test_variant_names_show_no_underscore(client, lang):
    client.set_cookie("lang", lang)
    page = text_of(client.get("/matches/new").get_data(as_text=True))
    assert "Sco-papa" in page and "Sco_papa" not in page


@pytest.mark.parametrize("lang, short, title", [("it", "Avv.", "punti degli avversari"),
                                                 ("en", "Opp.", "opponents' points"),
                                                 ("fr", "Adv.", "points des adversaires"),
                                                 ("es", "Riv.", "puntos de los rivales")])
def test_a_swiss_standing_names_its_tie_break_in_the_players_words(client, lang, short, title):
    made = client.post("/api/v1/tournaments", json={"name": "Giovedì", "format": "swiss", "rounds": 2,
                                                     "entrants": ["Anna", "Bruno", "Carla", "Dario"]})
    assert made.status_code == 201, made.get_json()
    client.set_cookie("lang", lang)
    page = client.get(f"/tournaments/{made.get_json()['id']}").get_data(as_text=True)
    assert ">Bh<" not in page and "Buchholz" not in page
    assert (short, title) in [(words(abbr), abbr.attributes.get("title")) for abbr in nodes(page, "abbr")]
