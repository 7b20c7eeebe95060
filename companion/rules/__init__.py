"""The rules of Scopa as plain Python: no Flask, no database.

- ``cards``: the notation of RULES §1, the decks and the cards' names;
- ``rulesets``: the presets and rule items of RULES §8;
- ``primiera``: how the primiera is decided (RULES §3);
- ``tally``: what a side captured, counted, and the checks that refuse an impossible hand;
- ``scoring``: the score of a hand from piles or from counts (RULES §2, §4);
- ``declarations``: Bazzica and Sbarazzina (RULES §5);
- ``match``: winning the match and chiamarsi fuori (RULES §6);
- ``captures``: the capture referee and the void deal (RULES §7).
"""

from .captures import Capture, DealCheck, Ruling, check_deal, legal_captures
from .cards import (
    Card,
    CardError,
    HandError,
    ScopaError,
    card_name,
    deck,
    english_name,
    italian_name,
    parse_card,
    parse_cards,
)
from .declarations import Declaration
from .match import ClaimCheck, HandResult, Outcome, check_claim, match_outcome, next_outcome
from .rulesets import PRESETS, Rules, RulesError, check_seating, rules_for, rules_from_dict, seating_of
from .scoring import HandScore, Line, Tally, score_piles, score_so_far, score_tallies

__all__ = [
    "Capture", "Card", "CardError", "ClaimCheck", "DealCheck", "Declaration", "HandError",
    "HandResult", "HandScore", "Line", "Outcome", "PRESETS", "Rules", "RulesError", "Ruling",
    "ScopaError", "Tally", "card_name", "check_claim", "check_seating", "seating_of", "check_deal", "deck", "english_name",
    "italian_name", "legal_captures", "match_outcome", "next_outcome", "parse_card", "parse_cards", "rules_for",
    "rules_from_dict", "score_piles", "score_so_far", "score_tallies",
]
