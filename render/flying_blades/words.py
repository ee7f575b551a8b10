"""Night of the 27 Ninja's words: seat names, colours and cards in the player's language, the header's and the
panel's lines, and the plain-text board for a terminal or a code block."""

from __future__ import annotations

from collections import Counter
from typing import Any

from i18n import t
from render import kit as common
from render.flying_blades.layout import CARDS, COLOUR_CHAR, EMPTY, KEY, Layout, parse_cell

# ------------------------------------------------------------------------------------- text helpers


def seat_names(view: dict[str, Any], names: list[str] | None, locale: str) -> list[str]:
    """Drawable names by seat: the given names cleaned, else "Player N"."""
    out = []
    for seat in range(view["players"]):
        raw = names[seat] if names is not None and seat < len(names) else None
        out.append(common.display_name(raw, t("render.seat", locale, n=seat + 1)))
    return out


def colour_name(colour: str, locale: str) -> str:
    return t(f"colour.{colour}", locale)


def card_name(card: str, locale: str) -> str:
    """The rules' name for a card (``fb.card.*``, the words the commands use), else the renderer's own."""
    key = f"fb.card.{card}"
    name = t(key, locale)
    return name if name != key else t(f"{KEY}card.{card}", locale)


def card_list(cards: list[str], locale: str) -> str:
    """``Bomb · Shuriken ×2`` in the deck's order; ``none`` for an empty hand."""
    if not cards:
        return t("render.flying_blades.no_cards", locale)
    counts = Counter(cards)
    order = sorted(counts, key=lambda c: (CARDS.index(c) if c in CARDS else len(CARDS), c))
    parts = []
    for card in order:
        name = card_name(card, locale)
        parts.append(name if counts[card] == 1 else f"{name} \u00d7{counts[card]}")
    return " \u00b7 ".join(parts)


def title_text(view: dict[str, Any], locale: str) -> str:
    board = view.get("board_name") or ("temple" if len(view["board"][0]) > len(view["board"]) else "house")
    return t("render.flying_blades.title", locale) + " \u00b7 " + t(f"{KEY}board.{board}", locale)


def draft_status(ready: bool, locale: str) -> str:
    if ready:
        return t("render.flying_blades.status.ready", locale)
    return t("render.flying_blades.status.choosing", locale)


def status_line(view: dict[str, Any], names: list[str], locale: str) -> tuple[list[int], str]:
    """(seats whose discs lead the status line, the status text)."""
    phase, to_move, viewer = view["phase"], list(view.get("to_move") or []), view.get("viewer")
    if phase == "draft":
        total = view["players"]
        ready = sum(1 for d in view.get("drafted") or [] if d)
        return [], t("render.flying_blades.draft", locale, ready=ready, total=total)
    if phase == "over":
        outcome = view.get("outcome") or {}
        winners = list(outcome.get("winners") or [])
        if len(winners) == 1:
            return winners, t("render.flying_blades.winner", locale, name=names[winners[0]])
        if winners:
            return winners, t(
                "render.flying_blades.shared_win", locale, names=", ".join(names[s] for s in winners)
            )
        return [], t("render.flying_blades.game_over", locale)
    if viewer is not None and viewer in to_move:
        return [viewer], t("render.flying_blades.your_move", locale, name=names[viewer])
    if to_move:
        return to_move, t("render.flying_blades.to_move", locale, name=", ".join(names[s] for s in to_move))
    return [], t("render.flying_blades.game_over", locale)


def reason_text(view: dict[str, Any], locale: str) -> str:
    key = (view.get("outcome") or {}).get("reason")
    if not key:
        return ""
    text = t(key, locale)
    return "" if text == key else text  # an untranslated key is noise in a picture


def passes_text(view: dict[str, Any], locale: str) -> str:
    passes = view.get("passes") or 0
    return (
        t("render.flying_blades.passes", locale, count=passes) if passes and view["phase"] == "play" else ""
    )


# --------------------------------------------------------------------------------------- text board


