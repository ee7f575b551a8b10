"""The kit's readers: fixed words with built-in defaults, whole numbers read defensively from a view."""

from __future__ import annotations

import math
from typing import Any

import i18n


def fixed_word(prefix: str, defaults: dict[str, dict[str, str]], key: str, locale: str, **params: Any) -> str:
    """A renderer's fixed word: the catalogs' ``<prefix><key>`` if they have it, else the renderer's built-in
    default for the locale (English when the locale has none), formatted with ``params``."""
    loc = i18n.normalize_locale(locale)
    full = prefix + key
    if full in i18n.catalog(loc) or full in i18n.catalog(i18n.DEFAULT_LOCALE):
        return i18n.t(full, loc, **params)
    text = defaults.get(loc, defaults["en"]).get(key) or defaults["en"][key]
    return text.format(**params)


def read_int(value: Any, default: Any = None) -> Any:
    """A whole number read defensively from a view: ``default`` for a bool, a non-finite float, text that is no
    number, or anything past a billion (a malformed view is drawn as absent, never a crash or a huge loop)."""
    if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
        return default
    try:
        out = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return out if abs(out) < 10**9 else default
