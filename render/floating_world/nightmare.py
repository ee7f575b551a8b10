"""Floating World's Nightmare image: one row per step with its dice and result (`nightmare_image`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from render import kit
from render.floating_world.map import _roll, _stat_text
from render.floating_world.model import (
    STATS,
    _coord,
    _dict,
    _int,
    _lands,
    _list,
    _str,
    coord_text,
    demon_type,
    label,
    land_name,
    seat_name,
)
from render.floating_world.palette import BG, CARD, DIM, GOLD, HELD, PAD, TEXT, WHITE, WOUND, new_image, paletted
from render.floating_world.sprites import p_dice_row, p_mark, p_stat_die, p_token
from render.kit import RGB
from render.kit.paletted import PCanvas
from rules.floating_world.content import LAND_BY_ID

# ---------------------------------------------------------------------------------------- nightmare

NM_WIDTH = 960
NM_HEADER = 72
NM_LINE = 40  # a step of one line
NM_ROLL = 92  # a step with rolls: its caption and a line of dice
NM_DIE = 38
NM_EMPTY = 120
NM_MAX_H = 1900


def _step_height(step: dict[str, Any]) -> int:
    kind = _str(step.get("kind"))
    if kind in ("attack_kitsune", "attack_land") or (kind == "spawn_dice" and _spawn_dice(step)):
        return NM_ROLL
    return NM_LINE


def _spawn_dice(step: dict[str, Any]) -> list[int]:
    return [_int(v, 0) or 0 for v in _list(step.get("dice"))]


def _land_label(step: dict[str, Any], view: dict[str, Any], locale: str, key: str) -> str:
    """The Land at the step's ``key`` ([x, y]) by its name in the view, with its coordinates."""
    c = _coord(step.get(key))
    if c is None:
        return "?"
    land = _lands(view).get(c)
    return f"{land_name(land, locale)} ({coord_text(c)})" if land is not None else coord_text(c)


def _step_demon(step: dict[str, Any]) -> str | None:
    return demon_type(step.get("type")) or demon_type(step.get("demon"))


@dataclass(frozen=True)
class StepWords:
    """What the Nightmare image says about one step: its token, its caption and, for an attack, the result
    badge (``wound``, ``held`` or ``destroyed``), the words on it and what the demon's roll is set against
    (the target's roll, or the Land's defence as a number)."""

    token: str
    caption: str
    result: str | None = None
    badge: str = ""
    against: dict[str, Any] | int | None = None


def _attack_result(step: dict[str, Any], kind: str) -> str:
    """The rules' own verdict (``wound`` / ``destroyed``), never a re-count of the dice; a step without it is
    judged by the rules' condition (strictly higher than the target's roll or the Land's defence)."""
    rolls = _dict(step.get("rolls"))
    if kind == "attack_land":
        hit = step.get("destroyed")
        if not isinstance(hit, bool):
            defence = _int(step.get("defence"))
            hit = defence is not None and (_int(_dict(rolls.get("demon")).get("total"), 0) or 0) > defence
        return "destroyed" if hit else "held"
    hit = step.get("wound")
    if not isinstance(hit, bool):
        a = _int(_dict(rolls.get("demon")).get("total"))
        b = _int(_dict(rolls.get("target")).get("total"))
        hit = a is not None and b is not None and a > b
    return "wound" if hit else "held"


def _lost_land_label(step: dict[str, Any], view: dict[str, Any], locale: str) -> str:
    """A destroyed Land is gone from the view: its name comes from its card (``land``) and the step's ``at``."""
    c = _coord(step.get("at"))
    card = LAND_BY_ID.get(_str(step.get("land")))
    if step.get("gate") is True:
        name = label("gate", locale)
    elif card is not None:
        name = land_name({"name": card.name}, locale)
    else:
        return _land_label(step, view, locale, "at")
    return f"{name} ({coord_text(c)})" if c is not None else name


