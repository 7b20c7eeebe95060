"""A variant in a few words: who plays it, with what deck, to what goal, and what sets it apart
from Scopa classica. The list of variants, the opening of a variant's page and the JSON API's
``GET /api/v1/variants`` all say it this way.

Every sentence is worked out from the rule items, and every figure in it from the scoring
itself (the longest Napola that counts, a declaration's points), so a changed item changes the
words and the words never disagree with the score.

>>> from companion.rules.rulesets import rules_for
>>> str(glance(rules_for("napola")))
'2, 3 or 4 players, or two teams of 2 or 3; 40 cards; first to 21'
>>> [str(d) for d in differences(rules_for("napola"))]
['Napola: the bonus suit in sequence from the Ace, 3 cards at least, one point a card, 6 at most']
>>> [str(d) for d in differences(rules_for("napola", {"deck": 36}))][-1]
'Napola: the bonus suit in sequence from the Ace, 3 cards at least, one point a card, 5 at most'
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, deck, suit_values
from .deal import deal_plan
from .declarations import judge
from .primiera import COUNT_ORDER
from .rulesets import Rules, seating_of, seatings_of
from .said import Figure, Joined, Said, Suit, said
from .scoring import score_piles
from .tally import PIVA

CLASSIC = Rules()

# The usual table of a variant: the players its seating needs, else two.
PLAYERS = {"2x2": 4, "2": 2, None: 2}


def seating(rules: Rules) -> Said:
    """Who plays it: the seating the variant needs (``rulesets.check_seating``), or any."""
    only = seatings_of(rules)
    if only == ("2x2",):
        return said("Four players in two teams of two")
    if only == ("2",):
        return said("Two players, one against the other")
    if only == ("2", "2x2"):
        return said("Two players, or two teams of two")
    if only == ("2", "4", "2x2"):
        return said("2 or 4 players, or two teams of two")
    if only == ("2", "3", "2x2"):                  # Cirulla (rulesets.CIRULLA_SEATS)
        return said("2 or 3 players, or two teams of two")
    return said("2, 3 or 4 players, or two teams of 2 or 3")


def goal(rules: Rules) -> Said:
    """How far a match goes: a target, or a number of hands."""
    if rules.hands is not None:
        return said("{hands} hands, the highest total wins", hands=rules.hands)
    return said("first to {target}", target=rules.target)


def glance(rules: Rules) -> Said:
    """Who plays, the deck and the goal, in one line."""
    return said("{seating}; {deck}; {goal}", seating=seating(rules),
                deck=said("{count} cards", count=rules.deck), goal=goal(rules))


class Runs(NamedTuple):
    """What the coin sequences score under these rules, found by scoring piles that hold them:
    the shortest and the longest that count, and what the whole bonus suit does."""

    shortest: int           # A-2-3 (A-3-4 without the twos)
    longest: int            # the most a Napola, or a scaletta bassa, counts
    high_shortest: int      # scaletta alta: King, Horse, Jack
    high_longest: int       # scaletta alta as far as it goes
    whole: int              # the points of the whole suit
    outright: str | None    # "Napoleone" or "Scala": the whole suit wins the match


def _points_of(held: list[Card], rules: Rules, item: str) -> tuple[int, str | None]:
    """The points, and any outright win, of a side holding ``held``; the other side has the
    rest of the deck."""
    rest = [card for card in deck(rules.deck) if card not in held]
    hand = score_piles([held, rest], [0, 0], rules)
    return hand.points(0).get(item, 0), (hand.outright_reason if hand.outright == 0 else None)


def _suit(rules: Rules) -> list[Card]:
    return [Card(value, rules.bonus_suit) for value in suit_values(rules.deck)]


def runs(rules: Rules) -> Runs | None:
    """The Napola's or the Scalette's figures under these rules (None when neither is on)."""
    if rules.napola == "off" and not rules.scalette:
        return None
    item = "napola" if rules.napola != "off" else "scalette"
    suit = [Card(value, rules.bonus_suit) for value in suit_values(rules.deck)]
    shortest, _ = _points_of(suit[:3], rules, item)
    longest, _ = _points_of(suit[:-1], rules, item)          # up to the Horse: no King
    high_shortest, _ = _points_of(suit[-3:], rules, item)
    high_longest, _ = _points_of(suit[1:], rules, item)      # down to the lowest but the Ace
    whole, outright = _points_of(suit, rules, item)
    if item == "napola":
        high_shortest = high_longest = 0
    return Runs(shortest, longest, high_shortest, high_longest, whole, outright)


class Declared(NamedTuple):
    """A declaration shown as an example, and what it scores under these rules."""

    cards: tuple[Card, ...]
    kind: str
    points: int


# Three examples: a bazzica of three ranks, one with a pair, and a bazzicotto.
DECLARED = ((Card(1, "d"), Card(3, "c"), Card(4, "s")), (Card(1, "c"), Card(1, "s"), Card(5, "d")),
            (Card(1, "d"), Card(1, "c"), Card(1, "b")))


def declarations(rules: Rules) -> list[Declared]:
    """What three declarations score under the rules' scheme (``declarations.judge``)."""
    if rules.declarations == "off":
        return []
    return [Declared(cards, *judge(cards, rules.declarations)[:2]) for cards in DECLARED]


