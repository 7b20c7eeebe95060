"""The schema as numbered migrations, applied in order on first use; each one in a module of its
own (``migration_001.py``, ...): its SQL, and the backfill kept with it. Then the work the
migrations asked of today's code (``settle_summaries``).

A migration, once released, never changes: a store of any age comes to today's schema through the
same steps. So a migration imports nothing the live code changes, and is handed nothing of it but
the store (a contract in pyproject.toml, checked by tests/app/test_layers.py): what it needs of
the store's or the names' code is copied into its module as it was when frozen (issue 44), or
imported from an earlier migration's, which never changes either.

What a migration cannot do with its own code is the rules of the game: scoring a hand, working a
match's summary out. Those change with the live code, so a migration that needs them only asks,
as a write that changes the ratings' inputs asks for the ratings (``rating_work``): it names the
matches in ``summary_work`` (``migration_004.ask_summaries``), in the migrations' transaction.
After the migrations, the start-up (``store.init_app``), and a restore for the file it brings up
(``store.backup``), work the asked summaries out with today's code as a save keeps one
(``settle_summaries``): the seats' figures, the players' totals, the match's place among the
ratings and the ratings asked for when it changes; then the ratings' work, as ever. A stop
between the two leaves the asks in the store, done at the next start.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import sqlite_utils

from .db import Store, now, parsed_match, writing
from .ledger import MakeLedger
from .matches import hand_rows, keep_summary
from .migration_001 import m001_matches_and_hands
from .migration_002 import m002_versions_and_pins
from .migration_003 import m003_hand_identity
from .migration_004 import m004_results_and_summaries
from .migration_005 import m005_access_keys
from .migration_006 import m006_outcomes_in_any_language
from .migration_007 import m007_rematches_archive_and_deletes
from .migration_008 import m008_players
from .migration_009 import m009_tournaments
from .migration_010 import m010_tidy_name_keys
from .migration_011 import m011_tournament_players
from .migration_012 import m012_organiser_and_player_changes
from .migration_013 import m013_ratings
from .migration_014 import m014_kept_not_worked_out_again
from .migration_015 import m015_rating_work_and_unrated
from .migration_016 import m016_chances_as_the_round_started
from .migration_017 import m017_team_names_whole
from .migration_018 import m018_hand_changes_and_look_alikes
from .migration_019 import m019_cirulla_piccola_to_six
from .migration_020 import m020_matches_versions_indexed
from .migration_021 import m021_look_alikes_in_compatibility_forms
from .migration_022 import m022_summary_work
from .rerating import rerate_from

MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [
    m001_matches_and_hands, m002_versions_and_pins, m003_hand_identity,
    m004_results_and_summaries, m005_access_keys, m006_outcomes_in_any_language,
    m007_rematches_archive_and_deletes, m008_players, m009_tournaments,
    m010_tidy_name_keys, m011_tournament_players, m012_organiser_and_player_changes,
    m013_ratings, m014_kept_not_worked_out_again, m015_rating_work_and_unrated,
    m016_chances_as_the_round_started, m017_team_names_whole,
    # Issue 41.
    m018_hand_changes_and_look_alikes,
    # Issue 42.
    m019_cirulla_piccola_to_six,
    # Issue 41, a guest's costliest requests.
    m020_matches_versions_indexed,
    # Issue 41, look-alike names in compatibility forms.
    m021_look_alikes_in_compatibility_forms,
    # Issue 44, frozen migrations: the summaries they ask for.
    m022_summary_work]


def migrate(db: Store) -> int:
    """Apply the migrations not yet applied, in one transaction; returns the schema version.
    What they asked of today's code is left in ``summary_work``, for ``settle_summaries``."""
    with writing(db):
        db.execute("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, applied TEXT)")
        done = {row["version"] for row in db.query("SELECT version FROM migrations")}
        for version, step in enumerate(MIGRATIONS, start=1):
            if version not in done:
                step(db)
                db.table("migrations").insert({"version": version, "applied": now()})
    return len(MIGRATIONS)


def settle_summaries(db: Store, ledger: MakeLedger) -> int:
    """The summaries the migrations asked for (``summary_work``), worked out with today's code in
    one write, and the asks taken away with it; how many matches. ``ledger`` (the model's
    ``Ledger``) scores each asked hand afresh (``rescore``) and works the match's summary out
    from its hands, which is kept as every save keeps one (``matches.keep_summary``: the seats'
    figures, the totals, and the ratings asked for when its places change; they are worked out
    after the write, ``settle_ratings``).

    A match the ratings had no place for yet that the work finds finished is placed at the moment
    its ask names (m013's: its last hand, as it placed every other finished match), not now as a
    save places a match finishing; the ratings are asked from there."""
    if db.execute("SELECT 1 FROM summary_work LIMIT 1").fetchone() is None:
        return 0
    with writing(db):
        asks = db.execute("SELECT match_id, rescore, finished FROM summary_work ORDER BY match_id").fetchall()
        for match_id, rescore, finished in asks:
            rows = list(db.query("SELECT * FROM matches WHERE id = ?", [match_id]))
            if not rows or (rows[0]["deleted"] and not rows[0]["trash"]):
                continue                # gone for good: nothing of it is kept
            row = parsed_match(rows[0])
            if rescore:
                for hand_id, result in ledger(row).rescored(_hands(db, row)):
                    db.execute("UPDATE hands SET result = ? WHERE id = ?", [json.dumps(result), hand_id])
            placed = db.execute("SELECT 1 FROM rated_matches WHERE match_id = ?", [match_id]).fetchone()
            keep_summary(db, match_id, ledger(row).after_change(_hands(db, row)))
            if finished and placed is None and db.execute(
                    "UPDATE rated_matches SET finished = ? WHERE match_id = ? AND places IS NOT NULL",
                    [finished, match_id]).rowcount:
                rerate_from(db, (finished, match_id))
        db.execute("DELETE FROM summary_work")
    return len(asks)


def _hands(db: Store, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's hands as it holds them: a deleted match (still in the trash) holds those the
    trash will bring back with it, which its summary was kept from."""
    if not row["deleted"]:
        return hand_rows(db, row["id"])
    kept = json.loads(row["trash"])["hands"]
    return list(db.query(f"SELECT * FROM hands WHERE match_id = ? AND id IN ({', '.join('?' * len(kept))}) "
                         "ORDER BY number", [row["id"], *kept]))
