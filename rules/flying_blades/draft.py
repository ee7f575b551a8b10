"""The hidden card draft: dealing, and the sub-multisets of a hand a seat may keep."""

from __future__ import annotations

import functools
from collections import Counter

from rules import rng
from rules.base import IllegalActionError, Msg
from rules.flying_blades.cards import CARD_IDS, PRICE_LIMIT, PRICES, TABLE

DECK_STREAM = 1  # rng stream of the deck; stream 0 places the ninjas


def deal(players: int, seed: str) -> tuple[tuple[str, ...], ...]:
    """Shuffle the 32 cards and deal ``32 // players`` to each seat in turn order; the rest stay undealt."""
    deck = rng.shuffled(seed, DECK_STREAM, TABLE.deck())
    size = len(deck) // players
    return tuple(tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(players))


def price(cards: tuple[str, ...] | list[str]) -> int:
    return sum(PRICES[c] for c in cards)


def check_keep(hand: tuple[str, ...], keep: tuple[str, ...]) -> None:
    have, want = Counter(hand), Counter(keep)
    for card, count in sorted(want.items()):
        if count > have[card]:
            raise IllegalActionError("fb.keep_not_in_hand", card=Msg(f"fb.card.{card}"), count=have[card])
    total = price(keep)
    if total > PRICE_LIMIT:
        raise IllegalActionError("fb.keep_over_price", total=total, limit=PRICE_LIMIT)


@functools.lru_cache(maxsize=512)
def keeps(hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct sub-multiset of the hand whose total price is within the limit."""
    have = Counter(hand)
    out: list[tuple[str, ...]] = []

    def walk(i: int, chosen: list[str], budget: int) -> None:
        if i == len(CARD_IDS):
            out.append(tuple(sorted(chosen)))
            return
        card = CARD_IDS[i]
        for k in range(have[card] + 1):
            if k * PRICES[card] > budget:
                break
            walk(i + 1, chosen + [card] * k, budget - k * PRICES[card])

    walk(0, [], PRICE_LIMIT)
    return tuple(out)


def keep_text(cards: tuple[str, ...]) -> str:
    return "keep " + (",".join(sorted(cards)) or "none")
