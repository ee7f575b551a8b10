"""The bracket image: sections of rounds of match boxes joined by connectors."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.league.base import (
    ACCENT,
    ADV,
    BG,
    BORDER,
    DASH,
    DIM,
    GOLD,
    GREY,
    LINE,
    MAX_MATCHES,
    MAX_ROUNDS,
    MAX_SECTIONS,
    PAD,
    PANEL,
    SLOT_FILL,
    TEXT,
    WHITE,
    WIN,
    _dict,
    _finish,
    _int,
    _list,
    _name,
    _text,
    label,
)
from render.league.standings import TITLE

# ------------------------------------------------------------------------------------------ bracket


@dataclass(frozen=True)
class BracketMetrics:
    slot: int  # height of one player's slot; a box is two
    size: int  # name font size
    box_w: int
    seed_w: int
    gap_x: int  # between round columns: the connectors
    gap_y: int  # between boxes of the densest round
    label: int  # font size of the match labels over the boxes

    @property
    def label_h(self) -> int:
        return self.label + 4


# From roomy to the smallest still readable on a phone zoomed to width; the first that keeps the image under
# BRACKET_TARGET_H is used, else the last (and the image grows taller).
LEVELS = (
    BracketMetrics(slot=36, size=20, box_w=270, seed_w=34, gap_x=56, gap_y=22, label=13),
    BracketMetrics(slot=32, size=18, box_w=250, seed_w=32, gap_x=52, gap_y=16, label=13),
    BracketMetrics(slot=28, size=17, box_w=230, seed_w=30, gap_x=48, gap_y=11, label=12),
    BracketMetrics(slot=26, size=16, box_w=220, seed_w=28, gap_x=44, gap_y=6, label=11),
)
BRACKET_TARGET_H = 2400
BR_TITLE_H = PAD + 56  # the image title
SEC_TITLE_H = 40  # a section's title band
ROUND_TITLE_H = 30  # the round titles over the columns
SEC_GAP = 26
EMPTY_H = 80  # a section without matches


@dataclass(frozen=True)
class MatchBox:
    section: int
    round: int
    index: int
    x: int
    top: int  # box top (the label sits above it)
    slot: int
    width: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.top, self.x + self.width, self.top + 2 * self.slot

    def slot_box(self, k: int) -> tuple[int, int, int, int]:
        top = self.top + k * self.slot
        return self.x, top, self.x + self.width, top + self.slot

    def slot_cy(self, k: int) -> float:
        return self.top + (k + 0.5) * self.slot


@dataclass(frozen=True)
class SectionLayout:
    top: int
    height: int
    area_top: int  # the matches area's top
    rounds: int


@dataclass(frozen=True)
class BracketLayout:
    metrics: BracketMetrics
    width: int
    height: int
    seeds: bool
    labels: bool
    sections: tuple[SectionLayout, ...]
    boxes: tuple[tuple[tuple[MatchBox, ...], ...], ...]  # [section][round] -> boxes

    def match(self, section: int, round_: int, index: int) -> MatchBox:
        return self.boxes[section][round_][index]

    def round_x(self, round_: int) -> int:
        m = self.metrics
        return PAD + round_ * (m.box_w + m.gap_x)


def _sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for sec in _list(data.get("sections"))[:MAX_SECTIONS]:
        sec = _dict(sec)
        rounds = []
        for rnd in _list(sec.get("rounds"))[:MAX_ROUNDS]:
            rnd = _dict(rnd)
            matches = [_dict(m) for m in _list(rnd.get("matches"))[:MAX_MATCHES]]
            rounds.append({"title": rnd.get("title"), "matches": matches})
        out.append({"title": sec.get("title"), "rounds": rounds})
    return out


def _centres(rounds: list[dict[str, Any]], area_h: float, offset: float) -> list[list[float]]:
    """The vertical centre of each match box, relative to the matches area: the densest round evenly spaced;
    a round with half as many matches as the one before centred on the pairs that feed it, one with as many
    aligned with it, any other evenly spaced over the area."""
    out: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        n = len(rnd["matches"])
        prev = out[r - 1] if r else []
        if prev and len(prev) == 2 * n:
            out.append([(prev[2 * k] + prev[2 * k + 1]) / 2 for k in range(n)])
        elif prev and len(prev) == n:
            out.append(list(prev))
        else:
            out.append([(k + 0.5) * area_h / n + offset for k in range(n)])
    return out


def _section_height(rounds: list[dict[str, Any]], m: BracketMetrics, labels: bool) -> tuple[int, int]:
    """(whole height, matches area height) of a section."""
    densest = max((len(r["matches"]) for r in rounds), default=0)
    pitch = (m.label_h if labels else 0) + 2 * m.slot + m.gap_y
    area = densest * pitch if densest else EMPTY_H
    return SEC_TITLE_H + ROUND_TITLE_H + area + 6, area


def bracket_layout(data: dict[str, Any]) -> BracketLayout:
    data = _dict(data)
    sections = _sections(data)
    matches = [mt for sec in sections for rnd in sec["rounds"] for mt in rnd["matches"]]
    seeds = any(_int(s) is not None for mt in matches for s in _list(mt.get("seeds"))[:2])
    labels = any(_text(mt.get("label"), "Regular") for mt in matches)
    max_rounds = max((len(sec["rounds"]) for sec in sections), default=0)
    m = LEVELS[-1]
    for level in LEVELS:
        total = BR_TITLE_H + sum(_section_height(sec["rounds"], level, labels)[0] + SEC_GAP for sec in sections)
        if total + PAD <= BRACKET_TARGET_H:
            m = level
            break
    width = max(720, 2 * PAD + max_rounds * (m.box_w + m.gap_x) - m.gap_x)
    y = BR_TITLE_H
    sec_layouts: list[SectionLayout] = []
    boxes: list[tuple[tuple[MatchBox, ...], ...]] = []
    for s, sec in enumerate(sections):
        height, area = _section_height(sec["rounds"], m, labels)
        area_top = y + SEC_TITLE_H + ROUND_TITLE_H
        lh = m.label_h if labels else 0
        centres = _centres(sec["rounds"], area, (lh - m.gap_y) / 2)
        sec_boxes = []
        for r, row in enumerate(centres):
            x = PAD + r * (m.box_w + m.gap_x)
            sec_boxes.append(tuple(MatchBox(s, r, k, x, round(area_top + c - m.slot), m.slot, m.box_w)
                                   for k, c in enumerate(row)))
        boxes.append(tuple(sec_boxes))
        sec_layouts.append(SectionLayout(y, height, area_top, len(sec["rounds"])))
        y += height + SEC_GAP
    if not sections:
        y += EMPTY_H + SEC_GAP
    height = y - SEC_GAP + PAD
    return BracketLayout(m, width, height, seeds, labels, tuple(sec_layouts), tuple(boxes))


def _match_state(match: dict[str, Any]) -> tuple[list[str | None], list[int | None], tuple[str, str]]:
    """The players, seeds and the two slots' states: ``win``, ``lose``, ``open``, ``tbd`` or ``bye``."""
    players = [*_list(match.get("players")), None, None][:2]
    players = [p if isinstance(p, str) else None if p is None else str(p) for p in players]
    seeds = [_int(s) for s in [*_list(match.get("seeds")), None, None][:2]]
    winner = _int(match.get("winner"))
    bye = bool(match.get("bye"))
    present = [k for k in (0, 1) if players[k] is not None]
    if winner not in (0, 1) or players[winner] is None:
        winner = present[0] if bye and len(present) == 1 else None  # a bye's lone player goes through
    states: list[str] = []
    for k in (0, 1):
        if players[k] is None:
            states.append("bye" if bye else "tbd")
        elif winner is None:
            states.append("open")
        else:
            states.append("win" if k == winner else "lose")
    return players, seeds, (states[0], states[1])


