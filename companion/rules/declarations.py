"""Bazzica and Sbarazzina declarations (RULES §5), and Cirulla's accusi, cirulla and decino.

Right after a three-card deal a player may show three cards: a *bazzica* (total 9 or less, Ace 1,
2-7 face value, figures 10) or a *bazzicotto* (three of one rank). When both declare after the
same deal only the better scores.

>>> from companion.rules.cards import parse_cards
>>> judge(parse_cards(["2d", "1c", "1s"]), "bazzica")
Judged(kind='bazzica', points=3, strength=(0, -4))

Cirulla (RULES §11): a hand of three adding up to 9 or less is a *cirulla* (also called a
*busso*, 3 points), three of one value a *decino* (or *tris*, 10); the *matta* (7 of cups,
hearts in a French pack) stands for any card, and every accuso scores, whoever else declares.

>>> judge(parse_cards(["4s", "7c", "4b"]), "cirulla", matta=True)
Judged(kind='decino', points=10, strength=(1, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

from .cards import Card, CardError
from .said import Joined, Said, said


class Judged(NamedTuple):
    kind: str          # "bazzica" or "bazzicotto"; Cirulla's "cirulla" or "decino"
    points: int
    strength: tuple    # larger is better: any bazzicotto beats any bazzica


class Seats(NamedTuple):
    """The table a hand's declarations were made at: the players of each side and the deals of
    a hand (``deal.deal_plan``). A hand entered is checked against them; a stored hand shown
    again is not (it was taken as it was)."""

    per_side: int
    deals: int


@dataclass(frozen=True)
class Declaration:
    """Three cards shown by one side after one deal (deals numbered from 1 within the hand)."""

    side: int
    deal: int
    cards: tuple[Card, ...]


def bazzica_value(card: Card) -> int:
    return 10 if card.value >= 8 else card.value


MATTA = Card(7, "c")


def _judge_cirulla(cards: Sequence[Card], matta: bool) -> Judged:
    """Cirulla (3) or decino (10); the matta takes whichever value makes the better one."""
    wild = matta and MATTA in cards
    rest = [card.value for card in cards if not (wild and card == MATTA)]
    if len(set(rest)) == 1:
        return Judged("decino", 10, (1, 0))
    total = sum(rest) + (1 if wild else 0)       # the matta counts as low as an Ace
    if total <= 9:
        return Judged("cirulla", 3, (0, 0))
    raise CardError(said("{cards} is no accuso: a cirulla adds up to 9 or less (these add up "
                         "to {total}) and a decino is three cards of one value", cards=list(cards),
                         total=total))


def judge(cards: Sequence[Card], scheme: str, matta: bool = False) -> Judged:
    """What three cards declare under ``bazzica``, ``sbarazzina`` or ``cirulla`` scoring;
    CardError if nothing. ``matta``: Cirulla's 7 of cups is wild."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise CardError(said("an accuso shows three different cards") if scheme == "cirulla"
                        else said("a declaration shows three different cards"))
    if scheme == "cirulla":
        return _judge_cirulla(cards, matta)
    ranks = [card.value for card in cards]
    if len(set(ranks)) == 1:
        # A-A-A is the best bazzicotto, Re-Re-Re the worst.
        return Judged("bazzicotto", 10 if scheme == "bazzica" else 7, (1, -ranks[0]))
    total = sum(bazzica_value(card) for card in cards)
    if total > 9:
        raise CardError(said("{cards} is no declaration: a bazzica totals 9 or less (these total "
                             "{total}) and a bazzicotto is three of one rank", cards=list(cards),
                             total=total))
    if scheme == "bazzica":
        points = 3
    else:  # sbarazzina: 2 if the ranks all differ, 3 if they include a pair
        points = 2 if len(set(ranks)) == 3 else 3
    return Judged("bazzica", points, (0, -total))


