"""The server's language and other per-click settings are cached by the engine's settings service: a second click
reads no SQLite, and a change (/language) is seen by the very next click."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Engine


@pytest.fixture
def reads(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Every `get_setting` the store serves, in order."""
    seen: list[tuple[int, str]] = []
    real = engine.store.get_setting

    async def counted(guild_id: int, key: str) -> Any:
        seen.append((guild_id, key))
        return await real(guild_id, key)

    monkeypatch.setattr(engine.store, "get_setting", counted)
    return seen


async def test_a_second_click_reads_the_server_language_without_touching_sqlite(
        engine: Engine, reads: list[tuple[int, str]]) -> None:
    await engine.store.set_setting(7, "locale", "pl")
    assert await engine.guild_locale(7) == "pl"
    assert await engine.guild_locale(7) == "pl"
    assert await engine.guild_setting(7, "threads", True) is True
    assert await engine.guild_setting(7, "threads", True) is True
    assert reads == [(7, "locale"), (7, "threads")]  # one read per setting, unset ones included


async def test_a_language_change_is_seen_by_the_next_click_and_kept(engine: Engine,
                                                                    reads: list[tuple[int, str]]) -> None:
    assert await engine.guild_locale(7) is None
    await engine.set_guild_locale(7, "pl")
    assert await engine.guild_locale(7) == "pl"
    await engine.set_guild_locale(7, None)  # "auto": back to the server's Discord locale
    assert await engine.guild_locale(7) is None
    assert reads == [(7, "locale")]
    assert await engine.store.get_setting(7, "locale") is None  # written through, not only cached


async def test_a_failed_settings_write_leaves_no_stale_value_in_the_cache(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    await engine.set_guild_locale(7, "pl")

    async def broken(guild_id: int, key: str, value: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(engine.store, "set_setting", broken)
    with pytest.raises(OSError):
        await engine.set_guild_locale(7, "en")
    assert await engine.guild_locale(7) == "pl"  # read again from the store: the write did not happen
