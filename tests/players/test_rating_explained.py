""""How the rating works" (issue 33): "a short 'How the rating works' on the leaderboard and a
player's page, in the three languages: what moves it, why a newcomer is provisional, why the
same result moves two players differently, what 'chance to win' means. Each figure on a
finished match's page links there." And the rating's name as players of each country call it,
the same on every page, one that cannot be read as a score (issue 40): Rating in English and in
Italian ("Punteggio" is the match's score there), Niveau in French ("Points de classement" beside
the standings, "Classement", and their points), Nivel in Spanish ("Puntuación" is read as the
score, as padel's apps say "nivel" for theirs)."""

import re
from pathlib import Path

import pytest

from helpers import HAND, one_hand_match
from markup import attrs, nodes, text, texts
from night import play_the_night

EXPLAINED = {
    "it": ("Come funziona il rating", "Rating"),
    "en": ("How the rating works", "Rating"),
    "fr": ("Comment se calcule le niveau", "Niveau"),
    "es": ("Cómo funciona el nivel", "Nivel"),
}
# The four questions the issue asks, in each language (as read: a no-break space is a space).
QUESTIONS = {
    "it": ["Che cosa lo muove", "Perché un nuovo arrivato è provvisorio",
           "Perché lo stesso risultato muove due giocatori in modo diverso",
           "Che cosa vuol dire “probabilità di vittoria”"],
    "en": ["What moves it", "Why a newcomer is provisional", "Why the same result moves two players differently",
           "What “chance to win” means"],
    "fr": ["Ce qui le fait bouger", "Pourquoi un nouveau venu est provisoire",
           "Pourquoi le même résultat ne fait pas bouger deux joueurs autant",
           "Ce que veut dire « chances de gagner »"],
    "es": ["Qué lo mueve", "Por qué un recién llegado es provisional",
           "Por qué el mismo resultado mueve a dos jugadores de forma distinta",
           "Qué quiere decir «probabilidad de ganar»"],
}


