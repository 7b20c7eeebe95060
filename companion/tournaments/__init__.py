"""A tournament night: round robin, Swiss and knockout tournaments whose tables are ordinary
matches.

- ``pairing``: who meets whom each round (plain Python, no Flask, no store);
- ``standings``: the standings and their tie-breaks, as chess arbiters apply them (plain Python);
- ``model``: a tournament as the organiser and the wall see it, worked out from the stored rows;
- ``entrants``: who may join late or withdraw, and when (plain Python);
- ``service``: what the pages and the JSON API both do (make one, start a round, add, withdraw or
  bring back an entrant, as JSON);
- ``board``: the board for the wall laid out, a page at a time where the night is bigger than
  the screen (plain Python);
- ``sheets``: the standings as CSV, for the pages and the JSON API;
- ``views`` and ``forms``: the organiser's pages, the board for the wall, printable sheets.
"""
