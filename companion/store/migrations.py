"""The schema as numbered migrations, one function each, applied in order on first use.

A migration that adds to what is kept of each match (its hands' points, its summary, its seats)
works it out with the model's ``Ledger``, handed in, as every save does: the store applies no rule
of the game. A migration, once released, never changes: a store of any age comes to today's
schema through the same steps.
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Callable

import sqlite_utils

from ..names import name_key, team_name, team_name_cut
from .db import MakeLedger, now, parsed_match, writing
from .matches import hand_rows, keep_summary, set_summary
from .migration_018 import m018_hand_changes_and_look_alikes
from .migration_019 import m019_cirulla_piccola_to_six
from .migration_020 import m020_matches_versions_indexed
from .ratings import places
from .rerating import rerate
from .seats import seat_players
from .tournaments import index_entrants


def _rescore(db: sqlite_utils.Database, ledger: MakeLedger, row: dict[str, Any]) -> None:
    """Each counted hand of the match scored afresh and its result kept: for a migration that
    changes what a result keeps."""
    for hand_id, result in ledger(row).rescored(hand_rows(db, row["id"])):
        db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(result), hand_id])


def _m001_matches_and_hands(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    db.table("matches").create({
        "id": int, "created": str, "rules": str, "sides": str, "first_dealer": int,
    }, pk="id", not_null={"created", "rules", "sides", "first_dealer"})
    db.table("hands").create({
        "id": int, "match_id": int, "number": int, "entry": str, "created": str, "updated": str,
        "version": int, "key": str,
    }, pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "number", "entry", "created", "updated", "version"},
        defaults={"version": 1})
    db.table("hands").create_index(["match_id", "number"], unique=True)
    # The one-time key of the form a hand was saved from: the same form sent twice (a double
    # tap, a retried request, two phones) finds its hand already there.
    db.table("hands").create_index(["match_id", "key"], unique=True)


def _m002_versions_and_pins(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # version: bumped by every write to a match's hands, so a phone polling the match learns
    # whether anything changed from one primary-key read. pin_hash: the edit PIN, if any.
    db.table("matches").add_column("version", int, not_null_default=0)
    db.table("matches").add_column("pin_hash", str)


def _m003_hand_identity(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # deleted: a deleted hand stays as a marked row, so its id is never reused (SQLite gives a
    # new row the largest id + 1) and a late or repeated delete cannot reach another hand.
    # previous: the entry an edit replaced, so the edit can be undone.
    db.table("hands").add_column("deleted", str)
    db.table("hands").add_column("previous", str)


def _m004_results_and_summaries(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # result: a hand's points, worked out when it is saved, so that showing a match adds up
    # stored points instead of scoring every hand again. summary and over: the match's outcome
    # kept in its row, so that listing thousands of matches reads no hands, and a save checks
    # the match's state from one row.
    db.table("hands").add_column("result", str)
    db.table("matches").add_column("summary", str)
    db.table("matches").add_column("over", int, not_null_default=0)
    db.table("matches").create_index(["over", "id"])
    for row in list(db.query("SELECT * FROM matches")):
        _rescore(db, ledger, parsed_match(row))
        set_summary(db, row["id"], ledger(parsed_match(row)).after_change(hand_rows(db, row["id"])))


def _m005_access_keys(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # access_key: what a phone that entered the PIN keeps in its cookie, random for each match,
    # so a phone unlocked for match 3 of one store is not for match 3 of a restored or other one.
    db.table("matches").add_column("access_key", str)
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        db.execute("UPDATE matches SET access_key = ? WHERE id = ?", [secrets.token_urlsafe(16), match_id])


def _m006_outcomes_in_any_language(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A match's outcome is kept as what was said with its figures, not as English text, so
    # that every phone reads it in its own language: the summaries are worked out again.
    for row in list(db.query("SELECT * FROM matches")):
        set_summary(db, row["id"], ledger(parsed_match(row)).after_change(hand_rows(db, row["id"])))


def _m007_rematches_archive_and_deletes(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # follows / followed_by: a "Rivincita" and the match it follows (the finished match's page
    # links to it). archived: kept, but out of the lists. deleted: a deleted match keeps its
    # row, emptied, so its id is never given to another match (an old link or a phone unlocked
    # for it never reaches a new one); its hands are removed.
    db.table("matches").add_column("follows", int)
    db.table("matches").add_column("followed_by", int)
    db.table("matches").add_column("archived", int, not_null_default=0)
    db.table("matches").add_column("deleted", str)
    db.table("matches").create_index(["archived", "over", "id"])
    db.table("matches").create_index(["archived", "id"])      # every match, newest first (the API)


# The seats' figures as m008 made their columns, kept as released (a migration never changes): a
# figure added to companion.stats later comes with a migration of its own that adds its column.
_M008_SUMS = ("hands", "points", "sweeps", "carte", "denari", "settebello", "primiera", "re_bello",
              "napola", "declarations")


def _m008_players(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # players: the people who sit at the tables, known across matches by their name trimmed and
    # case-folded (key). A player merged into another keeps its row (merged_into), so its
    # number is never given to someone else and an old link finds whom it became.
    # seats: who sat on which side of each match, with that side's figures and result, kept
    # by every save (keep_summary), so a record or the leaderboard is one grouped query over
    # seats, never a reading of hands. A hand's stored result gains its points item by item.
    db.table("players").create({"id": int, "name": str, "key": str, "created": str, "merged_into": int},
                         pk="id", not_null={"name", "key", "created"})
    db.execute("CREATE UNIQUE INDEX players_key ON players (key) WHERE merged_into IS NULL")
    db.table("seats").create({"match_id": int, "side": int, "seat": int, "player_id": int,
                        "variant": str, "over": int, "won": int, "drawn": int,
                        **{name: int for name in (*_M008_SUMS, "best", "worst")}},
                       pk=("match_id", "side", "seat"),
                       foreign_keys=[("match_id", "matches", "id"), ("player_id", "players", "id")],
                       not_null={"player_id", "variant"},
                       defaults={name: 0 for name in ("over", "won", "drawn", *_M008_SUMS)})
    db.table("seats").create_index(["player_id", "match_id"])
    db.table("seats").create_index(["variant"])         # the variants a record can be filtered by
    # Each summary is worked out from its hands' points as scored just above, its outcome and
    # its figures alike, so that the two agree even where points were stored by an older scoring.
    for row in list(db.query("SELECT * FROM matches WHERE deleted IS NULL ORDER BY id")):
        row = parsed_match(row)
        _rescore(db, ledger, row)
        sides = seat_players(db, row["id"], row["sides"], row["rules"].get("preset", ""))
        if sides != row["sides"]:       # "anna" is the known "Anna": the outcome says so too
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(sides), row["id"]])
        keep_summary(db, row["id"], ledger({**row, "sides": sides}).after_change(hand_rows(db, row["id"])))


def _m009_tournaments(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A tournament: its rules and entrants (a player, or a pair of players, each {name,
    # players}), its format and, for a Swiss, the rounds to play. Its rounds and their tables:
    # each table is an ordinary match (tournament_tables.match_id) between two entrants, by
    # their number in the tournament's list; a round's byes are kept with it. Standings are
    # worked out from the tables' matches, never stored.
    db.table("tournaments").create({"id": int, "created": str, "name": str, "format": str, "rules": str,
                              "entrants": str, "rounds": int, "seeding": str, "pin_hash": str,
                              "version": int},
                             pk="id", not_null={"created", "name", "format", "rules", "entrants"},
                             defaults={"version": 0})
    # slots: the round's tables and byes in bracket order (a knockout's next round pairs the
    # winners of neighbouring slots): [{"table": 1}, {"bye": 4}, ...].
    db.table("tournament_rounds").create({"tournament_id": int, "number": int, "byes": str, "slots": str,
                                    "created": str},
                                   pk=("tournament_id", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id")])
    db.table("tournament_tables").create({"tournament_id": int, "round": int, "number": int,
                                    "match_id": int, "first": int, "second": int},
                                   pk=("tournament_id", "round", "number"),
                                   foreign_keys=[("tournament_id", "tournaments", "id"),
                                                 ("match_id", "matches", "id")])
    db.table("tournament_tables").create_index(["match_id"])


def _m010_tidy_name_keys(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A player's key now ignores what shows as nothing and how an accent was typed
    # (names.tidy): each player's key is worked out again. Two players whose keys would now be
    # one ("Anna" and "An\u200bna") keep their own, and stay two players until merged.
    for player_id, name in list(db.execute("SELECT id, name FROM players WHERE merged_into IS NULL")):
        key = name_key(name)
        if not db.execute("SELECT 1 FROM players WHERE key = ? AND merged_into IS NULL AND id != ?",
                          [key, player_id]).fetchone():
            db.execute("UPDATE players SET key = ? WHERE id = ?", [key, player_id])


def _m011_tournament_players(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # Which players' names each tournament's entrants hold, by their key: a rename reads only
    # the tournaments that name the player (store.tournaments.rename_entrants). A key stays
    # after a rename: it only ever makes a rename read one tournament more.
    db.table("tournament_players").create({"tournament_id": int, "key": str},
                                    pk=("tournament_id", "key"),
                                    foreign_keys=[("tournament_id", "tournaments", "id")])
    db.table("tournament_players").create_index(["key"])
    for tournament_id, entrants in list(db.execute("SELECT id, entrants FROM tournaments")):
        index_entrants(db, tournament_id, json.loads(entrants))


def _m012_organiser_and_player_changes(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # organiser_phones: the phones that opened the organiser's link (or typed its code), each by
    # the hash of the random key its cookie carries, until it logs out; kept in the store so a
    # restart with a fresh code does not log the organiser's phone out in the middle of a night.
    # player_changes: every rename and merge, with what it moved (details: the seats that were
    # the merged player's, the players merged into it before, the tournaments' entrants it
    # renamed), so it can be shown on the player's page and undone.
    # matches.trash: a match deleted in the last day keeps its row whole, its hands marked
    # deleted with it; its seats (out of every record) and the ids of those hands wait here
    # until the organiser brings it back, or the day is over.
    db.table("organiser_phones").create({"key_hash": str, "created": str}, pk="key_hash",
                                  not_null={"created"})
    db.table("player_changes").create({"id": int, "kind": str, "player_id": int, "into_id": int,
                                 "old_name": str, "new_name": str, "details": str,
                                 "created": str, "undone": str},
                                pk="id", not_null={"kind", "player_id", "old_name", "new_name",
                                                   "details", "created"})
    db.table("player_changes").create_index(["player_id", "id"])
    db.table("player_changes").create_index(["into_id", "id"])
    db.table("matches").add_column("trash", str)


def _m013_ratings(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # Players' ratings (store.ratings). rated_matches: each finished match's moment and its
    # sides' places, the order the ratings follow; a match that is no longer finished keeps its
    # row without places. rating_changes: each player's mu and sigma before and after each match,
    # for all variants together (variant "") and for the match's variant. ratings: each player's
    # rating now in each of those, with mu - 3 sigma (ordinal), the leaderboard's order.
    # A store's finished matches finished, as far as it knows, with their last hand.
    db.table("rated_matches").create({"match_id": int, "finished": str, "places": str}, pk="match_id",
                               not_null={"finished"})
    db.table("rated_matches").create_index(["finished", "match_id"])
    db.table("rating_changes").create({"match_id": int, "player_id": int, "variant": str,
                                 "mu_before": float, "sigma_before": float, "mu": float,
                                 "sigma": float, "matches": int},
                                pk=("match_id", "player_id", "variant"),
                                not_null={"mu_before", "sigma_before", "mu", "sigma", "matches"})
    db.table("rating_changes").create_index(["player_id", "variant"])
    db.table("ratings").create({"player_id": int, "variant": str, "mu": float, "sigma": float,
                          "matches": int, "ordinal": float}, pk=("player_id", "variant"),
                         not_null={"mu", "sigma", "matches", "ordinal"})
    db.table("ratings").create_index(["variant", "ordinal"])
    for match_id, created, summary, last in list(db.execute(
            "SELECT m.id, m.created, m.summary, (SELECT MAX(h.created) FROM hands h "
            "WHERE h.match_id = m.id AND h.deleted IS NULL) FROM matches m WHERE m.over = 1")):
        ranks = places(json.loads(summary)) if summary else None
        if ranks:
            db.table("rated_matches").insert({"match_id": match_id, "finished": last or created,
                                        "places": json.dumps(ranks)})
    rerate(db)


# The seats' sums as m014 keeps them in player_totals, kept as released (a migration never
# changes): a figure added to companion.stats later comes with a migration that adds its column
# to both tables and makes the triggers again.
_M014_SUMS = _M008_SUMS


def _m014_kept_not_worked_out_again(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
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
    count_totals(db)
    _line_versions(db)


def count_totals(db: sqlite_utils.Database) -> None:
    """player_totals made again from the seats, whole (m014; a restore, which never takes the
    totals a file carries): each of its columns but the keys, "seats", best and worst is the
    seats' column of that name added up, so a column a later migration adds is counted too."""
    counted = [name for name in db.table("player_totals").columns_dict
               if name not in ("player_id", "variant", "seats", "best", "worst")]
    sums = ", ".join(f"COALESCE(SUM({name}), 0)" for name in counted)
    db.execute("DELETE FROM player_totals")
    db.execute(f"INSERT INTO player_totals (player_id, variant, seats, {', '.join(counted)}, best, worst) "
               f"SELECT player_id, variant, COUNT(*), {sums}, MAX(best), MIN(worst) FROM seats "
               "GROUP BY player_id, variant")


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