def piva(rules: Rules) -> int:
    """What the Piva card costs the side that takes it (nothing where the deck has no twos)."""
    return _points_of([PIVA], rules, "piva")[0] if rules.piva and PIVA in deck(rules.deck) else 0


CAPTURES = {
    "fewest": said("A card takes at most two cards, and always the fewest it can"),
    "fewest-any": said("A card always takes the fewest cards it can"),
    "quindici-1": said("A card takes only cards that make 15 with it"),
    "quindici-2": said("A card takes cards of its value, or cards that make 15 with it: the "
                       "player chooses"),
    "quindici-3": said("A card takes cards of its value, or cards that make 15 with it; an Ace "
                       "takes the whole table"),
    "asso-pigliatutto": said("An Ace takes the whole table, and that is a scopa"),
    "scopa-d-assi": said("An Ace takes the whole table, but that is no scopa"),
    "corse": said("Capturing is never compulsory"),
    "escoba": said("A card takes only cards that make 15 with it, and capturing is never "
                   "compulsory; clearing the table is an escoba, with the last card of the hand "
                   "too"),
    "cirulla": said("A card takes a card of its value (failing one, cards adding up to it) or "
                    "cards that make 15 with it; an Ace takes the whole table, and that is a "
                    "scopa"),
}
PRIMIERA = {
    "half": said("Primiera at face value: Ace 5½, figures ½"),
    # 003: "the King is worth 10, the Queen and Jack are worth 9 and 8": the figures as the pack
    # on the table names them (an Italian pack's Horse is the 9).
    "hurrikan": said("Primiera with the {king} at 10, the {nine} at 9, the {eight} at 8",
                     king=Figure(10), nine=Figure(9), eight=Figure(8)),
    "no-figures": said("Primiera with the figures at 0"),
    "sevens-sixes": said("No primiera count: most sevens wins the point, then most sixes"),
    "count-down": said("No primiera count: most sevens, then sixes, aces, fives and so on down "
                       "to the figures"),
    "sevens": said("No primiera count: most sevens wins the point (the setenta)"),
}
MISSING_SUIT = {
    "void": said("A side missing a suit cannot win the primiera"),
    "zero": said("A missing suit counts 0 in the primiera"),
}
VOID_DEAL = {
    "equal": said("Deal again when three cards of one value lie on the first table"),
    "aces": said("Deal again when any Ace lies on the first table, as with three Kings"),
    "two-aces": said("Deal again when two or more Aces lie on the first table"),
    "off": said("A deal is never void"),
}
PACK = {
    "spanish": said("The Spanish pack: oros, copas, espadas, bastos; sota 8, caballo 9, rey 10"),
    "french": said("French-suited cards"),
    "chkobba": said("French-suited cards, the 9 called Jack and the 8 Queen"),
}


