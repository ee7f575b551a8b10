"""A player's own notification settings: quiet hours (a time zone and a window: no mention notifies them inside it;
their clock still runs) and direct-message reminders. Kept in storage (``user_settings``) and, for the few bytes
each is, in memory (`REGISTRY`, loaded when the bot starts), so that `cogs.utils.posting.pinging` can leave a
sleeping player out of every mention without a database read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


@dataclass(frozen=True)
class Notify:
    tz: str = "UTC"
    quiet: tuple[int, int] | None = None  # (from hour, to hour) local; the window may wrap past midnight
    dm: bool = False  # reminders by direct message (the game's thread when Discord refuses one)

    def to_json(self) -> dict[str, Any]:
        return {"tz": self.tz, "quiet": list(self.quiet) if self.quiet else None, "dm": self.dm}

    @classmethod
    def from_json(cls, raw: Any) -> Notify:
        if not isinstance(raw, dict):
            return cls()
        quiet = raw.get("quiet")
        hours = isinstance(quiet, list) and len(quiet) == 2 and all(type(h) is int for h in quiet)
        window = (quiet[0] % 24, quiet[1] % 24) if hours else None  # a damaged window reads as none
        tz = raw.get("tz") if isinstance(raw.get("tz"), str) and valid_zone(raw["tz"]) else "UTC"
        return cls(tz, window, bool(raw.get("dm", False)))

    def is_quiet(self, now: datetime) -> bool:
        if self.quiet is None or self.quiet[0] == self.quiet[1]:
            return False
        hour = now.astimezone(ZoneInfo(self.tz)).hour
        start, end = self.quiet
        return start <= hour < end if start < end else hour >= start or hour < end


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
