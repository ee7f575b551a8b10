"""Every content file under data/ loads and validates; every translation key used in code exists in both locales."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from babel import Locale

import i18n
from rules.base import Msg

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
CODE_DIRS = ("rules", "render", "cogs", "storage", "engine", "league", "i18n", "terminal")
CODE_FILES = ("bot.py", "cli.py", "hints.py")
# A key literal passed to Msg(...), an error class, t(...) or marked `i18n:` in a comment.
KEY_USE = re.compile(r"""(?:Msg|Error|\bt|_t|tr)\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def texts(value: str | dict[str, str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())


def code_files() -> list[Path]:
    files = [ROOT / f for f in CODE_FILES if (ROOT / f).exists()]
    for d in CODE_DIRS:
        files += sorted((ROOT / d).rglob("*.py"))
    return files


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.json")), ids=lambda p: str(p.relative_to(DATA)))
def test_every_json_file_under_data_loads(path: Path) -> None:
    assert json.loads(path.read_text(encoding="utf-8")) is not None


def test_english_and_polish_catalogs_have_the_same_keys() -> None:
    en, pl = i18n.catalog("en"), i18n.catalog("pl")
    assert sorted(set(en) - set(pl)) == [], "missing in Polish"
    assert sorted(set(pl) - set(en)) == [], "missing in English"


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_text_uses_the_same_placeholders_as_english(locale: str) -> None:
    en = i18n.catalog("en")
    for key, value in i18n.catalog(locale).items():
        expected = set().union(*(placeholders(x) for x in texts(en[key])))
        for text in texts(value):
            assert placeholders(text) <= expected | {"count"}, (locale, key)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_plural_texts_cover_the_locales_plural_forms(locale: str) -> None:
    forms = set(Locale.parse(locale).plural_form.tags) | {"other"}
    for key, value in i18n.catalog(locale).items():
        if isinstance(value, dict):
            assert forms <= set(value), (locale, key, sorted(forms - set(value)))


def test_every_key_used_in_code_is_translated() -> None:
    en = i18n.catalog("en")
    missing = {}
    for path in code_files():
        for key in KEY_USE.findall(path.read_text(encoding="utf-8")):
            if key not in en:
                missing.setdefault(key, str(path.relative_to(ROOT)))
    assert missing == {}


def test_polish_plurals_follow_polish_grammar() -> None:
    assert i18n.t("unit.card", "pl", count=1) == "1 karta"
    assert i18n.t("unit.card", "pl", count=3) == "3 karty"
    assert i18n.t("unit.card", "pl", count=5) == "5 kart"
    assert i18n.t("unit.card", "pl", count=22) == "22 karty"
    assert i18n.t("unit.card", "en", count=1) == "1 card"


def test_nested_messages_are_translated_in_the_callers_locale() -> None:
    msg = Msg("engine.unknown_game", game=Msg("colour.red"), games="x")
    assert "czerwony" in i18n.t(msg, "pl")
    assert "red" in str(msg)


def test_discord_locales_map_to_shipped_ones() -> None:
    assert i18n.normalize_locale("pl") == "pl"
    assert i18n.normalize_locale("en-US") == "en"
    assert i18n.normalize_locale("de") == "en"
    assert i18n.normalize_locale(None) == "en"


# "game(s)", "miejsc(a)", "poddał(a)": the reader is left to pick the form. Counts take the catalogs' plural
# forms (one/few/many/other), and Polish texts about a player are worded so that no gender form is needed.
LEFT_TO_THE_READER = re.compile(r"\w\((s|es|y|a|e|ów|ł/ła|ła)\)|\(\w+/\w+\)")


@pytest.mark.parametrize("path", sorted((DATA / "i18n").rglob("*.json")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_catalog_text_leaves_a_plural_or_gender_form_to_the_reader(path: Path) -> None:
    found = {key: text for key, value in json.loads(path.read_text(encoding="utf-8")).items()
             for text in texts(value) if LEFT_TO_THE_READER.search(text)}
    assert found == {}


@pytest.mark.parametrize(("count", "en", "pl"), [(1, "1 day per move", "1 dzień na ruch"),
                                                 (3, "3 days per move", "3 dni na ruch")])
def test_a_clock_of_days_is_counted_in_each_languages_plural(count: int, en: str, pl: str) -> None:
    assert (i18n.t("tc.days", "en", count=count), i18n.t("tc.days", "pl", count=count)) == (en, pl)
