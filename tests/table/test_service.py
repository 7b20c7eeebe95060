"""table.service: one door for every write to a match (a new match, a hand added, changed,
deleted or brought back, a claim), saying what became of it as a typed outcome instead of
raising or returning a string. The pages' and the API's own tests (test_record.py,
test_table.py, test_matches_api.py) check how each outcome is worded.

Ported from the store's ``record_hand`` tests, which the service replaces."""

import json

import pytest

from companion import store
from companion.matches import Match, build, score_entry
from companion.rules import deck, rules_for
from companion.table import service
from companion.web.match_requests import NewMatch
from helpers import counts_form, new_match

RULES = rules_for("classica")
NAMES = ("Anna", "Bruno")


def entry(first_pile: str) -> dict:
    """A hand by cards: ``first_pile`` is Anna's, every other card Bruno's."""
    mine = first_pile.split()
    rest = [f"{value}{suit}" for suit in "dcsb" for value in range(1, 11)
            if f"{value}{suit}" not in mine]
    return {"mode": "piles", "piles": [mine, rest], "sweeps": [0, 0]}


def add(match_id: int, cards: str, **how):
    hand = entry(cards)
    return service.add_hand(match_id, hand, score_entry(hand, RULES, NAMES), **how)


def change(match_id: int, hand_id: int, cards: str, made_from: int | None):
    hand = entry(cards)
    return service.change_hand(match_id, hand_id, hand, score_entry(hand, RULES, NAMES), made_from)


@pytest.fixture
def match_id(app):
    with app.test_request_context():
        yield service.new_match(NewMatch.read({"players": list(NAMES), "first_dealer": 0})).match_id


def test_a_new_match_keeps_its_pin_hashed_and_gives_its_creator_a_key(app):
    with app.test_request_context():
        made = service.new_match(NewMatch.read({"players": list(NAMES), "pin": "246810"}))
        pin_hash, key = store.pin_and_key(store.get_db(), made.match_id)
        assert key == made.access_key and pin_hash and "246810" not in pin_hash


