"""The Floor's server content: a server's own categories and the answers it added to categories' lists.

A server adds categories of its own (the rulebook's blank cards: ``/floor category add``) and answers to any
category's list (``/floor answers add``, or `learn_answer` when the players judged an answer valid in a duel).
Both live in storage per server and per content language. `server_content` gathers them into the dict the game
takes as its ``content`` option when a lobby opens::

    {"categories": [{"id": "server_12", "name": ..., "flags": [...], "answers": [...]}, ...],
     "answers": {"countries": ["Tuvalu"], "server_12": [...]}}

A server category's id is ``server_<row id>``; ``answers`` maps a category id (built-in or a server one) to the
answers the server added, beyond the category's own list. An answer is known when its normalized form
(`rules.the_floor.answers.normalize`: folded, and without a leading article for ``titles``) is already on the
category's list (its answers and variants) or among the server's additions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from i18n.text import visible
from rules.base import FloorboardError
from rules.the_floor import content as builtin
from rules.the_floor.answers import fold, normalize
from storage import ContentStore, DuplicateNameError, server_category_number

LANGS = builtin.LANGS
FLAGS = builtin.FLAGS
MAX_NAME = 40
MIN_ANSWERS = 10
MAX_ANSWERS = 300  # a custom category's list, and a server's additions to one category
MAX_ANSWER = 60
MAX_CATEGORIES = 50  # a server's own categories per language
SEPARATORS = re.compile(r"[,;\n]+")
LANG_WORDS = {"en": "en", "english": "en", "angielski": "en", "pl": "pl", "polish": "pl", "polski": "pl"}


class ContentInputError(FloorboardError):
    """A server's category or answer that cannot be stored (the message says what to change)."""


@dataclass
class AddedAnswers:
    """What `add_answers` did: the category (and its language), the answers added and those already known."""

    lang: str
    category: dict[str, Any]
    added: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)


def content_lang(text: str | None, default: str = "en") -> str:
    """A content language from an option (``en``, ``pl``, ``English``, ``polski``…) or a locale; ``default``
    when empty. Raises `ContentInputError` for anything else."""
    word = (text or "").strip().lower()
    if not word:
        return default if default in LANGS else "en"
    lang = LANG_WORDS.get(word) or LANG_WORDS.get(word.replace("_", "-").split("-")[0])
    if lang is None:
        raise ContentInputError("tfa.bad_lang", lang=text, langs=", ".join(sorted(LANGS)))
    return lang


def parse_answers(text: str) -> list[str]:
    """Answers typed as a list: separated by commas, semicolons or new lines, trimmed (inner spaces collapsed,
    control and bidi characters dropped), the first of those that fold to the same key kept
    (``"Łódź, lodz; ŁÓDŹ"`` → ``["Łódź"]``)."""
    out, seen = [], set()
    for part in SEPARATORS.split(text or ""):
        answer = visible(part)
        key = fold(answer)
        if answer and key and key not in seen:
            seen.add(key)
            out.append(answer)
    return out


def parse_flags(text: str | Any) -> list[str]:
    """Flags from text (``"K, people"``, case-insensitive) or a list; raises `ContentInputError` naming the
    allowed flags for an unknown one."""
    words = SEPARATORS.split(text) if isinstance(text, str) else list(text or ())
    words = [w for part in words for w in str(part).split()]
    by_lower = {f.lower(): f for f in FLAGS}
    flags: list[str] = []
    for word in words:
        flag = by_lower.get(word.strip().lower())
        if flag is None:
            raise ContentInputError("tfa.unknown_flag", flag=word, flags=", ".join(FLAGS))
        if flag not in flags:
            flags.append(flag)
    return flags


def clean_name(name: str) -> str:
    """A name as stored: no control or bidi characters (they would reorder every message it is shown in)."""
    return visible(name)


