"""Action notation: parsing and the canonical text.

One action text is one or more *steps* separated by ``;`` (applied in order, all or nothing)::

    start G5 6x3                              setup: the 6×d living room over I7 (label L on I7)
    room C3 4x3 K@D4                          a room: top-left, width×height, type@label cell
    room C3 4x3 K@D4 + H9 3x4 B@H9            Double a Room (bonus): a second room with the same dice
    features 3:C3,D3,E3 4:F5,F6,G5,G6         one or two feature sets, die value: cells (trees: anchors)
    features 3:C3-E3 4:F5-G6                  the same: a run ``C3-E3`` or a rectangle ``F5-G6`` lists its cells
    features 3x2:C3,D3,E3,F3,G3,H3 4:F5       Double a Feature (bonus) on one die (``3*2:``, ``3×2:`` too)
    room ... wild 2=5 / features ... wild 2=5 the Wild: die 2 read as 5 (``wild 2->5`` is accepted too)
    doors C3,D5                               the Two Doors bonus (does not use the round's action)
    claim hosts.1   claim hosts.1 note=3      score a demand (the engine finds the witness)
    claim hosts.1 with C2,B3 note=3           … using the rooms/features covering the named cells (any cell of each)
    skip                                      draw nothing this round
    resign
    timeout                                   the engine's alone: the seat's deadline passed (always alone)

``room``, ``features`` and ``skip`` are the round's action (one per round); ``claim`` and ``doors`` may come
before or after it, in the same text or alone. Canonical form: single spaces, upper-case cells, feature sets by
die value (two sets of one die in the order typed) with cells in scan order, a claim as ``claim D with CELLS note=N``
(cells unique, in scan order; each part only if given), steps joined by ``"; "``.

Typing is forgiving, the log is not: cells are case-free and separated by commas and/or spaces, spaces may sit
around ``:``, ``,``, ``-`` and inside ``3 x2 :``, ``×`` is read as ``x``, and ranges expand to their cells. What
`text` writes back (and the game stores) is always the canonical form above: cell lists, never ranges, and
``3x2:`` for a doubled die, so saved logs replay unchanged and ``parse(text(parse(t))) == parse(t)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.base import InvalidActionError
from rules.floor_plan.sheet import ROOM_TYPES, cell_name, parse_cell, scan_key

Cell = tuple[int, int]
MAIN_VERBS = ("room", "features", "skip")
VERBS = ("start", "room", "features", "doors", "claim", "skip", "resign")  # what players type (and errors list)
ENGINE_VERBS = ("timeout",)  # logged by the engine only
ALONE = ("resign", "start", *ENGINE_VERBS)  # verbs that make a whole action text on their own
USAGE = {
    "start": "start G5 6x3", "room": "room C3 4x3 K@D4", "features": "features 3:C3,D3,E3 4:F5,F6,G5,G6",
    "doors": "doors C3,D5", "claim": "claim hosts.1 with C2,B3 note=3", "skip": "skip", "resign": "resign",
    "timeout": "timeout",
}
# The usage shown when a range is malformed: the range form itself.
RANGE_USAGE = {"features": "features 3:C3-E3 4:F5-G6", "doors": "doors C3,D5", "claim": "claim hosts.1 with C2,B3"}
_SIZE = re.compile(r"^(\d)x(\d)$")
_LABEL = re.compile(r"^([a-z])@([a-z]\d{1,2})$")
# A feature set's head: die value, optional "doubled" mark, colon. Not after a letter or digit, so the row of a cell
# ("C3 :") or the 2 of "3x2:" never starts a set.
_SET_HEAD = re.compile(r"(?<![a-z0-9])([1-6])\s*(?:[x*]\s*(2))?\s*:")
_CELL_SEP = re.compile(r"[\s,]+")
_DASH = re.compile(r"\s*[-\u2013]\s*")  # a hyphen or the en dash phones type for it
_WILD = re.compile(r"^([1-6])(?:=|->)([1-6])$")
_NOTE = re.compile(r"^note=([1-9])$")
_DEMAND = re.compile(r"^[a-z_]+\.\d$")


@dataclass(frozen=True)
class RoomDraw:
    x: int
    y: int
    w: int
    h: int
    type: str
    label: Cell

    def text(self) -> str:
        return f"{cell_name((self.x, self.y))} {self.w}x{self.h} {self.type}@{cell_name(self.label)}"


@dataclass(frozen=True)
class FeatureSet:
    die: int  # the die value (after a wild) naming the kind: 1 tree … 6 stone
    double: bool
    cells: tuple[Cell, ...]

    def text(self) -> str:
        return f"{self.die}{'x2' if self.double else ''}:{','.join(cell_name(c) for c in self.cells)}"


@dataclass(frozen=True)
class Step:
    verb: str
    rooms: tuple[RoomDraw, ...] = ()
    sets: tuple[FeatureSet, ...] = ()
    cells: tuple[Cell, ...] = ()  # doors; start: (top-left,)
    size: tuple[int, int] = (0, 0)  # start: (w, h)
    demand: str = ""
    note: int | None = None  # 1-based note space
    wild: tuple[int, int] | None = None  # (die as rolled, value read)
    witness: tuple[Cell, ...] = ()  # claim: cells naming the rooms/features it uses (unique, scan order)

    def text(self) -> str:
        wild = f" wild {self.wild[0]}={self.wild[1]}" if self.wild else ""
        if self.verb == "start":
            return f"start {cell_name(self.cells[0])} {self.size[0]}x{self.size[1]}"
        if self.verb == "room":
            return "room " + " + ".join(r.text() for r in self.rooms) + wild
        if self.verb == "features":
            return "features " + " ".join(s.text() for s in self.sets) + wild
        if self.verb == "doors":
            return "doors " + ",".join(cell_name(c) for c in self.cells)
        if self.verb == "claim":
            named = f" with {','.join(cell_name(c) for c in self.witness)}" if self.witness else ""
            return f"claim {self.demand}{named}" + (f" note={self.note}" if self.note else "")
        return self.verb


Action = tuple[Step, ...]


def _usage(verb: str) -> InvalidActionError:
    return InvalidActionError("fp.parse.usage", verb=verb, usage=USAGE[verb])


def _range_error(verb: str) -> InvalidActionError:
    return InvalidActionError("fp.parse.usage", verb=verb, usage=RANGE_USAGE[verb])


def _expand(word: str, verb: str) -> list[Cell]:
    """One cell, or every cell of a run or rectangle ``C3-E4`` (either corner first), in scan order."""
    if "-" not in word:
        return [parse_cell(word)]
    ends = word.split("-")
    if len(ends) != 2 or not all(ends):
        raise _range_error(verb)
    (x1, y1), (x2, y2) = parse_cell(ends[0]), parse_cell(ends[1])
    return [(x, y) for y in range(min(y1, y2), max(y1, y2) + 1) for x in range(min(x1, x2), max(x1, x2) + 1)]


def _cells(text: str, verb: str) -> tuple[Cell, ...]:
    """Cells and ranges separated by commas and/or spaces, in scan order (duplicates kept: the rules refuse them
    with a message about the cell, which says more than a parse error would)."""
    words = _CELL_SEP.split(_DASH.sub("-", text).strip())
    return tuple(sorted((c for w in words if w for c in _expand(w, verb)), key=scan_key))


def _feature_sets(body: str) -> list[FeatureSet]:
    """``3: C3-E3, 4 :F5 F6`` → the sets; each head ``3:`` / ``3x2:`` / ``3*2:`` owns the cells up to the next."""
    heads = list(_SET_HEAD.finditer(body))
    if not heads or body[:heads[0].start()].strip():
        raise _usage("features")
    sets = []
    for head, end in zip(heads, [h.start() for h in heads[1:]] + [len(body)], strict=True):
        cells = _cells(body[head.end():end], "features")
        if not cells:
            raise _usage("features")
        sets.append(FeatureSet(int(head.group(1)), head.group(2) is not None, cells))
    return sets


def _size(word: str, verb: str) -> tuple[int, int]:
    m = _SIZE.match(word)
    if not m or not 1 <= int(m.group(1)) <= 6 or not 1 <= int(m.group(2)) <= 6:
        raise InvalidActionError("fp.parse.size", size=word, usage=USAGE[verb])
    return int(m.group(1)), int(m.group(2))


def _take_wild(words: list[str]) -> tuple[list[str], tuple[int, int] | None]:
    if "wild" not in words:
        return words, None
    i = words.index("wild")
    if i + 2 != len(words):
        raise InvalidActionError("fp.parse.wild", usage="wild 2=5")
    m = _WILD.match(words[i + 1])
    if not m:
        raise InvalidActionError("fp.parse.wild", usage="wild 2=5")
    return words[:i], (int(m.group(1)), int(m.group(2)))


def _room(words: list[str]) -> RoomDraw:
    if len(words) != 3:
        raise _usage("room")
    x, y = parse_cell(words[0])
    w, h = _size(words[1], "room")
    m = _LABEL.match(words[2])
    if not m or m.group(1).upper() not in ROOM_TYPES:
        raise InvalidActionError("fp.parse.label", label=words[2], types=", ".join(ROOM_TYPES))
    return RoomDraw(x, y, w, h, m.group(1).upper(), parse_cell(m.group(2)))


def _step(words: list[str]) -> Step:
    verb, rest = words[0], words[1:]
    if verb not in VERBS and verb not in ENGINE_VERBS:
        raise InvalidActionError("fp.parse.unknown_verb", verb=verb, verbs=", ".join(VERBS))
    rest, wild = _take_wild(rest)
    if wild and verb not in ("room", "features"):
        raise InvalidActionError("fp.parse.wild_where")
    if verb in ("skip", "resign", *ENGINE_VERBS):
        if rest:
            raise _usage(verb)
        return Step(verb)
    if verb == "start":
        if len(rest) != 2:
            raise _usage(verb)
        return Step("start", cells=(parse_cell(rest[0]),), size=_size(rest[1], verb))
    if verb == "room":
        groups: list[list[str]] = [[]]
        for w in rest:
            if w == "+":
                groups.append([])
            else:
                groups[-1].append(w)
        if len(groups) > 2:
            raise InvalidActionError("fp.parse.two_rooms")
        return Step("room", rooms=tuple(_room(g) for g in groups), wild=wild)
    if verb == "features":
        sets = _feature_sets(" ".join(rest))
        if not 1 <= len(sets) <= 2:
            raise _usage(verb)
        # Stable: two sets of one die (a double) keep the order typed, which the rules rely on (the second set's
        # decks may attach to the first's), so that order is part of the move, not a spelling.
        sets.sort(key=lambda s: (s.die, not s.double))
        return Step("features", sets=tuple(sets), wild=wild)
    if verb == "doors":
        cells = _cells(" ".join(rest), verb)
        if not cells:
            raise _usage(verb)
        return Step("doors", cells=cells)
    return _claim(rest)


def _claim(rest: list[str]) -> Step:
    """``claim D``, then in any order ``note=N`` and ``with CELLS`` (cells and ranges as for doors, up to the
    note or the end)."""
    if not rest or not _DEMAND.match(rest[0]):
        raise _usage("claim")
    note: int | None = None
    named: list[str] | None = None
    in_with = False
    for w in rest[1:]:
        if w == "with":
            if named is not None:
                raise _usage("claim")
            named, in_with = [], True
        elif w.startswith("note"):
            m = _NOTE.match(w)
            if not m:
                raise InvalidActionError("fp.parse.note", note=w)
            if note is not None:
                raise _usage("claim")
            note, in_with = int(m.group(1)), False
        elif in_with and named is not None:
            named.append(w)
        else:
            raise InvalidActionError("fp.parse.note", note=w)
    witness: tuple[Cell, ...] = ()
    if named is not None:
        witness = tuple(dict.fromkeys(_cells(" ".join(named), "claim")))
        if not witness:
            raise _usage("claim")
    return Step("claim", demand=rest[0], note=note, witness=witness)


def parse(raw: str) -> Action:
    """Parse action text (case-insensitive, extra spaces ignored); raises InvalidActionError."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidActionError("fp.parse.empty", usage=", ".join(USAGE[v] for v in VERBS))
    steps = []
    # "×" is what the bot's own messages print for sizes (6×3), so a player may copy it back.
    for part in raw.lower().replace("\u00d7", "x").split(";"):
        words = part.split()
        if not words:
            raise InvalidActionError("fp.parse.empty_step")
        steps.append(_step(words))
    verbs = [s.verb for s in steps]
    alone = next((v for v in verbs if v in ALONE), None)
    if alone is not None and len(steps) > 1:  # (so a timeout cannot ride along a player's claim either)
        raise InvalidActionError("fp.parse.alone", verb=alone)
    if sum(v in MAIN_VERBS for v in verbs) > 1:
        raise InvalidActionError("fp.parse.one_action")
    return tuple(steps)


def text(action: Action) -> str:
    return "; ".join(s.text() for s in action)
