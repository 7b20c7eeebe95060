"""What a room's pages, the JSON API, the referee and the web kit may ask of the store: reads alone, with the
connection they read through, the store's bounds and its failure; never a write.

Every write goes through a room's service (``table.service``, ``table.match_service``,
``players.service``, ``tournaments.service``, ``backup.service``), which imports the store whole
and catches its exceptions; a page or an endpoint imports this module instead, as
``from ..store import reads as store``, so that its ``store.x`` cannot be a writer. The
import-linter contract "The pages and the API read the store through store.reads..."
(pyproject.toml) holds them to it. A new read is added here; a new write, to a service.
"""

from .backup import PARTS
from .built import built_match, changed_since, each_match
from .changes import KINDS, change_row, change_rows, phone_number, was, what, who
from .db import MAX_ID, StorageError, get_db, number_from
from .known import player_row
from .matches import hand_row, listed_versions, match_row, match_version, pin_and_key, series_rows
from .organiser import organiser_phone_count
from .players import (
    extreme_hand,
    find_players,
    head_to_head,
    player_changes,
    player_match_rows,
    player_names,
    records,
    variants_played,
)
from .ratings import (
    chances_by_name,
    entrant_ratings,
    finished_at,
    match_rating_changes,
    new_rating,
    rating_history,
    rating_history_page,
    rating_list,
    ratings_of,
)
from .tournaments import (
    last_casual_match,
    listed_rows,
    table_of,
    tournament_rows,
    tournament_state,
    tournament_version,
)
from .trash import AT_ONCE, deleted_matches
