"""Floor Plan's public round summary: the roll, the clients, thumbnails or a leaderboard."""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.floor_plan.map import _paper, draw_map
from render.floor_plan.model import BG, BG_HI, COLS, DIM, GOLD, KEY, ROWS, TEXT
from render.floor_plan.tiles import ink, p_die, p_tile, palette, paste_text
from render.floor_plan.words import (
    _first,
    _has,
    _wrap,
    client_name,
    demand_text,
    door_bonus_text,
    kind_name,
    points,
    seat_name,
)

# --------------------------------------------------------------------------------------- thumbnails

THUMB_CELL = 16  # ~290 px wide: three across the summary
BIG_THUMB_CELL = 24  # up to four players: two across, ~420 px wide
THUMB_PAD = 8
THUMB_TITLE = 34


def thumb_size(cell: int = THUMB_CELL) -> tuple[int, int]:
    return COLS * cell + 1 + 2 * THUMB_PAD, THUMB_TITLE + ROWS * cell + 1 + THUMB_PAD


@functools.lru_cache(maxsize=4)
def _thumb_background(cell: int) -> Image.Image:
    """A thumbnail's empty blueprint on its card (a 'P' image in `palette`; copy it before drawing on it)."""
    img = Image.new("RGB", thumb_size(cell), BG_HI)
    img.paste(_paper(cell), (THUMB_PAD, THUMB_TITLE))
    return p_tile(img)


def draw_thumbnail(
    sheet_view: dict[str, Any],
    *,
    name: str,
    score: int | None = None,
    locale: str = "en",
    cell: int = THUMB_CELL,
) -> Image.Image:
    """A small blueprint (a 'P' image in `palette`; ~290 px wide at the default ``cell``) with the player's name
    and score above."""
    img = _thumb_background(cell).copy()
    draw_map(img, THUMB_PAD, THUMB_TITLE, cell, 2 if cell < 20 else 3, sheet_view)
    if score is None:
        score = int(sheet_view.get("score") or 0)
    width = img.width
    cy = THUMB_TITLE / 2
    sw = paste_text(
        img, (width - THUMB_PAD, cy), points(score, locale), size=19, fill=GOLD, bg=BG_HI, align="right"
    )
    paste_text(img, (THUMB_PAD, cy), name, size=19, fill=TEXT, bg=BG_HI, max_width=width - 24 - sw)
    return img


# ------------------------------------------------------------------------------------------ summary

S_PAD = 22
S_GAP = 16
S_WIDTH = 3 * thumb_size()[0] + 2 * S_GAP + 2 * S_PAD
S_HEADER = 84
CARD_H = 176
LB_ROW = 38
LB_TOP = 20


def _ranking(view: dict[str, Any]) -> list[tuple[int, int]]:
    """(rank, seat) best first: by score, ties share a rank."""
    scores = list(view.get("scores") or [])
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out, rank = [], 0
    for i, seat in enumerate(order):
        if i == 0 or scores[seat] != scores[order[i - 1]]:
            rank = i + 1
        out.append((rank, seat))
    return out


def _status_line(view: dict[str, Any], names: list[str] | None, locale: str) -> str:
    if view.get("phase") == "over":
        winners = list((view.get("outcome") or {}).get("winners") or [])
        rating = view.get("rating")
        if view.get("solo") and rating:  # the solo rating from the rulebook's table
            title = _first((f"fp.rating.{rating}",), locale, str(rating).replace("_", " ").title())
            return f"{t('render.floor_plan.game_over', locale)} \u00b7 {title}"
        if len(winners) == 1:
            return t("render.floor_plan.winner", locale, name=seat_name(names, winners[0], locale))
        if winners:
            shown = ", ".join(seat_name(names, s, locale) for s in winners[:6])
            return t("render.floor_plan.shared_win", locale, names=shown)
        return t("render.floor_plan.game_over", locale)
    ending = view.get("ending")
    if ending:
        key = f"{KEY}ending.{ending}"
        if _has(key, locale):
            return t(key, locale)
    return ""