def _bonuses(rules: Rules) -> list[Said]:
    told = []
    if rules.re_bello:
        told.append(said("Re Bello: 1 for the King of the bonus suit"))
    found = runs(rules)
    if rules.napola != "off" and found:
        told.append(said("Napola: the bonus suit in sequence from the Ace, 3 cards at least, one "
                         "point a card, {most} at most", most=found.longest))
        if found.outright:
            told.append(said("The whole bonus suit, a Napoleone, wins the match"))
    if rules.scalette and found:
        told.append(said("Scalette: sequences from the Ace and from the King"))
        if found.outright:
            told.append(said("The whole bonus suit, a Scala, wins the match"))
    if rules.piva and piva(rules):
        told.append(said("Piva: the {card} costs {points}", card=PIVA, points=-piva(rules)))
    if rules.grande_piccola:
        told.append(said("Grande: King, Queen and Jack of {suit} score {grande}; piccola: Ace, 2 "
                         "and 3 score {piccola}, one more for each next card in sequence, {most} "
                         "at most", suit=Suit(rules.bonus_suit, rules.pack),
                         grande=_points_of(_suit(rules)[-3:], rules, "grande")[0],
                         piccola=_points_of(_suit(rules)[:3], rules, "piccola")[0],
                         most=_points_of(_suit(rules), rules, "piccola")[0]))
    shown = declarations(rules)
    if shown and rules.declarations == "cirulla":
        told.append(said("Accusi (declarations) at each deal: a cirulla (three cards adding up "
                         "to 9 or less) scores {cirulla}, a decino (three of a kind) {decino}",
                         cirulla=next(d.points for d in shown if d.kind == "cirulla"),
                         decino=next(d.points for d in shown if d.kind == "decino")))
        if rules.matta:
            told.append(said("The matta, the {card}, stands for any card in an accuso and on "
                             "the first table", card=Card(7, "c")))
    elif shown:
        points = sorted({d.points for d in shown if d.kind == "bazzica"})
        told.append(said("Declarations after a deal: a bazzica {bazzica}, a bazzicotto {bazzicotto}",
                         bazzica=Joined(tuple(points), " / "),
                         bazzicotto=next(d.points for d in shown if d.kind == "bazzicotto")))
    return told


def differences(rules: Rules) -> list[Said]:
    """What these rules change from Scopa classica, item by item (the target aside: the glance
    says it)."""
    told = []
    players = PLAYERS[seating_of(rules)]
    plan = deal_plan(rules, players)
    if plan != deal_plan(CLASSIC, players):
        told.append(said("The deal: {plan}", plan=plan.describe()))
    if rules.deck != CLASSIC.deck:
        told.append(said("36 cards: the four twos are taken out"))
    if rules.pack in PACK:
        told.append(PACK[rules.pack])
    if rules.bonus_suit != CLASSIC.bonus_suit and rules.pack == "italian":
        # Hurrikan's books play hearts (003): an Italian pack's cups stand for them (RULES §10).
        told.append(said("The bonus suit is {suit} ({french} in a French pack)",
                         suit=Suit(rules.bonus_suit), french=Suit(rules.bonus_suit, "french")))
    elif rules.bonus_suit != CLASSIC.bonus_suit:
        told.append(said("The bonus suit is {suit}", suit=Suit(rules.bonus_suit)))
    if rules.capture in CAPTURES:
        told.append(CAPTURES[rules.capture])
    if rules.ace_takes_itself:
        told.append(said("An Ace on the empty table takes itself"))
    if rules.deal_scope != "off" and rules.preset == "escoba":
        told.append(said("A first table adding up to 15 gives the dealer an escoba, two fifteens "
                         "two"))
    elif rules.deal_scope == "15-30-low":
        told.append(said("A first table adding up to 15 gives the dealer a scopa, 30 two, 9 or "
                         "less three"))
    elif rules.deal_scope != "off":
        told.append(said("A first table adding up to 15 gives the dealer a scopa, 30 two"))
    if rules.void_deal in VOID_DEAL:
        told.append(VOID_DEAL[rules.void_deal])
    if rules.primiera in PRIMIERA:
        told.append(PRIMIERA[rules.primiera])
    if rules.primiera not in COUNT_ORDER and rules.missing_suit in MISSING_SUIT:
        told.append(MISSING_SUIT[rules.missing_suit])
    told += _bonuses(rules)
    if rules.cappotto:
        told.append(said("Cappotto: 7 to 0 wins at once"))
    if rules.double_under is not None:
        told.append(said("Double game when the loser has under {points}", points=rules.double_under))
    if rules.claims:
        told.append(said("Chiamarsi fuori allowed"))
    return told


def description(rules: Rules) -> Said:
    """The variant in a few sentences: the glance, then what sets it apart.

    >>> from companion.rules.rulesets import rules_for
    >>> str(description(rules_for("classica")))
    '2, 3 or 4 players, or two teams of 2 or 3; 40 cards; first to 11. The classic game: every other variant changes something in it.'
    """
    different = differences(rules) or [said("The classic game: every other variant changes "
                                            "something in it")]
    return said("{glance}. {different}.", glance=glance(rules), different=Joined(tuple(different), ". "))
