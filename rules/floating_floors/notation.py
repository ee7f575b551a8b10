"""Floating Floors' action notation: parsed into `Action` values with one canonical text.

Canonical forms (lowercase; parsing ignores case and extra spaces)::

    take bt pool          take ws e5           take wh under e5        (acquire: one die each)
    place bs e5 [ne]      board c2 [back] [r90]      move e5      claim [a2]      end [keep ws wt]
    place ws b2 nw nudge se      move b2 nudge se      (nudge the piece you touch in that space to se)
    place ws c1 ne + place ws a3 w      place ws b3 + move b3      (several at once: checked as one board)
    use sun2              (Challenge 4: spend a claimed Bansen to turn your board)
    hide sun2 b1          (Challenge 1 set-up: hide a Bansen in the alcove next to b1)
    reset                 (set up a collapsed card again: the automatic legal arrangement, or finish your own)
    stand 2 b2            (while resetting: put player 2's fallen ninja on b2; ``place`` and ``board`` place
                           the fallen Jutsu and board on the card)
    resign                (any seat, any time)       timeout   (the engine's alone: the turn deadline passed)

Jutsu kinds are colour + shape: ``b``/``w`` (black, white) and ``s``/``t``/``h`` (square, triangle, hexagon).
An offset places a Jutsu off its space's centre toward one of 8 directions (``c`` is the centre). A board's side
is ``front`` (default) or ``back``; its rotation ``r0`` (default), ``r90``, ``r180``, ``r270`` clockwise.

The rulebook lets a placed Jutsu or a moving ninja *nudge* a piece already in that space: ``nudge <offset>`` names
where the touched piece goes in its space (without it, the nearest free place). It also lets a player "complete
multiple actions at the same time": placements and at most one step joined by ``+`` are one action, and the
boards they touch are checked once, after all of them (a claim must be made by itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.base import InvalidActionError, Msg
from rules.floating_floors.components import BANSEN_BY_ID, JUTSU_KINDS
from rules.floating_floors.layout import Space, name, parse_space
from rules.floating_floors.statics import OFFSETS

ENGINE_VERBS = ("timeout",)
TOGETHER = "together"  # the verb of several actions made at once
TOGETHER_VERBS = ("place", "move")
SHORT = 160  # texts parsed through the cache (longer ones are typos: not worth keeping)
MAX_PARTS = 6  # a hand holds at most a turn's Jutsu: more parts than that is a typo, not a move
ROTATIONS = {"r0": 0, "r90": 1, "r180": 2, "r270": 3}
USAGE = {
    "take": "take bt pool | take bt e5 | take bt under e5", "place": "place bs e5 [ne] [nudge sw]",
    "board": "board c2 [front|back] [r0|r90|r180|r270]", "move": "move e5 [nudge sw]", "claim": "claim [a2]",
    "use": "use <bansen>", "end": "end [keep ws wt]", "hide": "hide <bansen> <space>", "reset": "reset",
    "stand": "stand <player> <space>", "chakra": "chakra <space>",
    TOGETHER: "place ws c1 ne + place ws a3 w",
}


@dataclass(frozen=True)
class Action:
    verb: str
    kind: str | None = None
    space: Space | None = None
    source: str | None = None  # take: pool, top, under
    offset: str = "c"
    back: bool = False
    turns: int = 0
    bansen: str | None = None
    keep: tuple[str, ...] | None = None  # end: None = keep the best 3 of your colour automatically
    seat: int | None = None  # stand: whose ninja (0-based; typed from 1)
    nudge: str | None = None  # place, move: where the touched piece goes in its space (None: the nearest free)
    parts: tuple[Action, ...] = ()  # together: the actions made at once, in the order given


def text(a: Action) -> str:
    v = a.verb
    if v == TOGETHER:
        return " + ".join(text(p) for p in a.parts)
    nudge = f" nudge {a.nudge}" if a.nudge else ""
    if v == "take":
        where = {"pool": "pool", "top": name(a.space) if a.space else "", "under": f"under {name(a.space)}"
                 if a.space else ""}[a.source or "pool"]
        return f"take {a.kind} {where}"
    if v == "place":
        return f"place {a.kind} {name(a.space)}" + ("" if a.offset == "c" else f" {a.offset}") + nudge
    if v == "board":
        return f"board {name(a.space)}" + (" back" if a.back else "") + (f" r{a.turns * 90}" if a.turns else "")
    if v == "move":
        return f"move {name(a.space)}{nudge}"
    if v == "claim":
        return f"claim {name(a.space)}" if a.space else "claim"
    if v == "use":
        return f"use {a.bansen}"
    if v == "hide":
        return f"hide {a.bansen} {name(a.space)}"
    if v == "chakra":
        return f"chakra {name(a.space)}"
    if v == "stand":
        return f"stand {a.seat + 1} {name(a.space)}"
    if v == "end" and a.keep is not None:
        return "end keep " + " ".join(a.keep) if a.keep else "end keep none"
    return v


def parse(raw: str) -> Action:
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidActionError("ff.err.empty")
    return _parse(raw) if len(raw) <= SHORT else _parse.__wrapped__(raw)


@lru_cache(maxsize=512)  # a turn's previews parse the same few hundred texts again and again; Actions are frozen
def _parse(raw: str) -> Action:
    if "+" in raw:
        return _together(raw.split("+"))
    return _one(raw)


def _together(texts: list[str]) -> Action:
    """Several actions at once: placements and at most one step (the rulebook's other hand)."""
    if len(texts) > MAX_PARTS:
        raise InvalidActionError("ff.err.together_many", count=MAX_PARTS, usage=USAGE[TOGETHER])
    parts = tuple(_one(t) for t in texts)
    if len(parts) < 2 or any(p.verb not in TOGETHER_VERBS for p in parts) or \
            sum(p.verb == "move" for p in parts) > 1:
        raise InvalidActionError("ff.err.together_verbs", usage=USAGE[TOGETHER])
    return Action(TOGETHER, parts=parts)


def _one(raw: str) -> Action:
    if not raw.strip():
        raise InvalidActionError("ff.err.together_verbs", usage=USAGE[TOGETHER])
    words = raw.strip().lower().split()
    verb, rest = words[0], words[1:]
    if verb in ("reset", "resign", "timeout"):
        _no_more(verb, rest)
        return Action(verb)
    handler = _PARSERS.get(verb)
    if handler is None:
        raise InvalidActionError("ff.err.unknown_verb", verb=verb[:20])
    return handler(verb, rest)


def _no_more(verb: str, rest: list[str]) -> None:
    if rest:
        raise InvalidActionError("ff.err.extra_words", verb=verb, extra=" ".join(rest)[:40])


def _need(rest: list[str], n: int, verb: str, what: str) -> None:
    if len(rest) < n:
        raise InvalidActionError("ff.err.missing", what=Msg(f"ff.what.{what}"), usage=USAGE[verb])


def _space(word: str, verb: str) -> Space:
    space = parse_space(word)
    if space is None:
        raise InvalidActionError("ff.err.bad_space", word=word[:20], usage=USAGE[verb])
    return space


def _kind(word: str, verb: str) -> str:
    if word not in JUTSU_KINDS:
        raise InvalidActionError("ff.err.bad_kind", word=word[:20], usage=USAGE[verb])
    return word


def _take(verb: str, rest: list[str]) -> Action:
    _need(rest, 2, verb, "take")
    kind = _kind(rest[0], verb)
    if rest[1] == "pool":
        _no_more(verb, rest[2:])
        return Action(verb, kind=kind, source="pool")
    if rest[1] == "under":
        _need(rest, 3, verb, "space")
        _no_more(verb, rest[3:])
        return Action(verb, kind=kind, space=_space(rest[2], verb), source="under")
    _no_more(verb, rest[2:])
    return Action(verb, kind=kind, space=_space(rest[1], verb), source="top")


def _nudge(verb: str, rest: list[str]) -> tuple[list[str], str | None]:
    """Split a trailing ``nudge <offset>`` off ``rest``."""
    if "nudge" not in rest:
        return rest, None
    i = rest.index("nudge")
    _need(rest, i + 2, verb, "nudge")
    _no_more(verb, rest[i + 2:])
    if rest[i + 1] not in OFFSETS:
        raise InvalidActionError("ff.err.bad_offset", word=rest[i + 1][:20], usage=USAGE[verb])
    return rest[:i], rest[i + 1]


def _place(verb: str, rest: list[str]) -> Action:
    rest, nudge = _nudge(verb, rest)
    _need(rest, 2, verb, "place")
    offset = rest[2] if len(rest) > 2 else "c"
    if offset not in OFFSETS:
        raise InvalidActionError("ff.err.bad_offset", word=offset[:20], usage=USAGE[verb])
    _no_more(verb, rest[3:])
    return Action(verb, kind=_kind(rest[0], verb), space=_space(rest[1], verb), offset=offset, nudge=nudge)


def _move(verb: str, rest: list[str]) -> Action:
    rest, nudge = _nudge(verb, rest)
    _need(rest, 1, verb, "space")
    _no_more(verb, rest[1:])
    return Action(verb, space=_space(rest[0], verb), nudge=nudge)


def _board(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "board")
    back, turns = False, 0
    for word in rest[1:]:
        if word in ("front", "back"):
            back = word == "back"
        elif word in ROTATIONS:
            turns = ROTATIONS[word]
        else:
            raise InvalidActionError("ff.err.bad_word", word=word[:20], usage=USAGE[verb])
    return Action(verb, space=_space(rest[0], verb), back=back, turns=turns)


def _one_space(verb: str, rest: list[str]) -> Action:
    if verb == "claim" and not rest:
        return Action(verb)
    _need(rest, 1, verb, "space")
    _no_more(verb, rest[1:])
    return Action(verb, space=_space(rest[0], verb))


def _bansen(word: str, verb: str) -> str:
    if word not in BANSEN_BY_ID:
        raise InvalidActionError("ff.err.bad_bansen", word=word[:20], usage=USAGE[verb])
    return word


def _use(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "bansen")
    _no_more(verb, rest[1:])
    return Action(verb, bansen=_bansen(rest[0], verb))


def _hide(verb: str, rest: list[str]) -> Action:
    _need(rest, 2, verb, "hide")
    _no_more(verb, rest[2:])
    return Action(verb, bansen=_bansen(rest[0], verb), space=_space(rest[1], verb))


def _stand(verb: str, rest: list[str]) -> Action:
    _need(rest, 2, verb, "stand")
    _no_more(verb, rest[2:])
    if not rest[0].isdigit() or not 1 <= int(rest[0]) <= 4:
        raise InvalidActionError("ff.err.bad_player", word=rest[0][:20], usage=USAGE[verb])
    return Action(verb, seat=int(rest[0]) - 1, space=_space(rest[1], verb))


def _end(verb: str, rest: list[str]) -> Action:
    if not rest:
        return Action(verb)
    if rest[0] != "keep":
        raise InvalidActionError("ff.err.bad_word", word=rest[0][:20], usage=USAGE[verb])
    kinds = rest[1:]
    if kinds == ["none"]:
        return Action(verb, keep=())
    if len(kinds) > 3:
        raise InvalidActionError("ff.err.keep_three", usage=USAGE[verb])
    return Action(verb, keep=tuple(_kind(k, verb) for k in kinds))


_PARSERS = {"take": _take, "place": _place, "board": _board, "move": _move, "claim": _one_space,
            "chakra": _one_space,
            "use": _use, "hide": _hide, "end": _end, "stand": _stand}
