"""What the store is handed to work out a match: the model's ``Ledger`` class (``companion.matches``).
From the match's row, read inside a write's transaction, it works out the match's new summary, and
it scores hands afresh for a migration: the rules of the game are the model's, never the store's.

Its own module, the one module of the store the frozen migrations (``migration_*.py``) may import
(``pyproject.toml``'s contract): they are handed a ledger, and are typed by this alias alone.
"""

from __future__ import annotations

from typing import Any, Callable

MakeLedger = Callable[[dict[str, Any]], Any]
