"""The Floor's options and the bounds of a saved game: what a lobby may set, normalized and checked.

Below the game facade: the stored-state reader and the bot read these bounds without importing `game.py`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rules.base import OptionsError
from rules.the_floor.content import ContentError, validate_category
from rules.the_floor.state import JUDGING

DEAL = {2: 13, 3: 9, 4: 7, 5: 6}
FINAL_SETUP_CARDS = {2: 0, 3: 0, 4: 1, 5: 2}
ROUNDS = 3
PASS_PENALTY_MS = 1000
LETTERS = {"pl": tuple("ABCDEFGHIJKLMNOPRSTUWYZ"), "en": tuple("ABCDEFGHIJKLMNOPRSTUVWY")}
SIDE_STREAM, DECK_STREAM, FIRST_FREE_STREAM = 0, 1, 2
def default_sides(players: int) -> int:
    return players if players <= 5 else (players + 1) // 2


# Surface timers, in the options so a lobby can set them; the rules only validate them (time is an action).
TIMER_OPTIONS = {  # name: (default, min, max); 0 = no timer
    "turn_minutes": (1440, 1, 10080),  # a challenge, a choice or a draft pick; then the default action
    "ready_minutes": (1440, 1, 10080),  # both duellists press Ready by then, or the absent side loses the duel
    "vote_seconds": (20, 5, 300),  # judges vote by then; the votes cast decide (none: accepted)
}
# Kept out of the normalized options unless given (the surface reads the default): a draft saved before it
# existed keeps its old pace, the turn timer (`cogs.the_floor`); new games wait minutes per pass, not a day.
# Every new game gets letters=answerable (TheFloor.new_game_options): a fair host's redraw. Absent, every letter is
# dealt as the rulebook's deck has it, as games made before the option were dealt (their records replay exactly).
LETTERS_OPTION = "letters"
DRAFT_TIMER = ("draft_minutes", (10, 1, 1440))  # a draft pass; then a default pick for whoever has not picked
# Judges without a seat and the cap on doubtful answers (issue 10). Like `letters`, kept out of the normalized
# options unless given and set by the lobby for new games (`cogs.the_floor`): absent, a game plays as it did
# before them, so older records replay exactly.
REFEREE_OPTION, SPECTATORS_OPTION, DOUBT_OPTION = "referee", "spectators_judge", "doubt_cap"
DOUBT_CAP = (2, 1, 10)  # default (the lobby's), min, max
MAX_USER_ID = 2**63 - 1  # a Discord snowflake
SWITCHES = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}
# The engine's actor for a member without a seat (`engine.GUEST_SEAT`; a pure rules module does not import
# the engine): its only action here is a vote naming the member, ``judge accept user:<id>``.
GUEST_SEAT = -1
MAX_GUEST_VOTES = 200  # spectators' votes on one answer (stored in the duel)
# What a saved game holds (rules/the_floor/stored.py reads no more). Play must never reach past it, so the rules
# refuse what would: answers are free text and may be instant (elapsed 0 ms), so their count and length are
# bounded here, and a server's content (a game option) is bounded where it is accepted (`custom_content`).
MAX_ANSWER = 500  # characters of an answer (the Discord surface takes 100, a server's content 60)
MAX_ANSWERS = 2000  # answers given in one duel; passes cost a second each, so a duel's log stays under twice this
MAX_CATEGORY_ID = 100  # characters of a category id
MAX_CATEGORIES = 10_000  # a deck or discard pile: the whole catalog at most
MAX_CUSTOM_CATEGORIES = 1000  # a server's own categories in one game (the surface keeps 50 per language)
MAX_CUSTOM = 10_000_000  # the server's content as canonical JSON (50 categories of 300 answers, plus additions)
SEXES = ("K", "M")  # category flags: women only, men only


def _show(value: Any) -> str:
    """A mistyped option's value for its error message, cut short: the value can be anything a lobby sends."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _timer(options: dict[str, Any], key: str) -> int:
    default, low, high = TIMER_OPTIONS[key] if key in TIMER_OPTIONS else DRAFT_TIMER[1]
    value = options.get(key, default)
    if not _int(value) or not (value == 0 or low <= value <= high):
        raise OptionsError("tf.options.timer", option=key, value=_show(value), min=low, max=high)
    return value


def _choice(options: dict[str, Any], key: str, default: str, allowed: tuple[str, ...] | dict[str, Any]) -> str:
    # isinstance first: ``["en"] in LETTERS`` would raise TypeError (a list is unhashable), not an OptionsError
    value = options.get(key, default)
    if not isinstance(value, str) or value not in allowed:
        raise OptionsError(f"tf.options.{key}", value=_show(value), allowed=", ".join(allowed))
    return value


