"""Floor Plan cog's constants (custom ids, limits) and helpers for typed moves, previews and long texts."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from cogs.utils.posting import MAX_CONTENT
from engine import Table
from i18n import t
from render import floor_plan as draw
from rules.base import RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan.notation import USAGE, VERBS
from rules.floor_plan.sheet import CENTRE, HEIGHT, WIDTH, cell_name

GAME = "floor_plan"
TABLE_TEMPLATE = rf"{GAME}:(?P<action>sheet|plan):(?P<table>[0-9]+)"
PREVIEW_TEMPLATE = (rf"{GAME}:(?P<choice>ok|no):(?P<table>[0-9]+):(?P<user>[0-9]+):(?P<version>[0-9]+)"
                    r":(?P<key>[0-9a-f]{8})")
PICK_TEMPLATE = rf"{GAME}:pick:(?P<table>[0-9]+):(?P<user>[0-9]+)" r":(?P<key>[0-9a-f]{8})"
SUGGESTIONS = 4  # placements offered as buttons (the planner's best, varied)
TOP = 10  # scoreboard lines in a public summary
MAX_CLAIM_LINES = 10
MAX_PING_POSTS = 3  # messages of mentions at the start of a round (the rest are told by the status message)
MAX_SUMMARIES = 3  # round summaries with an image in one run (a table of bots may play several rounds at once)
MAX_DESCRIPTION = 4000
TYPED_VERBS = tuple(v for v in VERBS if v != "resign")
# What a move's arguments are made of: cells, sizes, type@label, feature sets, wild, +, note=, demand ids.
# A token of a move's arguments: cells, runs of cells (C3-E3), sizes, labels, feature sets (3:…, 3x2:, 3*2:, a set
# whose cells come after a space), wild dice, claims.
ARGUMENT = re.compile(r"^(?:[a-q]\d{1,2}(?:[-–][a-q]\d{1,2})?(?:,[a-q]\d{1,2}(?:[-–][a-q]\d{1,2})?)*,?|\d+[x×]\d+"
                      r"|[a-z]@[a-q]\d{1,2}|[1-6](?:[x×*]2)?:[a-q0-9,\-–]*|[1-6](?:=|->)[1-6]|wild|\+|note=\d"
                      r"|[a-z_]+\.\d)$", re.IGNORECASE)
MENTION = re.compile(r"^<@!?([0-9]+)>$")


@dataclass(frozen=True)
class Preview:
    key: str
    text: str
    round: int
    before: str  # the seat's work this round when the preview was made


def is_argument(token: str) -> bool:
    return ARGUMENT.match(token) is not None


def move_shaped(text: str) -> bool:
    """Every step a verb with arguments that could be its arguments: a move (to refuse in public), not chat
    ("start now?", "room for one more")."""
    for step in text.split(";"):
        verb, *rest = step.lower().split() or [""]
        if verb not in TYPED_VERBS or (verb == "skip") != (not rest) or not all(is_argument(w) for w in rest):
            return False
    return True


def start_example(table: Table) -> str | None:
    """A starting room legal with this setup roll (6×d over I7, either way round), checked by the rules for a
    seat still to draw (every sheet is empty in setup, so one example serves all)."""
    state = table.state
    if state is None or state.phase != "setup" or state.roll is None:
        return None
    seats = sorted(table.to_move())
    d = state.roll[1]
    for w, h in ((6, d), (d, 6)):
        x = min(max(CENTRE[0] - w // 2, 0), WIDTH - w)
        y = min(max(CENTRE[1] - h // 2, 0), HEIGHT - h)
        text = f"start {cell_name((x, y))} {w}x{h}"
        try:
            if seats:
                table.rules.apply(state, seats[0], text)
        except RulesError:
            continue
        return text
    return None


def with_legal_start(error: RulesError, table: Table) -> RulesError:
    """The rules' errors show the notation's fixed ``start`` example; in setup, one legal with this roll."""
    example = start_example(table)
    if example is None or error.msg.params.get("usage") != USAGE["start"]:
        return error
    return type(error)(error.msg.key, **{**error.msg.params, "usage": example})


def preview_key(text: str, round_no: int) -> str:
    return hashlib.sha256(f"{round_no}:{text}".encode()).hexdigest()[:8]


def roll_text(roll: Any) -> str:
    return " · ".join(str(v) for v in roll or ()) or "—"


def demand_line(demand_id: str, locale: str) -> str:
    demand = dm.DEMANDS.get(demand_id)
    pts = demand.points if demand else 0
    return t("fpui.demand_line", locale, id=demand_id, text=t(f"fp.demand.{demand_id}", locale),
             points=draw.points(pts, locale))


def capped(lines: list[str], limit: int, more_key: str, locale: str, shown: int, total: int) -> str:
    """Lines joined, cut to ``limit`` characters at a line, with "and K more" for what is left out."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 80 > limit:
            shown = i
            break
        out.append(line)
        size += len(line) + 1
    if total > shown:
        out.append(t(more_key, locale, count=total - shown))
    return "\n".join(out)


def mention_chunks(mentions: list[str], head: str, limit: int = MAX_CONTENT - 100) -> list[str]:
    """``head`` and the mentions, split into messages under ``limit`` characters."""
    chunks, line = [], head
    for m in mentions:
        if len(line) + len(m) + 1 > limit:
            chunks.append(line)
            line = ""
        line = f"{line} {m}" if line else m
    if line:
        chunks.append(line)
    return chunks