def build_category(name: str, answers: str | list[str], flags: str | list[str] | None, lang: str,
                   category_id: str = "server_new") -> dict[str, Any]:
    """A new server category, checked: known flags, a name of 1–40 characters, 10–300 answers of at most 60
    characters each with a letter, no two the same; the result passes `rules.the_floor.content.validate_category`.
    Raises `ContentInputError` saying what to change."""
    if lang not in LANGS:
        raise ContentInputError("tfa.bad_lang", lang=lang, langs=", ".join(sorted(LANGS)))
    flag_list = parse_flags(flags or "")
    name = clean_name(name)
    if not name or not any(c.isalnum() for c in name):
        raise ContentInputError("tfa.name_empty")
    if len(name) > MAX_NAME:
        raise ContentInputError("tfa.name_too_long", count=len(name), max=MAX_NAME)
    listed = parse_answers(answers) if isinstance(answers, str) else parse_answers("\n".join(answers))
    answer_list = check_answers(listed, lang, flag_list)
    if len(answer_list) < MIN_ANSWERS:
        raise ContentInputError("tfa.too_few_answers", count=len(answer_list), min=MIN_ANSWERS)
    if len(answer_list) > MAX_ANSWERS:
        raise ContentInputError("tfa.too_many_answers", count=len(answer_list), max=MAX_ANSWERS)
    category = {"id": category_id, "name": name, "flags": flag_list, "answers": answer_list}
    try:
        builtin.validate_category(category, lang)
    except builtin.ContentError as error:
        raise ContentInputError("tfa.invalid_category", reason=str(error)) from error
    return category


def check_answers(answers: list[str], lang: str, flags: list[str]) -> list[str]:
    """The answers with those equal after normalization dropped (for ``titles`` "The Crown" is "Crown");
    `ContentInputError` for one that is too long or has no letter (no player could give it)."""
    too_long = [a for a in answers if len(a) > MAX_ANSWER]
    if too_long:
        raise ContentInputError("tfa.answer_too_long", answer=too_long[0][:MAX_ANSWER] + "…", max=MAX_ANSWER)
    no_letter = [a for a in answers if not any(c.isalpha() for c in fold(a))]
    if no_letter:
        raise ContentInputError("tfa.answer_no_letter", answer=no_letter[0])
    out, seen = [], set()
    for answer in answers:
        key = normalize(answer, lang, flags)
        if key and key not in seen:
            seen.add(key)
            out.append(answer)
    return out


async def add_category(store: ContentStore, guild_id: int, lang: str, name: str, answers: str | list[str],
                       flags: str | list[str] | None, user_id: int | None, now: datetime) -> dict[str, Any]:
    """Check and store a server's new category; returns it with its id (``server_<n>``). Raises
    `ContentInputError` for bad input, a name the server already uses in that language (compared folded:
    "Birds" is "birds") or a server with `MAX_CATEGORIES` already."""
    category = build_category(name, answers, flags, lang)
    existing = await store.floor_categories(guild_id, lang)
    for other in existing:
        if fold(other["name"]) == fold(category["name"]):
            raise ContentInputError("tfa.duplicate_name", name=other["name"], id=other["id"])
    if len(existing) >= MAX_CATEGORIES:
        raise ContentInputError("tfa.too_many_categories", max=MAX_CATEGORIES)
    try:
        number = await store.add_floor_category(guild_id, lang, category["name"], category["flags"],
                                                category["answers"], user_id, now)
    except DuplicateNameError as error:  # added by someone else in the meantime
        raise ContentInputError("tfa.duplicate_name", name=category["name"], id="?") from error
    return {**category, "id": f"server_{number}"}


async def find_category(store: ContentStore, guild_id: int, lang: str, category_id: str) -> tuple[str, dict[str, Any]]:
    """(language, category) for a built-in id in ``lang`` or one of the server's ids (``server_12``, whose own
    language wins). Raises `ContentInputError` for an unknown id."""
    cid = (category_id or "").strip().lower()
    if server_category_number(cid) is not None:
        found = await store.floor_category(guild_id, cid)
        if found is not None:
            return found
    elif lang in LANGS:
        try:
            return lang, builtin.category(lang, cid)
        except KeyError:
            pass
    raise ContentInputError("tfa.unknown_category", id=category_id, lang=lang)


def known_keys(category: dict[str, Any], lang: str) -> set[str]:
    """The normalized forms of a category's own answers and variants."""
    flags = category.get("flags", ())
    variants = category.get("variants", {})
    return {normalize(form, lang, flags) for answer in category["answers"]
            for form in (answer, *variants.get(answer, ()))}


