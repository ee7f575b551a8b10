"""The Floor's text board for a terminal or a code block."""

from __future__ import annotations

from typing import Any

from i18n import t
from i18n.text import clean
from render import kit
from render.the_floor.board import _grid
from render.the_floor.legend import _hot_side, _side_stats, _side_status
from render.the_floor.panels import _answer_text
from render.the_floor.placing import cell_xy
from render.the_floor.theme import FILES, KEY, SIDE_CHARS, SIZE
from render.the_floor.words import _cat_name, _info_lines, _Side, _side_labels, _status, clock, pattern_name

# --------------------------------------------------------------------------------------- text board


def _field_letter(field: int | None) -> str:
    if field is None or field < 0:
        return "?"
    return chr(ord("a") + field) if field < 26 else str(field)


def text_board(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> str:
    """A plain-text board: row 5 at the top, each cell as its side digit and field letter (``2c``), ``##``
    for the empty centre, the duel's cells as ``(from)`` and ``[to]``; then the status, the duel, the pending
    choice, the fields with their categories, the Final and the sides."""
    sides = _side_labels(view, names, locale)
    grid = _grid(view)
    duel = view.get("duel") or {}
    frm, to = cell_xy(duel.get("from")), cell_xy(duel.get("to"))
    phase = view.get("phase") or ""

    title = [t("tfr.title", locale)]
    if phase in ("draft", "play"):
        title.append(t("tfr.round", locale, n=view.get("round") or 1, total=3))
    if phase in ("draft", "play", "final", "over"):
        title.append(t(f"{KEY}phase.{phase}", locale))
    out = [" · ".join(title)]
    _, status = _status(view, sides, locale)
    if status:
        out.append(status)
    out.append("")

    header = "    " + "".join(f"  {c}   " for c in FILES)
    out.append(header)
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            side, field = grid.get((x, y), (None, None))
            body = "##" if side is None else f"{SIDE_CHARS[side] if 0 <= side < 5 else '?'}{_field_letter(field)}"
            if (x, y) == frm:
                row.append(f" ({body}) ")
            elif (x, y) == to:
                row.append(f" [{body}] ")
            else:
                row.append(f"  {body}  ")
        out.append(f" {SIZE - y}  {''.join(row)}  {SIZE - y}")
    out.append(header)
    out.append(t("tfr.text.key", locale))
    out.append("")

    if duel:
        out += _text_duel(view, duel, sides, locale)
    for label, text in _info_lines(view, sides, locale):
        out.append(f"{label} {text}".strip() if label else f"    {text}")
    ladder = [s for s in view.get("ladder") or [] if 0 <= s < len(sides)]
    if ladder:
        cats = view.get("final_categories") or []
        parts = []
        for s in ladder:
            cat = _cat_name(cats[s], view) if s < len(cats) else ""
            mark = "*" if s == view.get("holder") else ""
            parts.append(f"{mark}{sides[s].colour}{f' ({cat})' if cat else ''}")
        out.append(f"{t('tfr.ladder', locale)} {' -> '.join(parts)}")

    fields = view.get("fields") or []
    if fields:
        out.append(t("tfr.text.fields", locale))
        for f in fields:
            side = f.get("side")
            colour = sides[side].colour if side is not None and 0 <= side < len(sides) else "?"
            cats = " / ".join(_cat_name(c, view) for c in f.get("categories") or [] if c) or "—"
            cells = ",".join(f.get("cells") or [])
            out.append(f"  {_field_letter(f.get('id'))}  {colour}: {cats}  [{cells}]")

    out.append(t("tfr.text.sides", locale))
    cells, biggest = _side_stats(view, len(sides))
    for side, label in enumerate(sides):
        marker = ">" if _hot_side(view) == side else " "
        status, _ = _side_status(view, side, locale)
        you = f" {t('tfr.you', locale)}" if view.get("viewer_side") == side else ""
        stats = t("tfr.legend.stats", locale, count=cells[side], biggest=biggest[side])
        line = f"{marker} {SIDE_CHARS[side] if side < 5 else '?'} {label.colour} ({pattern_name(side, locale)}): "
        line += f"{label.names}{you} — {stats}"
        if status:
            line += f" — {status}"
        out.append(line)
    return "\n".join(line.rstrip() for line in out)


def _text_duel(view: dict[str, Any], duel: dict[str, Any], sides: list[_Side], locale: str) -> list[str]:
    n = len(sides)
    pair = (duel.get("challenger", -1), duel.get("defender", -1))
    clocks = [*list(duel.get("clocks_ms") or [0, 0]), 0, 0]
    colour = [sides[s].colour if 0 <= s < n else "?" for s in pair]
    category = _cat_name(duel.get("category"), view) or "?"
    where = f" ({duel['from']} -> {duel['to']})" if duel.get("from") and duel.get("to") else ""
    lines = [t("tfr.text.duel", locale, a=colour[0], b=colour[1], category=category) + where]
    running = duel.get("running")
    parts = []
    for i, side in enumerate(pair):
        mark = " <" if side == running else ""
        parts.append(f"{colour[i]} {clock(clocks[i])}{mark}")
    if duel.get("started"):
        letter = duel.get("letter") or "?"
        lines.append(f"{t('tfr.text.letter', locale, letter=letter)} · {' | '.join(parts)}")
    else:
        ready = [*list(duel.get("ready") or [False, False]), False, False]
        states = [f"{colour[i]}: {t('tfr.duel.ready' if ready[i] else 'tfr.duel.not_ready', locale)}" for i in range(2)]
        # a text board is read where Ready is typed (the terminal), not pressed
        lines.append(f"{t('tfr.text.waiting', locale)} ({', '.join(states)}) · {' | '.join(parts)}")
    answers = duel.get("answers") or []
    if answers:
        said = []
        for a in answers:
            s = a.get("side", -1)
            said.append(f"{sides[s].colour if 0 <= s < n else '?'}: {_answer_text(a, locale)}")
        lines.append(f"{t('tfr.duel.answers', locale)} {'; '.join(said)}")
    if duel.get("judging"):
        lines.append(t("tfr.duel.judging", locale, answer=clean(str(duel["judging"]), kit.TEXT_LIMIT),
                       count=int(duel.get("votes") or 0)))
    return lines
