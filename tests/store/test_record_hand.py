"""store.record_hand: one save for every page that records a hand (a new hand, an edit, a
replace chosen on the conflict screen), saying what became of the entry instead of raising.
The pages' own tests (test_record.py, test_table.py) check what each outcome shows."""

import pytest

from companion import store
from companion.matches import Ledger, result_of, score_entry
from companion.rules import rules_for

RULES = rules_for("classica")
NAMES = ("Anna", "Bruno")


def entry(first_pile: str) -> dict:
    """A hand by cards: ``first_pile`` is Anna's, every other card Bruno's."""
    mine = first_pile.split()
    rest = [f"{value}{suit}" for suit in "dcsb" for value in range(1, 11)
            if f"{value}{suit}" not in mine]
    return {"mode": "piles", "piles": [mine, rest], "sweeps": [0, 0]}


def record(match_id: int, cards: str, **how) -> store.Recorded:
    hand = entry(cards)
    result = result_of(score_entry(hand, RULES, NAMES))
    return store.record_hand(store.get_db(), match_id, hand, result, Ledger, **how)


@pytest.fixture
def match_id(app):
    with app.app_context():
        yield store.create_match(store.get_db(), RULES.as_dict(),
                                 [{"name": n, "players": [n]} for n in NAMES], 0, None, Ledger)


def test_a_new_hand_is_added_with_its_number(match_id):
    recorded = record(match_id, "7d 7c", key="k1", number=1)
    assert (recorded.kind, recorded.number) == ("added", 1)
    assert store.hand_row(store.get_db(), match_id, recorded.hand_id)["number"] == 1


def test_the_same_form_sent_twice_is_counted_once(match_id):
    first = record(match_id, "7d 7c", key="k1", number=1)
    again = record(match_id, "7d 7c", key="k1", number=1)
    assert (again.kind, again.hand_id) == ("repeated", first.hand_id)
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_key_used_for_another_entry_saves_nothing(match_id):
    first = record(match_id, "7d 7c", key="k1", number=1)
    reused = record(match_id, "1d", key="k1", number=1)
    assert (reused.kind, reused.row["id"]) == ("reused", first.hand_id)
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_hand_another_phone_recorded_is_taken_not_counted_twice(match_id):
    theirs = record(match_id, "7d 7c", key="their-form", number=1)
    mine = record(match_id, "1d", key="my-form", number=1)
    assert (mine.kind, mine.row["id"]) == ("taken", theirs.hand_id)
    assert len(store.hand_rows(store.get_db(), match_id)) == 1


def test_a_change_from_the_current_version_is_made(match_id):
    added = record(match_id, "7d 7c", key="k1", number=1)
    changed = record(match_id, "1d", replacing=(added.hand_id, 1))
    assert (changed.kind, changed.hand_id) == ("changed", added.hand_id)
    assert store.hand_row(store.get_db(), match_id, added.hand_id)["version"] == 2


@pytest.mark.parametrize("made_from", [None, 7])
def test_a_change_from_another_version_or_none_is_a_conflict(match_id, made_from):
    added = record(match_id, "7d 7c", key="k1", number=1)
    conflict = record(match_id, "1d", replacing=(added.hand_id, made_from))
    assert (conflict.kind, conflict.row["version"]) == ("conflict", 1)
    kept = store.hand_row(store.get_db(), match_id, added.hand_id)
    assert kept["version"] == 1 and '"7d"' in kept["entry"]      # the hand as it was


def test_a_change_to_a_deleted_hand_is_gone(match_id):
    added = record(match_id, "7d 7c", key="k1", number=1)
    store.delete_hands(store.get_db(), match_id, {added.hand_id: 1}, Ledger)
    assert record(match_id, "1d", replacing=(added.hand_id, 2)).kind == "gone"


def test_a_hand_for_a_deleted_match_is_gone(match_id):
    store.delete_match(store.get_db(), match_id)
    assert record(match_id, "7d 7c", key="k1").kind == "gone"