async def add_answers(store: ContentStore, guild_id: int, lang: str, category_id: str, answers: list[str],
                      user_id: int | None, now: datetime) -> AddedAnswers:
    """Add answers to the server's list for a category (built-in in ``lang``, or a server one in its own
    language). Answers already on the category's list or the server's are reported as known, not added.
    Raises `ContentInputError` for an unknown category, a bad answer, or a list that would pass `MAX_ANSWERS`."""
    lang, category = await find_category(store, guild_id, lang, category_id)
    flags = list(category.get("flags", ()))
    answers = check_answers(answers, lang, flags)
    if not answers:
        raise ContentInputError("tfa.no_answers")
    result = AddedAnswers(lang, category)
    base = known_keys(category, lang)
    already = (await store.floor_answers(guild_id, lang)).get(category["id"], [])
    taken = base | {normalize(a, lang, flags) for a in already}
    fresh = [a for a in answers if normalize(a, lang, flags) not in taken]
    result.known = [a for a in answers if a not in fresh]
    if len(already) + len(fresh) > MAX_ANSWERS:
        raise ContentInputError("tfa.too_many_added", count=len(already), max=MAX_ANSWERS)
    for answer in fresh:
        if await store.add_floor_answer(guild_id, lang, category["id"], answer, user_id, now,
                                        key=normalize(answer, lang, flags)):
            result.added.append(answer)
        else:  # added by someone else in the meantime
            result.known.append(answer)
    return result


async def learn_answer(store: ContentStore, guild_id: int, lang: str, category_id: str, answer: str,
                       user_id: int | None, now: datetime) -> bool:
    """Add an answer the players judged valid to the server's list for that category; True when it was added,
    False when it was known already or cannot be stored (unknown category, too long, no letter, list full)."""
    answer = visible(answer)
    if not answer:
        return False
    try:
        result = await add_answers(store, guild_id, lang, category_id, [answer], user_id, now)
    except ContentInputError:
        return False
    return bool(result.added)


async def server_content(store: ContentStore, guild_id: int, lang: str) -> dict[str, Any] | None:
    """The server's content in one language for the game's ``content`` option, or None when it has none:
    ``{"categories": [{"id": "server_<n>", "name", "flags", "answers"}, ...], "answers": {category id: [...]}}``."""
    categories = await store.floor_categories(guild_id, lang)
    answers = await store.floor_answers(guild_id, lang)
    if not categories and not answers:
        return None
    return {"categories": categories, "answers": answers}


class FloorContent:
    """The service the surfaces reach a server's The Floor content through: the checks above, then the store."""

    def __init__(self, store: ContentStore) -> None:
        self.store = store

    async def categories(self, guild_id: int, lang: str) -> list[dict[str, Any]]:
        return await self.store.floor_categories(guild_id, lang)

    async def answers(self, guild_id: int, lang: str) -> dict[str, list[str]]:
        return await self.store.floor_answers(guild_id, lang)

    async def category(self, guild_id: int, category_id: int | str) -> tuple[str, dict[str, Any]] | None:
        return await self.store.floor_category(guild_id, category_id)

    async def remove_category(self, guild_id: int, category_id: int | str) -> bool:
        return await self.store.remove_floor_category(guild_id, category_id)

    async def remove_answer(self, guild_id: int, lang: str, category: str, answer: str, *,
                            key: str | None = None) -> bool:
        return await self.store.remove_floor_answer(guild_id, lang, category, answer, key=key)

    async def add_category(self, guild_id: int, lang: str, name: str, answers: str | list[str],
                           flags: str | list[str] | None, user_id: int | None, now: datetime) -> dict[str, Any]:
        return await add_category(self.store, guild_id, lang, name, answers, flags, user_id, now)

    async def find_category(self, guild_id: int, lang: str, category_id: str) -> tuple[str, dict[str, Any]]:
        return await find_category(self.store, guild_id, lang, category_id)

    async def add_answers(self, guild_id: int, lang: str, category_id: str, answers: list[str],
                          user_id: int | None, now: datetime) -> AddedAnswers:
        return await add_answers(self.store, guild_id, lang, category_id, answers, user_id, now)

    async def learn_answer(self, guild_id: int, lang: str, category_id: str, answer: str, user_id: int | None,
                           now: datetime) -> bool:
        return await learn_answer(self.store, guild_id, lang, category_id, answer, user_id, now)

    async def server_content(self, guild_id: int, lang: str) -> dict[str, Any] | None:
        return await server_content(self.store, guild_id, lang)
