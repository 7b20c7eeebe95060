""""How the rating works" (issue 33): "a short 'How the rating works' on the leaderboard and a
player's page, in the three languages: what moves it, why a newcomer is provisional, why the
same result moves two players differently, what 'chance to win' means. Each figure on a
finished match's page links there." And the rating's name as players of each country call it,
the same on every page: Punteggio, Rating, Points de classement."""

import pytest

from helpers import HAND, one_hand_match
from markup import attrs, nodes, text, texts
from night import play_the_night

EXPLAINED = {
    "it": ("Come funziona il punteggio", "Punteggio"),
    "en": ("How the rating works", "Rating"),
    "fr": ("Comment marchent les points de classement", "Points de classement"),
    "es": ("Cómo funciona la puntuación", "Puntuación"),
}
# The four questions the issue asks, in each language (as read: a no-break space is a space).
QUESTIONS = {
    "it": ["Che cosa lo muove", "Perché un nuovo arrivato è provvisorio",
           "Perché lo stesso risultato muove due giocatori in modo diverso",
           "Che cosa vuol dire “probabilità di vittoria”"],
    "en": ["What moves it", "Why a newcomer is provisional", "Why the same result moves two players differently",
           "What “chance to win” means"],
    "fr": ["Ce qui les fait bouger", "Pourquoi un nouveau venu est provisoire",
           "Pourquoi le même résultat ne fait pas bouger deux joueurs autant",
           "Ce que veut dire « chances de gagner »"],
    "es": ["Qué la mueve", "Por qué un recién llegado es provisional",
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