def _m015_rating_work_and_unrated(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # rating_work: the re-rating a write asked for, from one match on (finished, match_id; both
    # NULL: every match), done after the write, outside its lock (store.rerate), and taken away
    # once done; kept in the store, so work a crash interrupted is done at the next start.
    # matches.unrated: the organiser left the match out of the ratings (1); every match is rated
    # until then.
    db.table("rating_work").create({"id": int, "finished": str, "match_id": int}, pk="id")
    db.table("matches").add_column("unrated", int, not_null_default=0)


def _m016_chances_as_the_round_started(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # tournament_tables.chances: each side's chance to win as its round started (a JSON list,
    # from the ratings then), what the pages show until the table begins: a result or a
    # correction elsewhere, once the round is paired, moves the ratings but not a table's odds.
    # A table paired before this migration has none, and shows none.
    db.table("tournament_tables").add_column("chances", str)


def _m017_team_names_whole(db: sqlite_utils.Database, ledger: MakeLedger) -> None:
    # A team named after its players was cut to 24 characters with a full stop before issue 35
    # ("Jean-Bapt. & Bartolomeo."); such a name, exactly as that rule made it, is written whole
    # (names.team_name), and its summary, whose outcome names it, worked out again. A name the
    # players typed is left as it is.
    for row in list(db.query("SELECT * FROM matches WHERE sides LIKE '%.%'")):
        match, changed = parsed_match(row), False
        for side in match["sides"]:
            players = side.get("players") or []
            if len(players) > 1 and side.get("name") == team_name_cut(players) != team_name(players):
                side["name"], changed = team_name(players), True
        if changed:
            db.execute("UPDATE matches SET sides = ? WHERE id = ?", [json.dumps(match["sides"]), row["id"]])
            keep_summary(db, row["id"], ledger(match).after_change(hand_rows(db, row["id"])))


MIGRATIONS: list[Callable[[sqlite_utils.Database, MakeLedger], None]] = [
    _m001_matches_and_hands, _m002_versions_and_pins, _m003_hand_identity,
    _m004_results_and_summaries, _m005_access_keys, _m006_outcomes_in_any_language,
    _m007_rematches_archive_and_deletes, _m008_players, _m009_tournaments,
    _m010_tidy_name_keys, _m011_tournament_players, _m012_organiser_and_player_changes,
    _m013_ratings, _m014_kept_not_worked_out_again, _m015_rating_work_and_unrated,
    _m016_chances_as_the_round_started, _m017_team_names_whole,
    # Issue 41 (store/migration_018.py: this module would pass 400 lines).
    m018_hand_changes_and_look_alikes,
    # Issue 42 (store/migration_019.py).
    m019_cirulla_piccola_to_six,
    # Issue 41, a guest's costliest requests (store/migration_020.py).
    m020_matches_versions_indexed]


def migrate(db: sqlite_utils.Database, ledger: MakeLedger) -> int:
    """Apply the migrations not yet applied; returns the schema version. ``ledger`` (the
    model's ``Ledger``) works out again what a migration adds to each match's summary."""
    with writing(db):
        db.execute("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        done = {row["version"] for row in db.query("SELECT version FROM migrations")}
        for version, step in enumerate(MIGRATIONS, start=1):
            if version not in done:
                step(db, ledger)
                db.table("migrations").insert({"version": version, "applied": now()})
    return len(MIGRATIONS)