@pytest.mark.parametrize("lang", ["it", "en", "fr", "es"])
def test_the_leaderboard_and_a_players_page_explain_the_rating(client, lang):
    play_the_night(client)
    client.set_cookie("lang", lang)
    carla = next(row for row in client.get("/api/v1/ratings").get_json()["ratings"] if row["name"] == "Carla")
    heading, name = EXPLAINED[lang]
    for path in ("/players?order=rating", f"/players/{carla['id']}", "/players/rating"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert text(page, "#how-the-rating-works-title") == heading, path
        assert texts(page, "#how-the-rating-works dt") == QUESTIONS[lang], path
        assert all(len(answer) > 60 for answer in texts(page, "#how-the-rating-works dd")), path
    board = client.get("/players?order=rating")
    assert name in texts(board, "thead th")
    player = client.get(f"/players/{carla['id']}")
    assert name in texts(player, "h2")


def test_no_page_calls_the_rating_odds_in_french(client):
    """The French heading was "Cotes", which reads like betting odds."""
    finished = one_hand_match(client, ["Anna", "Bruno"], HAND)
    client.set_cookie("lang", "fr")
    anna = client.get("/api/v1/ratings").get_json()["ratings"][0]["id"]
    for path in ("/players?order=rating", f"/players/{anna}", f"/matches/{finished}", "/players/rating"):
        words = " ".join(texts(client.get(path), "main")).lower()
        assert "cote" not in words.replace("coté", ""), path


def test_the_leaderboard_lists_the_provisional_players_after_the_others(client):
    play_the_night(client)
    for _ in range(3):          # Zoe: a lucky newcomer, 3 wins of 3
        one_hand_match(client, ["Zoe", "Massimiliana"], HAND)
    client.set_cookie("lang", "en")
    board = client.get("/players?order=rating")
    settled = texts(board, "tbody:not([data-testid=provisional-group]) th[scope=row] > a")
    provisional = texts(board, "tbody[data-testid=provisional-group] th[scope=row] > a")
    ratings = {row["name"]: row for row in client.get("/api/v1/ratings").get_json()["ratings"]}
    assert settled and provisional and "Zoe" in provisional
    assert all(not ratings[name]["provisional"] for name in settled)
    assert all(ratings[name]["provisional"] for name in provisional)
    # Zoe's figure is above settled players' she is listed after: the order is not the figures'.
    assert ratings["Zoe"]["rating"] > min(ratings[name]["rating"] for name in settled)
    # Said on the page, and each group in the order of its figures.
    assert "fewer than 5 finished matches" in text(board, "tbody[data-testid=provisional-group] .group-head")
    for names in (settled, provisional):
        figures = [ratings[name]["rating"] for name in names]
        assert figures == sorted(figures, reverse=True)


def test_each_figure_of_a_finished_match_links_to_the_explanation(client):
    finished = one_hand_match(client, ["Anna", "Bruno"], HAND)
    page = client.get(f"/matches/{finished}")
    links = attrs(page, '[data-testid="rating-changes"] a[data-testid="rating-figure"]', "href")
    assert links == ["/players/rating", "/players/rating"]
    figures = [node.text(separator=" ") for node in nodes(page, 'a[data-testid="rating-figure"]')]
    assert "1,563" in figures[0] and "+63" in figures[0] and "1,437" in figures[1]


@pytest.mark.parametrize("lang", ["it", "fr", "es"])
def test_the_ratings_word_is_never_the_scores(client, lang):
    """Issue 40: "The rating is 'Punteggio' ('1.437 −63') right above 'Il punteggio, mano per
    mano'; the standings carry 'punteggio 1.709' beside the Pt. column." In French "points de
    classement" sat beside the standings ("Classement") and their points. Spanish made the same
    slip as Italian: "Puntuación", which a Spanish player reads as the score. Each page that
    shows a rating names it with the one word, and no longer with the old one."""
    finished = one_hand_match(client, ["Anna", "Bruno"], HAND)
    tournament = client.post("/api/v1/tournaments", json={
        "name": "Giovedì", "format": "round-robin", "entrants": ["Anna", "Bruno", "Carla", "Dario"]}).get_json()
    client.set_cookie("lang", lang)
    anna = client.get("/api/v1/ratings").get_json()["ratings"][0]["id"]
    word = EXPLAINED[lang][1]
    pages = {path: " ".join(texts(client.get(path), "main")).replace("\u00a0", " ")
             for path in ("/players?order=rating", f"/players/{anna}", f"/matches/{finished}",
                          "/players/rating", f"/tournaments/{tournament['id']}", f"/matches/{finished}/hands/1")}
    # Where the rating is shown, its word: the leaderboard's column, a player's heading, a
    # finished match's changes, the standings' line under a name.
    assert word in texts(client.get("/players?order=rating"), "thead th")
    assert word in texts(client.get(f"/players/{anna}"), "h2")
    standings = texts(client.get(f"/tournaments/{tournament['id']}"), '[data-testid="entrant-rating"]')
    assert standings and all(line.lower().startswith(word.lower() + " ") for line in standings)
    changes = " ".join(texts(client.get(f"/matches/{finished}"), '[data-testid="rating-changes"]'))
    for path, words in pages.items():
        if lang == "it":        # "punteggio" is the match's score, never the rating
            assert not re.search(r"(?i)punteggio\s*[\d.]|come funziona il punteggio|punteggio:|nel punteggio|dal punteggio|per punteggio", words), path
            assert "punteggio" not in changes.lower()
        elif lang == "fr":
            assert "points de classement" not in words.lower() and "hors classement" not in words.lower(), path
        else:                   # "puntuación" is the score, never the rating
            assert "puntuación" not in words.lower(), path
            assert "puntuación" not in changes.lower()


@pytest.mark.parametrize("lang, word", [("fr", r"niveaux?"), ("es", r"nivel(es)?")])
def test_the_ratings_word_is_that_word_alone(lang, word):
    """Issue 40: French calls the rating "Niveau" and Spanish "Nivel"; so that a player reads
    the word as the rating wherever it appears, no other message may use it for something else.
    The API's refusal of a JSON nested too deeply said "{most} niveaux au plus" (of nesting),
    and in Spanish "como mucho {most} niveles". Nor may the rating keep its old Spanish word,
    "puntuación", which reads as the score."""
    from babel.messages.pofile import read_po

    catalogue = Path(__file__).parents[2] / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with catalogue.open("rb") as po:
        messages = [m for m in read_po(po) if m.id]
    said = [(" ".join(m.id) if isinstance(m.id, tuple) else m.id,
             " ".join(m.string) if isinstance(m.string, tuple) else m.string) for m in messages]
    rating = [(english, words) for english, words in said if re.search(rf"(?i)\b{word}\b", words)]
    assert len(rating) > 10
    assert [english for english, _ in rating if not re.search(r"(?i)\brat(ing|ed)", english)] == []
    assert [english for english, words in said if re.search(r"(?i)\brat(ing|ed)\b", english)
            and re.search(r"(?i)puntuaci[oó]n", words)] == []


def test_the_docs_say_what_three_sides_do_to_the_rating_as_the_engine_does(client):
    """docs/features.md said a loss never raises a rating; with three players the second loses the
    match and gains (the rating page explains why). The figures the docs quote are the engine's."""
    third = {"cards": 8, "coins": 1, "settebello": False, "primiera": False, "sweeps": 0}
    match = client.post("/api/v1/matches", json={"players": ["Uno", "Due", "Tre"], "first_dealer": 0,
                                                 "options": {"hands": 1}}).get_json()
    saved = client.post(f"/api/v1/matches/{match['id']}/hands", json={"tallies": [
        {"cards": 20, "coins": 6, "settebello": True, "primiera": True, "sweeps": 2},
        {"cards": 12, "coins": 3, "settebello": False, "primiera": False, "sweeps": 1}, third]})
    assert saved.status_code == 201 and saved.get_json()["match"]["outcome"]["over"]
    ratings = {row["name"]: row["rating"] - 1500 for row in client.get("/api/v1/ratings").get_json()["ratings"]}
    assert ratings["Due"] > 0 > ratings["Tre"]          # the second did not win, and gained
    features = " ".join((Path(__file__).parents[2] / "docs" / "features.md").read_text(encoding="utf-8").split())
    assert (f"the winner gains {ratings['Uno']}, the second {ratings['Due']} and the third loses "
            f"{-ratings['Tre']}") in features
    assert "never the other way" not in features
