"""The Floor's words on the image and the text board: names, sides, clocks, status, pending choice, info lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from i18n import t
from i18n.text import clean
from render import kit
from render.the_floor.theme import INFO_SIZE, KEY, PAD, SIDE_PATTERNS, W, side_colour

# ------------------------------------------------------------------------------------- text helpers


def seat_names(view: dict[str, Any], names: list[str] | None, locale: str) -> list[str]:
    """Drawable names by seat: the given names cleaned, else "Player N"."""
    out = []
    for seat in range(int(view.get("players") or 0)):
        raw = names[seat] if names is not None and seat < len(names) else None
        out.append(kit.display_name(raw, t("tfr.seat", locale, n=seat + 1)))
    return out


def colour_name(side: int, locale: str) -> str:
    return t(f"{KEY}colour.{side_colour(side)}", locale)


def pattern_name(side: int, locale: str) -> str:
    return t(f"{KEY}pattern.{SIDE_PATTERNS[side % len(SIDE_PATTERNS)]}", locale)


def _teams(view: dict[str, Any]) -> list[list[int]]:
    teams = view.get("teams")
    sides = int(view.get("sides") or 0)
    if not teams:
        return [[s for s in range(int(view.get("players") or 0)) if s % max(1, sides) == x] for x in range(sides)]
    return [list(seats) for seats in teams]


@dataclass(frozen=True)
class _Side:
    colour: str  # "Orange"
    names: str  # "Ann, Bo"


def _side_labels(view: dict[str, Any], names: list[str] | None, locale: str) -> list[_Side]:
    by_seat = seat_names(view, names, locale)
    out = []
    for side, seats in enumerate(_teams(view)):
        who = ", ".join(by_seat[s] for s in seats if 0 <= s < len(by_seat))
        out.append(_Side(colour_name(side, locale), who))
    return out


def clock(ms: int | float | None) -> str:
    """``41300`` -> ``0:41.3`` (tenths, rounded down: a clock never shows more time than it has)."""
    ms = max(0, int(ms or 0))
    tenths = ms // 100
    return f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"


def _resigned(view: dict[str, Any], side: int) -> bool:
    resigned = view.get("resigned") or []
    return side < len(resigned) and bool(resigned[side])


def _eliminated(view: dict[str, Any], side: int) -> bool:
    return side in (view.get("eliminated") or [])


def _cat_name(cat: Any, view: dict[str, Any] | None = None) -> str:
    """A category's name as drawn or written: a server's own is named by its members (no control or bidi
    characters, clipped); a category for women or men only (view ``sex``: K / M) carries its marker in the
    game's language, like the name."""
    if not isinstance(cat, dict):
        return ""
    name = clean(str(cat.get("name") or cat.get("id") or ""), kit.TEXT_LIMIT)
    sex = cat.get("sex")
    if sex not in ("K", "M") or not name:
        return name
    lang = str(((view or {}).get("options") or {}).get("lang") or "en")
    return f"{name} {t(f'tfui.sex.{sex}', lang)}"


def _champion_sides(view: dict[str, Any]) -> list[int]:
    outcome = view.get("outcome") or {}
    seat_side = view.get("seat_side") or []
    sides: list[int] = []
    for seat in outcome.get("winners") or []:
        if 0 <= seat < len(seat_side) and seat_side[seat] not in sides:
            sides.append(seat_side[seat])
    return sides


