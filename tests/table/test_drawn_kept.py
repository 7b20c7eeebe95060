"""The drawn values a match page keeps between requests (table/drawn.py's ``Kept``): the least
recently used let go past its size, and a value drawn for one built match found only for that
object, never for another that a reused ``id`` or an equal key would name (a match built again
after a restore, whose versions start over)."""

import gc

from companion.table.drawn import Kept


class Built:
    """Stands for a built match: any object a weak reference can point to."""


def test_the_least_recently_used_value_is_let_go_past_the_size():
    kept, drawn = Kept(2), []

    def draw(name):
        return lambda: drawn.append(name) or name.upper()
    assert [kept.get(name, draw(name)) for name in ("a", "b", "a", "c")] == ["A", "B", "A", "C"]
    assert drawn == ["a", "b", "c"]         # "a", used since, is kept; "b" was let go
    # One look-up for many: "a" and "c" found, "b" drawn again and kept, "a" (the least
    # recently used of the three) let go for it.
    assert kept.many(["a", "b", "c"], lambda i: "abc"[i] * 2) == ["A", "bb", "C"]
    assert kept.get("c", draw("c")) == "C" and kept.get("b", draw("b")) == "bb" and drawn == ["a", "b", "c"]
    assert kept.get("a", draw("a")) == "A" and drawn == ["a", "b", "c", "a"]


def test_a_value_drawn_for_one_built_match_is_found_for_that_object_alone():
    kept, first, second = Kept(8), Built(), Built()
    assert kept.get("history", lambda: "first's", owner=first) == "first's"
    assert kept.get("history", lambda: "again", owner=first) == "first's"
    assert kept.get("history", lambda: "second's", owner=second) == "second's"
    del first, second
    gc.collect()
    assert kept.get("history", lambda: "a new one's", owner=Built()) == "a new one's"
