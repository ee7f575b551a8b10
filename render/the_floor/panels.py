"""The Floor's panels around the floor: the header, the duel panel, the info lines and the Final ladder."""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n import t
from render import kit
from render.kit.paletted import PCanvas
from render.the_floor.sprites import mark, paletted, swatch
from render.the_floor.theme import (
    BG,
    DIM,
    DUEL_H,
    GOLD,
    INFO_SIZE,
    INK,
    KEY,
    LADDER_H,
    LETTER_BG,
    LINE_H,
    PAD,
    PANEL,
    ROW_HI,
    SIDE_COLOURS,
    SMALL_SIZE,
    SMALL_SWATCH,
    STATUS_SIZE,
    SWATCH,
    TEXT,
    TITLE_SIZE,
    Layout,
    W,
)
from render.the_floor.words import _cat_name, _champion_sides, _resigned, _Side, _status, clock

# ------------------------------------------------------------------------------------------ panels


class _Canvas(PCanvas):
    def __init__(self, img: Image.Image) -> None:
        super().__init__(img, BG, paletted())

    def swatch(self, view: dict[str, Any], side: int, x: float, cy: float, size: int = SWATCH) -> int:
        if not 0 <= side < len(SIDE_COLOURS):
            return 0
        return self.sprite(swatch(side, _resigned(view, side), size), x, cy)


def _draw_header(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str) -> None:
    right = W - PAD
    phase = view.get("phase") or ""
    title = t("tfr.title", locale)
    rnd = t("tfr.round", locale, n=view.get("round") or 1, total=3) if phase in ("play", "draft") else ""
    phase_name = t(f"{KEY}phase.{phase}", locale) if phase in ("draft", "play", "final", "over") else ""
    left = " · ".join(x for x in (title, rnd, phase_name) if x)
    cv.text(PAD, PAD + 14, left, size=TITLE_SIZE, fill=DIM, weight="Regular", max_width=right - PAD)
    lead, status = _status(view, sides, locale)
    x = PAD
    cy = PAD + 62
    for side in lead[:5]:
        x += cv.swatch(view, side, x, cy) + 8
    if lead:
        x += 6
    fill = GOLD if phase == "over" and lead else TEXT
    cv.text(x, cy, status, size=STATUS_SIZE, fill=fill, max_width=right - x)


