"""The table: what players do around a real deck. Matches and their hands, the list of matches,
the live score every phone follows, joining from another phone, the edit PIN.

- ``service``: every write to a match (a new match, a hand added, changed, deleted or brought
  back, a claim), each answered with a typed outcome: the pages, the JSON API and the referee
  call it and only word what it says;
- ``match_service``: every write to a match as a whole (a rematch, archive, delete, the matches
  ticked deleted and brought back, "not rated", a tournament round's tables), answered alike;
- ``pages``: the blueprint with all the table's routes, as ``create_app`` registers it;
- ``views``: the list, a new match, the match page and its live poll, rematch, archive,
  delete, join, PIN, the match's CSV;
- ``live``: the match page's live region, and which of its parts a poll sends (one partial each);
- ``drawn``: what the match page draws that is kept between requests (the list of hands, the chart);
- ``hands``: a hand recorded, shown, edited, deleted or undone, and its preview;
- ``selected``: the matches the organiser ticked in a list, deleted at once, and the Undo;
- ``forms`` and ``hand_form``: the new match's form and the hand's (``hand_counts``: a hand
  by counts worked out from what was typed);
- ``charts``: the score hand by hand, as the match page draws it;
- ``ratings``: the players' ratings beside a match (the chance to win, the changes);
- ``rated``: the organiser leaves a match out of the ratings, or counts it again.

This package imports none of them, so that the JSON API, the referee, the organiser's page and
the tournaments' service may call ``service`` and ``match_service`` without loading the table's
pages.
"""
