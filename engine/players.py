"""A player's own notification settings: quiet hours (a time zone and a window: no mention notifies them inside it;
their clock still runs) and direct-message reminders. Kept in storage (``user_settings``) and, for the few bytes
each is, in memory (`REGISTRY`, loaded when the bot starts), so that `cogs.utils.posting.pinging` can leave a
sleeping player out of every mention without a database read. No Discord here: any surface may ask who is awake."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

TIME = re.compile(r"(?P<hour>[0-9]{1,2})(?::(?P<minute>[0-9]{2}))?")  # 22, 22:00, 7:30


class BadTime(ValueError):
    """A time of day that cannot be read."""


def parse_time(text: object) -> int:
    """Minutes after midnight of ``22``, ``22:00`` or ``7:30`` (a 24-hour clock); `BadTime` otherwise."""
    match = TIME.fullmatch(str(text).strip())
    if match is None:
        raise BadTime(text)
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if hour > 23 or minute > 59:
        raise BadTime(text)
    return hour * 60 + minute


def time_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def stored_time(value: Any) -> int | None:
    """A stored end of the window: ``"07:30"``, or a whole hour as older versions wrote it (``7``)."""
    if type(value) is int:
        return value % 24 * 60
    try:
        return parse_time(value) if isinstance(value, str) else None
    except BadTime:
        return None


@dataclass(frozen=True)
class Notify:
    tz: str = "UTC"
    quiet: tuple[int, int] | None = None  # (from, to) in minutes after local midnight; may wrap past midnight
    dm: bool = False  # reminders by direct message (the game's thread when Discord refuses one)

    def to_json(self) -> dict[str, Any]:
        window = [time_text(m) for m in self.quiet] if self.quiet else None
        return {"tz": self.tz, "quiet": window, "dm": self.dm}

    @classmethod
    def from_json(cls, raw: Any) -> Notify:
        if not isinstance(raw, dict):
            return cls()
        quiet = raw.get("quiet")
        ends = [stored_time(v) for v in quiet] if isinstance(quiet, list) and len(quiet) == 2 else [None]
        window = (ends[0], ends[1]) if None not in ends else None  # a damaged window reads as none
        tz = raw.get("tz") if isinstance(raw.get("tz"), str) and valid_zone(raw["tz"]) else "UTC"
        return cls(tz, window, bool(raw.get("dm", False)))  # type: ignore[arg-type]

    def is_quiet(self, now: datetime) -> bool:
        if self.quiet is None or self.quiet[0] == self.quiet[1]:
            return False
        local = now.astimezone(ZoneInfo(self.tz))
        minute = local.hour * 60 + local.minute
        start, end = self.quiet
        return start <= minute < end if start < end else minute >= start or minute < end


def utc_now() -> datetime:
    return datetime.now(UTC)


REGISTRY: dict[int, Notify] = {}  # the bot's players' settings; (re)loaded by cogs.away at startup
clock: Callable[[], datetime] = utc_now  # the bot's clock (cogs.away sets ``bot.now``: tests move a fake one)


def load(settings: dict[int, dict[str, Any]], now: Callable[[], datetime]) -> None:
    """Replace the registry with the stored settings (a new bot process, or a test's new bot)."""
    global clock
    REGISTRY.clear()
    REGISTRY.update({user: Notify.from_json(raw) for user, raw in settings.items()})
    clock = now


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def zone_choices(prefix: str, limit: int = 25) -> list[str]:
    """Time zone names that contain what was typed (for autocomplete)."""
    wanted = prefix.strip().lower()
    return sorted(z for z in available_timezones() if wanted in z.lower())[:limit]


def awake(user_ids: list[int]) -> list[int]:
    """The users a mention may notify now: everyone not inside their quiet hours."""
    now = clock()
    return [u for u in user_ids if not (u in REGISTRY and REGISTRY[u].is_quiet(now))]


def wants_dm(user_id: int) -> bool:
    return REGISTRY.get(user_id, Notify()).dm
