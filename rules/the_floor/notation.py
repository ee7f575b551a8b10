"""The Floor's action notation: the verbs, their usage lines, and the parser that gives each action its one
canonical text."""

from __future__ import annotations

import re

from rules.base import InvalidActionError
from rules.the_floor import board as bd
from rules.the_floor.options import (
    MAX_USER_ID,
)

VERBS = ("pick", "challenge", "ready", "answer", "pass", "timeout", "judge", "dispute", "take", "keep", "resign")
USAGE = {"pick": "pick <category>", "challenge": "challenge B2 B3", "ready": "ready",
         "answer": "answer <elapsed ms> <text>", "pass": "pass <elapsed ms>", "timeout": "timeout",
         "judge": "judge accept|reject", "dispute": "dispute <elapsed ms>", "take": "take B3,B4",
         "keep": "keep <category>", "resign": "resign"}



def parse(raw: str) -> tuple[str, list[str]]:
    """Split an action into its verb and canonical arguments; raises InvalidActionError."""
    words = raw.strip().split() if isinstance(raw, str) else []
    if not words:
        raise InvalidActionError("tf.parse.empty", usage=", ".join(USAGE.values()))
    verb = words[0].lower()
    rest = words[1:]
    if verb not in VERBS:
        raise InvalidActionError("tf.parse.unknown_verb", verb=words[0], verbs=", ".join(VERBS))
    bad = InvalidActionError("tf.parse.usage", verb=verb, usage=USAGE[verb])
    if verb in ("ready", "timeout", "resign"):
        if rest:
            raise bad
        return verb, []
    if verb in ("pick", "keep"):  # a category's id, or its name of several words (`TheFloor.notation` makes it the id)
        if not rest:
            raise bad
        return verb, [" ".join(rest)]
    if verb == "challenge":
        if len(rest) != 2:
            raise bad
        return verb, [bd.name(bd.parse_cell(w)) for w in rest]
    if verb == "judge":
        if not 1 <= len(rest) <= 2 or rest[0].lower() not in ("accept", "reject"):
            raise bad
        if len(rest) == 2:  # a member without a seat, named by the engine: ``judge accept user:<id>``
            match = re.fullmatch(r"user:([0-9]{1,19})", rest[1].lower())
            if match is None or int(match[1]) > MAX_USER_ID:
                raise bad
            return verb, [rest[0].lower(), f"user:{int(match[1])}"]
        return verb, [rest[0].lower()]
    if verb == "take":
        cells = [w for w in re.split(r"[,\s]+", " ".join(rest)) if w]
        if not cells:
            raise bad
        idx = sorted({bd.parse_cell(c) for c in cells})
        if len(idx) != len(cells):
            raise bad
        return verb, [",".join(bd.name(c) for c in idx)]
    # answer / pass / dispute: elapsed milliseconds first
    arity_ok = len(rest) >= 2 if verb == "answer" else len(rest) == 1
    if not arity_ok or not rest[0].isdigit() or not rest[0].isascii():
        raise bad
    return verb, [str(int(rest[0])), *([" ".join(rest[1:])] if verb == "answer" else [])]


def canonical(raw: str) -> str:
    verb, args = parse(raw)
    return " ".join([verb, *args])
