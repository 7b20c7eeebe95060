"""A ``Said`` as JSON: an outcome is kept in the store as what was said with its figures and
cards, never as text in one language, and read back to be rendered in whatever language a phone
reads it in.

>>> from companion.rules.said import said
>>> kept = to_json(said("{name} has the {card}", name="Anna", card=Card(7, "d")))
>>> kept
{'said': '{name} has the {card}', 'values': {'name': 'Anna', 'card': {'card': '7d'}}}
>>> str(from_json(kept))
'Anna has the 7d'
>>> from companion.rules.said import Item
>>> from_json(to_json(said("{item} {points}", item=Item("denari", "c"), points=1))).values["item"]
Item(key='denari', bonus_suit='c', pack='italian', declarations='off', preset='', name='')
"""

from __future__ import annotations

from typing import Any

from .cards import Card, parse_card
from .said import Figure, Item, Joined, Said, Suit, Versus


def to_json(value: Any) -> Any:
    """A Said (or any value it holds) as JSON, to be kept in the store: ``from_json`` gives it
    back, to be rendered in whatever language a phone reads it in."""
    if isinstance(value, Said):
        return {"said": value.text, "values": {k: to_json(v) for k, v in value.values.items()},
                **({"plural": value.plural} if value.plural else {})}
    if isinstance(value, Joined):
        return {"joined": [to_json(p) for p in value.parts], "between": value.between}
    if isinstance(value, Versus):
        return {"versus": [to_json(f) for f in value.figures]}
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Suit):
        return {"suit": value.code, **({"pack": value.pack} if value.pack else {})}
    if isinstance(value, Figure):
        return {"figure": value.value}
    if isinstance(value, Item):
        return {"item": value.key, "bonus_suit": value.bonus_suit, "pack": value.pack,
                "declarations": value.declarations, "preset": value.preset, "name": value.name}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """What ``to_json`` kept, as it was said."""
    if isinstance(value, list):
        return [from_json(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "said" in value:
        return Said(value["said"], {k: from_json(v) for k, v in value["values"].items()},
                    value.get("plural"))
    if "joined" in value:
        return Joined(tuple(from_json(p) for p in value["joined"]), value["between"])
    if "versus" in value:
        return Versus(tuple(from_json(f) for f in value["versus"]))
    if "card" in value:
        return parse_card(value["card"])
    if "figure" in value:
        return Figure(value["figure"])
    if "item" in value:
        return Item(value["item"], value["bonus_suit"], value["pack"], value["declarations"],
                    value.get("preset", ""), value.get("name", ""))
    return Suit(value["suit"], value.get("pack"))
