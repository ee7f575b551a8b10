"""Drive the real bot offline: dpytest for the gateway and HTTP, gateway-shaped interactions for slash
commands, buttons and selects, and a recording webhook adapter for interaction replies.

Follows /work/shared/notes/discord-testing.md: the setup order (``_async_setup_hook``, ``dpytest.configure``,
the command tree on the new connection state, ``setup_hook``), monkeypatches for what dpytest 0.7 lacks with
discord.py 2.7 (multipart ``payload_json``, ``components``, threads), current-time snowflake interaction ids,
waiting for the tasks discord.py spawns, and ERROR log records failing the test.

Everything the bot sends — channel messages and interaction responses/followups/edits — is recorded in
``Harness.sent`` as `Sent` records (content, embeds, components, file bytes, ephemeral, who was pinged).
Edits of channel messages through the bot's own token (the status message) are recorded in ``Harness.edits``
and applied to the message; ``Harness.edit_errors`` makes chosen messages fail to edit like Discord would.
Delayed status edits wait on ``Harness.sleeper``, which only lets them run when a test says time has passed.
Edits of a thread (PATCH /channels/{id}: its name, auto-archive duration) are recorded in
``Harness.channel_edits`` and applied to the thread; ``Harness.channel_edit_errors`` makes chosen threads fail
to edit (e.g. a 403 without Manage Threads).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import logging
from collections.abc import Callable, Iterable
from copy import deepcopy
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import discord.ext.test as dpytest
from discord import app_commands
from discord.ext.test import backend as back
from discord.ext.test import callbacks
from discord.ext.test import factories as facts
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from PIL import Image

from bot import Floorboard, make_intents
from config import load_settings
from render.kit import image_ext

APP_ID = 700000000000000001
GUILD_ID = 710000000000000001
CHANNELS = {"general": 720000000000000001, "other": 720000000000000002}
USERS = {
    "alice": 730000000000000001,
    "bob": 730000000000000002,
    "carol": 730000000000000003,
    "dave": 730000000000000004,
    "mod": 730000000000000005,  # has Manage Server
}
MANAGER_ROLE_ID = 740000000000000001
EPHEMERAL = 64
TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_counter = itertools.count(1)


def snowflake() -> int:
    """A current-time snowflake (ids sort by time; an interaction older than 15 min counts as expired)."""
    return discord.utils.time_snowflake(discord.utils.utcnow()) + next(_counter) % (1 << 22)


@dataclass
class Sent:
    """One thing the bot sent (or an update it made to a message)."""

    kind: str  # message | response | defer | update | followup | edit
    channel_id: int
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    message_id: int | None = None
    interaction_id: int | None = None
    pinged: list[int] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """Content and embed text together, for assertions."""
        parts = [self.content or ""]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", ""), e.get("footer", {}).get("text", "")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
        return "\n".join(p for p in parts if p)

    @property
    def public(self) -> bool:
        return not self.ephemeral and self.kind != "defer"

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk(self.components) if "custom_id" in c]

    def labels(self) -> list[str]:
        return [c.get("label", "") for c in walk(self.components) if c.get("type") == 2]

    def pngs(self) -> list[bytes]:
        """The images attached (PNG or WebP: `render.kit.encode_image` picks), each named for its format."""
        images = [(name, data) for name, data in self.files if name.endswith((".png", ".webp"))]
        assert all(name.endswith("." + image_ext(data)) for name, data in images), [n for n, _ in images]
        return [data for _, data in images]


def walk(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk(c.get("components", []))


def check_png(data: bytes, *, min_side: int = 200, max_side: int = 4000, max_bytes: int = 8 << 20) -> None:
    """A valid posted image (PNG or WebP) of a sane size that is not one flat colour."""
    assert image_ext(data) in ("png", "webp"), "not a PNG or WebP"
    assert len(data) < max_bytes, f"{len(data)} bytes is too big for an attachment"
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        assert min_side <= img.width <= max_side and min_side <= img.height <= max_side, img.size
        extrema = img.convert("RGB").getextrema()
        assert any(lo != hi for lo, hi in extrema), "the image is blank"
        colours = img.convert("RGB").getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) > 8, "the image has almost no content"


def check_embeds(embeds: list[dict[str, Any]]) -> int:
    """Discord's embed limits (discord.py checks none of them); returns the characters counted."""
    assert len(embeds) <= 10, "more than 10 embeds in a message"
    total = 0
    for e in embeds:
        title, description = e.get("title", ""), e.get("description", "")
        footer, author = e.get("footer", {}).get("text", ""), e.get("author", {}).get("name", "")
        assert len(title) <= 256 and len(description) <= 4096 and len(footer) <= 2048 and len(author) <= 256
        fields = e.get("fields", [])
        assert len(fields) <= 25, f"{len(fields)} fields"
        for f in fields:
            assert 1 <= len(f["name"]) <= 256 and 1 <= len(f["value"]) <= 1024, f
        total += len(title) + len(description) + len(footer) + len(author)
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    assert total <= 6000, f"{total} characters in the embeds of one message"
    return total


