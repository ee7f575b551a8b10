"""What happens when a player is away: the table's play settings (timeout policy, correspondence days) and the
bookkeeping of missed turns, stand-ins and pauses. Pure functions of a table's options and meta; the engine
applies them in the same transaction as the move they go with.

Absence is not a move: a missed turn is logged as the rules' ``timeout`` (their `default_action`), never as a
choice the player made, and then the policy decides what more happens:
- ``skip``: nothing more; the game goes on without the absent player's move.
- ``bot``: a bot plays the seat (a stand-in) until its owner comes back (any command of theirs in the game).
- ``forfeit``: the seat resigns at its ``forfeit_after``-th missed turn in a row.
Whatever the policy, a game whose humans are all away pauses (no clocks, no stand-in moves) until one of them
acts: it never ends as a normal result because nobody came.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.errors import EngineError

POLICIES = ("skip", "bot", "forfeit")
DAYS = (1, 2, 3, 5, 7, 10, 14)  # correspondence: days per move (lichess' choices)
FORFEIT_AFTER = (1, 10, 3)  # (min, max, default) missed turns in a row before a forfeit
BANK_DAYS = (1, 30)  # a time bank: days to start with (and its cap)
BONUS_HOURS = (0, 240)  # hours added after every move
UNDO_MODES = ("own", "off", "confirm")  # undo=: own last action (default), never, or with an opponent's yes
PLAY_KEYS = ("on_timeout", "forfeit_after", "time", "days", "bank_days", "bonus_hours", "cap_days", "undo", "rated",
             "reveal", "spectators")
# spectators=: whether members outside the game may follow it (cogs/follow.py); yes by default. Not The Floor's
# own ``spectators_judge`` (who judges a duel), a rules option.
# reveal=: whether a closed game's replay may spell out its secret choices (engine/replays.py); yes by default
# rated=: whether the game may change ratings (engine/results.py decides with the seats); yes by default
RATED_WORDS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
# Named time controls (``time=``): a lobby picks one by name; any of its numbers may still be given to adjust it
# (``time=bank bonus_hours=24``). ``live`` is the game's own minutes (and keeps a server's default days away).
TIME_PRESETS: dict[str, dict[str, int]] = {
    "live": {},
    **{f"{d}d": {"days": d} for d in DAYS},
    "bank": {"bank_days": 10, "bonus_hours": 36, "cap_days": 10},  # lichess-style correspondence bank
    "bank-short": {"bank_days": 3, "bonus_hours": 24, "cap_days": 5},
    "bank-long": {"bank_days": 14, "bonus_hours": 72, "cap_days": 21},
}
PLAY = "play"  # meta: the table's play settings
PLAY_GIVEN = "play_given"  # meta: the play settings as the lobby typed them (a rematch repeats them)
LEFT = "left"  # meta: seats that resigned (they are no longer away, nor waited for)
MISSED = "missed"  # meta: {seat: missed turns in a row}
STANDINS = "standins"  # meta: seats a bot plays while their owner is away
PAUSED = "paused"  # meta: True while every human is away; PAUSED_ADMIN while an admin holds the game
PAUSED_ADMIN = "admin"  # an admin's pause (engine/admin.py): only its resume ends it, not a player's move
VACATION = "vacation"  # meta: {seat: until (ISO)} (engine/vacation.py): no clock runs for the seat meanwhile
FROZEN = "frozen"  # meta: {seat: seconds left on the clock when the vacation began}


class PlaySettingsError(EngineError):
    """A play setting (timeout policy, days per move) that the game or the engine does not take."""


@dataclass(frozen=True)
class PlaySettings:
    on_timeout: str = "skip"
    forfeit_after: int = FORFEIT_AFTER[2]
    days: int = 0  # 0: the game's own minutes (turn_minutes / round_minutes), if any
    bank_days: int = 0  # a time bank (engine/clock.py): 0 for none
    bonus_hours: int = 0
    cap_days: int = 0  # 0: the starting bank
    undo: str = UNDO_MODES[0]  # engine/undo.py
    rated: bool = True  # engine/results.py: rated only with 2+ humans, no bot, no stand-in, no substitution
    reveal: bool = True  # engine/replays.py: a closed game's replay spells out the secret choices
    spectators: bool = True  # cogs/follow.py: the Spectate button, /follow and the follows' boards

    def to_json(self) -> dict[str, Any]:
        return {"on_timeout": self.on_timeout, "forfeit_after": self.forfeit_after, "days": self.days,
                "bank_days": self.bank_days, "bonus_hours": self.bonus_hours, "cap_days": self.cap_days,
                "undo": self.undo, "rated": self.rated, "reveal": self.reveal,
                "spectators": self.spectators}

    @classmethod
    def from_json(cls, raw: Any) -> PlaySettings:
        """Settings as stored; anything missing or unreadable falls back to the defaults (a stored table from
        before play settings existed plays as it always did: ``skip``)."""
        if not isinstance(raw, dict):
            return cls()
        policy = raw.get("on_timeout")
        after, days = raw.get("forfeit_after"), raw.get("days")

        def within(key: str, low: int, high: int) -> int:
            value = raw.get(key)
            return value if isinstance(value, int) and low <= value <= high else 0

        return cls(policy if policy in POLICIES else "skip",
                   after if isinstance(after, int) and FORFEIT_AFTER[0] <= after <= FORFEIT_AFTER[1]
                   else FORFEIT_AFTER[2],
                   days if days in DAYS else 0, within("bank_days", *BANK_DAYS),
                   within("bonus_hours", *BONUS_HOURS), within("cap_days", *BANK_DAYS),
                   raw["undo"] if raw.get("undo") in UNDO_MODES else UNDO_MODES[0],
                   raw.get("rated") is not False,  # a table stored before the setting existed: rated
                   raw.get("reveal") is not False,  # likewise: revealed, as its record always showed the seed
                   raw.get("spectators") is not False)  # likewise: open to spectators


def allowed_policies(rules: Any) -> tuple[str, ...]:
    """The policies a game's rules allow (``TIMEOUT_POLICIES``; every one unless it says), first the default."""
    return tuple(getattr(rules, "TIMEOUT_POLICIES", POLICIES))


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the rules' options, the table's play settings as given)."""
    rules_options = {k: v for k, v in options.items() if k not in PLAY_KEYS}
    return rules_options, {k: v for k, v in options.items() if k in PLAY_KEYS}


def with_preset(raw: dict[str, Any]) -> dict[str, Any]:
    """The play settings with a named time control (``time=``) spelled out; the numbers given beside it win."""
    if "time" not in raw:
        return raw
    name = str(raw["time"]).lower()
    if name not in TIME_PRESETS:
        raise PlaySettingsError("engine.options.time", value=name[:20], allowed=", ".join(TIME_PRESETS))
    return {**TIME_PRESETS[name], **{k: v for k, v in raw.items() if k != "time"}}


def parse_settings(rules: Any, raw: dict[str, Any], default_policy: str | None = None) -> PlaySettings:
    """The play settings a lobby asked for, checked against the game; ``default_policy`` is the server's."""
    raw = with_preset(raw)
    allowed = allowed_policies(rules)
    policy = raw.get("on_timeout", default_policy if default_policy in allowed else allowed[0])
    if policy not in allowed:
        raise PlaySettingsError("engine.options.on_timeout", value=str(policy)[:20], allowed=", ".join(allowed))
    after = _int(raw.get("forfeit_after", FORFEIT_AFTER[2]))
    if after is None or not FORFEIT_AFTER[0] <= after <= FORFEIT_AFTER[1]:
        raise PlaySettingsError("engine.options.forfeit_after", value=str(raw.get("forfeit_after"))[:20],
                                low=FORFEIT_AFTER[0], high=FORFEIT_AFTER[1])
    days = _int(raw.get("days", 0))
    if days is None or (days and days not in DAYS):
        raise PlaySettingsError("engine.options.days", value=str(raw.get("days"))[:20],
                                allowed=", ".join(map(str, DAYS)))
    bank = {key: _ranged(raw, key, *limits) for key, limits in
            (("bank_days", BANK_DAYS), ("bonus_hours", BONUS_HOURS), ("cap_days", BANK_DAYS))}
    if (bank["bonus_hours"] or bank["cap_days"]) and not bank["bank_days"]:
        raise PlaySettingsError("engine.options.bank_needed")
    if days and bank["bank_days"]:
        raise PlaySettingsError("engine.options.one_clock")
    if bank["cap_days"] and bank["cap_days"] < bank["bank_days"]:
        raise PlaySettingsError("engine.options.cap_below_bank", cap=bank["cap_days"], bank=bank["bank_days"])
    undo = str(raw.get("undo", UNDO_MODES[0])).lower()
    if undo not in UNDO_MODES:
        raise PlaySettingsError("undo.bad_option", value=undo[:20], allowed=", ".join(UNDO_MODES))
    rated = RATED_WORDS.get(str(raw.get("rated", "yes")).lower())
    if rated is None:
        raise PlaySettingsError("engine.options.rated", value=str(raw.get("rated"))[:20])
    reveal = RATED_WORDS.get(str(raw.get("reveal", "yes")).lower())
    if reveal is None:
        raise PlaySettingsError("replay.bad_option", value=str(raw.get("reveal"))[:20])
    spectators = RATED_WORDS.get(str(raw.get("spectators", "yes")).lower())
    if spectators is None:
        raise PlaySettingsError("follow.bad_option", value=str(raw.get("spectators"))[:20])
    return PlaySettings(policy, after, days, bank["bank_days"], bank["bonus_hours"], bank["cap_days"], undo, rated,
                        reveal, spectators)