def test_a_new_hand_is_added_with_its_number(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    assert isinstance(added, service.Added) and added.number == 1
    assert store.hand_row(store.get_db(), match_id, added.hand_id)["number"] == 1


def test_the_same_form_sent_twice_is_counted_once(match_id):
    first = add(match_id, "7d 7c", key="k1", number=1)
    assert add(match_id, "7d 7c", key="k1", number=1) == service.Repeated(first.hand_id)
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_key_used_for_another_entry_saves_nothing(match_id):
    first = add(match_id, "7d 7c", key="k1", number=1)
    reused = add(match_id, "1d", key="k1", number=1)
    assert isinstance(reused, service.Duplicate) and reused.row["id"] == first.hand_id
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_hand_another_phone_recorded_is_taken_not_counted_twice(match_id):
    theirs = add(match_id, "7d 7c", key="their-form", number=1)
    mine = add(match_id, "1d", key="my-form", number=1)
    assert isinstance(mine, service.Taken) and mine.row["id"] == theirs.hand_id
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_change_from_the_current_version_is_made(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    assert change(match_id, added.hand_id, "1d", 1) == service.Changed(added.hand_id, 2)
    assert store.hand_row(store.get_db(), match_id, added.hand_id)["version"] == 2


@pytest.mark.parametrize("made_from", [None, 7])
def test_a_change_from_another_version_or_none_is_stale(match_id, made_from):
    added = add(match_id, "7d 7c", key="k1", number=1)
    stale = change(match_id, added.hand_id, "1d", made_from)
    assert isinstance(stale, service.Stale) and stale.row["version"] == 1
    kept = store.hand_row(store.get_db(), match_id, added.hand_id)
    assert kept["version"] == 1 and '"7d"' in kept["entry"]      # the hand as it was


def test_a_change_to_a_deleted_hand_finds_no_such_hand(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    assert isinstance(service.delete_hands(match_id, {added.hand_id: 1}), service.Deleted)
    assert change(match_id, added.hand_id, "1d", 2) == service.NoSuchHand()


def test_a_delete_named_without_a_version_is_stale_and_deletes_nothing(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    assert isinstance(service.delete_hands(match_id, {added.hand_id: None}), service.Stale)
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_delete_is_undone_from_the_version_it_left(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    deleted = service.delete_hands(match_id, {added.hand_id: 1})
    assert isinstance(service.restore_hands(match_id, [added.hand_id], deleted.version - 1),
                      service.Stale)
    assert service.restore_hands(match_id, [added.hand_id], deleted.version) == \
        service.Restored((added.hand_id,))
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_hand_for_a_deleted_match_finds_no_such_match(match_id):
    store.delete_match(store.get_db(), match_id)
    assert add(match_id, "7d 7c", key="k1") == service.NoSuchMatch()
    assert service.claim(match_id, 0, [["7d"], []], [0, 0]) == service.NoSuchMatch()


def test_a_hand_for_a_match_already_won_is_over(match_id):
    for number in range(1, 12):
        if not isinstance(add(match_id, "", number=number), service.Added):    # Bruno: all
            break
    over = add(match_id, "7d 7c")
    assert isinstance(over, service.Over) and "The match is over" in str(over.said)


def test_a_change_is_undone_the_hand_as_it_was_before_it(match_id):
    added = add(match_id, "7d 7c", key="k1", number=1)
    assert isinstance(change(match_id, added.hand_id, "7d", 1), service.Changed)
    [changed] = [row for row in store.change_rows(store.get_db(), match_id) if row["kind"] == "changed"]
    undone = service.undo_change(match_id, changed["id"])
    assert isinstance(undone, service.Undone) and undone.hand_id == added.hand_id and undone.change_id
    assert json.loads(store.hand_row(store.get_db(), match_id, added.hand_id)["entry"]) == entry("7d 7c")
    assert service.undo_change(match_id, changed["id"]) == service.Undone(added.hand_id, None)   # as it was
    store.delete_match(store.get_db(), match_id)
    assert service.undo_change(match_id, changed["id"]) == service.NoSuchMatch()


def test_no_undo_of_a_change_not_in_the_matchs_log(match_id):
    assert service.undo_change(match_id, 999_999) == service.NoSuchChange()
    assert service.undo_change(999_999, 1) == service.NoSuchChange()


TEAMS_FORM = {"layout": "2x2", "player1": "Anna", "player2": "Bruno", "player3": "Carla",
              "player4": "Dario", "team1": "Anna", "team2": "", "first_dealer": "3",
              "preset": "classica", "deck": "40", "bonus_suit": "d", "primiera": "standard",
              "missing_suit": "loses", "napola": "off", "declarations": "off", "target": "11",
              "capture": "standard", "void_deal": "kings", "pack": "italian"}


def test_the_page_and_the_api_make_the_same_match_from_one_description(client):
    """The new match's form is read into the API's own request (web.match_requests.NewMatch): the
    same sides (teams sitting alternately, a team without a name named after its players), the
    same dealer. A team may bear one of its players' names on both doors (the API refused it
    before the two doors shared one description; the page took it)."""
    page = client.post("/matches/new", data=TEAMS_FORM)
    assert page.status_code == 303
    from_page = client.get(f"/api/v1/matches/{page.headers['Location'].rsplit('/', 1)[1]}").get_json()
    api = client.post("/api/v1/matches", json={
        "teams": [{"name": "Anna", "players": ["Anna", "Carla"]}, {"players": ["Bruno", "Dario"]}],
        "first_dealer": 3})
    assert api.status_code == 201
    assert from_page["sides"] == api.get_json()["sides"] == [
        {"name": "Anna", "players": ["Anna", "Carla"]}, {"name": "Bruno & Dario", "players": ["Bruno", "Dario"]}]
    assert from_page["next_hand"] == api.get_json()["next_hand"]


def test_the_form_asks_what_the_api_is_sent(app):
    from companion.table.forms import NewMatchForm
    with app.test_request_context(method="POST", data={**TEAMS_FORM, "pin": "246810"}):
        form = NewMatchForm(meta={"csrf": False})
        assert form.validate()
        assert form.asked()["teams"] == [{"name": "Anna", "players": ["Anna", "Carla"]},
                                         {"name": None, "players": ["Bruno", "Dario"]}]
        assert (form.request.pin, form.request.dealer(), form.request.rules.target) == ("246810", 3, 11)


@pytest.mark.parametrize("by", ["counts", "cards"])
def test_a_hand_from_the_page_is_the_hand_the_api_is_sent(client, by):
    """One shape for a hand at both doors: the hand form's data is read by the API's own request
    (web.hand_requests.HandEntry), so the page and the API store the very same entry. Before,
    the page's counts left out the counts its rules do not use (``sevens``, ``napola``...),
    which the API wrote."""
    match_id = new_match(client)
    if by == "counts":
        form = counts_form(22, 6, sweeps=(1, 0), number=1)
        sent = {"tallies": [{"cards": 22, "coins": 6, "settebello": True, "primiera": True, "sweeps": 1},
                            {"cards": 18, "coins": 4}]}
    else:
        anna = [card for card in deck() if card.suit == "d" or card.value == 7]    # denari, sevens
        form = {"mode": "piles", "number": 1, "rest": "1", "sweeps_0": "1", "sweeps_1": "0",
                **{f"c_{card}": "0" for card in anna}}
        sent = {"piles": [[str(card) for card in anna],
                          [str(card) for card in deck() if card not in anna]], "sweeps": [1, 0]}
    assert client.post(f"/matches/{match_id}/hands/new",
                       data={k: v for k, v in form.items() if v is not None}).status_code == 303
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=sent).status_code == 201
    page, api = (hand["entry"] for hand in client.get(f"/api/v1/matches/{match_id}").get_json()["hands"])
    assert page == api


# -- What a save does to the match (from test_table.py, issue 44: the rules a save applies are
#    checked on the service and the match model; test_table.py keeps what the pages draw) ------

def counted(cards: int, coins: int, settebello: int, primiera: int, sweeps=(0, 0)) -> dict:
    """A hand by counts as the page's form and the API store it: Anna's ``cards`` and ``coins``
    (Bruno's the rest of 40 and of 10); ``settebello`` and ``primiera`` the side that has it."""
    left = {"re_bello": False, "sevens": None, "sixes": None, "aces": None, "napola": 0,
            "scaletta_alta": 0, "piva": False}
    return {"mode": "tallies", "tallies": [
        {**left, "cards": (cards, 40 - cards)[side], "coins": (coins, 10 - coins)[side],
         "settebello": settebello == side, "primiera": primiera == side, "sweeps": sweeps[side]}
        for side in (0, 1)]}


def add_counted(match_id: int, *counts, **how):
    hand = counted(*counts, **how)
    return service.add_hand(match_id, hand, score_entry(hand, RULES, NAMES))


def built(match_id: int) -> Match:
    db = store.get_db()
    return build(store.match_row(db, match_id), store.hand_rows(db, match_id))


def test_a_tie_at_the_target_plays_another_hand(match_id):
    """RULES §6: "If two or more sides tie for the highest total at or above the target, hands
    go on until one side alone has the highest total at the end of a hand"."""
    add_counted(match_id, 22, 6, 0, 0, sweeps=(1, 0))       # Anna 5
    add_counted(match_id, 18, 4, 1, 1, sweeps=(0, 1))       # Bruno 5
    # Anna carte and denari, Bruno settebello and primiera, 4 scope each: 6 each.
    assert isinstance(add_counted(match_id, 22, 6, 1, 1, sweeps=(4, 4)), service.Added)
    tied = built(match_id)
    assert tied.totals == (11, 11) and not tied.over
    assert isinstance(add_counted(match_id, 22, 6, 0, 0), service.Added)     # another hand
    won = built(match_id)
    assert won.totals == (15, 11) and won.over


def test_reaching_the_target_ends_the_match_and_an_edit_below_it_reopens_it(match_id):
    """RULES §6: "at the end of a hand, if the highest total is at or above the target and no
    other side has the same total, that side wins"; an edit scores the match again."""
    add_counted(match_id, 22, 6, 0, 0, sweeps=(2, 0))       # 6
    second = add_counted(match_id, 22, 6, 0, 0, sweeps=(1, 0))      # 11: won
    assert built(match_id).totals == (11, 0) and built(match_id).over
    assert isinstance(add_counted(match_id, 22, 6, 0, 0), service.Over)
    hand = counted(22, 6, 0, 0)                               # its sweep taken out: 10
    assert isinstance(service.change_hand(match_id, second.hand_id, hand,
                                          score_entry(hand, RULES, NAMES), 1), service.Changed)
    reopened = built(match_id)
    assert reopened.totals == (10, 0) and not reopened.over


def test_a_hand_deleted_leaves_the_totals_and_the_hands_after_it_move_up(match_id):
    """The hands after a deleted one are numbered again from their place, and keep their ids
    (links name the hand, not its place)."""
    made = [add_counted(match_id, 22, 6, 0, 0, sweeps=(sweeps, 0)) for sweeps in (2, 0, 1)]
    assert built(match_id).totals == (15, 0) and built(match_id).over      # 6 + 4 + 5
    assert isinstance(service.delete_hands(match_id, {made[0].hand_id: 1}), service.Deleted)
    after = built(match_id)
    assert after.totals == (9, 0) and not after.over
    assert [(hand.id, hand.number) for hand in after.hands] == [(made[1].hand_id, 1), (made[2].hand_id, 2)]


def test_teams_sit_alternately_and_the_deal_goes_round(app):
    """Partners sit opposite each other; the deal passes to the next player each hand, and the
    player after the dealer plays first (the page says it: test_table.py)."""
    with app.test_request_context():
        made = service.new_match(NewMatch.read({"teams": [{"players": ["Anna", "Carla"]},
                                                          {"players": ["Bruno", "Dario"]}],
                                                "first_dealer": 1}))
        match = built(made.match_id)
        assert [name for name, _side in match.seats] == ["Anna", "Bruno", "Carla", "Dario"]
        assert match.dealer(match.next_number) == ("Bruno", "Carla")
        hand = entry("7d")
        assert isinstance(service.add_hand(made.match_id, hand, score_entry(hand, RULES, match.names)),
                          service.Added)
        after = built(made.match_id)
        assert after.dealer(after.next_number) == ("Carla", "Dario")
