"""Floor Plan's text board for a terminal: the viewer's blueprint, notes and the ranking as text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from i18n import t
from render.floor_plan.model import COLS, ROOM_TYPES, ROWS, SheetModel
from render.floor_plan.sheet import highlight_cells
from render.floor_plan.summary import _ranking, _status_line, _title_line
from render.floor_plan.words import (
    bonus_name,
    client_name,
    demand_short,
    demand_text,
    door_bonus_text,
    kind_name,
    points,
    room_name,
    seat_name,
)

# --------------------------------------------------------------------------------------- text board


def text_grid(sheet: dict[str, Any], highlight: Iterable[Sequence[int]] | None = None) -> list[str]:
    """The blueprint as lines of text: coordinates on all edges, one character per cell (see `SheetModel.char`),
    the pending placement's cells as ``*`` when they hold nothing else."""
    model = SheetModel.of(sheet)
    lit = highlight_cells(sheet, highlight)
    letters = "    " + " ".join(chr(ord("A") + x) for x in range(COLS))
    out = [letters]
    for y in range(ROWS):
        chars = []
        for x in range(COLS):
            ch = model.char((x, y))
            chars.append("*" if ch == "." and (x, y) in lit else ch)
        out.append(f"{y + 1:>3} {' '.join(chars)} {y + 1}")
    out.append(letters)
    return out


def text_board(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> str:
    """The viewer's blueprint as text, then the roll, the clients with their demands, the notes and the scores."""
    out = [_title_line(view, locale)]
    roll = view.get("roll")
    if roll:
        out.append(f"{t('render.floor_plan.roll', locale)}: {' '.join(str(v) for v in roll)}")
    status = _status_line(view, names, locale)
    if status:
        out.append(status)
    out.append("")
    for client in view.get("clients") or []:
        kind = client.get("kind")
        kind_txt = kind_name(str(kind), locale)
        out.append(f"{client_name(str(client.get('id', '')), locale)} ({kind_txt})")
        for demand in client.get("demands") or []:
            did = str(demand.get("id", ""))
            text = demand_text(did, locale, short=False)
            out.append(f"  {did}: {text} \u2014 {points(int(demand.get('points', 0)), locale)}")
        bonus = door_bonus_text(client, locale, short=False)
        if bonus:
            out.append(f"  {bonus}")
    sheet = view.get("sheet")
    viewer = view.get("viewer")
    out.append("")
    if sheet:
        seat = int(sheet.get("seat", viewer or 0))
        score = t("render.floor_plan.score", locale, score=sheet.get("score", 0))
        out.append(f"{seat_name(names, seat, locale)} \u2014 {score}")
        pending = (sheet.get("pending") or {}).get("action")
        if pending:
            out.append(t("render.floor_plan.pending", locale, action=pending))
        out += text_grid(sheet)
        out.append(t("render.floor_plan.text_legend", locale))
        out.append(" \u00b7 ".join(f"{r} {room_name(r, locale)}" for r in ROOM_TYPES))
        notes = []
        for note in sheet.get("notes") or []:
            pts = note.get("points")
            head = (
                t("render.floor_plan.note_open", locale)
                if pts is None
                else f"{pts} {demand_short(note.get('demand'), locale)}"
            )
            bonus = bonus_name(str(note.get("bonus", "")), locale)
            if note.get("bonus_used"):
                bonus = f"~{bonus}~"
            notes.append(f"[{head} | {bonus}]")
        out.append(f"{t('render.floor_plan.notes', locale)}: {' '.join(notes)}")
        wild = t("render.floor_plan.wild_used" if sheet.get("wild_used") else "render.floor_plan.wild_ready", locale)
        line = f"{bonus_name('wild', locale)}: {wild}"
        bubbles = sheet.get("bubbles_used")
        if bubbles is not None:
            marks = "\u25cf" * int(bubbles) + "\u25cb" * max(0, 20 - int(bubbles))
            line += f" \u00b7 {t('render.floor_plan.bubbles', locale)}: {marks}"
        out.append(line)
    else:
        out.append(t("render.floor_plan.no_sheet", locale))
    out.append("")
    scores = list(view.get("scores") or [])
    done = list(view.get("demands_done") or [])
    ranking = _ranking(view)
    for rank, seat in ranking[:20]:
        you = f" {t('render.you', locale)}" if seat == viewer else ""
        count = done[seat] if seat < len(done) else 0
        out.append(
            f"{rank:>3}. {seat_name(names, seat, locale)}{you} \u2014 {points(scores[seat], locale)}, "
            f"{t('render.floor_plan.demands_done', locale, count=count)}"
        )
    if len(ranking) > 20:
        out.append(t("render.floor_plan.more_players", locale, count=len(ranking) - 20))
    return "\n".join(line.rstrip() for line in out)
