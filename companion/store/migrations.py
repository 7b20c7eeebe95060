"""The schema as numbered migrations, applied in order on first use; each one in a module of its
own (``migration_001.py``, ...): its SQL, and the backfill kept with it.

A migration, once released, never changes: a store of any age comes to today's schema through the
same steps. So a migration imports nothing the live code changes (a contract in pyproject.toml,
checked by tests/app/test_layers.py): what it needs of the store's or the names' code is copied
into its module as it was when frozen (issue 44), or imported from an earlier migration's, which
never changes either. The one thing handed in is the model's ``Ledger`` (``ledger``): a
migration that rescores hands or works a match's summary out again applies the rules of the game,
which the store does not own. A migration that changes what the ratings are worked out from asks
for them (``rating_work``), and the start-up works them out after the migrations.
"""

from __future__ import annotations

from typing import Callable

import sqlite_utils

from .db import Store, now, writing
from .ledger import MakeLedger
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

MIGRATIONS: list[Callable[[sqlite_utils.Database, MakeLedger], None]] = [
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
    m021_look_alikes_in_compatibility_forms]


def migrate(db: Store, ledger: MakeLedger) -> int:
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
