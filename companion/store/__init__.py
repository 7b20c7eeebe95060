"""Storage: one SQLite file through sqlite-utils, split by what it keeps.

- ``db``: the connection (a ``Store``: sqlite-utils' Database with its path and the calls to make
  after a write commits; one per server thread), ``writing`` and ``reading`` transactions,
  ``StorageError``;
- ``migrations``: the schema, as numbered migrations, and the summaries they ask today's code
  to work out after them (``settle_summaries``);
- ``matches``: matches and their hands, and their summaries;
- ``undo``: hands deleted a moment ago brought back, and the organiser's undo of any change;
- ``changes``: every change to a hand, kept with who made it and the hand before it;
- ``built``: the cache of matches worked out once per version, and which hands changed since one;
- ``known``: the player a typed name or a number finds (one merged into another: that one);
- ``seats``: who sat where, found among the known players by name, with each side's figures;
- ``players``: players' records (from the totals kept for each), renames and merges, and their
  log (undone from it);
- ``ratings``: players' ratings (OpenSkill), kept by every write that finishes or changes a
  finished match, and when a match finished (``finished_at``);
- ``rerating``: the ratings worked out again after an old match changed, outside the write lock;
- ``organiser``: the phones that are the organiser's, by their keys' hashes;
- ``tournaments``: tournaments, their rounds and tables;
- ``trash``: deleted matches, kept a day for the organiser to bring back;
- ``checks``: whether a file is a store this version may open (at start-up, and a backup before
  it is restored: its schema and its texts too);
- ``backup``: backups, and restoring one.

A hand row keeps what the players entered and the points it was scored at when saved; the rules
of the game are never applied here. Every write that changes a match is handed the model's
``Ledger`` (``companion.matches``), which works out, inside the write's transaction, what the
write does to the match; so is the start-up, for the summaries the migrations asked for (a
migration is handed the store alone). Callers use ``store.x`` whatever module ``x`` lives in.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask

from .backup import (
    DOWNLOADING,
    PARTS,
    RESTORING,
    NotABackup,
    backup_to,
    check_backup,
    copy_rows,
    keep_copy,
    remove_leftovers,
    restore_from,
)
from .built import ChangedLines, also_forget_elsewhere, built_match, changed_since, each_match, forget_built
from .changes import KINDS, By, change_row, change_rows, phone_number, was, what, who
from .checks import Unfit, examine
from .db import (
    MAX_ID,
    PRIVATE_FILE,
    PRIVATE_FOLDER,
    StorageError,
    Store,
    close_db,
    connect,
    get_db,
    made_private,
    made_private_store,
    now,
    number_from,
    parsed_match,
    reading,
    stop_cleanly,
    writing,
)
from .known import player_key, player_row
from .ledger import MakeLedger
from .matches import (
    Conflict,
    Gone,
    InTournament,
    KeyReused,
    MatchNotOver,
    Saved,
    Taken,
    add_hand,
    archive_match,
    create_match,
    delete_hands,
    hand_row,
    hand_rows,
    listed_versions,
    match_row,
    match_rows,
    match_version,
    pin_and_key,
    rematch,
    series_rows,
    update_hand,
)
from .migrations import MIGRATIONS, migrate, settle_summaries
from .organiser import (
    add_organiser_phone,
    is_organiser_phone,
    organiser_phone_count,
    remove_organiser_phone,
    remove_organiser_phones,
    without_organiser_phones,
)
from .players import (
    CannotUndo,
    NameTaken,
    PlayedTogether,
    extreme_hand,
    find_players,
    head_to_head,
    merge_players,
    player_changes,
    player_match_rows,
    player_names,
    records,
    records_from_seats,
    rename_player,
    undo_change,
    variants_played,
)
from .ratings import (
    SETTLED,
    chances,
    chances_by_name,
    entrant_ratings,
    finished_at,
    match_rating_changes,
    new_rating,
    rating_history,
    rating_history_page,
    rating_list,
    ratings_of,
    set_rated,
    shown,
)
from .rerating import rerate, settle_ratings
from .seats import SEAT_STATS, SEAT_SUMS
from .tournaments import (
    RoundStarted,
    TournamentChanged,
    create_tournament,
    last_casual_match,
    listed_rows,
    set_entrants,
    start_round,
    table_of,
    tournament_rows,
    tournament_state,
    tournament_version,
)
from .trash import (
    AT_ONCE,
    CannotRestore,
    MatchChanged,
    delete_match,
    delete_matches,
    deleted_matches,
    purge_deleted,
    restore_match,
    restore_matches,
)
from .undo import NoSuchChange, restore_hands, undo_hand_change


def init_app(app: Flask, ledger: MakeLedger) -> None:
    """Bring the store to this version's schema, then work out with ``ledger`` (the model's) the
    summaries the migrations asked for, now or by a start that stopped before it was done, and
    the ratings asked for; close each request's use of its connection. A store
    that fails SQLite's quick check, of a newer version than this one, or whose schema holds
    what this version does not make (a trigger of its own), is refused (Unfit) before anything
    is written to it: ``checks.examine`` reads it read-only. What an interrupted restore or
    download left beside the store is removed (``remove_leftovers``)."""
    if Path(app.config["DATABASE"]).is_file():
        examine(app.config["DATABASE"])
    remove_leftovers(Path(app.config["DATABASE"]).parent)
    try:
        db = connect(app.config["DATABASE"])
        try:
            made_private_store(app.config["DATABASE"])     # before anything is written to it
            migrate(db)
            settle_summaries(db, ledger)    # what the migrations asked of today's rules
            purge_deleted(db)       # matches deleted more than a day ago: gone for good
            settle_ratings(db)      # ratings a write asked for before a crash: worked out now
        finally:
            db.conn.close()
    except sqlite3.DatabaseError as error:      # not a store at all, or an unreadable one
        raise StorageError.of(error) from error
    app.teardown_appcontext(close_db)