@dataclass
class InteractionInfo:
    id: int
    type: int
    channel_id: int
    message_id: int | None = None
    deferred: bool = False
    deferred_ephemeral: bool = False
    first_followup_done: bool = False
    original: Sent | None = None
    deferred_update: bool = False  # a component acknowledged first (type 6): @original is its own message
    acknowledged: bool = False


class RecordingAdapter(AsyncWebhookAdapter):
    """Answers interaction webhook requests like Discord would and records them."""

    def __init__(self, harness: Harness) -> None:
        super().__init__()
        self.harness = harness

    async def request(self, route: Any, session: Any, *, payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None, files: Any = None, **kwargs: Any) -> Any:
        return self.harness.on_webhook(route, body_of(payload, multipart), read_files(files))


def body_of(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict[str, Any]:
    if payload is not None:
        return payload
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return {}


def read_files(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        f.fp.seek(0)
        out.append((f.filename, f.fp.read()))
        f.fp.seek(0)
    return out


class ErrorLog(logging.Handler):
    """Collects ERROR records: discord.py only logs exceptions raised in view and dynamic item callbacks."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def report(self) -> str:
        return "\n".join(self.format(r) for r in self.records)


def http_error(status: int, code: int, text: str = "") -> discord.HTTPException:
    """An error as discord.py raises it for a Discord error response (``code`` is Discord's JSON code)."""
    kinds = {403: discord.Forbidden, 404: discord.NotFound}
    response = back.FakeRequest(status, text or "error")
    return kinds.get(status, discord.HTTPException)(response, {"code": code, "message": text or str(code)})


class ManualSleep:
    """An injectable ``sleep``: sleepers wake when the test moves the clock past their time (`wake`)."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self.now = now
        self.sleeping: list[tuple[datetime, asyncio.Future[None], asyncio.Task[Any] | None]] = []

    async def __call__(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        self.sleeping.append((self.now() + timedelta(seconds=seconds), future, asyncio.current_task()))
        try:
            await future
        finally:
            self.sleeping = [s for s in self.sleeping if s[1] is not future]

    def delays(self) -> list[float]:
        return [(when - self.now()).total_seconds() for when, _, _ in self.sleeping]

    def wake(self) -> list[asyncio.Task[Any]]:
        """Wake every sleeper whose time has come; returns their tasks."""
        woken = []
        for when, future, task in list(self.sleeping):
            if when <= self.now() and not future.done():
                future.set_result(None)
                if task is not None:
                    woken.append(task)
        return woken


class Harness:
    def __init__(self, db_path: Path, *, now: Any = None, seed: str | None = "harness-seed",
                 status_seconds: float = 10.0) -> None:
        # render_workers=0: images drawn in threads, fast to start (tests/render/test_pool.py covers the processes).
        settings = load_settings(_env_file=None, database_path=db_path, discord_token=None, lobby_minutes=30,
                                 status_seconds=status_seconds, render_workers=0)
        intents = make_intents()
        intents.members = True  # dpytest's member cache needs it; the bot itself never reads the member list
        self.clock = now or (lambda: datetime.now(UTC))
        self.sleeper = ManualSleep(self.clock)
        kwargs: dict[str, Any] = {"intents": intents, "sync_commands": False, "scheduler": False,
                                  "sleep": self.sleeper}
        if now is not None:
            kwargs["now"] = now
        self.bot = Floorboard(settings, **kwargs)
        self.seed = seed
        self.sent: list[Sent] = []
        self.messages: dict[int, Sent] = {}
        self.interactions: dict[int, InteractionInfo] = {}
        self.threads: list[dict[str, Any]] = []
        self.edits: list[Sent] = []
        self.edit_errors: dict[int, BaseException] = {}
        self.edit_delays: dict[int, float] = {}  # seconds (real time) an edit of that message is held up
        self.channel_edits: list[tuple[int, dict[str, Any]]] = []  # (thread id, the fields the bot changed)
        self.channel_edit_errors: dict[int, BaseException] = {}
        self.adapter = RecordingAdapter(self)
        self.members: dict[str, discord.Member] = {}
        self.channels: dict[str, Any] = {}
        self.guild: discord.Guild = None  # type: ignore[assignment]

    # --- setup -------------------------------------------------------------------------------------------

    async def start(self, monkeypatch: Any, threads: list[dict[str, Any]] = ()) -> Harness:
        drain_command_errors()
        self.patch(monkeypatch)
        bot = self.bot
        await bot._async_setup_hook()
        dpytest.configure(bot, guilds=0, text_channels=0, voice_channels=0, members=0)
        bot._connection._command_tree = bot.tree
        bot._connection.application_id = APP_ID
        self.build_world()
        for data in threads:  # as the gateway's GUILD_CREATE would list active threads after a restart
            self.add_thread(dict(data))
        await bot.setup_hook()
        return self

    def patch(self, monkeypatch: Any) -> None:
        harness = self
        if self.seed is not None:
            monkeypatch.setattr("engine.core.new_seed", lambda: self.seed)

        async def send_message(http: Any, channel_id: int, *, params: Any) -> dict[str, Any]:
            return await harness.on_channel_message(int(channel_id), params)

        async def edit_message(http: Any, channel_id: int, message_id: int, *, params: Any) -> dict[str, Any]:
            delay = harness.edit_delays.get(int(message_id))
            if delay:  # like discord.py sleeping out a 429's retry_after before it tries again
                await asyncio.sleep(delay)
            return harness.on_channel_edit(int(channel_id), int(message_id), params)

        async def start_thread_without_message(http: Any, channel_id: int, *, name: str, type: int,
                                               **kw: Any) -> dict[str, Any]:
            return harness.new_thread(int(channel_id), name, int(type))

        async def start_thread_with_message(http: Any, channel_id: int, message_id: int, *, name: str,
                                            **kw: Any) -> dict[str, Any]:
            return harness.new_thread(int(channel_id), name, 11, thread_id=int(message_id))

        async def edit_channel(http: Any, channel_id: int, *, reason: str | None = None,
                               **options: Any) -> dict[str, Any]:
            return harness.on_channel_patch(int(channel_id), options)

        make_message_dict = facts.make_message_dict

        def with_components(*args: Any, **kwargs: Any) -> dict[str, Any]:
            data = make_message_dict(*args, **kwargs)
            data.setdefault("components", [])
            return data

        monkeypatch.setattr(back.FakeHttp, "send_message", send_message)
        monkeypatch.setattr(back.FakeHttp, "edit_message", edit_message)
        monkeypatch.setattr(back.FakeHttp, "start_thread_without_message", start_thread_without_message)
        monkeypatch.setattr(back.FakeHttp, "start_thread_with_message", start_thread_with_message)
        monkeypatch.setattr(back.FakeHttp, "edit_channel", edit_channel, raising=False)
        monkeypatch.setattr(facts, "make_message_dict", with_components)

    def build_world(self) -> None:
        state = back.get_state()
        self.guild = guild = back.make_guild("Test Guild", id_num=GUILD_ID)
        for name, cid in CHANNELS.items():
            self.channels[name] = back.make_text_channel(name, guild, id_num=cid)
        manager = back.make_role("Manager", guild, id_num=MANAGER_ROLE_ID,
                                 permissions=discord.Permissions(manage_guild=True, send_messages=True).value)
        for i, (name, uid) in enumerate(USERS.items(), start=1):
            user = back.make_user(name, i, id_num=uid)
            roles = [manager] if name == "mod" else []
            self.members[name] = back.make_member(user, guild, nick=name.capitalize(), roles=roles)
        back.make_member(state.user, guild)

    async def close(self) -> None:
        await self.settle()
        self.bot.ws = None  # dpytest's fake gateway has no socket to close
        await self.bot.close()

    # --- driving -----------------------------------------------------------------------------------------

    def channel(self, channel: Any) -> Any:
        if channel is None:
            return self.channels["general"]
        if isinstance(channel, str):
            return self.channels[channel]
        if isinstance(channel, int):
            return self.bot.get_channel(channel)
        return channel

    async def slash(self, name: str, user: str = "alice", channel: Any = None, **options: Any) -> list[Sent]:
        return await self.feed(self.slash_payload(name, user, channel, **options))

    def slash_payload(self, name: str, user: str = "alice", channel: Any = None,
                      **options: Any) -> dict[str, Any]:
        command = self.bot.tree.get_command(name)
        assert command is not None, f"no slash command {name}"
        params = {p.name: p for p in command.parameters}
        opts = [{"name": params[k].display_name, "type": params[k].type.value, "value": v}
                for k, v in options.items()]
        data = {"id": str(snowflake()), "name": command.name, "type": 1, "options": opts,
                "guild_id": str(GUILD_ID)}
        return self.interaction_payload(2, data, user, self.channel(channel))

    async def click(self, sent: Sent, which: str, user: str = "alice") -> list[Sent]:
        return await self.feed(self.click_payload(sent, which, user))

    def click_payload(self, sent: Sent, which: str, user: str = "alice") -> dict[str, Any]:
        """A click on the button whose label is ``which`` or whose custom_id contains it."""
        message = self.current(sent)
        buttons = [c for c in walk(message.components) if c.get("type") == 2]
        found = [b for b in buttons if b.get("label") == which]
        found = found or [b for b in buttons if which in b["custom_id"]]
        assert found, f"no button {which!r} in {[b.get('label') for b in buttons]}"
        data = {"custom_id": found[0]["custom_id"], "component_type": 2}
        return self.interaction_payload(3, data, user, self.channel(message.channel_id), message)

    def current(self, sent: Sent) -> Sent:
        """The message as it is now (after edits), unless ``sent`` is a snapshot of how a client saw it."""
        return sent if sent.kind == "snapshot" else self.messages.get(sent.message_id or 0, sent)

    def snapshot(self, sent: Sent) -> Sent:
        """The message as shown now: clicking it later is a click on a stale client."""
        copy = deepcopy(self.current(sent))
        copy.kind = "snapshot"
        return copy

    async def select(self, sent: Sent, values: list[str], user: str = "alice") -> list[Sent]:
        return await self.feed(self.select_payload(sent, values, user))

    def select_payload(self, sent: Sent, values: list[str], user: str = "alice") -> dict[str, Any]:
        message = self.current(sent)
        selects = [c for c in walk(message.components) if c.get("type") == 3]
        assert selects, "no select menu in the message"
        data = {"custom_id": selects[0]["custom_id"], "component_type": 3, "values": values}
        return self.interaction_payload(3, data, user, self.channel(message.channel_id), message)

    async def say(self, text: str, user: str = "alice", channel: Any = None,
                  error: type[BaseException] | None = None) -> list[Sent]:
        """A user's message. dpytest re-raises command errors (even handled ones): name the one expected."""
        start = len(self.sent)
        try:
            await dpytest.message(text, channel=self.channel(channel), member=self.members[user])
        except Exception as e:
            if error is None or not isinstance(e, error):
                raise
        else:
            assert error is None, f"expected {error.__name__}"
        await self.settle()
        return self.sent[start:]

    async def feed(self, payload: dict[str, Any]) -> list[Sent]:
        """Deliver an INTERACTION_CREATE through discord.py's own entry point; return what the bot sent."""
        start = len(self.sent)
        async_context.set(self.adapter)
        iid = int(payload["id"])
        message = payload.get("message")
        self.interactions.setdefault(iid, InteractionInfo(iid, payload["type"], int(payload["channel_id"]),
                                                          int(message["id"]) if message else None))
        self.bot._connection.parse_interaction_create(payload)
        await self.settle()
        drain_command_errors()
        return self.sent[start:]

    async def pass_time(self, **kw: float) -> list[Sent]:
        """Move the (fake) clock on and let the delayed status edits that are now due run; returns the edits."""
        start = len(self.edits)
        self.clock.advance(**kw)  # type: ignore[attr-defined]
        woken = self.sleeper.wake()
        if woken:
            _, still = await asyncio.wait(woken, timeout=60)
            assert not still, "delayed status edits still running after 60s"
        await self.settle()
        return self.edits[start:]

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait until every task discord.py spawned for events, commands and components is done."""
        me = asyncio.current_task()
        for _ in range(10_000):
            pending = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                       and t.get_name().startswith(TASK_PREFIXES)]
            if not pending:
                return
            _, still = await asyncio.wait(pending, timeout=timeout)
            assert not still, f"tasks still running after {timeout}s: {[t.get_name() for t in still]}"

    def interaction_payload(self, kind: int, data: dict[str, Any], user: str, channel: Any,
                            message: Sent | None = None) -> dict[str, Any]:
        member = self.members[user]
        perms = channel.permissions_for(member)
        iid = snowflake()
        parent = getattr(channel, "parent_id", None)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "data": data,
            "token": f"token-{iid}",
            "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(channel.id),
            "channel": {"id": str(channel.id), "type": channel.type.value, "guild_id": str(GUILD_ID),
                        "name": channel.name, **({"parent_id": str(parent)} if parent else {})},
            "member": {
                "user": {"id": str(member.id), "username": member.name, "discriminator": "0",
                         "global_name": None, "avatar": None},
                "roles": [str(r.id) for r in member.roles if r.id != GUILD_ID], "nick": member.nick,
                "joined_at": "2025-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
                "permissions": str(perms.value),
            },
            "locale": "en-US", "guild_locale": str(self.guild.preferred_locale.value),
            "app_permissions": str(discord.Permissions.all().value), "attachment_size_limit": 10 << 20,
            "entitlements": [], "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 0,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        return payload

    # --- what the bot sends ------------------------------------------------------------------------------

    def record(self, sent: Sent) -> Sent:
        self.sent.append(sent)
        if sent.message_id is not None and sent.kind in ("message", "response", "followup"):
            self.messages[sent.message_id] = sent
        return sent

    def message_payload(self, sent: Sent) -> dict[str, Any]:
        me = self.bot.user
        return {
            "id": str(sent.message_id), "channel_id": str(sent.channel_id), "guild_id": str(GUILD_ID),
            "author": {"id": str(me.id), "username": me.name, "discriminator": "0001", "avatar": None,
                       "bot": True},
            "content": sent.content or "", "embeds": sent.embeds, "components": sent.components,
            "attachments": [{"id": str(snowflake()), "filename": name, "size": len(data),
                             "url": f"https://cdn.invalid/{name}", "proxy_url": f"https://cdn.invalid/{name}"}
                            for name, data in sent.files],
            "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False, "type": 0,
            "flags": EPHEMERAL if sent.ephemeral else 0, "application_id": str(APP_ID),
        }

    async def on_channel_message(self, channel_id: int, params: Any) -> dict[str, Any]:
        body = body_of(params.payload, params.multipart)
        files = read_files(params.files)
        channel = self.bot.get_channel(channel_id)
        assert channel is not None, f"the bot posted to an unknown channel {channel_id}"
        state = back.get_state()
        embeds = [discord.Embed.from_dict(e) for e in body.get("embeds") or []]
        data = facts.make_message_dict(channel, state.user, content=body.get("content"), embeds=embeds,
                                       guild_id=GUILD_ID)
        data["components"] = body.get("components") or []
        sent = self.record(Sent("message", channel_id, body.get("content"), body.get("embeds") or [],
                                data["components"], files, message_id=data["id"],
                                pinged=pinged(body), payload=body))
        data["attachments"] = self.message_payload(sent)["attachments"]
        state.parse_message_create(data)
        back._cur_config.messages.setdefault(channel_id, []).append(data)
        message = state._get_message(data["id"])
        if message is not None:
            await callbacks.dispatch_event("send_message", message)
        return data

    def on_channel_edit(self, channel_id: int, message_id: int, params: Any) -> dict[str, Any]:
        """PATCH /channels/{channel}/messages/{message}: the bot editing one of its messages."""
        error = self.edit_errors.get(message_id)
        if error is not None:
            raise error
        target = self.messages.get(message_id)
        if target is None or target.ephemeral:
            raise http_error(404, 10008, "Unknown Message")
        assert target.channel_id == channel_id, "edited a message through the wrong channel"
        body = body_of(params.payload, params.multipart)
        files = read_files(params.files)
        self.update(target, body, files)
        self.edits.append(Sent("edit_message", channel_id, body.get("content"), body.get("embeds") or [],
                               body.get("components") or [], files, message_id=message_id, pinged=pinged(body),
                               payload=body))
        return self.message_payload(target)

    def on_webhook(self, route: Any, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        path = route.path
        if path.endswith("/callback"):
            return self.on_callback(int(route.webhook_id), body, files)
        info = self.interactions[int(str(route.webhook_token).removeprefix("token-"))]
        if "/messages/" in path:
            return self.on_message_route(route.method, info, route, body, files)
        return self.on_followup(info, body, files)

    def on_callback(self, iid: int, body: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        info = self.interactions[iid]
        kind, data = body["type"], body.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        reply: dict[str, Any] = {"id": str(iid), "type": info.type, "response_message_loading": kind == 5,
                                 "response_message_ephemeral": ephemeral}
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            sent = self.from_body("response", info, data, files, ephemeral, message_id=snowflake())
            self.record(sent)
            info.original = sent
            reply["response_message_id"] = str(sent.message_id)
            resource["message"] = self.message_payload(sent)
        elif kind == 5:
            info.deferred, info.deferred_ephemeral = True, ephemeral
            self.record(Sent("defer", info.channel_id, ephemeral=ephemeral, interaction_id=iid))
        elif kind == 6:
            # An invisible acknowledgement: nothing is shown, so nothing is recorded as sent (``acknowledged``).
            info.acknowledged = True
            # As on Discord: after a deferred update, the "original response" is the component's own message.
            info.original = self.messages.get(info.message_id or 0)
            info.deferred_update = info.original is not None
        elif kind == 7:
            target = self.messages[info.message_id or 0]
            self.update(target, data, files)
            self.record(self.from_body("update", info, data, files, target.ephemeral, target.message_id))
            resource["message"] = self.message_payload(target)
        return {"interaction": reply, "resource": resource}

    def on_followup(self, info: InteractionInfo, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        ephemeral = bool(body.get("flags", 0) & EPHEMERAL)
        if info.deferred and not info.first_followup_done:
            ephemeral = info.deferred_ephemeral  # the first followup replaces the "thinking…" message
        info.first_followup_done = True
        sent = self.record(self.from_body("followup", info, body, files, ephemeral, message_id=snowflake()))
        if info.original is None:
            info.original = sent
        return self.message_payload(sent)

    def on_message_route(self, method: str, info: InteractionInfo, route: Any, body: dict[str, Any],
                         files: list[tuple[str, bytes]]) -> Any:
        if method == "DELETE":
            return None
        if info.original is None:  # editing the deferred "thinking…" message creates it
            info.original = self.record(self.from_body("followup", info, {}, [], info.deferred_ephemeral,
                                                       message_id=snowflake()))
        if method == "PATCH":
            self.update(info.original, body, files)
            kind = "update" if info.deferred_update else "edit"  # the same change as a type-7 response
            self.record(self.from_body(kind, info, body, files, info.original.ephemeral,
                                       message_id=info.original.message_id))
        return self.message_payload(info.original)

    def from_body(self, kind: str, info: InteractionInfo, body: dict[str, Any],
                  files: list[tuple[str, bytes]], ephemeral: bool, message_id: int | None) -> Sent:
        return Sent(kind, info.channel_id, body.get("content"), body.get("embeds") or [],
                    body.get("components") or [], files, ephemeral, message_id, info.id, pinged(body), body)

    def update(self, target: Sent, body: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        if "content" in body:
            target.content = body["content"]
        if "embeds" in body:
            target.embeds = body["embeds"] or []
        if "components" in body:
            target.components = body["components"] or []
        if files:
            target.files = files

    # --- threads -----------------------------------------------------------------------------------------

    def new_thread(self, parent_id: int, name: str, kind: int,
                   thread_id: int | None = None) -> dict[str, Any]:
        now = datetime.now(UTC).isoformat()
        data = {
            "id": str(thread_id or snowflake()), "guild_id": str(GUILD_ID), "parent_id": str(parent_id),
            "owner_id": str(self.bot.user.id), "name": name, "type": kind, "last_message_id": None,
            "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "archive_timestamp": now,
                                "locked": False, "invitable": True, "create_timestamp": now},
        }
        self.threads.append(data)
        self.add_thread(data)
        return data

    def add_thread(self, data: dict[str, Any]) -> None:
        back.get_state().parse_thread_create(data)

    def on_channel_patch(self, channel_id: int, options: dict[str, Any]) -> dict[str, Any]:
        """PATCH /channels/{channel}: only threads the harness made can be edited (the bot never edits a
        server's own channels)."""
        error = self.channel_edit_errors.get(channel_id)
        if error is not None:
            raise error
        data = next((d for d in self.threads if int(d["id"]) == channel_id), None)
        assert data is not None, f"the bot edited channel {channel_id}, which is not one of its threads"
        self.channel_edits.append((channel_id, dict(options)))
        meta = data["thread_metadata"]
        for key in ("archived", "locked", "auto_archive_duration", "invitable"):
            if key in options:
                meta[key] = options[key]
        if "name" in options:
            assert 1 <= len(options["name"]) <= 100, f"a channel name of {len(options['name'])} characters"
            data["name"] = options["name"]
        back.get_state().parse_thread_update(deepcopy(data))
        return deepcopy(data)

    # --- queries -----------------------------------------------------------------------------------------

    def public(self, sent: list[Sent] | None = None) -> list[Sent]:
        return [s for s in (self.sent if sent is None else sent) if s.public]

    def images(self, sent: list[Sent] | None = None) -> list[bytes]:
        return [png for s in (self.sent if sent is None else sent) for png in s.pngs()]

    def status_edits(self) -> list[Sent]:
        """The edits that set a message's embeds (the status message, a closed lobby's message): ``edits``
        without the ones that only take a superseded board's buttons away (`button_removals`)."""
        return [e for e in self.edits if "embeds" in e.payload]

    def button_removals(self, message_id: int | None = None) -> list[Sent]:
        """The edits that only took a message's buttons away (a board superseded by a newer one)."""
        return [e for e in self.edits if "embeds" not in e.payload and "content" not in e.payload
                and e.payload.get("components") == [] and message_id in (None, e.message_id)]

    def with_button(self, label: str, sent: list[Sent] | None = None) -> Sent:
        """The latest message (as it is now) with a button labelled ``label`` or whose custom_id has it."""
        for s in reversed(self.sent if sent is None else sent):
            message = self.messages.get(s.message_id or 0, s)
            if label in message.labels() or any(label in cid for cid in message.custom_ids()):
                return message
        raise AssertionError(f"no message with a {label!r} button")


def pinged(body: dict[str, Any]) -> list[int]:
    allowed = body.get("allowed_mentions")
    if not allowed:
        return []
    return [int(u) for u in allowed.get("users", [])]


# --- scenario helpers ------------------------------------------------------------------------------------


def member_option(h: Harness, name: str) -> tuple[str, dict[str, Any]]:
    """A user option's value and the ``resolved`` data Discord sends with it."""
    member = h.members[name]
    user = {"id": str(member.id), "username": member.name, "discriminator": "0", "global_name": None, "avatar": None}
    resolved = {"users": {str(member.id): user},
                "members": {str(member.id): {"roles": [], "nick": member.nick, "joined_at": "2025-01-01T00:00:00+00:00",
                                             "deaf": False, "mute": False, "flags": 0, "permissions": "0"}}}
    return str(member.id), resolved


def command_data(h: Harness, name: str, sub: str | None = None, /, **options: Any) -> dict[str, Any]:
    """The ``data`` Discord sends for ``/name [sub] options``: a ``member`` option names a harness member."""
    root = h.bot.tree.get_command(name)
    assert root is not None, f"no /{name}"
    command = root
    if sub is not None:
        assert isinstance(root, app_commands.Group), f"/{name} is not a group"
        command = root.get_command(sub)
        assert isinstance(command, app_commands.Command), f"no /{name} {sub}"
    params = {p.name: p for p in command.parameters}
    opts, resolved = [], {}
    for key, value in options.items():
        if key == "member":
            value, resolved = member_option(h, value)
        opts.append({"name": params[key].display_name, "type": params[key].type.value, "value": value})
    if sub is not None:
        opts = [{"name": command.name, "type": 1, "options": opts}]
    return {"id": str(snowflake()), "name": root.name, "type": 1, "guild_id": str(GUILD_ID), "options": opts,
            **({"resolved": resolved} if resolved else {})}


async def open_table(h: Harness, host: str = "alice", joiners: Iterable[str] = (), bots: int = 0,
                     options: str = "", channel: Any = None) -> tuple[int, Sent]:
    """/play, then Join and Add bot clicks; returns the table's channel id and the lobby message."""
    kwargs = {"options": options} if options else {}
    await h.slash("play", host, channel, game="flying_blades", **kwargs)
    lobby = h.with_button(":lobby:join:")
    for user in joiners:
        await h.click(lobby, ":lobby:join:", user)
    for _ in range(bots):
        await h.click(lobby, ":lobby:bot:", host)
    return lobby.channel_id, lobby


def drain_command_errors() -> None:
    """Forget the command errors dpytest queued outside `Harness.say`: a hybrid command run as a slash command
    reports its (handled) error to the same module-wide queue, and the next test's first typed message, in
    whatever test runs next, would raise it."""
    queue = dpytest.runner.error_queue
    while not queue.empty():
        queue.get_nowait()


async def start_table(h: Harness, host: str = "alice", joiners: Iterable[str] = (), bots: int = 0,
                      options: str = "", keep_none: bool = True) -> int:
    """A started game (its channel); with ``keep_none`` every human keeps no cards so that play begins."""
    channel_id, lobby = await open_table(h, host, joiners, bots, options)
    await h.click(lobby, ":lobby:start:", host)
    if keep_none and "cards=none" not in options:
        for user in [host, *joiners]:
            menu = (await h.click(h.with_button(":choose:"), ":choose:", user))[-1]
            await h.click(menu, ":keepnone:", user)
    return channel_id


async def resign(h: Harness, user: str, channel: Any, answer: str = "Resign") -> list[Sent]:
    """/resign, then the answer on the confirmation it shows (only to ``user``); returns both steps' sends."""
    asked = await h.slash("resign", user, channel)
    question = asked[-1]
    assert question.ephemeral and answer in question.labels(), question.text
    return asked + await h.click(question, answer, user)


def select_value(message: Sent, kind: str, action: str) -> dict[str, Any] | None:
    """The select of ``kind`` (in its custom_id) on ``message`` if it offers ``action``."""
    for c in walk(message.components):
        if c.get("type") == 3 and f":{kind}:" in c["custom_id"]:
            return c if any(o["value"] == action for o in c["options"]) else None
    return None


async def choose_select(h: Harness, message: Sent, kind: str, action: str, user: str = "alice") -> list[Sent]:
    select = select_value(message, kind, action)
    assert select is not None, (kind, action)
    payload = h.select_payload(message, [action], user)
    payload["data"]["custom_id"] = select["custom_id"]
    return await h.feed(payload)


def forged_message(h: Harness, board: Sent, component: dict[str, Any]) -> Sent:
    """discord.py only dispatches a custom_id that the clicked message carries: put the forged one on a copy of
    ``board``."""
    forged = deepcopy(h.current(board))
    forged.message_id = snowflake()
    forged.components = [{"type": 1, "components": [component]}]
    h.messages[forged.message_id] = forged
    return forged


async def table_of(h: Harness, channel_id: int) -> Any:
    table = await h.bot.engine.table_in_channel(channel_id)
    assert table is not None
    return table


def user_of(seat_user_id: int | None) -> str:
    return next(name for name, uid in USERS.items() if uid == seat_user_id)
