"""What a player's record counts, figure by figure, written once: the model works the figures
out hand by hand (``matches.add_stats``), the store keeps each side's in its seats and adds them
up, and a record's pages, JSON and OpenAPI document show them.

Plain Python below the store and the model, so that both may read it (the store may not import
the model). A figure added here needs a migration that adds its column to the seats and to
the kept totals (player_totals), and makes their triggers again: the migrations that made them
keep the lists they were released with.
"""

# The items a side may take in a hand: a record counts the hands in which its side took each.
TAKEN = ("carte", "denari", "settebello", "primiera", "re_bello", "napola", "declarations")
# Added up over the counted hands: hands, points, sweeps (the scope points), and TAKEN.
SUMS = ("hands", "points", "sweeps", *TAKEN)
# Its side's best and worst hand, in points.
EXTREMES = ("best", "worst")
# Matches: the finished ones played, won and drawn, and those still in play.
MATCHES = ("matches", "won", "drawn", "playing")
# A player's record, in the order the API answers it.
RECORD = ("id", "name", *MATCHES, *SUMS, *EXTREMES)
