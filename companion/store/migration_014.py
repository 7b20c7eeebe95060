"""Migration 14, frozen (issue 44): the players' totals and the hands' changed versions, kept by
triggers, and filled in from what the store holds. Its SQL alone: it imports nothing the live code
changes (the live ``count_totals``, which a restore runs, is ``store.backup``'s)."""

from __future__ import annotations

import sqlite_utils

from .migration_008 import M008_SUMS

# The seats' sums as m014 keeps them in player_totals, kept as released (a migration never
# changes): a figure added to companion.stats later comes with a migration that adds its column
# to both tables and makes the triggers again.
_M014_SUMS = M008_SUMS


def m014_kept_not_worked_out_again(db: sqlite_utils.Database) -> None:
    # player_totals: each player's seats added up, one row per player and variant (the
    # leaderboard's filter), so that the leaderboard, a player's record and the API read a few
    # rows per player, however many matches were played. "seats" counts them; "over", "won",
    # "drawn" and the sums are the seats' own columns added up; best and worst are the seats'
    # MAX and MIN, found again through an index whenever a seat changes.
    # hands.changed (_line_versions): what a polling phone is sent only the lines of.
    # Triggers on seats keep the totals, so that they are exact whatever writes the seats (a save, an
    # edit, a delete or undo, a match deleted or brought back, a rename or merge and its undo,
    # a migration): no writer can forget it. A player-variant with no seat left has no row.
    db.table("player_totals").create({"player_id": int, "variant": str, "seats": int, "over": int,
                                "won": int, "drawn": int, **{name: int for name in _M014_SUMS},
                                "best": int, "worst": int},
                               pk=("player_id", "variant"), not_null={"seats"},
                               defaults={name: 0 for name in ("over", "won", "drawn", *_M014_SUMS)})
    db.table("seats").create_index(["player_id", "variant", "best"])
    db.table("seats").create_index(["player_id", "variant", "worst"])
    counted = ("over", "won", "drawn", *_M014_SUMS)

    def added(row: str, sign: str) -> str:
        return ", ".join(f"{name} = {name} {sign} COALESCE({row}.{name}, 0)" for name in counted)

    def extremes(row: str) -> str:
        pair = f"player_id = {row}.player_id AND variant = {row}.variant"
        return (f"UPDATE player_totals SET best = (SELECT MAX(best) FROM seats WHERE {pair}), "
                f"worst = (SELECT MIN(worst) FROM seats WHERE {pair}) WHERE {pair};")

    def add(row: str) -> str:
        return (f"INSERT INTO player_totals (player_id, variant, seats) VALUES ({row}.player_id, "
                f"{row}.variant, 0) ON CONFLICT (player_id, variant) DO NOTHING; "
                f"UPDATE player_totals SET seats = seats + 1, {added(row, '+')} "
                f"WHERE player_id = {row}.player_id AND variant = {row}.variant; {extremes(row)}")

    def take(row: str) -> str:
        pair = f"player_id = {row}.player_id AND variant = {row}.variant"
        return (f"UPDATE player_totals SET seats = seats - 1, {added(row, '-')} WHERE {pair}; "
                f"DELETE FROM player_totals WHERE {pair} AND seats = 0; {extremes(row)}")

    db.execute(f"CREATE TRIGGER seats_totals_insert AFTER INSERT ON seats BEGIN {add('NEW')} END")
    db.execute(f"CREATE TRIGGER seats_totals_delete AFTER DELETE ON seats BEGIN {take('OLD')} END")
    db.execute(f"CREATE TRIGGER seats_totals_update AFTER UPDATE ON seats BEGIN {take('OLD')} "
               f"{add('NEW')} END")
    _count_totals(db)
    _line_versions(db)


def _count_totals(db: sqlite_utils.Database) -> None:
    """player_totals made from the seats, whole: each of m014's sums added up, the seats
    counted, the best and worst hand found."""
    counted = ("over", "won", "drawn", *_M014_SUMS)
    db.execute(f"INSERT INTO player_totals (player_id, variant, seats, {', '.join(counted)}, best, worst) "
               f"SELECT player_id, variant, COUNT(*), {', '.join(f'COALESCE(SUM({name}), 0)' for name in counted)}, "
               "MAX(best), MIN(worst) FROM seats GROUP BY player_id, variant")


def _line_versions(db: sqlite_utils.Database) -> None:
    # hands.changed: the match's version at which the hand's row last changed (added, edited,
    # deleted, brought back), or its line did (the sides were renamed): a phone polling from
    # version v is sent only the lines of the hands changed after v, and those after them
    # (store.changed_since). Kept by triggers, whatever writes the hands or the sides. Each
    # change is marked with the version after the match's version as it is at the change:
    # every write that changes a hand bumps the version after it, so a phone that has seen the
    # write has seen that version (a write that bumps before it only marks a hand as changed
    # for one version more, which costs one more line sent, never one line missed). A store's
    # hands at the migration count as changed at its current version.
    # hands.added: the same mark, set once when the hand is added: a phone at an older version
    # has no line of it to take away.
    db.table("hands").add_column("changed", int)
    db.table("hands").add_column("added", int, not_null_default=0)
    db.execute("UPDATE hands SET changed = (SELECT version FROM matches WHERE id = hands.match_id)")
    db.table("hands").create_index(["match_id", "changed"])
    after = "(SELECT version FROM matches WHERE id = NEW.match_id) + 1"
    mark = f"UPDATE hands SET changed = {after} WHERE id = NEW.id;"
    db.execute("CREATE TRIGGER hands_changed_insert AFTER INSERT ON hands BEGIN "
               f"UPDATE hands SET changed = {after}, added = {after} WHERE id = NEW.id; END")
    db.execute("CREATE TRIGGER hands_changed_update AFTER UPDATE OF entry, result, deleted, number "
               f"ON hands BEGIN {mark} END")
    db.execute("CREATE TRIGGER hands_changed_sides AFTER UPDATE OF sides ON matches "
               "WHEN NEW.sides IS NOT OLD.sides BEGIN "
               "UPDATE hands SET changed = NEW.version + 1 WHERE match_id = NEW.id; END")