def score_declarations(declarations: Sequence[Declaration], scheme: str,
                       names: Sequence[str], matta: bool = False,
                       seats: Seats | None = None) -> tuple[list[int], list[Said]]:
    """Points per side from a hand's declarations, and a sentence for each deal.

    Checks that there are two sides, that each side declares at most once per deal, and that no
    card is shown twice in the hand. In Cirulla every player may declare once a deal (a team's
    two players each) and every accuso scores. With the ``seats``, each deal is one of the
    hand's."""
    n_sides = len(names)
    points = [0] * n_sides
    told: list[Said] = []
    if scheme == "cirulla":
        return _score_cirulla(declarations, names, matta, seats)
    if declarations and n_sides != 2:
        # RULES §10: declarations are of the two-player variants; they need exactly two sides.
        raise CardError(said("declarations need exactly two sides: there are {n}", n=n_sides))
    by_deal: dict[int, list[Declaration]] = {}
    dealt: dict[Card, int] = {}
    for d in declarations:
        _check_one(d, n_sides, seats)
        by_deal.setdefault(d.deal, []).append(d)
        _check_dealt(d, dealt)
    for deal in sorted(by_deal):
        group = by_deal[deal]
        if len({d.side for d in group}) != len(group):
            raise CardError(said("a side declared twice after deal {deal}", deal=deal))
        shown = [card for d in group for card in d.cards]
        if len(set(shown)) != len(shown):
            raise CardError(said("two declarations after deal {deal} show the same card", deal=deal))
        judged = [(d, judge(d.cards, scheme)) for d in group]
        best = max(j.strength for _, j in judged)
        leaders = [(d, j) for d, j in judged if j.strength == best]
        words = Joined(tuple(said("{name} {kind} {cards}", name=names[d.side], kind=j.kind,
                                  cards=list(d.cards)) for d, j in judged), ", ")
        if len(leaders) == 1:
            d, j = leaders[0]
            points[d.side] += j.points
            told.append(said("deal {deal}: {declared}: {name} scores {points}", deal=deal,
                             declared=words, name=names[d.side], points=j.points))
        else:
            told.append(said("deal {deal}: {declared}: equal, nobody scores", deal=deal,
                             declared=words))
    return points, told


def _check_one(d: Declaration, n_sides: int, seats: Seats | None = None, what: Said | None = None) -> None:
    if not 0 <= d.side < n_sides:
        raise CardError(said("a declaration names side {side}, but there are {n} sides",
                             side=d.side + 1, n=n_sides))
    if isinstance(d.deal, bool) or not isinstance(d.deal, int) or not 1 <= d.deal <= 10:
        raise CardError(said("a declaration's deal is a number from 1 to 10"))
    if seats is not None and d.deal > seats.deals:
        # RULES §11: 6 deals for two players, 4 for three, 3 for two teams of two.
        raise CardError(said("{what} after deal {deal}: with {players} players a hand has "
                             "{deals} deals", what=what or said("one declaration"), deal=d.deal,
                             players=n_sides * seats.per_side, deals=seats.deals))


def _check_dealt(d: Declaration, dealt: dict[Card, int]) -> None:
    for card in d.cards:        # a card is dealt once a hand (RULES §10)
        if dealt.setdefault(card, d.deal) != d.deal:
            raise CardError(said("{card} is declared after deal {first} and after deal "
                                 "{second}: a card is dealt once a hand", card=card,
                                 first=min(dealt[card], d.deal), second=max(dealt[card], d.deal)))


def _score_cirulla(declarations: Sequence[Declaration], names: Sequence[str],
                   matta: bool, seats: Seats | None) -> tuple[list[int], list[Said]]:
    """Cirulla: each accuso scores for its side (cirulla 3, decino 10); a player makes one a
    deal at most (a team of two, two), and no card is shown twice in the hand (RULES §11)."""
    points = [0] * len(names)
    told: list[Said] = []
    dealt: dict[Card, int] = {}
    shown: set[Card] = set()
    made: dict[tuple[int, int], int] = {}
    for d in declarations:
        _check_one(d, len(names), seats, said("an accuso"))
        made[d.side, d.deal] = made.get((d.side, d.deal), 0) + 1
        if seats is not None and made[d.side, d.deal] > seats.per_side:
            if seats.per_side == 1:
                raise CardError(said("{name} has {count} accusi after deal {deal}: a player "
                                     "makes one a deal at most", name=names[d.side],
                                     count=made[d.side, d.deal], deal=d.deal))
            raise CardError(said("{name} has {count} accusi after deal {deal}: each of the "
                                 "team's {players} players makes one a deal at most",
                                 name=names[d.side], count=made[d.side, d.deal], deal=d.deal,
                                 players=seats.per_side))
    for d in sorted(declarations, key=lambda d: d.deal):
        _check_dealt(d, dealt)
        if shown & set(d.cards):
            raise CardError(said("two accusi after deal {deal} show the same card", deal=d.deal))
        shown |= set(d.cards)
        j = judge(d.cards, "cirulla", matta)
        points[d.side] += j.points
        told.append(said("deal {deal}: {name}, {kind} ({cards}): {points}", deal=d.deal,
                         name=names[d.side], kind=j.kind, cards=list(d.cards), points=j.points))
    return points, told
