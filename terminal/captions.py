"""What the terminal says about each move, game by game (never a hidden choice, never raw internals)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import ActResult, Table
from i18n import t
from i18n.text import seat_names
from render.floating_floors import words as ff
from render.floating_world import words as fw
from render.floor_plan import action_words, room_name
from render.flying_blades import card_name
from rules.base import Event
from rules.floor_plan.sheet import FEATURE_KINDS, ROOM_TYPES
from rules.flying_blades.cards import PRICES


@dataclass(frozen=True)
class Hidden:
    """A hidden choice, said without its content; consecutive ones of a kind are said in one line."""

    key: str  # takes {names}
    name: str


Line = str | Hidden


def fb_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    name = seat_names(table.seats)[result.seat]
    verb = result.action.split()[0]
    lines: list[Line] = []
    for e in result.events:
        d = e.data
        if e.kind == "drafted":
            if table.options.get("cards", "hidden") == "hidden":
                lines.append(Hidden("cli.fb.chose", name))
            else:
                cards = result.action.split()[1].split(",") if verb == "keep" else []
                kept = ", ".join(f"{card_name(c, lang)} ({PRICES[c]})" for c in cards if c in PRICES)
                lines.append(t("cli.fb.kept", lang, name=name, cards=kept or t("cli.fb.no_cards", lang)))
        elif e.kind in ("attack", "card"):
            cells = " → ".join(c for c in (d.get("from"), d.get("to")) if c)
            if e.kind == "attack":  # the prey on the target cell is the one eliminated
                lines.append(t("cli.fb.attack", lang, name=name, cells=cells))
                continue
            line = t("cli.fb.card", lang, name=name, cells=cells, card=card_name(d["card"], lang))
            if d.get("removed"):
                line += " " + t("cli.fb.removed", lang, count=len(d["removed"]), cells=", ".join(d["removed"]))
            lines.append(line)
        elif e.kind in ("pass", "resign"):
            lines.append(t(f"cli.{e.kind}", lang, name=name))
        elif e.kind == "timeout":  # a missed turn, never said as a pass
            lines.append(t("cli.fb.timed_out_draft" if "kept" in d else "cli.timeout", lang, name=name))
        elif e.kind == "draft_done":
            lines.append(t("cli.fb.draft_done", lang, name=table.seats[d["first"]].name))
    return lines


def feature_name(kind: str, lang: str) -> str:
    return t(f"fp.sheet.feature.{kind}", lang)


def fp_words(action: str, lang: str) -> str:
    # A round's text may end in the engine's "timeout" (logged alone, after the claims sent that round).
    return "; ".join(t("cli.fp.timed_out", lang) if part == "timeout" else action_words(part, lang)
                     for part in action.split("; "))


def fp_caption(table: Table, result: ActResult, lang: str, hidden: dict[int, str]) -> list[Line]:
    """A seat's drawing stays private until its round closes; then every drawing of the round is shown."""
    name = seat_names(table.seats)[result.seat]
    lines: list[Line] = []
    for e in result.events:
        if e.kind in ("acted", "claims"):
            hidden[result.seat] = " · ".join(x for x in (hidden.get(result.seat), fp_words(
                result.action, lang)) if x)
            lines.append(Hidden("cli.fp.acted", name))
        elif e.kind == "timeout":
            hidden[result.seat] = " · ".join(x for x in (hidden.get(result.seat), t("cli.fp.timed_out", lang)) if x)
            lines.append(t("cli.timeout", lang, name=name))
        elif e.kind == "resign":
            lines.append(t("cli.resign", lang, name=name))
        elif e.kind == "round_closed":
            lines.append(t("cli.fp.round_closed", lang, round=e.data["round"]))
            lines += [f"  {seat_names(table.seats)[seat]}: {text}" for seat, text in sorted(hidden.items())]
            hidden.clear()
        elif e.kind == "round":
            lines.append(t("cli.fp.round", lang, round=e.data["round"], roll=fp_roll_text(e.data["roll"], lang)))
        elif e.kind == "ending":
            lines.append(t("cli.fp.ending", lang))
    return lines


def tf_side(table: Table, side: int) -> str:
    state = table.state
    seats = [i for i in range(len(table.seats)) if state.seat_side[i] == side]
    return ", ".join(seat_names(table.seats)[i] for i in seats) or "?"


def tf_cat(table: Table, cid: str) -> str:
    return f"«{table.rules.category_name(table.state, cid)}»"


