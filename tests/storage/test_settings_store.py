"""SettingsStore contract: a server's settings, a player's settings and vacations round-trip."""

from __future__ import annotations

from datetime import timedelta

from storage import Store
from tests.storage.rows import NOW


async def test_a_server_setting_round_trips_and_none_clears_it(store: Store) -> None:
    await store.set_setting(5, "locale", "pl")
    await store.set_setting(5, "limits", {"tables": 3})
    assert await store.get_setting(5, "locale") == "pl"
    assert await store.get_setting(5, "limits") == {"tables": 3}
    assert await store.get_setting(6, "locale") is None
    await store.set_setting(5, "locale", None)
    assert await store.get_setting(5, "locale") is None


async def test_a_players_settings_round_trip_and_list_together(store: Store) -> None:
    assert await store.user_settings(7) == {}
    await store.set_user_settings(7, {"quiet": [22, 7]})
    await store.set_user_settings(7, {"quiet": [23, 6]})
    assert await store.user_settings(7) == {"quiet": [23, 6]}
    assert await store.all_user_settings() == {7: {"quiet": [23, 6]}}


async def test_a_vacation_is_listed_until_it_ends(store: Store) -> None:
    vid = await store.add_vacation(7, 10, NOW, NOW + timedelta(days=3))
    assert await store.vacations(7, 10, NOW) == [(vid, NOW, NOW + timedelta(days=3))]
    await store.end_vacation(vid, NOW + timedelta(hours=1))
    assert await store.vacations(7, 10, NOW + timedelta(hours=2)) == []
    assert await store.vacations(7, 11, NOW) == []
