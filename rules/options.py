"""What options a game takes, read from its own ``normalize_options``, so that a listing (``./floorboard play GAME
--help``, the README) cannot drift from what the rules accept.

Nothing here is written per game: the option names come from the rules' "unknown option" error (its ``known``
parameter), the defaults from the options normalized from none, and the allowed values from the rules' error for a
wrong value (``allowed``, ``min``, ``max``) or, where that error does not carry them, from the words and small
numbers the rules accept. An option described by none of these gets ``values=None``; the listing then needs its own
words for it (a test makes sure it has them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.base import FloorboardError

PROBE = "\u0000unknown-option"  # a name and a value no game accepts
WORDS = ("on", "off", "solo", "true", "false", "yes", "no", "none")
SMALL = range(0, 21)  # numbers scanned when the error names no range
UNSET = object()  # an option left out of the normalized options unless given


@dataclass(frozen=True)
class OptionInfo:
    key: str
    values: tuple[str, ...] | None  # allowed values as shown (words, ranges ``lo–hi``) at the most players
    default: Any  # UNSET when absent from the normalized options
    varies: bool  # the default depends on the number of players
    values_vary: bool = False  # the allowed values depend on the number of players (e.g. at most one per seat)


def _error(rules: Any, players: int, options: dict[str, Any]) -> FloorboardError | None:
    try:
        rules.normalize_options(players, options)
    except FloorboardError as e:
        return e
    except (TypeError, ValueError, AttributeError):  # a value of a type the rules do not expect: refused too
        return FloorboardError("probe")
    return None


def _accepts(rules: Any, players: int, key: str, value: Any) -> bool:
    return _error(rules, players, {key: value}) is None


def option_keys(rules: Any, players: int) -> tuple[str, ...]:
    """The option names the rules know, in their own order (from their "unknown option" error)."""
    error = _error(rules, players, {PROBE: 0})
    known = error.msg.params.get("known", "") if error is not None else ""
    return tuple(k.strip() for k in str(known).split(",") if k.strip())


def _ranges(numbers: list[int]) -> list[str]:
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1].rpartition("–")[2] == str(n - 1):
            out[-1] = f"{out[-1].partition('–')[0]}–{n}"
        else:
            out.append(str(n))
    return out


def _values(rules: Any, players: int, key: str, default: Any) -> tuple[str, ...] | None:
    error = _error(rules, players, {key: PROBE})
    params = error.msg.params if error is not None else {}
    if "allowed" in params:
        return tuple(v.strip() for v in str(params["allowed"]).split(","))
    low, high = params.get("min"), params.get("max")
    if isinstance(high, int):
        if not isinstance(low, int):
            low = next((n for n in range(0, high + 1) if _accepts(rules, players, key, n)), 0)
        zero = ["0"] if low > 0 and _accepts(rules, players, key, 0) else []
        return (*zero, f"{low}–{high}")
    if isinstance(default, bool):
        return ("true", "false")
    words = tuple(w for w in WORDS if _accepts(rules, players, key, w))
    numbers = [n for n in SMALL if _accepts(rules, players, key, n)]
    if numbers and SMALL[-1] not in numbers and (len(numbers) > 1 or words):
        return (*words, *_ranges(numbers))
    return words if len(words) > 1 else None


def describe(rules: Any, players: int, preset: dict[str, Any] | None = None) -> list[OptionInfo]:
    """Every option of ``rules`` at a table of ``players``, with its allowed values and its default (``preset``:
    what a surface sets before the player's own options, e.g. the lobby's fairer letters in The Floor)."""
    preset = dict(preset or {})
    few, most = rules.min_players, rules.max_players
    # Every table size, not only the ends: a default may differ in between (Floating World's extra Wounds: 0 solo
    # and for four, more for two and three).
    by_size = [rules.normalize_options(n, preset) for n in range(few, most + 1)]
    low = by_size[0]
    defaults = rules.normalize_options(players, preset)
    out = []
    for key in option_keys(rules, players):
        values = _values(rules, most, key, defaults.get(key))
        varies = len({repr(d.get(key, UNSET)) for d in by_size}) > 1
        out.append(OptionInfo(key, values, defaults.get(key, UNSET), varies,
                              values != _values(rules, few, key, low.get(key))))
    return out