def tf_event(table: Table, result: ActResult, e: Event, lang: str) -> Line:
    d, k, name = e.data, e.kind, seat_names(table.seats)[result.seat]
    side = (lambda x: tf_side(table, x))  # noqa: E731 - a short alias keeps the table below readable
    if k in ("picked", "vote"):  # a draft pick and a judge's vote are secret
        return Hidden(f"cli.tf.{k}", name)
    simple = {"ready": ("cli.tf.ready", {"side": side(e.seat)}),
              "pass": ("cli.tf.pass", {"name": name, "letter": d.get("letter", "?")}),
              "absent": ("cli.tf.absent", {"side": side(e.seat)}),
              "eliminated": ("cli.tf.eliminated", {"side": side(e.seat)}),
              "resign": ("cli.resign", {"name": name})}
    if k in simple:
        key, params = simple[k]
        return t(key, lang, **params)
    if k == "draft_done":
        return t("cli.tf.draft_done", lang, side=side(d["first"]))
    if k == "challenge":
        return t("cli.tf.challenge", lang, name=name, defender=side(d["defender"]), frm=d["from"], to=d["to"],
                 category=tf_cat(table, d["category"]))
    if k == "duel_start":
        return t("cli.tf.duel_start", lang, side=side(e.seat), letter=d["letter"])
    if k == "answer":
        return t("cli.tf.answer", lang, name=name, answer=d["answer"], letter=d["letter"])
    if k == "judging":
        return t("cli.tf.judging", lang, name=name, answer=d["answer"])
    if k == "judged":
        return t("cli.tf.judged_yes" if d["accepted"] else "cli.tf.judged_no", lang, side=side(e.seat))
    if k == "dispute":
        return t("cli.tf.dispute", lang, side=side(e.seat), answer=d["answer"])
    if k == "duel_over":
        timed_out = 0 in d.get("clocks_ms", [])  # the loser's clock ran out (an answer came too late)
        return t("cli.tf.duel_over_time" if timed_out else "cli.tf.duel_over", lang, winner=side(e.seat),
                 loser=side(d["loser"]), category=tf_cat(table, d["category"]))
    if k == "take":
        return t("cli.tf.take", lang, side=side(e.seat), loser=side(d["loser"]), count=len(d["cells"]),
                 cells=", ".join(d["cells"]))
    if k == "keep":
        return t("cli.tf.keep", lang, side=side(e.seat), category=tf_cat(table, d["category"]))
    if k == "final":
        if e.seat is not None:  # a round winner's card for the Final stays face down
            return t("cli.tf.final_card", lang, side=side(e.seat))
        return t("cli.tf.final", lang, ladder=" → ".join(side(x) for x in reversed(d["ranking"])))
    if k == "round_over":
        return t("cli.tf.round_over", lang, round=d["round"], side=side(e.seat))
    if k == "round_start":
        return t("cli.tf.round_start", lang, round=d["round"])
    if k == "final_pick":
        return t("cli.tf.final_pick", lang, side=side(e.seat), category=tf_cat(table, d["category"]))
    if k == "final_duel":
        return t("cli.tf.final_duel", lang, holder=side(e.seat), defender=side(d["defender"]),
                 category=tf_cat(table, d["category"]))
    return ""


def tf_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    return [x for x in (tf_event(table, result, e, lang) for e in result.events) if x]


def fw_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    """Floating World: each action in words with its dice, and a Nightmare's summary, step by step."""
    names = seat_names(table.seats)
    lines: list[Line] = list(fw.action_lines(result.events, result.seat, names, lang))
    for e in result.events:
        if e.kind == "nightmare":
            summary = fw.nightmare_lines(e.data, names, lang, limit=1 << 20)
            lines += [line.replace("**", "") for line in summary]
            lines += fw_decision_lines(e.data.get("pending"), names, lang)
    lines += fw.turn_lines(result.events, names, lang)
    return lines or [t("cli.moved", lang, name=seat_names(table.seats)[result.seat], action=result.action)]


def fw_decision_lines(pending: dict[str, Any] | None, names: list[str], lang: str) -> list[Line]:
    """The Nightmare's paused decision (issue 23): who decides what, and every choice to type."""
    if not pending:
        return []
    what = t(f"fwui.decide.{pending['decision']}", lang, name=names[pending.get("fleeing", 0)],
             demon=fw.demon(pending.get("type", "oni"), lang))
    return [t("fwui.turn_decide", lang, who=names[pending["seat"]], what=what),
            t("fwui.decide.choices", lang, choices=", ".join(pending["choices"]))]


def ff_caption(table: Table, result: ActResult, lang: str) -> list[Line]:
    """Floating Floors: each event in words, every balance check with its margin."""
    lines: list[Line] = list(ff.action_lines(result.events, seat_names(table.seats), lang))
    return lines or [t("cli.moved", lang, name=seat_names(table.seats)[result.seat], action=result.action)]



def fp_roll_text(roll: list[int] | tuple[int, ...] | None, lang: str) -> str:
    """Each die with what it allows: ``3 (Bedroom, or 3 × window)``."""
    if not roll:
        return "—"
    return ", ".join(t("cli.fp.die", lang, die=d, room=room_name(ROOM_TYPES[d - 1], lang), count=d,
                       kind=feature_name(FEATURE_KINDS[d - 1], lang)) for d in roll)



QUIET = {  # moves after which the bot posts no new image (nothing on the board changed)
    "flying_blades": {"drafted", "resign", "timeout"},
    "the_floor": {"picked", "ready", "duel_start", "answer", "judging", "judged", "pass", "dispute", "vote", "absent",
                  "duel_over", "turn"},
}


def quiet(result: ActResult) -> bool:
    kinds = {e.kind for e in result.events}
    return bool(kinds) and kinds <= QUIET.get(result.table.game, set())