def _title_line(view: dict[str, Any], locale: str) -> str:
    parts = [t("render.floor_plan.title", locale)]
    if view.get("phase") == "setup":
        parts.append(t("render.floor_plan.setup", locale))
    else:
        parts.append(t("render.floor_plan.round", locale, n=view.get("round", 0)))
    parts.append(
        t("render.floor_plan.solo", locale)
        if view.get("solo")
        else t("render.floor_plan.players", locale, count=view.get("players", 0))
    )
    return " \u00b7 ".join(parts)


def _thumb_grid(count: int) -> tuple[int, int]:
    """(columns, cell size) of the thumbnails for ``count`` sheets."""
    if count <= 4:
        return min(count, 2), BIG_THUMB_CELL
    return 3, THUMB_CELL


def _summary_body(view: dict[str, Any], sheets: list[dict[str, Any]] | None) -> tuple[str, int]:
    players = int(view.get("players") or len(view.get("scores") or []))
    if sheets is not None and len(sheets) <= 6:
        cols, cell = _thumb_grid(len(sheets))
        rows = math.ceil(len(sheets) / max(1, cols))
        return "thumbs", rows * thumb_size(cell)[1] + max(0, rows - 1) * S_GAP
    shown = min(20, players)
    more = 1 if players > shown else 0
    return "board", LB_TOP + (shown + 1 + more) * LB_ROW


