"""Floating World's words (render/floating_world/words.py): counted words and articles through the catalogs.

Every event comes from the rules (a seeded game, or a map laid out by the rules' builder and then played).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from render.floating_world import words
from rules.floating_world.dice import Stat
from tests.rules import fw_helpers as h

NAMES = ["Ann", "Bo", "Cy"]
CATALOGS = sorted((Path(__file__).resolve().parent.parent / "data" / "i18n").glob("*/floating_world*.json"))


def event(wanted: str, where: Any = lambda _: True, players: int = 3) -> dict[str, Any]:
    """The data of the first event of kind ``wanted`` that ``where`` accepts in seeded games."""
    step = h.first_step(lambda st: any(e.kind == wanted and where(e.data) for e in st.events), players=players)
    return next(e.data for e in step.events if e.kind == wanted and where(e.data))


def nightmare_step(kind: str, where: Any = lambda _: True) -> dict[str, Any]:
    step = h.first_step(h.with_step(kind, where), players=3)
    return next(x for x in step.state.nightmare["steps"] if x["kind"] == kind and where(x))


@pytest.mark.parametrize(("demon", "en"), [("oni", "An Oni"), ("tengu", "A Tengu"), ("gaki", "A Gaki")])
def test_a_spawned_demon_takes_the_article_its_name_needs(demon: str, en: str) -> None:
    """Was "A Oni appears"."""
    step = nightmare_step("spawn", lambda x: x["type"] == demon)
    assert f"{en} appears on " in words.step_line(step, NAMES, "en")
    assert words.step_line(step, NAMES, "pl").endswith(f"{demon.capitalize()} pojawia się na {words.at(step['at'])}.")


def test_a_demon_with_no_land_to_appear_on_takes_its_article() -> None:
    step = nightmare_step("no_spawn", lambda x: x["reason"] == "no_land" and x["type"] == "oni")
    assert words.step_line(step, NAMES, "en") == "An Oni finds no Land to appear on."


def test_the_gates_gift_is_not_praise_from_0_villages() -> None:
    """Was "collects 1 Praise from 0 Village(s)": the Gate's gift comes with no Village."""
    data = event("turn", lambda d: d.get("villages") == 0 and d.get("gate"))
    line = words.event_line("turn", data, "Ann", NAMES, "en")
    assert line == f"Ann receives {data['gate']} Praise from the Gate's people."
    assert "Wios" not in (words.event_line("turn", data, "Ann", NAMES, "pl") or "")


@pytest.mark.parametrize(("count", "en", "pl"), [(1, "from 1 Village.", "z 1 Wioski."),
                                                 (2, "from 2 Villages.", "z 2 Wiosek.")])
def test_praise_from_villages_is_counted_in_each_languages_plural(count: int, en: str, pl: str) -> None:
    spots = [(1, 1), (-1, -1)][:count]
    s = h.world(players=1, villages=dict.fromkeys(spots, 0), kitsune={0: (1, 0)}, kit={0: {"praise": 0}})
    _, events = h.G.apply(s, 0, "end")
    data = next(e.data for e in events if e.kind == "turn")
    assert (data["villages"], data["gate"]) == (count, 0)
    assert words.event_line("turn", data, "Ann", NAMES, "en") == f"Ann collects {count} Praise {en}"
    assert words.event_line("turn", data, "Ann", NAMES, "pl") == f"Ann zbiera {count} Chwały {pl}"


@pytest.mark.parametrize(("upgrades", "en", "pl"), [((), "Ann heals 1 Wound.", "Ann leczy 1 Ranę."),
                                                    (("herb_garden",), "Ann heals 2 Wounds.", "Ann leczy 2 Rany.")])
def test_healed_wounds_are_counted_in_each_languages_plural(upgrades: tuple[str, ...], en: str, pl: str) -> None:
    """Was "heals 1 Wound(s)"."""
    s = h.world(players=1, villages={(1, 1): 0}, kitsune={0: (1, 1)},
                kit={0: {"body": Stat(3), "wounds": 2, "upgrades": upgrades}})
    _, events = h.G.apply(s, 0, "heal")
    data = next(e.data for e in events if e.kind == "heal")
    assert words.event_line("heal", data, "Ann", NAMES, "en") == en
    assert words.event_line("heal", data, "Ann", NAMES, "pl") == pl


def test_one_step_left_out_of_the_summary_is_one_more_step() -> None:
    night = next(st.state.nightmare for st in h.nightmares(200, players=3) if len(st.state.nightmare["steps"]) >= 3)
    lines = words.nightmare_lines(night, NAMES, "en", limit=10**6)
    steps = lines[1:]
    # a limit that fits every line but the last one
    limit = len(lines[0]) + sum(len(x) + 1 for x in steps[:-1]) + 1
    cut = words.nightmare_lines(night, NAMES, "en", limit=limit)
    assert cut[-1] == "• … and 1 more step (see the image)."
    assert words.nightmare_lines(night, NAMES, "pl", limit=limit)[-1] == "• … i jeszcze 1 krok (zob. obrazek)."


def test_a_timeout_in_polish_has_no_gender_slash() -> None:
    line = words.event_line("timeout", {}, "Ann", NAMES, "pl")
    assert line is not None and "/" not in line and "(" not in line


def _texts(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_floating_world_text_leaves_grammar_to_the_reader(path: Path) -> None:
    """The class of fault: "(s)" or "(ł/ła)" instead of the plural or gender forms, and "a {demon}" whose
    article depends on the word put in (plural forms come from the catalogs' one/few/many/other)."""
    bad = re.compile(r"\w\((s|es|y|a|e|ów|ł/ła|ła)\)|\(\w+/\w+\)|\b[Aa]n? \{")
    found = {key: text for key, value in json.loads(path.read_text(encoding="utf-8")).items()
             for text in _texts(value) if bad.search(text)}
    assert found == {}
