"""Floating Floors in words: one line per event (every balance check with its margin), "what if" verdicts, and
a text board for the terminal. All through the i18n catalogs (``ffui.*``); names are escaped by the caller."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import t
from rules.floating_floors.components import KIND_COLOUR, KIND_SHAPE, NINJA_BY_ID

NINJA_EMOJI = {"sun": "☀️", "moon": "🌙", "smoke": "💨", "night": "🌑"}
KIND_EMOJI = {"square": "■", "triangle": "▲", "hexagon": "⬢"}


def jutsu(kind: str, locale: str) -> str:
    """``bs`` → "black square" in words, with its shape sign."""
    if kind not in KIND_SHAPE:
        return kind
    return t("ffui.jutsu", locale, colour=t(f"ffui.colour.{KIND_COLOUR[kind]}", locale),
             shape=t(f"ffui.shape.{KIND_SHAPE[kind]}", locale), sign=KIND_EMOJI[KIND_SHAPE[kind]])


def jutsu_list(kinds: Sequence[str], locale: str) -> str:
    return ", ".join(jutsu(k, locale) for k in kinds) or "—"


def ninja(ninja_id: str, locale: str) -> str:
    n = NINJA_BY_ID.get(ninja_id)
    return f"{NINJA_EMOJI.get(ninja_id, '')} {n.display(locale)}".strip() if n else ninja_id


def margin_text(margin: float | None, locale: str) -> str:
    return "—" if margin is None else f"{margin:+.2f}"


def band_text(band: str | None, locale: str) -> str:
    """``tension=bands``: the band's word ("safe", "shaky", "off balance") in place of a margin."""
    return t(f"ffui.band.{band}", locale) if band in ("safe", "shaky", "falls") else "—"


def event_line(kind: str, data: dict[str, Any], who: str, locale: str) -> str | None:
    if kind == "roll":
        line = t("ffui.ev.roll", locale, name=who, dice=jutsu_list(data.get("roll", []), locale))
        return line + (" " + t("ffui.ev.dropped", locale, count=data["dropped"]) if data.get("dropped") else "")
    if kind == "take":
        where = t(f"ffui.from.{data.get('source') or 'pool'}", locale, space=data.get("space") or "")
        return t("ffui.ev.take", locale, name=who, jutsu=jutsu(data.get("kind", ""), locale), where=where)
    if kind == "place":
        return t(f"ffui.ev.place_{data.get('level', 'ground')}", locale, name=who,
                 jutsu=jutsu(data.get("kind", ""), locale), space=data.get("space", ""))
    if kind == "board":
        return t("ffui.ev.board", locale, name=who, board=data.get("board", ""), card=data.get("card", 0) + 1,
                 side=t(f"ffui.side.{'back' if data.get('back') else 'front'}", locale),
                 turns=90 * int(data.get("turns", 0)))
    if kind == "move":
        return t("ffui.ev.move", locale, name=who, to=data.get("to", ""))
    if kind == "nudge":
        return t(f"ffui.ev.nudge_{data.get('what', 'jutsu')}", locale, name=who, space=data.get("space", ""),
                 offset=data.get("offset", ""), player=int(data.get("who", 0)) + 1)
    if kind == "rotate":
        return t("ffui.ev.rotate", locale, name=who, card=data.get("card", 0) + 1,
                 way=t(f"ffui.way.{'cw' if data.get('quarter', 1) > 0 else 'ccw'}", locale))
    if kind == "check":
        return _check_line(data, locale)
    if kind == "claim":
        return t("ffui.ev.claim", locale, name=who, bansen=data.get("bansen", ""), done=data.get("done", 0),
                 needed=data.get("needed", 0))
    if kind == "collapse":
        return t("ffui.ev.collapse", locale, card=data.get("card", 0) + 1, count=len(data.get("jutsu", [])))
    if kind == "stand":
        return t("ffui.ev.stand", locale, name=who, player=data.get("player", 0) + 1, space=data.get("space", ""))
    if kind == "reset":
        key = "ffui.ev.reset" if data.get("standing") else "ffui.ev.reset_flat"
        key = "ffui.ev.reset_manual" if data.get("manual") and data.get("standing") else key
        if "band" in data and data.get("standing"):
            return t(f"{key}_band", locale, name=who, card=data.get("card", 0) + 1,
                     band=band_text(data["band"], locale))
        return t(key, locale, name=who, card=data.get("card", 0) + 1, margin=margin_text(data.get("margin"), locale))
    if kind == "end":
        return t("ffui.ev.end", locale, name=who, kept=jutsu_list(data.get("kept", []), locale))
    if kind == "chakra":
        return t("ffui.ev.chakra", locale, name=who, space=data.get("space", ""))
    if kind == "hide":
        return t("ffui.ev.hide", locale, name=who, space=data.get("space", ""))
    if kind == "win":
        return t("ffui.ev.win", locale, name=who)
    if kind == "skip":
        return t("ffui.ev.skip", locale, name=who)
    if kind == "timeout":
        return t("ffui.ev.timeout", locale, name=who)
    if kind == "resign":
        return t("ffui.ev.resign", locale, name=who)
    return None