def _normalize(players: Any, options: Any) -> dict[str, Any]:
    if not _int(players) or not 2 <= players <= 10:
        raise OptionsError("tf.options.players", count=_show(players), min=2, max=10)
    if options is not None and not isinstance(options, dict):
        raise OptionsError("tf.options.shape", value=_show(options))
    options = dict(options or {})
    known = ("sides", "lang", "clock", "judging", "kids", "content", *TIMER_OPTIONS, DRAFT_TIMER[0], LETTERS_OPTION,
             REFEREE_OPTION, SPECTATORS_OPTION, DOUBT_OPTION)
    for key in sorted((k for k in options if k not in known), key=repr):  # keys of any type: sort by repr
        raise OptionsError("tf.options.unknown", option=_show(key), known=", ".join(known))
    sides = options.get("sides", default_sides(players))
    if not _int(sides) or not 2 <= sides <= min(5, players):
        raise OptionsError("tf.options.sides", value=_show(sides), max=min(5, players))
    lang = _choice(options, "lang", "en", LETTERS)
    clock = options.get("clock", 45)
    if not _int(clock) or not 20 <= clock <= 120:
        raise OptionsError("tf.options.clock", value=_show(clock), min=20, max=120)
    judging = _choice(options, "judging", "vote", JUDGING)
    kids = options.get("kids", False)
    if not isinstance(kids, bool):
        raise OptionsError("tf.options.kids", value=_show(kids))
    letters = options.get(LETTERS_OPTION, "all")
    if letters not in ("all", "answerable"):
        raise OptionsError("tf.options.letters", value=_show(letters))
    out = {"sides": sides, "lang": lang, "clock": clock, "judging": judging, "kids": kids,
           **{key: _timer(options, key) for key in TIMER_OPTIONS}}
    if LETTERS_OPTION in options:  # only when given: a record made before the option replays as it was dealt
        out[LETTERS_OPTION] = letters
    if DRAFT_TIMER[0] in options:
        out[DRAFT_TIMER[0]] = _timer(options, DRAFT_TIMER[0])
    content = options.get("content")
    if content is not None and content != {}:  # none given; anything else must be well formed
        out["content"] = custom_content(content)
    return {**out, **_judge_options(options)}


def _judge_options(options: dict[str, Any]) -> dict[str, Any]:
    """``referee`` (a member's id or mention; 0 = none), ``spectators_judge`` (on/off) and ``doubt_cap`` (1–10),
    each only when given."""
    out: dict[str, Any] = {}
    if REFEREE_OPTION in options:
        value = options[REFEREE_OPTION]
        text = value if isinstance(value, str) else ""
        match = re.fullmatch(r"<@!?([0-9]{1,19})>|([0-9]{1,19})", text.strip())
        user = int(match[1] or match[2]) if match else value
        if not _int(user) or not 0 <= user <= MAX_USER_ID:
            raise OptionsError("tf.options.referee", value=_show(value))
        if user:
            out[REFEREE_OPTION] = user
    if SPECTATORS_OPTION in options:
        value = options[SPECTATORS_OPTION]
        switch = value if isinstance(value, bool) else SWITCHES.get(value) if isinstance(value, str) else None
        if switch is None:
            raise OptionsError("tf.options.spectators_judge", value=_show(value))
        out[SPECTATORS_OPTION] = switch
    if DOUBT_OPTION in options:
        _, low, high = DOUBT_CAP
        value = options[DOUBT_OPTION]
        if not _int(value) or not low <= value <= high:
            raise OptionsError("tf.options.doubt_cap", value=_show(value), min=low, max=high)
        out[DOUBT_OPTION] = value
    return out


def custom_content(content: Any) -> dict[str, Any]:
    """A server's own content as a game option: ``{"categories": [category...], "answers": {id: [answer...]}}``.
    Server categories have ids ``server_<n>``; answers extend any category's accepted list."""
    if not isinstance(content, dict) or set(content) - {"categories", "answers"}:
        raise OptionsError("tf.options.content")
    cats, answers = content.get("categories", []), content.get("answers", {})
    if not isinstance(cats, list) or not isinstance(answers, dict):
        raise OptionsError("tf.options.content")
    try:
        for cat in cats:
            validate_category(cat, "custom")
            if not cat["id"].startswith("server_"):
                raise ContentError(cat["id"])
            json.dumps(cat, allow_nan=False)  # stored as canonical JSON: no NaN, no odd types
    # validate_category assumes JSON-shaped parts (hashable flags, lists of variants): anything else is malformed
    except (ContentError, TypeError, ValueError, AttributeError, KeyError, RecursionError):
        raise OptionsError("tf.options.content") from None
    if len({c["id"] for c in cats}) != len(cats):
        raise OptionsError("tf.options.content")
    for key, extra in answers.items():
        if not isinstance(key, str) or not isinstance(extra, list) or not all(isinstance(a, str) for a in extra):
            raise OptionsError("tf.options.content")
    out = {"categories": cats, "answers": {k: list(v) for k, v in sorted(answers.items()) if v}}
    if not _storable(out):
        raise OptionsError("tf.options.content")
    return out


def _storable(content: dict[str, Any]) -> bool:
    """Within what a saved game holds (see `MAX_CUSTOM`): content past it would start a game that cannot be
    loaded again."""
    cats = content["categories"]
    answers = [a for c in cats for a in (*c["answers"], *(v for vs in c.get("variants", {}).values() for v in vs))]
    answers += [a for extra in content["answers"].values() for a in extra]
    return (len(cats) <= MAX_CUSTOM_CATEGORIES and all(len(c["id"]) <= MAX_CATEGORY_ID for c in cats)
            and all(len(a) <= MAX_ANSWER for a in answers)
            and len(json.dumps(content, sort_keys=True, ensure_ascii=False)) <= MAX_CUSTOM)
