"""Action notation (``attack c3 c4``, ``keep bomb,vanish``…) and the FEN-like position text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from rules.base import InvalidActionError, RulesError
from rules.flying_blades.board import CHARS, EMPTY, NINJAS, Geometry, geometry, relations
from rules.flying_blades.cards import CARD_IDS
from rules.flying_blades.state import Last, State, check

TWO_CELL_VERBS = ("attack", "vanish", "shuriken", "double", "triple", "bomb")
CARD_VERBS = ("vanish", "shuriken", "double", "triple", "dragon", "circle", "bomb")
VERBS = ("attack", *CARD_VERBS, "pass", "resign", "keep")  # what players type (and errors list)
ENGINE_VERBS = ("timeout",)  # logged by the engine only: the seat's turn deadline passed
USAGE = {
    "attack": "attack c3 c4", "vanish": "vanish c3 h8", "shuriken": "shuriken c3 c7",
    "double": "double c3 c5", "triple": "triple c3 c6", "bomb": "bomb e5 e8", "dragon": "dragon e5 from e4",
    "circle": "circle e5",
    "pass": "pass", "resign": "resign", "keep": "keep shuriken,bomb", "timeout": "timeout",
}


@dataclass(frozen=True)
class Action:
    """A parsed action. ``cells`` are indices: (from, to) for two-cell verbs, (target, from) for dragon."""

    verb: str
    cells: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()


def text(action: Action, geo: Geometry) -> str:
    """The canonical notation of an action."""
    names = [geo.cell(c) for c in action.cells]
    if action.verb == "keep":
        return "keep " + (",".join(sorted(action.cards)) or "none")
    if action.verb == "dragon":
        return f"dragon {names[0]} from {names[1]}"
    return " ".join([action.verb, *names])


def _usage(verb: str) -> InvalidActionError:
    return InvalidActionError("fb.parse.usage", verb=verb, usage=USAGE[verb])


def _parse_keep(rest: list[str]) -> Action:
    words = [w for w in re.split(r"[,\s]+", " ".join(rest)) if w]
    if words == ["none"]:
        return Action("keep")
    if not words or "none" in words:
        raise _usage("keep")
    for w in words:
        if w not in CARD_IDS:
            raise InvalidActionError("fb.parse.unknown_card", card=w, cards=", ".join(CARD_IDS))
    return Action("keep", cards=tuple(sorted(words)))


def parse(raw: str, geo: Geometry) -> Action:
    """Parse action text, tolerant of case and spaces; raises InvalidActionError (or IllegalActionError for a
    cell off this board or warded)."""
    words = raw.strip().lower().split() if isinstance(raw, str) else []
    if not words:
        raise InvalidActionError("fb.parse.empty", usage=", ".join(USAGE[v] for v in VERBS))
    verb, rest = words[0], words[1:]
    if verb not in VERBS and verb not in ENGINE_VERBS:
        raise InvalidActionError("fb.parse.unknown_verb", verb=verb, verbs=", ".join(VERBS))
    if verb == "keep":
        return _parse_keep(rest)
    if verb == "dragon" and len(rest) == 3 and rest[1] == "from":
        rest = [rest[0], rest[2]]
    arity = 2 if verb in TWO_CELL_VERBS or verb == "dragon" else 1 if verb == "circle" else 0
    if len(rest) != arity:
        raise _usage(verb)
    return Action(verb, tuple(geo.parse_cell(w) for w in rest))


POSITION_KEYS = frozenset({"phase", "cards", "hands", "drafted", "captured", "lost", "passed", "resigned",
                           "turn", "minutes", "last", "reason", "seed"})

# --- positions -------------------------------------------------------------------------------------------


def _row_text(row: str) -> str:
    return re.sub(r"\.+", lambda m: str(len(m.group())), row)


def _row_parse(text_row: str, width: int) -> str:
    row = re.sub(r"\d+", lambda m: EMPTY * int(m.group()), text_row)
    if len(row) != width:
        raise ValueError(f"position row {text_row!r} is not {width} cells wide")
    return row


def _flags(values: tuple[bool, ...]) -> str:
    return ",".join("1" if v else "0" for v in values)


def _hands(hands: tuple[tuple[str, ...], ...]) -> str:
    return "|".join(",".join(h) or "-" for h in hands)


def _last(last: Last | None, geo: Geometry) -> str:
    if last is None:
        return "-"

    def cell(c: int | None) -> str:
        return "-" if c is None else geo.cell(c)

    removed = ",".join(geo.cell(c) for c in last.removed) or "-"
    return ";".join([str(last.seat), last.action.replace(" ", "_"), cell(last.frm), cell(last.to), removed])


def to_position(s: State) -> str:
    """``<rows top first, digits = empty runs> <n>p <seat to move> key=value…`` (all keys written)."""
    geo = geometry(s.players)
    rows = [s.board[r * geo.width:(r + 1) * geo.width] for r in range(geo.height - 1, -1, -1)]
    fields = [
        "/".join(_row_text(r) for r in rows), f"{s.players}p", str(s.current), f"phase={s.phase}",
        f"cards={s.cards}", f"hands={_hands(s.hands)}", f"drafted={_flags(s.drafted)}",
        f"captured={','.join(map(str, s.captured))}", f"lost={','.join(map(str, s.lost))}",
        f"passed={_flags(s.passed)}", f"resigned={_flags(s.resigned)}", f"turn={s.turn}",
        f"minutes={s.turn_minutes}", f"last={_last(s.last, geo)}", f"reason={s.reason or '-'}",
        f"seed={quote(s.seed, safe='')}",
    ]
    return " ".join(fields)


def _parse_last(value: str, geo: Geometry) -> Last | None:
    if value == "-":
        return None
    seat, action, frm, to, removed = value.split(";")

    def cell(c: str) -> int | None:
        return None if c == "-" else geo.parse_cell(c)

    cells = () if removed == "-" else tuple(geo.parse_cell(c) for c in removed.split(","))
    return Last(int(seat), action.replace("_", " "), cell(frm), cell(to), cells)


def _ints(value: str) -> tuple[int, ...]:
    return tuple(int(v) for v in value.split(","))


def _bools(value: str) -> tuple[bool, ...]:
    return tuple(v == "1" for v in value.split(","))


def from_position(position: str) -> State:
    """Read a position; only the board, ``<n>p`` and the seat to move are required. Defaults: play phase,
    cards hidden with empty hands, everyone drafted, nothing captured, ``lost`` = 27 − ninjas on the board.
    Raises ValueError for a malformed position."""
    try:
        return _from_position(position)
    except (KeyError, IndexError, TypeError, AttributeError, RulesError) as e:
        raise ValueError(f"malformed position: {e}") from e


def _from_position(position: str) -> State:
    board_text, count, current, *pairs = position.split()
    n = int(count.rstrip("p"))
    geo = geometry(n)
    rows = board_text.split("/")
    if len(rows) != geo.height:
        raise ValueError(f"a position has {geo.height} rows")
    board = "".join(_row_parse(r, geo.width) for r in reversed(rows))
    kv = dict(p.split("=", 1) for p in pairs)
    unknown = set(kv) - POSITION_KEYS
    if unknown:
        raise ValueError(f"unknown position keys {sorted(unknown)}")
    phase = kv.get("phase", "play")
    colours = relations(n).colours
    hand_texts = kv.get("hands", "|".join("-" * n)).split("|")
    hands = tuple(() if h == "-" else tuple(sorted(h.split(","))) for h in hand_texts)
    no = ",".join("0" * n)
    s = State(
        players=n, seed=unquote(kv.get("seed", "position")), cards=kv.get("cards", "hidden"),
        turn_minutes=int(kv.get("minutes", "0")), board=board, phase=phase, current=int(current), hands=hands,
        drafted=_bools(kv.get("drafted", ",".join(("0" if phase == "draft" else "1") * n))),
        captured=_ints(kv.get("captured", no)),
        lost=_ints(kv.get("lost", ",".join(str(NINJAS - board.count(CHARS[c])) for c in range(colours)))),
        passed=_bools(kv.get("passed", no)), resigned=_bools(kv.get("resigned", no)),
        turn=int(kv.get("turn", "0")), last=_parse_last(kv.get("last", "-"), geo),
        reason="" if kv.get("reason", "-") == "-" else kv["reason"],
    )
    if not all(len(t) == n for t in (s.hands, s.drafted, s.captured, s.passed, s.resigned)):
        raise ValueError("per-seat fields need one value per seat")
    check(s)
    return s

