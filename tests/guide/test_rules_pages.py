"""The rules pages (issue 23, point 1): every variant at a glance, one variant from start to end,
worked out from its rule items so that they never disagree with the scoring.

Each page is read as a player reads it (the text, tags aside); the figures and examples it shows
are checked against the rules engine called here, not against words written in the test.
(Every variant's page in each language, with nothing left untranslated, is in
tests/app/test_translations.py's tour; axe and the browser in tests/guide/test_rules_browser.py
and tests/app/test_accessibility.py.)
"""

import re

import pytest

from companion import create_app
from companion.guide.facts import EXAMPLES, facts
from companion.rules import PRESETS, legal_captures, parse_card, parse_cards, rules_for, score_piles
from companion.rules.cards import Card, deck, suit_values
from companion.rules.describe import description
from companion.rules.primiera import SCALES
from helpers import organiser
from markup import attr, nodes, one, words as read_words


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One companion for the module: the pages change nothing, and a page's template is
    compiled once."""
    app = create_app({"TESTING": True, "SECRET_KEY": "guide", "WTF_CSRF_ENABLED": False,
                      "DATABASE": str(tmp_path_factory.mktemp("guide") / "g.sqlite")})
    return organiser(app)


def text(page: str) -> str:
    """What a player reads: the page's main, its tags aside."""
    return read_words(one(page, "main"))


def read(client, path: str, lang: str = "en", status: int = 200) -> str:
    client.set_cookie("lang", lang)
    answer = client.get(path)
    assert answer.status_code == status, (path, answer.status_code)
    return answer.get_data(as_text=True)