def _check_line(data: dict[str, Any], locale: str) -> str:
    if "band" in data:  # tension=bands: never the margin
        key = "ffui.ev.check_band" if data.get("stable") else "ffui.ev.check_fell_band"
        return t(key, locale, card=data.get("card", 0) + 1, band=band_text(data["band"], locale))
    margin = margin_text(data.get("margin"), locale)
    if not data.get("stable"):
        return t("ffui.ev.check_fell", locale, card=data.get("card", 0) + 1, margin=margin)
    line = t("ffui.ev.check", locale, card=data.get("card", 0) + 1, margin=margin)
    if data.get("chance"):
        line += " " + t("ffui.ev.shaky", locale, percent=round(100 * data["chance"]))
    return line


def action_lines(events: Sequence[Any], names: Sequence[str], locale: str) -> list[str]:
    out = []
    for e in events:
        who = names[e.seat] if e.seat is not None and 0 <= e.seat < len(names) else ""
        line = event_line(e.kind, e.data, who, locale)
        if line:
            out.append(line)
    return out


def preview_text(result: dict[str, Any], locale: str) -> str:
    """The "what if" verdict: would it stand, and the margin each touched board would have."""
    lines = [t("ffui.whatif.title", locale, action=result["action"])]
    for c in result["checks"]:
        margin = margin_text(c["margin"], locale)
        if "band" in c:  # tension=bands: the band alone
            band = "falls" if not c["stable"] else c["band"]
            lines.append(t(f"ffui.whatif.band_{band}", locale, card=c["card"] + 1))
        elif not c["stable"]:
            lines.append(t("ffui.whatif.falls", locale, card=c["card"] + 1, margin=margin))
        elif c["chance"]:
            lines.append(t("ffui.whatif.shaky", locale, card=c["card"] + 1, margin=margin,
                           percent=round(100 * c["chance"])))
        else:
            lines.append(t("ffui.whatif.stands", locale, card=c["card"] + 1, margin=margin))
    if not result["checks"]:
        lines.append(t("ffui.whatif.no_board", locale))
    if result["claim"]:
        lines.append(t("ffui.whatif.claim", locale, bansen=result["claim"]))
    if result["win"]:
        lines.append(t("ffui.whatif.win", locale))
    return "\n".join(lines)


def option_description(result: dict[str, Any], locale: str) -> str:
    """A select option's one-line preview."""
    falls = next((c for c in result["checks"] if not c["stable"]), None)
    if result["checks"] and "band" in result["checks"][0]:  # tension=bands: the worst band alone
        bands = {"falls" if not c["stable"] else c["band"] for c in result["checks"]}
        return t(f"ffui.opt.band_{next(b for b in ('falls', 'shaky', 'safe') if b in bands)}", locale)
    if falls is not None:
        return t("ffui.opt.falls", locale, margin=margin_text(falls["margin"], locale))
    if result["checks"]:
        worst = min(result["checks"], key=lambda c: c["margin"] if c["margin"] is not None else 0)
        key = "ffui.opt.shaky" if worst["chance"] else "ffui.opt.stands"
        return t(key, locale, margin=margin_text(worst["margin"], locale), percent=round(100 * worst["chance"]))
    return t("ffui.opt.safe", locale)


def player_line(n: dict[str, Any], hand: Sequence[str], name: str, locale: str) -> str:
    where = n["space"] and "abcdefghi"[n["space"][0]] + str(n["space"][1] + 1)
    place = where or (t("ffui.in_alcove", locale) if n.get("alcove") is not None
                      else t("ffui.no_chakra_yet", locale) if n.get("placed") is False else t("ffui.fallen", locale))
    return t("ffui.player", locale, ninja=ninja(n["ninja"], locale), name=name, place=place,
             done=len(n["claimed"]) + len(n.get("used", [])), needed=n["needed"], hand=jutsu_list(hand, locale))


def text_board(view: dict[str, Any], *, names: Sequence[str] | None = None, locale: str = "en") -> str:
    """The map as text for the terminal: ``~`` water, ``.`` land, ``L``/``S`` board spaces, ``j`` Jutsu on the
    ground, ninjas by number; a legend under the map says so."""
    cols, rows = view["size"]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    for card in view["cards"]:
        for c, r in card["water"]:
            grid[r][c] = "~"
    for b in view["boards"]:
        for c, r in b["light"]:
            grid[r][c] = "L"
        for c, r in b["shadow"]:
            grid[r][c] = "S"
    for p in view["jutsu"]:
        c, r = p["space"]
        if grid[r][c] in (".", "~"):
            grid[r][c] = "j"
    for n in view["ninjas"]:
        if n["space"]:
            grid[n["space"][1]][n["space"][0]] = str(n["seat"] + 1)
    lines = ["   " + " ".join("abcdefghi"[:cols])]
    lines += [f"{r + 1:>2} " + " ".join(row) for r, row in enumerate(grid)]
    lines.append(t("ffui.text.legend", locale, last=view["players"]))  # what each mark above stands for
    for b in view["boards"]:
        if "band" in b:  # tension=bands
            lines.append(t("ffui.text.board_band", locale, card=b["card"] + 1, board=b["board"],
                           band=band_text(b["band"], locale), load=b["load"]))
            continue
        lines.append(t("ffui.text.board", locale, card=b["card"] + 1, board=b["board"],
                       margin=margin_text(b["margin"], locale), load=b["load"]))
    labels = names or [f"Player {i + 1}" for i in range(view["players"])]
    for n in view["ninjas"]:
        lines.append(player_line(n, view["hands"][n["seat"]], labels[n["seat"]], locale))
    if view["roll"]:
        lines.append(t("ffui.text.roll", locale, dice=jutsu_list(view["roll"], locale),
                       left=jutsu_list(view["to_take"], locale)))
    return "\n".join(lines)