def step_words(step: dict[str, Any], view: dict[str, Any], locale: str = "en",
               names: list[Any] | None = None) -> StepWords:
    """The words the Nightmare image draws for a step, read from the fields the rules emit (see
    `rules.floating_world.game.FloatingWorld.view`)."""
    step = _dict(step)
    kind = _str(step.get("kind"))
    demon = _step_demon(step)
    demon_word = label(demon, locale) if demon else "?"
    seat = _int(step.get("seat"))
    fox = f"fox{seat}" if seat is not None and seat >= 0 else ""
    if kind in ("attack_kitsune", "attack_land"):
        result = _attack_result(step, kind)
        if kind == "attack_kitsune":
            stat = _str(step.get("stat")).lower()
            target = seat_name(names, seat, locale) + (f" · {label(stat, locale)}" if stat in STATS else "")
            caption = label("attacks", locale, demon=demon_word, target=target)
            against: dict[str, Any] | int | None = _dict(_dict(step.get("rolls")).get("target"))
        else:
            caption = label("attacks_land", locale, demon=demon_word, land=_land_label(step, view, locale, "at"))
            against = _int(step.get("defence"))
        return StepWords(demon or "", caption, result, label(f"result.{result}", locale), against)
    if kind == "move":
        return StepWords(demon or "", label("moves", locale, demon=demon_word,
                                            src=coord_text(_coord(step.get("from"))),
                                            dst=_land_label(step, view, locale, "to")))
    if kind in ("destroyed", "cut_off"):
        key = "cut_off" if kind == "cut_off" else "destroyed_land"
        return StepWords("", label(key, locale, land=_lost_land_label(step, view, locale)))
    if kind == "kitsune_moved":
        return StepWords(fox, label("kitsune_moved", locale, name=seat_name(names, seat, locale),
                                    dst=_land_label(step, view, locale, "to")))
    if kind == "strength":
        text = kit.clean_text(_str(step.get("to")), limit=12) or "?"
        return StepWords("", label("strength", locale, text=text))
    if kind == "spawn":
        return StepWords(demon or "", label("spawn", locale, demon=demon_word,
                                            land=_land_label(step, view, locale, "at")))
    if kind == "no_spawn":
        return StepWords("", label("no_spawn", locale))
    if kind == "returned":
        return StepWords(demon or "", label("returned", locale, demon=demon_word))
    if kind == "death":
        return StepWords(fox, label("death", locale, name=seat_name(names, seat, locale)))
    if kind == "spawn_dice":
        return StepWords("", label("spawn_dice", locale))
    return StepWords("", kit.clean_text(kind.replace("_", " "), limit=40) or "?")


def _result_badge(cv: PCanvas, right: float, cy: float, result: str, locale: str, bg: RGB) -> None:
    colour = HELD if result == "held" else WOUND
    mark = "check" if result == "held" else "cross"
    text = label(f"result.{result}", locale)
    tw = kit.text_width(text, 18, "Black")
    w = tw + 52
    d = cv.d
    d.rounded_rectangle((right - w, cy - 17, right, cy + 17), radius=8, fill=colour)
    cv.sprite(p_mark(mark, 24, WHITE, colour), right - w + 10, cy)
    cv.text(right - 14, cy, text, size=18, fill=WHITE, bg=colour, weight="Black", align="right")


def _draw_step(cv: PCanvas, top: int, step: dict[str, Any], view: dict[str, Any], locale: str,
               names: list[Any] | None) -> None:
    kind = _str(step.get("kind"))
    words = step_words(step, view, locale, names)
    cy = top + NM_LINE / 2
    x = PAD
    if words.token:
        x += cv.sprite(p_token(words.token, 28, BG), x, cy) + 10
    elif kind in ("destroyed", "cut_off"):
        x += cv.sprite(p_mark("cross", 28, WOUND, BG), x, cy) + 10
    elif kind == "strength":
        x += cv.sprite(p_mark("star", 28, GOLD, BG), x, cy) + 10
    elif kind == "spawn_dice":
        x += cv.sprite(p_stat_die(28, BG), x, cy) + 10
    else:
        x += 38
    right = NM_WIDTH - PAD
    if words.result is not None:
        _result_badge(cv, right, cy, words.result, locale, BG)
        right -= 150
    cv.text(x, cy, words.caption, size=19, fill=TEXT, weight="Bold" if words.result else "Regular",
            max_width=right - x)
    if words.result is not None:
        _draw_contest(cv, top, _dict(_dict(step.get("rolls")).get("demon")), words, locale)
    elif kind == "spawn_dice":
        _draw_spawn_dice(cv, top, step, right, locale)


