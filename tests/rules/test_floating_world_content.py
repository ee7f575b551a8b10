"""The data files (fan-made Lands and Dreams) and the i18n catalogs are well formed."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from rules.floating_world import content

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(r"""["'](fw\.[a-z_]+(?:\.[a-z_]+)*)["']""")


def test_dream_cards_are_valid_and_stable() -> None:
    doc = json.loads((content.DATA / "dreams.json").read_text(encoding="utf-8"))
    assert "fan-made" in doc["note"].lower()
    assert 25 <= len(content.DREAMS) <= 40
    assert len(content.DREAM_IDS) == len(set(content.DREAM_IDS))
    for d in content.DREAMS:
        assert re.match(r"^[a-z][a-z0-9_]+$", d.id)
        assert 2 <= d.cost <= 6
        assert d.kind in content.VOCABULARY and content.VOCABULARY[d.kind][0] == d.type
        assert d.name["en"] and d.name["pl"]
    assert {d.type for d in content.DREAMS} == {"item", "upgrade", "legend"}


def test_lands_have_names_and_a_gate() -> None:
    assert 20 <= len(content.LAND_IDS) <= 30
    assert content.GATE_CARD in content.LAND_BY_ID
    assert all(c.name["en"] and c.name["pl"] for c in content.LANDS)


@pytest.mark.parametrize("bad", [
    {"kind": "fly"}, {"kind": "stat_bonus", "stat": "luck", "pips": 1}, {"kind": "stat_bonus", "stat": "body"},
    {"kind": "village_praise", "amount": 1},  # an upgrade effect on an item
])
def test_effects_outside_the_vocabulary_are_refused(bad: dict) -> None:
    doc = {"note": "fan-made", "dreams": [{"id": "x1", "name": {"en": "X", "pl": "X"}, "type": "item",
                                           "cost": 3, "effect": bad}]}
    with pytest.raises(content.ContentError):
        content.parse_dreams(doc)


def test_costs_and_duplicates_are_refused() -> None:
    card = {"id": "x1", "name": {"en": "X", "pl": "X"}, "type": "item", "cost": 7, "effect": {"kind": "reroll"}}
    with pytest.raises(content.ContentError):
        content.parse_dreams({"note": "fan-made", "dreams": [card]})
    card["cost"] = 3
    with pytest.raises(content.ContentError):
        content.parse_dreams({"note": "fan-made", "dreams": [card, card]})


def catalog(locale: str) -> dict:
    return json.loads((ROOT / "data" / "i18n" / locale / "floating_world.json").read_text(encoding="utf-8"))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_message_key_is_translated(locale: str) -> None:
    code = sorted((ROOT / "rules" / "floating_world").glob("*.py"))
    used = {k for p in code for k in KEY.findall(p.read_text(encoding="utf-8"))}
    dynamic = {f"fw.demon.{t}" for t in ("oni", "tengu", "gaki")} | {
        f"fw.act.{a}" for a in ("land", "village", "takeover", "attack_demon", "attack_kitsune", "harvest", "heal",
                                "seal", "boost", "buy", "haunt")} | {
        f"fw.options.{o}" for o in ("spawn_divisor", "land_defence", "extra_wounds")}
    assert len(used) > 40
    assert sorted((used | dynamic) - set(catalog(locale))) == []


def test_polish_has_the_same_keys_and_placeholders() -> None:
    en, pl = catalog("en"), catalog("pl")
    assert set(en) == set(pl)
    for key in en:
        assert fields(en[key]) == fields(pl[key]), key


def test_errors_say_what_is_missing() -> None:
    from rules.base import Msg

    assert str(Msg("fw.err.praise", action=Msg("fw.act.village"), need=3, have=2)) == \
        "Creating a Village needs 3 Praise; you have 2."
