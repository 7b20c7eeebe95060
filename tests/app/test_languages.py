"""One language per page: Italian, English, French or Spanish, chosen by the player."""

import pytest

from companion import create_app
from companion.i18n import card_words
from companion.rules.cards import Card
from companion.rules.said import said, said_n
from markup import attr, attrs


@pytest.fixture
def app(app_config, monkeypatch):
    """The shared app, made without the SCOPA_LANG the suite sets."""
    monkeypatch.delenv("SCOPA_LANG", raising=False)         # the companion's own default
    return create_app(app_config)


def lang_of(page) -> str:
    return attr(page, "html", "lang")


def test_a_phone_that_asks_for_nothing_known_gets_italian_the_games_language(client):
    assert lang_of(client.get("/")) == "it"
    assert lang_of(client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})) == "it"


@pytest.mark.parametrize("header, lang", [("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("en-GB", "en"),
                                          ("it-IT", "it"), ("de-DE,en;q=0.5", "en"),
                                          ("es-AR,es;q=0.9", "es"), ("es", "es"), ("es-ES", "es"),
                                          ("es-419,es;q=0.9,en;q=0.8", "es"), ("es-MX", "es"),
                                          ("en-US,en;q=0.9,es;q=0.8", "en")])
def test_the_phones_language_is_used_when_the_player_chose_none(client, header, lang):
    assert lang_of(client.get("/", headers={"Accept-Language": header})) == lang


def test_the_servers_lang_is_the_default_for_phones_that_ask_for_none_of_the_three(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOPA_LANG", "fr")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite")})
    assert lang_of(app.test_client().get("/", headers={"Accept-Language": "de"})) == "fr"


def test_the_switch_on_every_page_keeps_the_choice_and_comes_back(client):
    page = client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    links = attrs(page, '[href^="/lang/"]', "href")
    assert [link.split("?")[0].removeprefix("/lang/") for link in links] == ["it", "en", "fr", "es"]
    answer = client.get("/lang/fr?next=/matches/new", headers={"Accept-Language": "it"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/matches/new"
    assert "lang=fr" in answer.headers["Set-Cookie"]
    assert lang_of(client.get("/matches/new", headers={"Accept-Language": "it"})) == "fr"


def test_the_switch_sets_spanish_over_the_phones_language(client):
    answer = client.get("/lang/es?next=/rules", headers={"Accept-Language": "it-IT"})
    assert answer.status_code == 303 and "lang=es" in answer.headers["Set-Cookie"]
    page = client.get("/rules", headers={"Accept-Language": "it-IT"})
    assert lang_of(page) == "es"
    assert attr(page, 'a[hreflang="es"]', "aria-current") == "true"


def test_the_language_links_do_not_copy_a_long_query(client):
    """Found in review (issue 41): the four links copied the page's whole query, percent-encoded
    again, so a page asked with 15 KB of query answered 100 KB and more. A page's own query
    (a filter, the referee's cards) is still kept; past 2 KiB the links keep the path, and the
    switch comes back to the page the browser says it was pressed on (its Referer)."""
    normal = client.get("/players?period=month&order=rating")
    assert attrs(normal, '[href^="/lang/"]', "href")[1] == "/lang/en?next=/players?period%3Dmonth%26order%3Drating"
    plain = len(client.get("/players").get_data())
    junk = "&".join(f"x{n}=%26%3D%25" for n in range(1000))       # 15 KB, each link 25 KB once encoded again
    long_query = client.get(f"/players?{junk}")
    assert long_query.status_code == 200
    assert attrs(long_query, '[href^="/lang/"]', "href") == [f"/lang/{code}?next=/players" for code in ("it", "en", "fr", "es")]
    assert len(long_query.get_data()) < plain + 1024
    back = client.get("/lang/fr?next=/players", headers={"Referer": f"http://localhost/players?{junk}"})
    assert back.status_code == 303 and back.headers["Location"] == f"/players?{junk}"
    for elsewhere in (f"http://evil.example/players?{junk}", "http://localhost/rules?variant=escoba"):
        answer = client.get("/lang/fr?next=/players", headers={"Referer": elsewhere})
        assert answer.headers["Location"] == "/players"


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\t/evil.example"])
def test_the_switch_stays_on_this_site(client, target):
    answer = client.get("/lang/en", query_string={"next": target})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client):
    answer = client.get("/lang/de?next=/")
    assert answer.status_code == 303 and "Set-Cookie" not in answer.headers


@pytest.mark.parametrize("card, pack, words", [
    (Card(7, "d"), "italian", {"it": "7 di denari", "en": "Seven of coins", "fr": "7 de deniers"}),
    (Card(10, "d"), "italian", {"it": "Re di denari", "en": "King of coins", "fr": "Roi de deniers"}),
    (Card(1, "s"), "italian", {"it": "Asso di spade", "en": "Ace of swords", "fr": "As d’épées"}),
    (Card(9, "c"), "french", {"it": "Donna di cuori", "en": "Queen of hearts", "fr": "Dame de cœur"}),
    (Card(9, "c"), "chkobba", {"it": "Fante di cuori", "en": "Jack of hearts", "fr": "Valet de cœur"}),
    # Spanish names the Italian pack as its own: RULES §12's words
    (Card(1, "d"), "italian", {"es": "as de oros"}),
    (Card(8, "c"), "italian", {"es": "sota de copas"}),
    (Card(9, "s"), "italian", {"es": "caballo de espadas"}),
    (Card(10, "b"), "italian", {"es": "rey de bastos"}),
    (Card(7, "d"), "italian", {"es": "siete de oros"}),
    (Card(9, "c"), "french", {"es": "reina de corazones"}),
    (Card(8, "d"), "french", {"es": "jota de diamantes"}),
    (Card(1, "b"), "french", {"es": "as de tréboles"}),
    (Card(10, "s"), "french", {"es": "rey de picas"}),
    (Card(9, "c"), "chkobba", {"es": "jota de corazones"}),
])
def test_cards_are_named_in_words_in_each_language(card, pack, words):
    assert {lang: card_words(card, lang, pack) for lang in words} == words


def test_an_explanation_is_english_with_card_codes_until_a_page_renders_it():
    why = said("{name} has the {card}", name="Anna", card=Card(7, "d"))
    assert str(why) == "Anna has the 7d"
    assert str(said_n("{n} card is missing", "{n} cards are missing", 3)) == "3 cards are missing"
    assert str(said_n("{n} card is missing", "{n} cards are missing", 1)) == "1 card is missing"