def _status(view: dict[str, Any], sides: list[_Side], locale: str) -> tuple[list[int], str]:
    """(sides whose swatches lead the status line, the status text)."""
    phase = view.get("phase")
    duel, pending = view.get("duel"), view.get("pending")
    n = len(sides)

    def who(side: int) -> str:
        if 0 <= side < n:
            return t("tfr.side_names", locale, side=sides[side].colour, names=sides[side].names)
        return "?"

    if phase == "draft":
        picked = sum(1 for p in view.get("has_picked") or [] if p)
        return [], t("tfr.status.draft", locale, ready=picked, total=n)
    if phase == "over":
        champs = _champion_sides(view)
        if champs:
            return champs, t("tfr.status.champion", locale, side=" & ".join(who(s) for s in champs))
        return [], t("tfr.status.over", locale)
    if duel:
        a, b = duel.get("challenger", -1), duel.get("defender", -1)
        colours = {"a": sides[a].colour if 0 <= a < n else "?", "b": sides[b].colour if 0 <= b < n else "?"}
        key = "tfr.status.final_duel" if phase == "final" else "tfr.status.duel"
        return [a, b], t(key, locale, **colours)
    if pending:
        side = pending.get("side", -1)
        return [side], _pending_text(pending, sides, locale)
    current = view.get("current")
    if phase == "play" and current is not None:
        return [current], t("tfr.status.challenge", locale, side=who(current))
    return [], t(f"{KEY}phase.{phase}", locale) if phase in ("play", "final") else ""


def _pending_text(pending: dict[str, Any], sides: list[_Side], locale: str) -> str:
    side = pending.get("side", -1)
    colour = sides[side].colour if 0 <= side < len(sides) else "?"
    kind = pending.get("kind")
    if kind == "take":
        return t("tfr.pending.take", locale, side=colour, count=int(pending.get("count") or 0))
    if kind == "keep":
        cells = pending.get("cells") or []
        return t("tfr.pending.keep", locale, side=colour, cell=cells[0] if cells else "?")
    if kind == "final":
        return t("tfr.pending.final", locale, side=colour)
    if kind == "final_pick":
        return t("tfr.pending.final_pick", locale, side=colour)
    return t("tfr.pending.other", locale, side=colour)


def _wrap(text: str, size: int, width: float, weight: str = "Bold", first: float | None = None) -> list[str]:
    """Greedy word wrap; ``first`` is the first line's width when it differs. Overlong words are kept whole
    (the caller cuts them with an ellipsis)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        limit = first if first is not None and not lines else width
        trial = f"{line} {word}" if line else word
        if not line or kit.text_width(trial, size, weight) <= limit:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _info_lines(view: dict[str, Any], sides: list[_Side], locale: str) -> list[tuple[str, str]]:
    """The lines under the board as (label, text) pairs, already wrapped to the image's width."""
    entries: list[tuple[str, str]] = []
    pending = view.get("pending")
    if pending:
        text = _pending_text(pending, sides, locale)
        if pending.get("kind") == "take" and pending.get("cells"):
            text += " " + t("tfr.pending.from_cells", locale, cells=", ".join(pending["cells"]))
        entries.append((t("tfr.info.choice", locale), text))
        options = [_cat_name(c, view) for c in pending.get("options") or [] if c]
        if options:
            entries.append((t("tfr.info.options", locale), " · ".join(options)))
    cards = [_cat_name(c, view) for c in view.get("final_cards") or [] if c]
    if cards:
        entries.append((t("tfr.info.final_cards", locale), " · ".join(cards)))
    winners = view.get("round_winners") or []
    if winners:
        parts = [
            t("tfr.info.round_n", locale, n=i + 1, side=sides[s].colour if 0 <= s < len(sides) else "?")
            for i, s in enumerate(winners)
        ]
        entries.append((t("tfr.info.round_winners", locale), " · ".join(parts)))
    hand = view.get("hand")
    if view.get("viewer") is not None and hand:
        entries.append((t("tfr.info.your_hand", locale), " · ".join(_cat_name(c, view) for c in hand)))
    picked = view.get("picked")
    if view.get("viewer") is not None and view.get("phase") == "draft" and picked:
        entries.append((t("tfr.info.your_picks", locale), " · ".join(_cat_name(c, view) for c in picked)))
    width = W - 2 * PAD
    out: list[tuple[str, str]] = []
    for label, text in entries:
        label_w = kit.text_width(label, INFO_SIZE, "Regular") + 10
        lines = _wrap(text, INFO_SIZE, width, first=width - label_w)[:3]
        for i, line in enumerate(lines):
            out.append((label if i == 0 else "", line))
    return out
