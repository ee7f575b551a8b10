"""/quiet takes times as people write them: ``22``, ``22:00`` and ``7:30`` (the window keeps its minutes), and a time
that cannot be read is told what was wrong with it rather than shown a usage line."""

from __future__ import annotations

from datetime import UTC, datetime

from engine import players as quiet
from tests.discord_harness import USERS, Harness


async def test_quiet_accepts_times_written_with_minutes(harness: Harness) -> None:
    out = await harness.say("!quiet Europe/Warsaw 22:00 07:00", "alice")
    assert len(out) == 1 and "22:00–07:00 (Europe/Warsaw)" in out[0].text, out[0].text
    assert quiet.REGISTRY[USERS["alice"]].quiet == (22 * 60, 7 * 60)


async def test_quiet_accepts_whole_hours_and_half_hours(harness: Harness) -> None:
    out = await harness.slash("quiet", "bob", timezone="UTC", start="7:30", end="22")
    assert out[-1].ephemeral and "07:30–22:00 (UTC)" in out[-1].text, out[-1].text
    assert quiet.REGISTRY[USERS["bob"]].quiet == (7 * 60 + 30, 22 * 60)


async def test_a_time_that_cannot_be_read_is_told_what_was_wrong(harness: Harness) -> None:
    for typed in ("25:00", "7:75", "7.30", "noon"):
        out = await harness.say(f"!quiet UTC {typed} 7", "alice")
        assert len(out) == 1 and f"“{typed}” is not a time of day" in out[0].text, out[0].text
        assert "Usage" not in out[0].text
    assert USERS["alice"] not in quiet.REGISTRY


def test_the_quiet_window_keeps_its_minutes() -> None:
    notify = quiet.Notify("UTC", (22 * 60 + 30, 7 * 60))
    assert not notify.is_quiet(datetime(2026, 1, 1, 22, 15, tzinfo=UTC))
    assert notify.is_quiet(datetime(2026, 1, 1, 22, 45, tzinfo=UTC))
    assert notify.is_quiet(datetime(2026, 1, 2, 6, 59, tzinfo=UTC))
    assert not notify.is_quiet(datetime(2026, 1, 2, 7, 0, tzinfo=UTC))


def test_a_window_saved_with_minutes_loads_back_and_old_whole_hours_still_load() -> None:
    notify = quiet.Notify("Europe/Warsaw", (22 * 60, 7 * 60 + 30), dm=True)
    assert quiet.Notify.from_json(notify.to_json()) == notify
    assert quiet.Notify.from_json({"tz": "UTC", "quiet": [22, 7]}).quiet == (22 * 60, 7 * 60)
    assert quiet.Notify.from_json({"tz": "UTC", "quiet": ["22:00", "99:00"]}).quiet is None
