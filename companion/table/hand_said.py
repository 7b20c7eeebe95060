"""What the hand's page says of a form sent: each refusal by the field it names (as the new
match's page does, ``table.forms.NewMatchForm.field_for``), what no field says at the top, and
the live preview of the hand as entered so far."""

from __future__ import annotations

import itertools

from wtforms import Field

from ..i18n import explain
from ..matches import Match
from ..rules import ScopaError
from ..web.forms import shown_at
from ..web.pages import first_error
from .hand_form import RUNS, HandForm


def field_for(form: HandForm, at: tuple[str | int, ...]) -> Field | None:
    """The field a refusal of the hand's request names (its ``loc``, as ``HandEntry``
    reads the hand the form makes): a side's scope (``("sweeps", 1)``, ``("tallies", 1,
    "sweeps")``: ``sweeps_1``), a side's count (``("tallies", 0, "cards")``: ``t_cards_0``;
    ``scaletta_alta``: ``t_alta_0``). None for what no one field says (a pile, a
    declaration, the hand as a whole): the page says it at the top."""
    counts = {RUNS.get(row, row): fields for row, fields in form.count_rows().items()}
    match at:
        case ("sweeps", int(side), *_) | ("tallies", int(side), "sweeps", *_):
            fields = form.sweeps
        case ("tallies", int(side), str(count), *_) if count in counts:
            fields = counts[count]
        case _:
            return None
    return fields[side] if 0 <= side < len(fields) else None


def drawn_with_errors(form: HandForm) -> set[str]:
    """The fields the page draws with their refusals under them (the rest are said at the
    top, ``web.pages.first_error``): the scope, the counts, the holders, the declarations'
    side and deal, and of more than two sides the one that gets the rest."""
    drawn = [*form.sweeps, *(field for row in form.count_rows().values() for field in row),
             *form.holders().values(), *(part for row in form.decl or () for part in (row.side, row.deal))]
    if len(form.match.sides) > 2:
        drawn.append(form.rest)
    return {field.name for field in drawn}


def refused(form: HandForm, refusal: ScopaError) -> str | None:
    """A refusal of the hand, shown by the field its request's ``loc`` names (a side's count, its
    scope: ``field_for``), as a new match's are; else returned, for the top."""
    field = field_for(form, getattr(refusal, "at", ()))
    drawn = field is not None and field.name in drawn_with_errors(form)
    return shown_at(field if drawn else None, explain(refusal, form.match.rules.pack))


def preview_of(current: Match, form, editing: int | None) -> dict:
    """What the preview shows for a hand form: nothing before anything is entered; else the
    hand's breakdown as far as it is entered, what it still waits for and the totals it leads
    to; else the refusal, which is a real contradiction, never a count not entered yet
    (``editing``: the id of the hand it replaces)."""
    if form.is_blank():
        return {"blank": True}
    try:
        if not form.validate():
            raise ScopaError(first_error(form))
        hand, waiting = form.so_far()
    except ScopaError as error:
        return {"error": explain(error, current.rules.pack)}
    # A new hand follows them all; an edited one follows the hands before it.
    earlier = current.hands
    if editing is not None:
        earlier = list(itertools.takewhile(lambda h: h.id != editing, current.hands))
    before = earlier[-1].totals_after if earlier else (0,) * len(current.sides)
    return {"hand": hand, "waiting": waiting, "totals": [t + p for t, p in zip(before, hand.totals)]}