def draw_summary(
    view: dict[str, Any],
    sheets: list[dict[str, Any]] | None = None,
    *,
    names: list[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The public round summary as a palette ('P') image, drawn in the palette from start to end."""
    kind, body_h = _summary_body(view, sheets)
    height = S_HEADER + CARD_H + 18 + body_h + S_PAD
    img = Image.new("P", (S_WIDTH, height), ink(BG))
    img.putpalette(palette().getpalette() or [])
    d = ImageDraw.Draw(img)
    right = S_WIDTH - S_PAD
    # header: title and status on the left, the roll as two dice on the right
    roll = view.get("roll") or []
    x = right
    die = 56
    for value in reversed(roll[:2]):
        x -= die
        img.paste(p_die(int(value), die, BG), (x, S_PAD))
        x -= 10
    if roll:
        x -= (
            paste_text(
                img,
                (x, S_PAD + die / 2),
                t("render.floor_plan.roll", locale),
                size=22,
                fill=DIM,
                bg=BG,
                weight="Regular",
                align="right",
            )
            + 12
        )
    paste_text(
        img, (S_PAD, S_PAD + 14), _title_line(view, locale), size=28, fill=TEXT, bg=BG, max_width=x - S_PAD - 10
    )
    status = _status_line(view, names, locale)
    if not status and view.get("to_move"):
        status = t("render.floor_plan.waiting", locale, count=len(view["to_move"]))
    if status:
        paste_text(
            img, (S_PAD, S_PAD + 46), status, size=20, fill=GOLD, bg=BG, weight="Regular", max_width=x - S_PAD - 10
        )
    # the three clients
    top = S_HEADER
    clients = list(view.get("clients") or [])[:3]
    cw = (S_WIDTH - 2 * S_PAD - 2 * 16) / 3
    for i, client in enumerate(clients):
        bx = S_PAD + i * (cw + 16)
        box = (round(bx), top, round(bx + cw), top + CARD_H)
        d.rounded_rectangle(box, radius=10, fill=ink(BG_HI))
        tx, inner = box[0] + 14, cw - 28
        kind_txt = kind_name(str(client.get("kind", "")), locale)
        kw = paste_text(
            img, (box[2] - 14, top + 20), kind_txt.upper(), size=15, fill=DIM, bg=BG_HI, weight="Regular", align="right"
        )
        paste_text(
            img,
            (tx, top + 20),
            client_name(str(client.get("id", "")), locale),
            size=22,
            fill=TEXT,
            bg=BG_HI,
            max_width=inner - kw - 10,
        )
        y = top + 50
        for demand in list(client.get("demands") or [])[:2]:
            pts = str(demand.get("points", ""))
            pw = paste_text(img, (tx, y + 10), pts, size=24, fill=GOLD, bg=BG_HI)
            lines = _wrap(demand_text(str(demand.get("id", "")), locale), 17, inner - 36)
            for j, line in enumerate(lines[:2]):
                paste_text(
                    img,
                    (tx + max(pw, 14) + 12, y + 10 + j * 21),
                    line,
                    size=17,
                    fill=TEXT,
                    bg=BG_HI,
                    weight="Regular",
                    max_width=inner - 36,
                )
            y += 56
        bonus = door_bonus_text(client, locale)
        if bonus:
            for j, line in enumerate(_wrap(bonus, 16, inner)[:2]):
                paste_text(
                    img, (tx, y + 10 + j * 20), line, size=16, fill=DIM, bg=BG_HI, weight="Regular", max_width=inner
                )
    top += CARD_H + 18
    if kind == "thumbs":
        assert sheets is not None
        scores = list(view.get("scores") or [])
        for i, sheet in enumerate(sheets):
            seat = int(sheet.get("seat", i))
            score = scores[seat] if 0 <= seat < len(scores) else sheet.get("score")
            cols, cell = _thumb_grid(len(sheets))
            name = seat_name(names, seat, locale)
            thumb = draw_thumbnail(sheet, name=name, score=score, locale=locale, cell=cell)
            offset = (S_WIDTH - cols * thumb.width - (cols - 1) * S_GAP) // 2  # centred rows
            col, row = i % cols, i // cols
            img.paste(thumb, (offset + col * (thumb.width + S_GAP), top + row * (thumb.height + S_GAP)))
    else:
        _leaderboard(img, view, names, locale, top)
    return img


def _leaderboard(img: Image.Image, view: dict[str, Any], names: list[str] | None, locale: str, top: int) -> None:
    d = ImageDraw.Draw(img)
    left, right = S_PAD, S_WIDTH - S_PAD
    scores = list(view.get("scores") or [])
    done = list(view.get("demands_done") or [])
    rank_x, name_x = left + 44, left + 64
    demands_r, score_r = right - 14, right - 190
    y = top + LB_TOP
    cy = y + LB_ROW / 2
    dim = dict(size=17, fill=DIM, bg=BG, weight="Regular")
    paste_text(img, (rank_x, cy), t("render.floor_plan.col.rank", locale), align="right", **dim)
    paste_text(img, (name_x, cy), t("render.floor_plan.col.player", locale), **dim)
    paste_text(img, (score_r, cy), t("render.floor_plan.col.score", locale), align="right", **dim)
    paste_text(img, (demands_r, cy), t("render.floor_plan.col.demands", locale), align="right", **dim)
    y += LB_ROW
    ranking = _ranking(view)
    for i, (rank, seat) in enumerate(ranking[:20]):
        bg = BG_HI if i % 2 == 0 else BG
        if bg is BG_HI:
            d.rectangle((left, y + 2, right, y + LB_ROW - 2), fill=ink(BG_HI))
        cy = y + LB_ROW / 2
        fill = GOLD if rank == 1 else TEXT
        paste_text(img, (rank_x, cy), str(rank), size=20, fill=fill, bg=bg, align="right")
        paste_text(
            img,
            (name_x, cy),
            seat_name(names, seat, locale),
            size=20,
            fill=fill,
            bg=bg,
            max_width=score_r - name_x - 90,
        )
        paste_text(img, (score_r, cy), str(scores[seat]), size=20, fill=fill, bg=bg, align="right")
        count = done[seat] if seat < len(done) else 0
        paste_text(img, (demands_r, cy), str(count), size=19, fill=TEXT, bg=bg, weight="Regular", align="right")
        y += LB_ROW
    if len(ranking) > 20:
        paste_text(
            img,
            (name_x, y + LB_ROW / 2),
            t("render.floor_plan.more_players", locale, count=len(ranking) - 20),
            size=17,
            fill=DIM,
            bg=BG,
            weight="Regular",
        )


def render_summary(
    view: dict[str, Any],
    sheets: list[dict[str, Any]] | None = None,
    *,
    names: list[str] | None = None,
    locale: str = "en",
) -> bytes:
    """PNG bytes of `draw_summary`: thumbnails of every sheet for up to 6 players, else a top-20 leaderboard."""
    return kit.encode_image(draw_summary(view, sheets, names=names, locale=locale))
