"""The Floor's legend: one row per side with its swatch, names, fields and status."""

from __future__ import annotations

from typing import Any

from i18n import t
from render import kit
from render.kit import RGB
from render.the_floor.panels import _Canvas
from render.the_floor.sprites import mark
from render.the_floor.theme import BG, DIM, GOLD, NAME_SIZE, PAD, ROW_H, ROW_HI, RULE, SMALL_SIZE, TEXT, Layout, W
from render.the_floor.words import _champion_sides, _eliminated, _resigned, _Side


def _side_stats(view: dict[str, Any], nsides: int) -> tuple[list[int], list[int]]:
    cells = [0] * nsides
    biggest = [0] * nsides
    for c in view.get("cells") or []:
        side = c.get("side")
        if side is not None and 0 <= side < nsides:
            cells[side] += 1
    for f in view.get("fields") or []:
        side = f.get("side")
        if side is not None and 0 <= side < nsides:
            biggest[side] = max(biggest[side], int(f.get("size") or len(f.get("cells") or [])))
    return cells, biggest


def _side_status(view: dict[str, Any], side: int, locale: str) -> tuple[str, RGB]:
    phase = view.get("phase")
    if _resigned(view, side):
        return t("tfr.legend.resigned", locale), DIM
    if _eliminated(view, side):
        return t("tfr.legend.eliminated", locale), DIM
    if phase == "over":
        outcome = view.get("outcome") or {}
        seat_side = view.get("seat_side") or []
        for place, group in enumerate(outcome.get("ranking") or []):
            if any(0 <= s < len(seat_side) and seat_side[s] == side for s in group):
                return t("tfr.legend.place", locale, place=place + 1), GOLD if place == 0 else TEXT
        return "", DIM
    if phase == "draft":
        picked = view.get("has_picked") or []
        done = side < len(picked) and picked[side]
        return t("tfr.legend.picked" if done else "tfr.legend.choosing", locale), TEXT if done else DIM
    if phase == "final" and side in (view.get("final_out") or []):
        return t("tfr.legend.out", locale), DIM
    pending = view.get("pending") or {}
    if pending:
        return (t("tfr.legend.to_choose", locale), GOLD) if pending.get("side") == side else ("", DIM)
    if phase == "play" and view.get("current") == side and not view.get("duel"):
        return t("tfr.legend.to_challenge", locale), GOLD
    duel = view.get("duel") or {}
    if duel and side in (duel.get("challenger"), duel.get("defender")):
        return t("tfr.legend.in_duel", locale), GOLD
    return "", DIM


def _hot_side(view: dict[str, Any]) -> int | None:
    """The side the game waits for outside a duel: the pending choice's owner, else the challenger."""
    if view.get("duel"):
        return None
    pending = view.get("pending")
    if pending:
        return pending.get("side")
    return view.get("current") if view.get("phase") == "play" else None


def _draw_legend(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    left, right = PAD, W - PAD
    nsides = len(sides)
    cells, biggest = _side_stats(view, nsides)
    wins = [0] * nsides
    for s in view.get("round_winners") or []:
        if 0 <= s < nsides:
            wins[s] += 1
    champs = set(_champion_sides(view))
    phase = view.get("phase")
    viewer_side = view.get("viewer_side")
    status_w = 190
    stats_r = right - 10 - status_w - 16
    stats_w = max(
        kit.text_width(t("tfr.legend.stats", locale, count=n, biggest=n), SMALL_SIZE, "Regular") for n in (9, 25)
    )
    y = lay.legend_y
    for side in range(nsides):
        cy = y + ROW_H / 2
        hot = _hot_side(view) == side or (phase == "over" and side in champs)
        bg = ROW_HI if hot else BG
        if hot:
            cv.d.rounded_rectangle((left, y + 3, right, y + ROW_H - 3), radius=10, fill=ROW_HI)
            cv.sprite(mark("star" if phase == "over" else "play", 28, GOLD, ROW_HI, 0.4), left + 6, cy)
        elif side:
            cv.d.line((left + 40, y, right, y), fill=RULE, width=2)
        x = left + 40
        x += cv.swatch(view, side, x, cy) + 14
        gone = _resigned(view, side) or _eliminated(view, side)
        name_right = right - 10 - status_w - 16 - stats_w - 20
        stars = wins[side]
        star_w = stars * 24
        you = t("tfr.you", locale) if viewer_side == side else ""
        you_w = kit.text_width(you, SMALL_SIZE - 2, "Regular") + 10 if you else 0
        colour_w = kit.text_width(sides[side].colour, SMALL_SIZE - 2, "Regular") + 12
        name_w = cv.text(
            x,
            cy,
            sides[side].names,
            size=NAME_SIZE,
            fill=DIM if gone else TEXT,
            bg=bg,
            max_width=name_right - x - colour_w - star_w - you_w,
        )
        x += name_w + 10
        x += cv.text(x, cy + 1, sides[side].colour, size=SMALL_SIZE - 2, fill=DIM, bg=bg, weight="Regular") + 2
        if you:
            x += cv.text(x + 8, cy + 1, you, size=SMALL_SIZE - 2, fill=DIM, bg=bg, weight="Regular") + 10
        for _ in range(stars):
            x += cv.sprite(mark("star", 24, GOLD, bg, 0.42), x, cy)
        stats = t("tfr.legend.stats", locale, count=cells[side], biggest=biggest[side])
        cv.text(stats_r, cy, stats, size=SMALL_SIZE, fill=DIM if gone else TEXT, bg=bg, weight="Regular", align="right")
        status, fill = _side_status(view, side, locale)
        if status:
            cv.text(right - 10, cy, status, size=SMALL_SIZE, fill=fill, bg=bg, align="right", max_width=status_w)
        y += ROW_H
