"""The one translation layer for every player-facing string (English and Polish).

Catalogs live in ``data/i18n/<locale>/*.json`` (one file per area, so games and cogs own their strings);
the files of a locale are merged into one flat ``key -> text`` table. A text is a ``str.format`` template, or
for counted things an object of CLDR plural forms (``one``/``few``/``many``/``other``) chosen by Babel's
plural rules from the ``count`` parameter, since Polish has three plural forms where English has two.
Parameters that are themselves `Msg`s are translated first (a colour name inside an error message).
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CATALOG_DIR = Path(__file__).resolve().parent.parent / "data" / "i18n"
DEFAULT_LOCALE = "en"
LOCALES = ("en", "pl")


@dataclass(frozen=True)
class Msg:
    """A translatable message: an i18n key plus parameters (which may themselves be `Msg`s)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        return t(self, "en")

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


@functools.cache
def catalog(locale: str) -> dict[str, str | dict[str, str]]:
    merged: dict[str, str | dict[str, str]] = {}
    for path in sorted((CATALOG_DIR / locale).glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if key in merged:
                raise ValueError(f"{path}: key {key!r} is defined twice for {locale}")
            merged[key] = text
    return merged


@functools.cache
def _plural_rule(locale: str) -> Any:
    from babel import Locale  # lazy: Babel is heavy, and the rules import this module for `Msg` alone

    return Locale.parse(locale).plural_form


def normalize_locale(locale: str | None) -> str:
    """Map a Discord locale (``pl``, ``en-US``, ``en-GB``…) or a user choice to a shipped locale."""
    if not locale:
        return DEFAULT_LOCALE
    base = str(locale).replace("_", "-").split("-")[0].lower()
    return base if base in LOCALES else DEFAULT_LOCALE


def _lookup(key: str, locale: str) -> str | dict[str, str] | None:
    text = catalog(locale).get(key)
    if text is None and locale != DEFAULT_LOCALE:
        log.warning("missing %s translation for %r", locale, key)
        text = catalog(DEFAULT_LOCALE).get(key)
    return text


def t(key: str | Msg, locale: str | None = DEFAULT_LOCALE, **params: Any) -> str:
    """Translate a key (or a `Msg`) into ``locale``; unknown keys come back as the key itself."""
    if isinstance(key, Msg):
        params = {**key.params, **params}
        key = key.key
    loc = normalize_locale(locale)
    text = _lookup(key, loc)
    if text is None:
        log.error("untranslated key %r", key)
        return key
    rendered = {k: t(v, loc) if isinstance(v, Msg) else v for k, v in params.items()}
    if isinstance(text, dict):
        count = rendered.get("count", 0)
        form = _plural_rule(loc)(abs(count) if isinstance(count, int | float) else 0)
        text = text.get(form) or text["other"]
    try:
        return text.format(**rendered)
    except (KeyError, IndexError):
        log.error("bad parameters for %r: %r", key, sorted(rendered))
        return text
