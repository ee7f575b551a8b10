"""Every message key the rules use exists in English and Polish, with the same placeholders."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from i18n import t
from rules.flying_blades.cards import CARD_IDS, TABLE

ROOT = Path(__file__).resolve().parents[2]
CODE = sorted((ROOT / "rules" / "flying_blades").glob("*.py"))
KEY = re.compile(r"""["'](fb\.[a-z_]+(?:\.[a-z_]+)*)["']""")
DYNAMIC = [f"fb.card.{c}" for c in CARD_IDS] + ["fb.board.house", "fb.board.temple"]


def catalog(locale: str) -> dict:
    return json.loads((ROOT / "data" / "i18n" / locale / "flying_blades.json").read_text(encoding="utf-8"))


def used_keys() -> set[str]:
    keys = {k for path in CODE for k in KEY.findall(path.read_text(encoding="utf-8"))}
    return keys | set(DYNAMIC)


def fields(text: str | dict) -> set[str]:
    texts = [text] if isinstance(text, str) else list(text.values())
    return {name for x in texts for _, name, _, _ in string.Formatter().parse(x) if name}


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_key_used_by_the_rules_is_in_the_catalog(locale: str) -> None:
    keys = used_keys()
    assert len(keys) > 40
    assert sorted(keys - set(catalog(locale))) == []


def test_the_catalogs_hold_the_same_fb_keys_with_the_same_placeholders() -> None:
    en, pl = catalog("en"), catalog("pl")
    assert set(en) == set(pl)
    assert all(k.startswith("fb.") for k in en)
    for key in en:
        assert fields(pl[key]) <= fields(en[key]) | {"count"}, key


def test_polish_plurals_have_every_form() -> None:
    for key, value in catalog("pl").items():
        if isinstance(value, dict):
            assert set(value) == {"one", "few", "many", "other"}, key
    assert t("fb.hand_count", "pl", count=5) == "5 kart"
    assert t("fb.hand_count", "pl", count=3) == "3 karty"
    assert t("fb.hand_count", "en", count=1) == "1 card"


def test_card_names_in_the_card_data_match_the_catalogs() -> None:
    for card in TABLE.cards:
        for locale in ("en", "pl"):
            assert card.names[locale] == catalog(locale)[f"fb.card.{card.id}"]