def _draw_contest(cv: PCanvas, top: int, demon: dict[str, Any], words: StepWords, locale: str) -> None:
    """The demon's dice against the target's roll or the Land's defence; the winner's total in gold."""
    ry = top + NM_LINE + (NM_ROLL - NM_LINE) / 2 - 4
    demon_won = words.result in ("wound", "destroyed")
    rx = _roll(cv, PAD + 38, ry, demon, NM_DIE, BG, fill=GOLD if demon_won else DIM)
    rx += cv.text(rx + 12, ry, label("vs", locale), size=18, fill=DIM, weight="Regular") + 26
    fill = DIM if demon_won else GOLD
    if isinstance(words.against, dict):
        _roll(cv, rx, ry, words.against, NM_DIE, BG, fill=fill)
    else:
        cv.text(rx, ry, "?" if words.against is None else str(words.against), size=24, fill=fill, weight="Black")


def _draw_spawn_dice(cv: PCanvas, top: int, step: dict[str, Any], right: float, locale: str) -> None:
    dice = _spawn_dice(step)
    if not dice:
        return
    sixes = all(v == 6 for v in dice)
    hi = {i: ("six" if sixes else "hi") for i, v in enumerate(dice) if sixes or v in (1, 2)}
    ry = top + NM_LINE + (NM_ROLL - NM_LINE) / 2 - 4
    row = p_dice_row(tuple(dice[:16]), NM_DIE + 6, BG, tuple(sorted(hi.items())))
    rx = PAD + 38 + cv.sprite(row, PAD + 38, ry) + 12
    spawns = sum(1 for v in dice if v in (1, 2))
    note = label("all_sixes", locale) if sixes else label("spawns", locale, count=spawns)
    cv.text(rx, ry, note, size=18, fill=GOLD if sixes or spawns else DIM, max_width=right - rx)


def draw_nightmare(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None) -> Image.Image:
    """The last Nightmare phase as a palette ('P') image."""
    view = _dict(view)
    nm = _dict(view.get("nightmare"))
    steps = [_dict(s) for s in _list(nm.get("steps"))]
    heights = []
    total = NM_HEADER + PAD
    shown = 0
    for i, step in enumerate(steps):
        h = _step_height(step)
        last = i == len(steps) - 1
        if total + h + (0 if last else NM_LINE) + PAD > NM_MAX_H:
            break
        heights.append(h)
        total += h
        shown += 1
    more = len(steps) - shown
    height = total + (NM_LINE if more else 0) + (NM_EMPTY if not steps else 0) + PAD
    img = new_image((NM_WIDTH, height), BG)
    cv = PCanvas(img, BG, paletted())
    turn = _int(nm.get("turn"), _int(view.get("turn"), 0))
    title = label("nightmare", locale, n=turn) if steps else label("phase.nightmare", locale)
    strength = _stat_text(view.get("demon_strength")) if view.get("demon_strength") else "+0"
    sw = cv.text(NM_WIDTH - PAD, NM_HEADER / 2, strength, size=28, fill=GOLD, weight="Black", align="right")
    dsw = cv.text(NM_WIDTH - PAD - sw - 10, NM_HEADER / 2, label("demon_strength", locale), size=16, fill=DIM,
                  weight="Regular", align="right")
    cv.text(PAD, NM_HEADER / 2, title, size=28, fill=TEXT, weight="Black", max_width=NM_WIDTH - 3 * PAD - sw - dsw)
    cv.d.rectangle((PAD, NM_HEADER - 2, NM_WIDTH - PAD, NM_HEADER - 1), fill=CARD)
    if not steps:
        cv.text(NM_WIDTH / 2, NM_HEADER + NM_EMPTY / 2, label("no_nightmare", locale), size=24, fill=DIM,
                weight="Regular", align="center")
        return img
    y = NM_HEADER + PAD // 2
    for step, h in zip(steps[:shown], heights, strict=True):
        _draw_step(cv, y, step, view, locale, names)
        y += h
        cv.d.line((PAD + 38, y - 2, NM_WIDTH - PAD, y - 2), fill=CARD, width=1)
    if more:
        cv.text(PAD + 38, y + NM_LINE / 2, label("more_steps", locale, count=more), size=18, fill=DIM,
                weight="Regular")
    return img


def nightmare_image(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None) -> bytes:
    """PNG bytes of the last Nightmare phase (see the module's docstring)."""
    return kit.encode_image(draw_nightmare(view, locale=locale, names=names))