def text_board(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> str:
    """A plain-text board: coordinates on all edges, one letter per ninja (r y b g k), ``.`` empty, ``#``
    warded; the last move's destination in ``[ ]``, its origin in ``( )``, a removed ninja's empty cell as
    ``x``; then the status, the seats and the viewer's hand."""
    board = view["board"]
    rows, cols = len(board), len(board[0])
    lay = Layout(cols, rows, 0, 0, 0, (0, 0), ())
    labels = seat_names(view, names, locale)
    colours = view["colours"]
    last = view.get("last_action") or {}
    src, dst = parse_cell(last.get("from"), lay), parse_cell(last.get("to"), lay)
    removed = {parse_cell(r, lay) for r in last.get("removed") or []}

    title = title_text(view, locale)
    out = [f"{title} \u00b7 {t('render.turn', locale, n=view.get('turn', 0))}"]
    _, status = status_line(view, labels, locale)
    out.append(status)
    if last and last.get("seat") is not None and 0 <= last["seat"] < len(colours):
        out.append(
            f"{t('render.flying_blades.last_move', locale)} {labels[last['seat']]}: {last.get('action', '')}"
        )
    extra = reason_text(view, locale) if view["phase"] == "over" else passes_text(view, locale)
    if view["phase"] == "draft":
        extra = t("render.flying_blades.draft_hint", locale)
    if extra:
        out.append(extra)
    out.append("")

    letters = "    " + "".join(f" {chr(ord('a') + x)} " for x in range(cols))
    out.append(letters)
    for y, line in enumerate(board):
        cells = []
        for x, ch in enumerate(line):
            if (x, y) == dst:
                cells.append(f"[{ch}]")
            elif (x, y) == src:
                cells.append(f"({ch})")
            elif ch == EMPTY and (x, y) in removed:
                cells.append(" x ")
            else:
                cells.append(f" {ch} ")
        out.append(f"{rows - y:>3} {''.join(cells)} {rows - y}")
    out.append(letters)
    if src is not None or dst is not None or removed - {None}:
        out.append(t("render.flying_blades.text_marks", locale))
    out.append("")

    ninjas = view.get("ninjas") or {}
    to_move = set(view.get("to_move") or [])
    hand_counts = view.get("hand_counts") or [0] * view["players"]
    prey = view.get("prey") or [[] for _ in colours]
    for seat, colour in enumerate(colours):
        marker = ">" if seat in to_move and view["phase"] == "play" else " "
        parts = [
            t("unit.ninja", locale, count=ninjas.get(colour, 0)),
            t("unit.card", locale, count=hand_counts[seat]),
        ]
        if view.get("neutral"):
            taken = (view.get("captured") or [0] * len(colours))[seat]
            parts.append(t("render.flying_blades.captured", locale, count=taken))
        else:
            hunted = ", ".join(colour_name(colours[p], locale) for p in prey[seat])
            parts.append(f"{t('render.flying_blades.hunts', locale)} {hunted}")
        if (view.get("resigned") or [False] * len(colours))[seat]:
            parts.append(t("render.flying_blades.status.resigned", locale))
        elif view["phase"] == "draft":
            ready = (view.get("drafted") or [False] * len(colours))[seat]
            parts.append(draft_status(ready, locale))
        you = f" {t('render.you', locale)}" if view.get("viewer") == seat else ""
        out.append(
            f"{marker} {COLOUR_CHAR.get(colour, '?')} = {colour_name(colour, locale)}: "
            f"{labels[seat]}{you} \u2014 {', '.join(parts)}"
        )
    neutral = view.get("neutral")
    if neutral:
        out.append(
            f"  {COLOUR_CHAR.get(neutral, '?')} = "
            f"{t('render.flying_blades.neutral', locale, colour=colour_name(neutral, locale))} \u2014 "
            f"{t('unit.ninja', locale, count=ninjas.get(neutral, 0))}"
        )
    viewer = view.get("viewer")
    if view.get("hands"):
        for seat, cards in enumerate(view["hands"]):
            out.append(f"{labels[seat]}: {card_list(cards, locale)}")
    elif viewer is not None and view.get("hand") is not None:
        out.append(f"{t('render.flying_blades.your_cards', locale)} {card_list(view['hand'], locale)}")
    return "\n".join(line.rstrip() for line in out)