def examples(page: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Each worked capture example the page draws: the table, the card played, and each capture
    it lists (its cards, and whether it is a scopa)."""
    found = []
    for figure in nodes(page, "figure.example"):
        found.append((figure.attributes["data-table"], figure.attributes["data-played"],
                      [(capture.attributes["data-cards"], capture.attributes["data-sweep"])
                       for capture in figure.css("[data-cards][data-sweep]")]))
    return found


# -- Every variant at a glance -------------------------------------------------------------

def test_the_list_names_every_variant_with_its_seating_deck_target_and_differences(client):
    page = read(client, "/rules")
    for name in PRESETS:
        rules = rules_for(name)
        card = one(page, f'li.variant-card[data-variant="{name}"]')
        said = read_words(card)
        assert f"/rules/{name}" in [link.attributes["href"] for link in card.css("[href]")]
        assert f"{rules.deck} cards" in said and f"first to {rules.target}" in said, said
    assert "Two players, one against the other" in text(page)            # Bazzica, Sbarazzina, Piva
    assert "Four players in two teams of two" in text(page)              # Scopone
    assert "36 cards: the four twos are taken out" in text(page)         # Scopa Corse


def test_the_list_fits_what_sets_each_variant_apart(client):
    said = text(read(client, "/rules"))
    for words in ("An Ace takes the whole table, but that is no scopa",       # Scopa d'Assi
                  "A card takes at most two cards, and always the fewest it can",  # Sco_papa
                  "The bonus suit is cups",                                  # Hurrikan
                  "Double game when the loser has under 8",
                  "French-suited cards, the 9 called Jack and the 8 Queen",   # Chkobba
                  "The Spanish pack: oros, copas, espadas, bastos; sota 8, caballo 9, rey 10",  # Escoba
                  "No primiera count: most sevens wins the point (the setenta)",
                  "Napola: the bonus suit in sequence from the Ace, 3 cards at least, one point a card, 6 at most"):
        assert words in said


# -- One variant, start to end ---------------------------------------------------------------

@pytest.mark.parametrize("name", PRESETS)
def test_each_variant_has_its_whole_page(client, name):
    page = read(client, f"/rules/{name}")
    said = text(page)
    for section in ("deal", "captures", "points", "bonuses", "winning", "readings"):
        assert f'id="{section}"' in page, section
    assert str(description(rules_for(name))).split(".")[0].split(";")[0] in said


@pytest.mark.parametrize("name", PRESETS)
def test_the_worked_captures_are_the_engines_own(client, name):
    """Each example drawn is legal_captures' answer for the table and card shown, under the
    variant's rules: the same captures, in the same order, each a scopa or not."""
    rules = rules_for(name)
    found = examples(read(client, f"/rules/{name}"))
    assert [(table, played) for table, played, _ in found] == [
        (" ".join(str(c) for c in parse_cards(t.split())), p) for t, p in EXAMPLES[rules.capture]]
    for table, played, shown in found:
        ruling = legal_captures(parse_cards(table.split()), parse_card(played), rules)
        assert shown == [(" ".join(map(str, c.cards)), "yes" if c.sweep else "no")
                         for c in ruling.captures]


def test_the_examples_are_drawn_as_cards_named_in_words(client):
    page = read(client, "/rules/classica", "it")
    first = nodes(page, "figure.example")[0]
    # the table 1c 3s 4d 5b 7c and the Fante di denari played, each a tile with its name
    for name in ("Asso di coppe", "3 di spade", "4 di denari", "5 di bastoni", "7 di coppe",
                 "Fante di denari"):
        assert name in [read_words(hidden) for hidden in first.css("span.visually-hidden")], name


def test_the_primiera_scale_is_the_one_in_force(client):
    for method, shown in (("standard", ["Seven 21", "Ace 16", "Jack 10", "King 10"]),
                          ("half", ["Seven 7", "Ace 5.5", "Jack 0.5"]),
                          ("hurrikan", ["Jack 8", "Horse 9", "King 10"]),
                          ("no-figures", ["Six 18", "Jack 0"])):
        said = text(read(client, f"/rules/classica?primiera={method}"))
        for row in shown:
            assert row in said, (method, row)
        scale = SCALES[method]
        # 004's four cards valued on that scale, as the engine adds them up
        total = scale[7] * 2 + scale[6] + scale[1]
        assert f"= {total:g}." in said, (method, said)
    said = text(read(client, "/rules/sco-papa"))
    assert "most sevens scores 1 point" in said and "sevens → sixes" in said
    assert "Seven 21" not in said


def test_a_scale_without_the_twos_has_no_two(client):
    said = text(read(client, "/rules/corse"))
    assert "Three 13" in said and "Two 12" not in said


@pytest.mark.parametrize("item, value, before, after", [
    ("target", "21", "First to 11 at the end of a hand", "First to 21 at the end of a hand"),
    ("primiera", "half", "Ace 16", "Ace 5.5"),
    ("capture", "fewest", '1 + 3 + 4 = 8', "only sets of two cards may be taken"),
    ("missing_suit", "void", "loses the primiera to any side that has all four",
     "cannot win the primiera; when no side has all four suits, nobody scores it"),
    ("hands", "5", "First to 11", "After 5 hands the highest total wins"),
])
def test_a_changed_item_changes_the_page_through_the_query(client, item, value, before, after):
    plain = text(read(client, "/rules/classica"))
    changed = text(read(client, f"/rules/classica?{item}={value}"))
    assert before in plain and after not in plain
    assert after in changed and before not in changed
    assert "Changed from the variant's own rules:" in changed


def test_a_changed_capture_rule_changes_the_worked_example(client):
    assert [len(shown) for _, _, shown in examples(read(client, "/rules/classica"))] == [3, 1]
    fewest = examples(read(client, "/rules/classica?capture=fewest"))
    assert fewest[0][2] == [("1c 7c", "no"), ("3s 5b", "no")]
    aces = examples(read(client, "/rules/classica?capture=asso-pigliatutto"))
    assert ("3c 5d 7s 10b", "yes") in aces[1][2]
    assert ("3c 5d 7s 10b", "no") in examples(read(client, "/rules/classica?capture=scopa-d-assi"))[1][2]


def test_a_match_shows_the_rules_it_was_created_with(client):
    """A changed ``Rules`` (a match's, kept as it was created) changes the page as the query does."""
    match = client.post("/api/v1/matches", json={
        "variant": "napola", "players": ["Anna", "Bruno", "Carla"],
        "options": {"target": 31, "primiera": "hurrikan", "capture": "quindici-2", "napola": "to-horse",
                    "cappotto": True}}).get_json()["id"]
    assert f'href="/rules/napola?match={match}"' in read(client, f"/matches/{match}")
    said = text(read(client, f"/rules/napola?match={match}"))
    assert "The rules of the match Anna – Bruno – Carla, as it was created." in said
    assert "First to 31 at the end of a hand" in said
    assert "Jack 8" in said                                           # the Hurrikan scale
    assert "a set that makes 15 together with it" in said             # the quindici-2 rule
    assert "It counts as far as the Horse: 9 points at most." in said
    assert "at the end of a hand, a side with 7 points or more" in said
    # the match's own table: three players, one row of the deals
    assert re.search(r"Players Cards dealt 3 3 cards each", said)
    assert "Target: 31" in said and "Added: Cappotto: 7 to 0 wins at once" in said
    # asked under another variant's address, it goes to its own
    moved = client.get(f"/rules/classica?match={match}")
    assert moved.status_code == 302 and moved.headers["Location"].endswith(f"/rules/napola?match={match}")


def test_the_figures_of_the_bonuses_are_the_scorings(client):
    """The longest Napola, the Scalette and the Piva as the page says them, against the points
    score_piles gives piles that hold them (RULES §10: in 36 cards, limits are cards)."""
    def points(rules, held, item):
        rest = [card for card in deck(rules.deck) if card not in held]
        return score_piles([held, rest], [0, 0], rules).points(0)[item]

    for query, deck_size in (("", 40), ("?deck=36", 36)):
        rules = rules_for("napola", {"deck": deck_size})
        suit = [Card(v, "d") for v in suit_values(deck_size)]
        said = text(read(client, f"/rules/napola{query}"))
        assert f"It counts as far as the 6: {points(rules, suit[:-1], 'napola')} points at most." in said
        rules = rules_for("scalette", {"deck": deck_size})
        said = text(read(client, f"/rules/scalette{query}"))
        assert f"as far as the Horse ({points(rules, suit[:-1], 'scalette')} points)" in said
        assert f"({points(rules, suit[1:], 'scalette')} points)" in said
        assert f"it scores both runs, {points(rules, suit, 'scalette')} points" in said
    assert "as far as the 6: 5 points at most" in text(read(client, "/rules/napola?deck=36"))
    said = text(read(client, "/rules/piva"))
    assert "The Two of clubs costs the side that takes it 5 points: a total can go below 0." in said


def test_declarations_show_what_each_scores(client):
    bazzica = text(read(client, "/rules/bazzica"))
    assert "bazzica: 3 points" in bazzica and "bazzicotto: 10 points" in bazzica
    sbarazzina = text(read(client, "/rules/sbarazzina"))
    assert "all differ scores 2; with two cards of one value it scores 3" in sbarazzina
    assert "bazzicotto: 7 points" in sbarazzina
    assert "Declarations are made between two players" in sbarazzina
    assert "Declarations" not in text(read(client, "/rules/classica"))


def test_winning_says_the_outright_wins_cappotto_and_the_claims_where_they_apply(client):
    plain = text(read(client, "/rules/classica"))
    assert "Chiamarsi fuori" not in plain and "Left out here" in plain
    said = text(read(client, "/rules/classica?cappotto=1&claims=1&double_under=8"))
    assert "The claim is checked against the worst case" in said
    assert "Cappotto: at the end of a hand" in said and "under 8 points" in said
    assert "Cappotto counts a side at 0 or below" in said                # RULES §10
    assert "Left out here" not in said
    assert "A Scala ends the match at the end of its hand" in text(read(client, "/rules/scalette"))
    assert "A Napoleone ends the match" in text(read(client, "/rules/napola?napola=to-horse"))
    assert "nobody can call out" in text(read(client, "/rules/classica?claims=1&hands=4"))


@pytest.mark.parametrize("name, reading, elsewhere", [
    ("scopa-d-assi", "An Ace that clears the table is never a scopa, even when it takes a lone Ace.",
     "asso-pigliatutto"),
    ("quindici", "An Ace played with an Ace on the table takes only that Ace", "classica"),
    ("hurrikan", "the books of Hurrikan never throw in three Kings", "classica"),
    ("scopone", "the referee has no first table to check", "classica"),
    ("classica", "takes exactly the 4 cards of the first table", "scopone"),
    ("scalette", "A Scala scores both runs as far as each goes, 20 points", "napola"),
    ("escoba", "No source of Escoba excepts the last card of the hand", "quindici"),
    ("escoba", "whether or not they split into two fifteens", "cirulla"),
])
def test_the_settled_readings_show_where_they_apply(client, name, reading, elsewhere):
    """RULES §10's readings, each on the pages of the variants it concerns, and not elsewhere."""
    assert reading in text(read(client, f"/rules/{name}"))
    assert reading not in text(read(client, f"/rules/{elsewhere}"))


def test_runs_in_36_cards_are_said_with_the_deck(client):
    assert "the Ace, 3 and 4 of coins are a run of three" in text(read(client, "/rules/napola?deck=36"))
    assert "run of three" not in text(read(client, "/rules/napola"))


def test_the_deals_of_each_table_the_variant_seats(client):
    said = text(read(client, "/rules/scopone"))
    assert re.search(r"Players Cards dealt 4 10 cards each, none on the table", said)
    said = text(read(client, "/rules/classica"))
    for players, deals in ((2, 6), (3, 4), (4, 3), (6, 2)):
        assert f"{players} 3 cards each, 4 face up on the table; then 3 each, {deals} deals in all" in said
    assert "No card is dealt to the table, so no deal is ever void." in text(read(client, "/rules/scopone"))
    assert "If three or four cards of one value" in text(read(client, "/rules/chkobba"))


# -- What cannot be ------------------------------------------------------------------------

@pytest.mark.parametrize("query, said", [
    ("target=abc", "target must be a whole number from 1 to 1000"),
    ("target=0", "target must be a whole number from 1 to 1000"),
    ("capture=best", "capture must be one of"),
    ("piva=maybe", "piva must be true or false"),
    ("napola=to-six&scalette=1", "napola and scalette cannot both be on"),
    ("deck=52", "deck must be one of 40, 36"),
])
def test_a_change_that_cannot_be_is_said_and_the_variants_own_rules_shown(client, query, said):
    page = read(client, f"/rules/classica?{query}", status=400)
    assert said in text(page)
    assert "First to 11 at the end of a hand" in text(page)


def test_a_refused_change_is_said_in_the_pages_language(client):
    page = read(client, "/rules/classica?target=abc", "it", status=400)
    assert "Queste regole non si possono cambiare così" in text(page)


@pytest.mark.parametrize("path", ["/rules/no-such", "/rules/classica?match=999", "/rules/classica?match=abc",
                                  "/rules/classica?match="])
def test_no_such_variant_or_match(client, path):
    assert client.get(path).status_code == 404


# -- The ways in -----------------------------------------------------------------------------

def test_the_new_match_form_links_its_variant_in_a_new_tab(client):
    page = read(client, "/matches/new?preset=bazzica")
    link = one(page, "p#variant-rules > a").attributes
    assert (link.get("href"), link.get("target"), link.get("rel")) == ("/rules/bazzica", "_blank", "noopener")
    # choosing another variant swaps the link with the rules (htmx, out of band)
    fragment = read(client, "/matches/new/rules?preset=chkobba")
    assert attr(fragment, 'p#variant-rules[hx-swap-oob="true"] > a', "href") == "/rules/chkobba"
    assert 'href="/rules/classica"' in read(client, "/matches/new/rules?preset=nonsense")


def test_the_referee_links_the_variant_explained(client):
    page = read(client, "/referee/?variant=napola&missing_suit=void")
    assert 'href="/rules/napola?missing_suit=void"' in page
    said = text(read(client, "/rules/napola?missing_suit=void"))
    assert "cannot win the primiera; when no side has all four suits" in said


def test_every_variant_page_speaks_each_language(client):
    """The titles and the glance in Italian and French (the whole tour, untranslated words
    included, is tests/app/test_translations.py's)."""
    for lang, words in (("it", "si gioca a 21"), ("fr", "en 21 points")):
        said = text(read(client, "/rules/napola", lang))
        assert words in said and "Scopa con Napola" in said
    assert "I punti di una mano" in text(read(client, "/rules/classica", "it"))
    assert "Les points d’une manche" in text(read(client, "/rules/classica", "fr"))


def test_the_facts_need_no_flask():
    """guide.facts works from a Rules alone (the plain-Python contract): a changed Rules,
    changed facts."""
    plain, changed = facts(rules_for("classica")), facts(rules_for("classica", {"primiera": "half"}))
    assert dict(plain.scale)[1] == 16 and dict(changed.scale)[1] == 5.5


def test_a_variants_facts_are_worked_out_once_for_every_language(client):
    """The rules page of every variant scored each variant's sample piles at every request (issue
    41: 68 ms under load, the costliest page a guest could ask for): they are worked out once for
    each set of rules, whatever the page's language, which draws them."""
    facts.cache_clear()
    for lang in ("it", "fr", "es", "en"):
        client.get(f"/lang/{lang}")
        assert client.get("/rules").status_code == 200
    assert facts.cache_info().misses == 18 and facts.cache_info().hits == 3 * 18
