"""Content fixed for a whole game, stored once and referenced from the game's row (`SharedContent`)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import orjson

SHARED = "$shared"  # a stored row's reference to content kept once in the store: {"$shared": "<sha256 hex>"}
Known = dict[int, tuple[Any, str]]  # id(value) -> (value, hash) of one table's shared values


def _canonical(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def _reference(value: Any) -> str | None:
    """The hash a stored ``{"$shared": hash}`` names; None for any other value."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get(SHARED), str):
        return value[SHARED]
    return None


class SharedContent:
    """Content fixed for a whole game (a Game's ``shared_fields``: top-level keys of its options and of its state's
    JSON) is stored once and referenced from the game's row, so a move does not rewrite megabytes; the rules never
    see a reference. A game must never hold a value shaped like a reference in those fields.

    A value is hashed once per object: states are immutable and keep the same objects across moves, so the caller
    keeps each table's values by identity (`Known`: a reference held, so that an id is never reused) for as long
    as it keeps the table."""

    def __init__(self, loaded: int = 16) -> None:
        self._values: OrderedDict[str, Any] = OrderedDict()  # hash -> value: an LRU of what was loaded or saved
        self._stored: set[str] = set()  # hashes the store holds: their text is not sent again
        self._values_max = loaded

    @staticmethod
    def _put(cache: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > most:
            cache.popitem(last=False)

    def _digest(self, value: Any, known: Known, used: Known) -> tuple[str, str | None]:
        """(hash, canonical JSON text or None when the value was hashed before and the text is not needed)."""
        hit = known.get(id(value))
        if hit is not None and hit[0] is value:
            used[id(value)] = hit
            return hit[1], None
        text = _canonical(value)
        digest = hashlib.sha256(text.encode()).hexdigest()
        used[id(value)] = (value, digest)
        self._put(self._values, digest, value, self._values_max)
        return digest, text

    def pack(self, fields: tuple[str, ...], d: dict[str, Any], out: dict[str, str], known: Known,
             used: Known) -> dict[str, Any]:
        """``d`` with each non-empty shared field replaced by a reference (a copy; ``d`` is untouched). Values
        hashed before are looked up in ``known``; every value packed goes to ``used``, and the text of each one the
        store may not hold yet to ``out`` (hash -> text)."""
        packed = d
        for key in fields:
            value = d.get(key)
            if not value or _reference(value) is not None:
                continue
            digest, text = self._digest(value, known, used)
            if digest not in self._stored:
                out[digest] = _canonical(value) if text is None else text
            if packed is d:
                packed = dict(d)
            packed[key] = {SHARED: digest}
        return packed

    @staticmethod
    def references(fields: tuple[str, ...], d: Any) -> set[str]:
        """The hashes ``d``'s shared fields reference."""
        if not isinstance(d, dict):
            return set()
        return {h for h in (_reference(d.get(key)) for key in fields) if h is not None}

    def at_hand(self, hashes: Iterable[str]) -> dict[str, Any]:
        """The values of ``hashes`` already in memory (held by the caller: the LRU may drop them meanwhile)."""
        out = {}
        for digest in hashes:
            if digest in self._values:
                self._values.move_to_end(digest)
                out[digest] = self._values[digest]
        return out

    def loaded(self, texts: dict[str, str]) -> dict[str, Any]:
        """Decode values read from the store (hash -> JSON text); a text that does not decode raises ValueError."""
        out = {}
        for digest, text in texts.items():
            value = out[digest] = orjson.loads(text)
            self._stored.add(digest)
            self._put(self._values, digest, value, self._values_max)
        return out

    @staticmethod
    def unpack(fields: tuple[str, ...], d: Any, values: dict[str, Any]) -> Any:
        """``d`` with each reference replaced by its value (a copy); ValueError for one not in ``values``."""
        if not isinstance(d, dict):
            return d
        out = d
        for key in fields:
            digest = _reference(d.get(key))
            if digest is None:
                continue
            if digest not in values:
                raise ValueError(f"{key}: shared content {digest} is not in the store")
            if out is d:
                out = dict(d)
            out[key] = values[digest]
        return out

    def stored(self, hashes: Iterable[str]) -> None:
        """The store now holds these (their transaction committed)."""
        self._stored.update(hashes)
