"""The Special Attack cards: counts, prices and names, loaded from ``data/flying_blades/cards.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CARDS_PATH = Path(__file__).resolve().parents[2] / "data" / "flying_blades" / "cards.json"
CARD_IDS = ("vanish", "shuriken", "double", "triple", "dragon", "circle", "bomb")
DECK_SIZE = 32
LOCALES = ("en", "pl")


@dataclass(frozen=True)
class Card:
    id: str
    count: int
    price: int
    names: dict[str, str]


@dataclass(frozen=True)
class CardTable:
    price_limit: int
    cards: tuple[Card, ...]

    def price(self, card_id: str) -> int:
        return self.by_id()[card_id].price

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def deck(self) -> list[str]:
        """The 32 cards in table order, before shuffling."""
        return [c.id for c in self.cards for _ in range(c.count)]


def _card(raw: Any) -> Card:
    if not isinstance(raw, dict) or set(raw) != {"id", "count", "price", "names"}:
        raise ValueError(f"cards.json: bad card entry {raw!r}")
    names = raw["names"]
    if not isinstance(names, dict) or not all(isinstance(names.get(k), str) and names[k] for k in LOCALES):
        raise ValueError(f"cards.json: card {raw['id']!r} needs en and pl names")
    for key in ("count", "price"):
        value = raw[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"cards.json: card {raw['id']!r} has a bad {key}: {value!r}")
    return Card(raw["id"], raw["count"], raw["price"], dict(names))


def parse_table(raw: Any) -> CardTable:
    """Validate the raw JSON of the card table and build it."""
    if not isinstance(raw, dict) or set(raw) != {"price_limit", "cards"}:
        raise ValueError("cards.json: expected the keys price_limit and cards")
    limit = raw["price_limit"]
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"cards.json: bad price_limit {limit!r}")
    cards = tuple(_card(c) for c in raw["cards"])
    if tuple(c.id for c in cards) != CARD_IDS:
        raise ValueError(f"cards.json: the card ids must be {CARD_IDS}")
    if sum(c.count for c in cards) != DECK_SIZE:
        raise ValueError(f"cards.json: the deck must hold {DECK_SIZE} cards")
    return CardTable(limit, cards)


def load_table(path: Path = CARDS_PATH) -> CardTable:
    return parse_table(json.loads(path.read_text(encoding="utf-8")))


TABLE = load_table()
PRICE_LIMIT = TABLE.price_limit
PRICES = {c.id: c.price for c in TABLE.cards}