def _ranged(raw: dict[str, Any], key: str, low: int, high: int) -> int:
    """An optional whole number in ``low..high`` (0 when not given)."""
    if key not in raw:
        return 0
    value = _int(raw[key])
    if value is None or not low <= value <= high:
        raise PlaySettingsError("engine.options.range", option=key, value=str(raw[key])[:20], low=low, high=high)
    return value


def check_options(rules: Any, options: dict[str, Any], default_policy: str | None = None,
                  ) -> tuple[dict[str, Any], dict[str, Any], PlaySettings]:
    """A lobby's options checked whole: (the rules' options, the play settings as typed, the settings). Raises
    the rules' `OptionsError` or a `PlaySettingsError`; nothing is opened before this passes."""
    rules_options, given = split_options(options)
    rules.normalize_options(rules.min_players, rules_options)
    return rules_options, given, parse_settings(rules, given, default_policy)


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


# --- the bookkeeping in a table's meta ----------------------------------------------------------------------


def settings_of(meta: dict[str, Any]) -> PlaySettings:
    return PlaySettings.from_json(meta.get(PLAY))


def missed(meta: dict[str, Any]) -> dict[int, int]:
    raw = meta.get(MISSED) or {}
    return {int(k): v for k, v in raw.items() if str(k).lstrip("-").isdigit() and isinstance(v, int)}


