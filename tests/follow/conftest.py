"""The Discord harness fixtures of tests/cogs, and what dpytest lacks for spectators: adding a member to a thread
(recorded in ``thread_members``) and direct messages that can be refused (``closed_dms``: user ids whose DMs
are closed, answered as Discord does, 403 with code 50007)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from discord.ext.test import backend as back
from discord.ext.test import factories as facts

from tests.cogs.conftest import error_log, harness, images_as_png  # noqa: F401 -- fixtures, used by name
from tests.discord_harness import Harness, http_error


class Spectating:
    def __init__(self) -> None:
        self.thread_members: list[tuple[int, int]] = []  # (thread id, user id) added by the bot
        self.thread_removals: list[tuple[int, int]] = []
        self.closed_dms: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # DM channel id → user id


@pytest.fixture
def spectating(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spectating]:
    seen = Spectating()

    async def add_user_to_thread(http: Any, channel_id: int, user_id: int) -> None:
        seen.thread_members.append((int(channel_id), int(user_id)))

    async def remove_user_from_thread(http: Any, channel_id: int, user_id: int) -> None:
        seen.thread_removals.append((int(channel_id), int(user_id)))

    async def start_private_message(http: Any, user_id: int) -> Any:
        # dpytest's own reads the user from its caller's frame; this one looks them up
        data = facts.make_dm_channel_dict(back.get_state().get_user(int(user_id)))
        seen.dm_channels[int(data["id"])] = int(user_id)
        return data

    monkeypatch.setattr(back.FakeHttp, "add_user_to_thread", add_user_to_thread, raising=False)
    monkeypatch.setattr(back.FakeHttp, "remove_user_from_thread", remove_user_from_thread, raising=False)
    monkeypatch.setattr(back.FakeHttp, "start_private_message", start_private_message)
    yield seen


@pytest.fixture
def refuse_closed_dms(harness: Harness,  # noqa: F811 -- the fixture above
                       spectating: Spectating, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DM to a member in ``closed_dms`` fails as Discord's does."""
    send = harness.on_channel_message

    async def on_channel_message(channel_id: int, params: Any) -> dict[str, Any]:
        if spectating.dm_channels.get(channel_id) in spectating.closed_dms:
            raise http_error(403, 50007, "Cannot send messages to this user")
        return await send(channel_id, params)

    monkeypatch.setattr(harness, "on_channel_message", on_channel_message)
