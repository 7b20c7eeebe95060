"""What a tournament may be, written once: its formats and how many entrants it takes. The
request that asks for one (``web.tournament_requests``: its checks, and the OpenAPI document's
enum and maxItems made from them) and the tournament itself (``tournaments.entrants``: a late
entrant past the most refused) both read them here, below the web kit and the rooms, as
``names`` and ``stats`` are read.
"""

from typing import Literal, get_args

Format = Literal["round-robin", "swiss", "knockout"]
FORMATS: tuple[str, ...] = get_args(Format)
ENTRANTS_MOST = 64      # entrants (players, or pairs) in one tournament at most