def standins(meta: dict[str, Any]) -> frozenset[int]:
    return frozenset(s for s in meta.get(STANDINS) or () if isinstance(s, int))


def with_missed(meta: dict[str, Any], counts: dict[int, int]) -> dict[str, Any]:
    return {**meta, MISSED: {str(k): v for k, v in sorted(counts.items()) if v}}


def on_vacation(meta: dict[str, Any]) -> dict[int, datetime]:
    """The seats on vacation (engine/vacation.py) and until when."""
    raw = meta.get(VACATION) or {}
    return {int(k): datetime.fromisoformat(v) for k, v in raw.items() if str(k).isdigit() and isinstance(v, str)}


def is_away(meta: dict[str, Any], seat: int) -> bool:
    """The seat missed its last turn (and has not acted since), a bot stands in for it, or everyone is away."""
    return seat in missed(meta) or seat in standins(meta) or meta.get(PAUSED) is True


def came_back(meta: dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's owner acted: not missing, no stand-in, and the game is no longer paused (unless by an admin)."""
    counts = missed(meta)
    counts.pop(seat, None)
    out = with_missed(meta, counts)
    out[STANDINS] = sorted(standins(meta) - {seat})
    if out.get(PAUSED) != PAUSED_ADMIN:
        out.pop(PAUSED, None)
    return out


def after_timeout(meta: dict[str, Any], seat: int, humans: Iterable[int],
                  pending: Iterable[int] = ()) -> tuple[dict[str, Any], str]:
    """The meta after the seat missed a turn, and what the policy does now: ``"skip"``, ``"standin"`` (a bot
    plays the seat from now on), ``"forfeit"`` (the seat resigns) or ``"pause"`` (every human in the game is away;
    ``pending``: seats whose clock still runs, not yet known to be away)."""
    settings = settings_of(meta)
    counts = missed(meta)
    counts[seat] = counts.get(seat, 0) + 1
    out = with_missed(meta, counts)
    waiting = set(pending)
    if all(counts.get(h, 0) > 0 and h not in waiting for h in humans):
        out[PAUSED] = True
        return out, "pause"
    if settings.on_timeout == "forfeit" and counts[seat] >= settings.forfeit_after:
        return out, "forfeit"
    if settings.on_timeout == "bot":
        out[STANDINS] = sorted(standins(meta) | {seat})
        return out, "standin"
    return out, "skip"
