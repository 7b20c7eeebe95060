"""Players remembered across matches: the leaderboard, a player's record, renaming and merging.

- ``records``: a record's rates and the leaderboard's order (the pages and the API share it);
- ``views`` and ``forms``: the leaderboard, a player's page, rename and merge.
"""
