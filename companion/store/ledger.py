"""What the store is handed to work out a match: the model's ``Ledger`` class (``companion.matches``).
From the match's row, read inside a write's transaction, it works out the match's new summary, and
it scores hands afresh for the work the migrations ask for (``migrations.settle_summaries``): the
rules of the game are the model's, never the store's.

No migration imports it or is handed a ledger (``pyproject.toml``'s frozen migrations' contract):
what a migration needs of the rules it asks for (``summary_work``), and the start-up works that
out with the ledger of the day, after the migrations.
"""

from __future__ import annotations

from typing import Any, Callable

MakeLedger = Callable[[dict[str, Any]], Any]