def _draw_duel(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    duel = view.get("duel") or {}
    top = lay.duel_y
    left, right = PAD + 20, W - PAD - 20
    mid = W / 2
    category = kit.clean_text(_cat_name(duel.get("category"), view)) or "?"
    label = t("tfr.duel.category", locale)
    label_w = kit.text_width(label, SMALL_SIZE, "Regular") + 12
    cat_w = min(kit.text_width(category, 32), right - left - label_w)
    x = mid - (label_w + cat_w) / 2
    cv.text(x, top + 32, label, size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular")
    cv.text(x + label_w, top + 32, category, size=32, fill=TEXT, bg=PANEL, max_width=cat_w + 1)

    pair = (duel.get("challenger", -1), duel.get("defender", -1))
    clocks = [*list(duel.get("clocks_ms") or [0, 0]), 0, 0]
    ready = [*list(duel.get("ready") or [False, False]), False, False]
    started = bool(duel.get("started"))
    running, answering = duel.get("running"), duel.get("answering")
    box = 96
    cy = top + 100
    # the letter, big, in the middle
    letter = duel.get("letter") if started else None
    cv.d.rounded_rectangle((mid - box / 2, cy - box / 2, mid + box / 2, cy + box / 2), radius=14, fill=LETTER_BG)
    cv.text(mid, cy, str(letter or "?")[:2], size=62, fill=INK, bg=LETTER_BG, align="center")
    for i, side in enumerate(pair):
        if not 0 <= side < len(sides):
            continue
        hot = side == running or (side == answering and running is None and not duel.get("judging"))
        bg = ROW_HI if side == running else PANEL
        col_l, col_r = (left, mid - box / 2 - 20) if i == 0 else (mid + box / 2 + 20, right)
        if side == running:
            cv.d.rounded_rectangle((col_l - 8, cy - 44, col_r + 8, cy + 44), radius=10, fill=ROW_HI)
        align = "left" if i == 0 else "right"
        sw = SMALL_SWATCH + 8
        name_y, clock_y = cy - 20, cy + 18
        if i == 0:
            cv.swatch(view, side, col_l, name_y, SMALL_SWATCH)
            cv.text(
                col_l + sw, name_y, sides[side].names, size=SMALL_SIZE, fill=TEXT, bg=bg, max_width=col_r - col_l - sw
            )
            cv.text(col_l, clock_y, clock(clocks[i]), size=36, fill=GOLD if hot else TEXT, bg=bg)
        else:
            cv.swatch(view, side, col_r - SMALL_SWATCH, name_y, SMALL_SWATCH)
            cv.text(
                col_r - sw,
                name_y,
                sides[side].names,
                size=SMALL_SIZE,
                fill=TEXT,
                bg=bg,
                align=align,
                max_width=col_r - col_l - sw,
            )
            cv.text(col_r, clock_y, clock(clocks[i]), size=36, fill=GOLD if hot else TEXT, bg=bg, align="right")
        if not started:
            tag = t("tfr.duel.ready" if ready[i] else "tfr.duel.not_ready", locale)
            tx = col_l + 150 if i == 0 else col_r - 150
            cv.text(
                tx, clock_y, tag, size=SMALL_SIZE, fill=GOLD if ready[i] else DIM, bg=bg, weight="Regular", align=align
            )
    # the bottom line: judging, or the last answers
    ly = top + DUEL_H - 30
    if duel.get("judging"):
        text = t(
            "tfr.duel.judging",
            locale,
            answer=kit.clean_text(str(duel["judging"])),
            count=int(duel.get("votes") or 0),
        )
        cv.text(mid, ly, text, size=SMALL_SIZE, fill=GOLD, bg=PANEL, align="center", max_width=right - left)
        return
    answers = duel.get("answers") or []
    if not answers:
        if started:
            side = answering if answering is not None else running
            if side is not None and 0 <= side < len(sides):
                text = t("tfr.duel.answering", locale, side=sides[side].colour, letter=letter or "?")
                cv.text(mid, ly, text, size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular", align="center")
        else:
            cv.text(
                mid,
                ly,
                t("tfr.duel.waiting", locale),
                size=SMALL_SIZE,
                fill=DIM,
                bg=PANEL,
                weight="Regular",
                align="center",
            )
        return
    # as many of the latest answers as fit, oldest left
    items: list[tuple[int, str, bool]] = []
    width = 0.0
    avail = right - left - kit.text_width(t("tfr.duel.answers", locale), SMALL_SIZE, "Regular") - 12
    for a in reversed(answers):
        text = _answer_text(a, locale)
        w = SMALL_SWATCH * 0.75 + 6 + kit.text_width(text, SMALL_SIZE - 1) + 22
        if items and width + w > avail:
            break
        items.append((a.get("side", -1), text, a.get("mark") in ("accepted", "trusted", "judged")))
        width += w
    x = left
    x += cv.text(x, ly, t("tfr.duel.answers", locale), size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular") + 12
    for side, text, good in reversed(items):
        x += cv.swatch(view, side, x, ly, round(SMALL_SWATCH * 0.75)) + 6
        x += cv.text(x, ly, text, size=SMALL_SIZE - 1, fill=TEXT if good else DIM, bg=PANEL, max_width=right - x) + 22


def _answer_text(answer: dict[str, Any], locale: str) -> str:
    mark = answer.get("mark")
    text = kit.clean_text(str(answer.get("text") or "")) or "?"
    if mark == "pass":
        return t("tfr.answer.pass", locale)
    if mark in ("rejected", "trusted"):
        return t(f"{KEY}answer.{mark}", locale, answer=text)
    return text


def _draw_info(cv: _Canvas, lines: list[tuple[str, str]], lay: Layout) -> None:
    y = lay.info_y
    indent = 0
    for label, text in lines:
        cy = y + LINE_H / 2
        x = PAD
        if label:
            indent = cv.text(x, cy, label, size=INFO_SIZE, fill=DIM, weight="Regular") + 10
        cv.text(x + indent, cy, text, size=INFO_SIZE, fill=TEXT, max_width=W - PAD - x - indent)
        y += LINE_H


def _draw_ladder(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    ladder = [s for s in view.get("ladder") or [] if 0 <= s < len(sides)]
    if not ladder:
        return
    top = lay.ladder_y
    label = t("tfr.ladder", locale)
    cv.text(PAD, top + 14, label, size=SMALL_SIZE, fill=DIM, weight="Regular")
    holder = view.get("holder")
    out = set(view.get("final_out") or [])
    champs = set(_champion_sides(view)) if view.get("phase") == "over" else set()
    cats = view.get("final_categories") or []
    n = len(ladder)
    arrow = 26
    chip_w = (W - 2 * PAD - (n - 1) * arrow) / n
    y0, y1 = top + 32, top + LADDER_H
    for i, side in enumerate(ladder):
        x0 = PAD + i * (chip_w + arrow)
        hot = side == holder or side in champs
        bg = ROW_HI if hot else PANEL
        cv.d.rounded_rectangle((x0, y0, x0 + chip_w, y1), radius=10, fill=bg, outline=GOLD if hot else None, width=3)
        faded = side in out
        cy = y0 + 18
        x = x0 + 10
        x += cv.swatch(view, side, x, cy + 2, SMALL_SWATCH) + 8
        if hot:
            x += cv.sprite(mark("star" if side in champs else "play", 24, GOLD, bg, 0.4), x, cy) + 4
        cv.text(
            x,
            cy,
            sides[side].colour,
            size=SMALL_SIZE,
            fill=DIM if faded else TEXT,
            bg=bg,
            max_width=x0 + chip_w - 8 - x,
        )
        cat = _cat_name(cats[side], view) if side < len(cats) else ""
        cat = kit.clean_text(cat) or "—"
        cv.text(x0 + 10, y1 - 15, cat, size=18, fill=DIM, bg=bg, weight="Regular", max_width=chip_w - 20)
        if i < n - 1:
            ax = x0 + chip_w + arrow / 2
            my = (y0 + y1) / 2
            cv.d.polygon([(ax - 7, my - 9), (ax + 7, my), (ax - 7, my + 9)], fill=DIM)