@functools.lru_cache(maxsize=256)
def box_sprite(width: int, slot: int, seed_w: int, states: tuple[str, str]) -> Image.Image:
    """A match box: two slots with their fills and seed strips, a rounded outline and a divider, anti-aliased
    onto the page."""
    s = kit.SUPERSAMPLE
    w, h = width * s, 2 * slot * s
    img = Image.new("RGB", (w + s, h + s), BG)
    d = ImageDraw.Draw(img)
    radius = 6 * s
    d.rounded_rectangle((0, 0, w, h), radius=radius, fill=BORDER)
    inner = (s, s, w - s, h - s)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius - s, fill=255)
    fills = Image.new("RGB", img.size, BG)
    fd = ImageDraw.Draw(fills)
    for k, state in enumerate(states):
        fill, seed = SLOT_FILL[state]
        top, bottom = k * slot * s, (k + 1) * slot * s
        fd.rectangle((0, top, w, bottom), fill=fill)
        if seed_w:
            fd.rectangle((0, top, seed_w * s, bottom), fill=seed)
        if state == "win":
            fd.rectangle((0, top, 3 * s, bottom), fill=ACCENT)  # the winner's edge: a shape, not only a colour
    fd.rectangle((0, slot * s - s // 2, w, slot * s + s // 2), fill=BORDER)  # the divider
    img.paste(fills, (0, 0), mask)
    return img.reduce(s)


def _check_sprite(size: int) -> Image.Image:
    return kit.mark_sprite("check", size, WHITE, WIN, scale=0.4)


def draw_bracket(data: dict[str, Any], *, locale: str = "en") -> Image.Image:
    """The bracket as a palette ('P') image."""
    data = _dict(data)
    lay = bracket_layout(data)
    m = lay.metrics
    sections = _sections(data)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    d = ImageDraw.Draw(img)
    title = _text(data.get("title"), "Black") or label("tournament", locale)
    kit.paste_text(img, (PAD, PAD + 20), title, size=TITLE, fill=TEXT, bg=BG, weight="Black",
                      max_width=lay.width - 2 * PAD)
    if not sections:
        kit.paste_text(img, (lay.width / 2, BR_TITLE_H + EMPTY_H / 2), label("no_matches", locale), size=26,
                          fill=DIM, bg=BG, weight="Regular", align="center")
    for s, (sec, sl) in enumerate(zip(sections, lay.sections, strict=True)):
        d.rectangle((PAD, sl.top, lay.width - PAD, sl.top + SEC_TITLE_H - 6), fill=PANEL)
        kit.paste_text(img, (PAD + 14, sl.top + (SEC_TITLE_H - 6) / 2), _text(sec.get("title")), size=21,
                          fill=GOLD, bg=PANEL, max_width=lay.width - 2 * PAD - 28)
        for r, rnd in enumerate(sec["rounds"]):
            kit.paste_text(img, (lay.round_x(r), sl.top + SEC_TITLE_H + ROUND_TITLE_H / 2 - 2),
                              _text(rnd.get("title")), size=15, fill=DIM, bg=BG, max_width=m.box_w)
        if not any(rnd["matches"] for rnd in sec["rounds"]):
            kit.paste_text(img, (PAD + 14, sl.area_top + EMPTY_H / 2 - 10), label("no_matches", locale),
                              size=18, fill=DIM, bg=BG, weight="Regular")
            continue
        states = [[_match_state(mt) for mt in rnd["matches"]] for rnd in sec["rounds"]]
        _connectors(d, lay, s, states)
        for r, rnd in enumerate(sec["rounds"]):
            for k, match in enumerate(rnd["matches"]):
                _match(img, lay, lay.match(s, r, k), match, states[r][k], locale)
    return _finish(img)


def _connectors(d: ImageDraw.ImageDraw, lay: BracketLayout, s: int, states: list[list[Any]]) -> None:
    """Elbows from each match to the slot it feeds in the next round, where that round has half as many
    matches; the paths of decided matches drawn last, in the brighter colour."""
    m = lay.metrics
    paths: list[tuple[bool, list[tuple[float, float]]]] = []
    rounds = lay.boxes[s]
    for r in range(len(rounds) - 1):
        cur, nxt = rounds[r], rounds[r + 1]
        if not nxt or len(cur) != 2 * len(nxt):
            continue
        for k, box in enumerate(cur):
            parent = nxt[k // 2]
            y0 = box.top + box.slot
            y1 = parent.slot_cy(k % 2)
            x0, x1 = box.x + box.width, parent.x
            xm = x0 + m.gap_x // 2
            decided = "win" in states[r][k][2]
            paths.append((decided, [(x0, y0), (xm, y0), (xm, y1), (x1, y1)]))
    for decided in (False, True):
        for flag, pts in paths:
            if flag == decided:
                d.line(pts, fill=ADV if decided else LINE, width=2)


def _match(
    img: Image.Image, lay: BracketLayout, box: MatchBox, match: dict[str, Any], state: Any, locale: str
) -> None:
    m = lay.metrics
    players, seeds, states = state
    seed_w = m.seed_w if lay.seeds else 0
    img.paste(box_sprite(box.width, box.slot, seed_w, states), (box.x, box.top))
    if lay.labels:
        text = _text(match.get("label"), "Regular")
        if text:
            kit.paste_text(img, (box.x + 2, box.top - m.label_h / 2 - 1), text, size=m.label, fill=DIM, bg=BG,
                              weight="Regular", max_width=box.width)
    check = _check_sprite(box.slot)
    for k in (0, 1):
        st = states[k]
        fill, seed_fill = SLOT_FILL[st]
        cy = box.slot_cy(k)
        if seed_w and seeds[k] is not None:
            ink = WHITE if st == "win" else GREY if st in ("lose", "bye") else DIM
            kit.paste_text(img, (box.x + seed_w / 2 + 1, cy), str(seeds[k])[:4], size=m.size - 3, fill=ink,
                              bg=seed_fill, weight="Regular", align="center")
        x = box.x + seed_w + 10
        room = box.width - seed_w - 16
        if st == "win":
            img.paste(check, (box.x + box.width - check.width - 4, round(cy - check.height / 2)))
            room -= check.width
        if players[k] is None:
            text = label("bye", locale) if st == "bye" else DASH
            kit.paste_text(img, (x, cy), text, size=m.size, fill=GREY if st == "bye" else DIM, bg=fill,
                              weight="Regular", max_width=room)
            continue
        fallback = t("render.seat", locale, n=seeds[k]) if seeds[k] is not None else "?"
        weight = "Bold" if st in ("win", "open") else "Regular"
        name = _name(players[k], fallback, weight)
        ink = WHITE if st == "win" else GREY if st == "lose" else TEXT
        kit.paste_text(img, (x, cy), name, size=m.size, fill=ink, bg=fill, weight=weight, max_width=room)


def bracket_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the bracket (see the module's docstring for ``data``)."""
    return kit.encode_image(draw_bracket(data, locale=locale))
