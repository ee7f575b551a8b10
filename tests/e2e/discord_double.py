"""A local stand-in for Discord that a real ``python bot.py`` process talks to (REST and the gateway).

One aiohttp server on 127.0.0.1 (a free port) plays Discord for one guild with one text channel, or for several
guilds (``guilds=N``, each with a #general) spread over ``shards`` gateway shards as Discord routes them,
``(guild_id >> 22) % shards`` (guild i on shard i % shards):

* the gateway (``/gateway``, and ``/resume`` given as ``resume_gateway_url``): HELLO, IDENTIFY → READY and
  GUILD_CREATE, heartbeats → ACKs, RESUME → replay of what the client missed, then RESUMED; dispatches carry a
  rising ``s``. Events raised while no socket is live are kept and replayed on RESUME, as Discord does. Each
  IDENTIFY (with ``shard: [id, count]``, or none: every guild) opens a session of its own: READY and GUILD_CREATE
  for the guilds of its shard only, and every later event of a guild (messages, interactions) goes to the session
  holding that guild's shard (DMs: shard 0); an event of a shard nobody holds is lost, as on Discord;
* the REST routes the bot uses (``/api/v10``): login, application info, command sync, channel messages (JSON or
  multipart with files), threads, interaction callbacks, webhook follow-ups and ``@original`` edits. A route it
  does not know is logged loudly and answered 404 (``unknown`` lists them, so a test can fail on them).

It answers the way discord.py 2.7 needs (measured, see shared/notes/libraries-text-geometry-e2e.md §3): the
Content-Type exactly ``application/json``, ``X-RateLimit-*`` headers on every answer, a 429 with ``Via`` and
``{retry_after, global}``. It enforces what Discord enforces and the bot could get wrong: an interaction is
answered once, within 3 s; a token is checked; a bucket's advertised limit (an excess is a 429, counted).

Everything the bot sends is recorded (`Sent`: content, embeds, components, attachment bytes, who is pinged)
and applied to the messages it keeps (`Message`), so a test can click the buttons of any message, even one sent
before the bot was restarted. Faults are injected on request: `fail_next` (429 with retry_after, 500, 502 on
the next N requests of a route), `stall_next` (hold a request until released: kill the bot meanwhile) and
`drop_gateway` (abort the websocket: the bot must reconnect and RESUME by itself).

Users act through `slash` (with the command ids from the bot's sync), `click`, `select` and `say`.

Several bot processes can be told apart: one given `api_url_for(tag)` (and `gateway_url_for(tag)`) talks to
``/p/<tag>/api/v10``; whatever it sends is recorded with ``by=tag`` (`Sent.by`, ``identifies[i]["by"]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
import logging
import math
import re
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

log = logging.getLogger("discord_double")

T = TypeVar("T")
API = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL, LOADING = 1 << 6, 1 << 7
INTERACTION_DEADLINE = 3.0  # seconds Discord waits for an interaction's first response
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, ACK = (
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11)
AUTH_FAILED = 4004
# Permission bits (Discord's): what the README asks the bot's invite for, and what members have.
VIEW, SEND, EMBED, ATTACH, HISTORY = 1 << 10, 1 << 11, 1 << 14, 1 << 15, 1 << 16
ADD_REACTIONS, MANAGE_GUILD, APP_COMMANDS = 1 << 6, 1 << 5, 1 << 31
CREATE_PUBLIC_THREADS, SEND_IN_THREADS = 1 << 35, 1 << 38
MEMBER_PERMISSIONS = VIEW | SEND | EMBED | ATTACH | HISTORY | ADD_REACTIONS | APP_COMMANDS | SEND_IN_THREADS
BOT_PERMISSIONS = MEMBER_PERMISSIONS | CREATE_PUBLIC_THREADS
ALL_PERMISSIONS = (1 << 51) - 1
USER_RE = re.compile(r"<@!?(\d+)>")
INVALID_SHARD = 4010
TAGGED = re.compile(r"/p/(?P<tag>[A-Za-z0-9_-]+)(?P<rest>/.*)")
BY: contextvars.ContextVar[str] = contextvars.ContextVar("by", default="")  # the tag of the request being served


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Current-time snowflakes, strictly rising (an interaction older than 15 min counts as expired)."""

    def __init__(self) -> None:
        self.last = 0

    def __call__(self) -> int:
        self.last = max((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22, self.last + 1)
        return self.last

    def on_shard(self, shard: int, count: int) -> int:
        """A rising snowflake that Discord's routing, ``(id >> 22) % count``, puts on ``shard``."""
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self.last >> 22) + 1)
        ms += (shard - ms) % count
        self.last = ms << 22
        return self.last


# --- the world ---------------------------------------------------------------------------------------------


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    permissions: int = MEMBER_PERMISSIONS

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name.title(),
                "avatar": None, "bot": self.bot, "public_flags": 0, "flags": 0}

    def member(self, roles: Iterable[int] = ()) -> dict[str, Any]:
        return {"user": self.payload(), "roles": [str(r) for r in roles], "nick": None, "avatar": None,
                "joined_at": "2025-01-01T00:00:00+00:00", "premium_since": None, "deaf": False, "mute": False,
                "pending": False, "flags": 0, "communication_disabled_until": None}


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"

    def payload(self, base: str) -> dict[str, Any]:
        url = f"{base}/attachments/{self.id}/{self.filename}"
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": url,
                "proxy_url": url, "content_type": self.content_type}


@dataclass
class Message:
    """A message as Discord keeps it now (edits applied)."""

    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    webhook_id: int | None = None
    edited: str | None = None
    deleted: bool = False
    created: str = field(default_factory=now_iso)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk(self.components) if "custom_id" in c]

    def labels(self) -> list[str]:
        return [c.get("label", "") for c in walk(self.components) if c.get("type") == 2]

    def button(self, which: str) -> dict[str, Any] | None:
        """The button labelled ``which``, else the first whose custom_id contains it."""
        buttons = [c for c in walk(self.components) if c.get("type") == 2 and "custom_id" in c]
        return next((b for b in buttons if b.get("label") == which), None) or next(
            (b for b in buttons if which in b["custom_id"]), None)

    @property
    def text(self) -> str:
        return text_of(self.content, self.embeds)


@dataclass
class Sent:
    """One thing the bot did to a message: kind is message | response | defer | ack | update | followup | edit
    | delete; ``files`` are the attachment bytes uploaded with it."""

    kind: str
    channel_id: int
    message_id: int | None
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    pinged: list[int] = field(default_factory=list)
    interaction_id: int | None = None
    at: float = 0.0
    reference: int | None = None  # the message it replies to (``message_reference``), if any
    by: str = ""  # the tag of the bot process that sent it (`DiscordDouble.api_url_for`), "" untagged

    @property
    def public(self) -> bool:
        return not self.ephemeral

    @property
    def text(self) -> str:
        return text_of(self.content or "", self.embeds)

    def pngs(self) -> list[bytes]:
        return [data for name, data in self.files if name.lower().endswith((".png", ".webp"))]


@dataclass
class Interaction:
    """An interaction a user made, and how the bot answered it."""

    id: int
    token: str
    type: int
    channel_id: int
    user: User
    data: dict[str, Any]
    created: float
    message_id: int | None = None  # the message a component was on
    callbacks: list[tuple[int, float]] = field(default_factory=list)  # (response type, seconds after creation)
    refused: list[str] = field(default_factory=list)  # callbacks Discord refused (twice, too late)
    original_id: int | None = None
    followups: list[int] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return bool(self.callbacks)


@dataclass
class Fault:
    status: int
    route: str
    retry_after: float = 0.5
    is_global: bool = False


@dataclass
class Stall:
    """A request of ``route`` held until `release` (``arrived`` is set when it comes in); with ``processed``, it
    is applied first and only its answer is held (``arrived`` is set once it is applied)."""

    route: str
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    abandoned: bool = False
    processed: bool = False

    def release(self) -> None:
        self.released.set()


@dataclass
class Bucket:
    limit: int
    window: float
    start: float = 0.0
    count: int = 0


@dataclass
class Guild:
    id: int
    channel_id: int  # its #general
    bot_role_id: int
    name: str


@dataclass
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    path: str
    sent_seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    heartbeats: int = 0
    by: str = ""

    @property
    def closed(self) -> bool:
        return self.ws.closed or self.request.transport is None or self.request.transport.is_closing()


@dataclass
class Session:
    """One gateway session: the shard it holds (``[id, count]``; ``[0, 1]``: every guild), its event log (replayed
    on RESUME) and its live socket."""

    shard: tuple[int, int]
    id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    live: Connection | None = None

    def holds(self, guild_id: int | None) -> bool:
        shard, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Request:
    method: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Attachment]


def walk(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk(c.get("components", []))


def text_of(content: str, embeds: list[dict[str, Any]]) -> str:
    parts = [content]
    for e in embeds:
        parts += [e.get("title", ""), e.get("description", ""), e.get("footer", {}).get("text", "")]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
    return "\n".join(p for p in parts if p)


def pinged(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Who a message notifies: users mentioned in its content that its allowed_mentions lets through."""
    mentioned = [int(u) for u in USER_RE.findall(content or "")]
    if allowed is None:
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in listed]


# --- routes ------------------------------------------------------------------------------------------------

_ID = r"(?P<{}>[0-9]+)"
ROUTES: list[tuple[str, str, str]] = [  # method, path below /api/v10, handler (also the route's name)
    ("GET", r"/users/@me", "get_me"),
    ("GET", r"/oauth2/applications/@me", "get_application"),
    ("GET", r"/gateway(?:/bot)?", "get_gateway"),
    ("PUT", rf"/applications/{_ID.format('app')}(?:/guilds/{_ID.format('guild')})?/commands", "put_commands"),
    ("GET", rf"/applications/{_ID.format('app')}(?:/guilds/{_ID.format('guild')})?/commands", "get_commands"),
    ("POST", rf"/channels/{_ID.format('channel')}/messages", "post_message"),
    ("GET", rf"/channels/{_ID.format('channel')}/messages", "get_messages"),
    ("GET", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}", "get_message"),
    ("PATCH", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}", "edit_message"),
    ("DELETE", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}", "delete_message"),
    ("POST", rf"/channels/{_ID.format('channel')}/threads", "start_thread"),
    ("POST", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}/threads", "start_thread"),
    ("GET", rf"/channels/{_ID.format('channel')}", "get_channel"),
    ("PATCH", rf"/channels/{_ID.format('channel')}", "edit_channel"),
    ("DELETE", rf"/channels/{_ID.format('channel')}", "delete_channel"),
    ("POST", rf"/channels/{_ID.format('channel')}/typing", "no_content"),
    ("PUT", rf"/channels/{_ID.format('channel')}/thread-members/@me", "no_content"),
    ("PUT", rf"/channels/{_ID.format('channel')}/thread-members/(?P<user>[0-9]+)", "add_thread_member"),
    ("DELETE", rf"/channels/{_ID.format('channel')}/thread-members/(?P<user>[0-9]+)", "remove_thread_member"),
    ("PUT", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}/reactions/[^/]+/@me",
     "no_content"),
    ("DELETE", rf"/channels/{_ID.format('channel')}/messages/{_ID.format('message')}/reactions/[^/]+/@me",
     "no_content"),
    ("POST", r"/users/@me/channels", "open_dm"),
    ("POST", rf"/interactions/{_ID.format('interaction')}/(?P<token>[^/]+)/callback", "callback"),
    ("POST", rf"/webhooks/{_ID.format('app')}/(?P<token>[^/]+)", "followup"),
    ("GET", rf"/webhooks/{_ID.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|[0-9]+)",
     "get_webhook_message"),
    ("PATCH", rf"/webhooks/{_ID.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|[0-9]+)",
     "edit_webhook_message"),
    ("DELETE", rf"/webhooks/{_ID.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|[0-9]+)",
     "delete_webhook_message"),
]
COMPILED = [(m, re.compile(p), name) for m, p, name in ROUTES]
ROUTE_NAMES = frozenset(name for _, _, name in ROUTES)
NO_AUTH = frozenset({"callback", "followup", "get_webhook_message", "edit_webhook_message",
                     "delete_webhook_message"})
MAJOR = ("channel", "guild", "token", "app")


class DiscordDouble:
    """Discord for ``guilds`` guilds (the first: `guild_id`, its text channel `channel_id`; all in `guilds`) on
    ``shards`` gateway shards, its bot and a few users."""

    def __init__(self, *, token: str = "e2e.fake.token", heartbeat_ms: int = 1000, rate_limit: int = 50,
                 rate_window: float = 1.0, guilds: int = 1, shards: int = 1) -> None:
        self.token = token
        self.heartbeat_ms = heartbeat_ms
        self.rate_limit, self.rate_window = rate_limit, rate_window
        self.shard_count = shards
        self.snowflake = Snowflakes()
        self.app_id = self.snowflake()
        self.guilds = [Guild(self.snowflake.on_shard(i % shards, shards), self.snowflake(), self.snowflake(),
                             "Floorboard E2E" if i == 0 else f"Floorboard E2E {i + 1}") for i in range(guilds)]
        self.guild_id, self.channel_id = self.guilds[0].id, self.guilds[0].channel_id
        self.bot = User(self.app_id, "Floorboard", bot=True, permissions=BOT_PERMISSIONS)
        self.users = {name: User(self.snowflake(), name) for name in ("alice", "bob", "carol")}
        self.channels: dict[int, dict[str, Any]] = {
            g.channel_id: self.text_channel(g.channel_id, "general", g.id) for g in self.guilds}
        self.threads: list[int] = []
        self.messages: dict[int, Message] = {}
        self.sent: list[Sent] = []
        self.thread_members: dict[int, set[int]] = {}  # thread → the users the bot added (and did not remove)
        self.on_sent: list[Callable[[Sent], None]] = []  # called with each `Sent` as it is recorded
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # by guild id (None: global)
        self.syncs = 0
        # gateway
        self.sessions: list[Session] = []  # the newest IDENTIFY of a shard replaces its older session
        self.connections: list[Connection] = []
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.drops = 0
        # REST
        self.requests: list[tuple[str, str, int]] = []  # method, path, status
        self.unknown: list[str] = []
        self.faults: list[Fault] = []
        self.faults_served: list[tuple[int, str]] = []
        self.stalls: list[Stall] = []
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.rate_limit_violations: list[str] = []
        self.changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -----------------------------------------------------------------------------------------

    async def start(self) -> DiscordDouble:
        app = web.Application(client_max_size=64 << 20)
        app.router.add_get("/gateway", self.gateway)
        app.router.add_get("/resume", self.gateway)
        app.router.add_get("/p/{tag}/gateway", self.gateway)
        app.router.add_get("/p/{tag}/resume", self.gateway)
        app.router.add_route("*", "/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for stall in self.stalls:
            stall.abandoned = True
            stall.release()
        for conn in self.connections:
            if not conn.ws.closed:
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        for task in list(self._tasks):
            task.cancel()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return self.base + API

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def api_url_for(self, tag: str) -> str:
        """The REST base for the bot process named ``tag``: what it sends is recorded with ``by=tag``."""
        return f"{self.base}/p/{tag}{API}"

    def gateway_url_for(self, tag: str) -> str:
        return f"ws://127.0.0.1:{self.port}/p/{tag}/gateway"

    @property
    def live(self) -> Connection | None:
        """The live socket of the first guild's session (the only one with one shard)."""
        session = self.session_of(self.guild_id)
        return session.live if session is not None else None

    def session_of(self, guild_id: int | None) -> Session | None:
        """The session holding ``guild_id``'s shard (DMs: shard 0's), None when no process holds it."""
        return next((s for s in reversed(self.sessions) if s.holds(guild_id)), None)

    def guild_of(self, channel_id: int | str) -> int | None:
        channel = self.channels.get(int(channel_id))
        return int(channel["guild_id"]) if channel and channel.get("guild_id") else None

    def guild(self, guild_id: int) -> Guild:
        return next(g for g in self.guilds if g.id == guild_id)

    def touch(self) -> None:
        """Something changed: wake whoever waits (`wait_for`)."""
        self.changed.set()

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_for(self, predicate: Callable[[], T], what: str, timeout: float = 20.0,
                       check: Callable[[], None] | None = None) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change and every 50 ms); ``check`` may
        raise to stop early (e.g. the bot process died). Raises TimeoutError naming ``what``."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if check is not None:
                check()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(left, 0.05))

    # --- faults --------------------------------------------------------------------------------------------

    def fail_next(self, status: int, *, count: int = 1, route: str = "post_message", retry_after: float = 0.5,
                  is_global: bool = False) -> None:
        """Answer the next ``count`` requests of ``route`` (a handler name of ROUTES) with ``status`` (429: a
        rate limit with ``retry_after``; 500/502: a server error) without processing them."""
        assert route in ROUTE_NAMES, f"no route {route!r}"
        self.faults += [Fault(status, route, retry_after, is_global) for _ in range(count)]

    def stall_next(self, route: str = "post_message", *, processed: bool = False) -> Stall:
        """Hold the next request of ``route`` until the returned `Stall` is released; with ``processed``, apply it
        at once and hold only its answer (Discord has it, the bot does not know yet: kill the bot meanwhile)."""
        assert route in ROUTE_NAMES, f"no route {route!r}"
        stall = Stall(route, processed=processed)
        self.stalls.append(stall)
        return stall

    def drop_gateway(self) -> None:
        """Abort the live gateway socket of the first guild's session (no close frame): the bot has to notice,
        reconnect and RESUME."""
        session = self.session_of(self.guild_id)
        conn = session.live if session is not None else None
        assert session is not None and conn is not None, "no live gateway connection to drop"
        session.live = None
        self.drops += 1
        transport = conn.request.transport
        if transport is not None:
            transport.abort()
        self.touch()

    # --- the gateway ---------------------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=16 << 20)
        await ws.prepare(request)
        conn = Connection(ws, request, request.path, by=request.match_info.get("tag", ""))
        self.connections.append(conn)
        await self.send(conn, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self.on_gateway(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    log.error("binary gateway frame from the client (not expected): %r", msg.data[:40])
        except ConnectionError:  # dropped by drop_gateway, or the bot was killed
            pass
        finally:
            for session in self.sessions:
                if session.live is conn:
                    session.live = None
            self.touch()
        return ws

    async def send(self, conn: Connection, payload: dict[str, Any]) -> None:
        if not conn.closed:
            # dropped meanwhile: RESUME replays what was missed
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.send_str(json.dumps(payload))

    async def on_gateway(self, conn: Connection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            self.heartbeats += 1
            await self.send(conn, {"op": ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self.on_identify(conn, data)
        elif op == RESUME:
            await self.on_resume(conn, data)
        elif op in (PRESENCE, REQUEST_MEMBERS):
            pass
        else:
            log.error("unknown gateway op %s from the client: %r", op, msg)
        self.touch()

    async def on_identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=AUTH_FAILED, message=b"Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        # [0, 1] (no sharding: every guild) or a shard of the count /gateway/bot advertises
        if len(shard) != 2 or shard[1] not in (1, self.shard_count) or not 0 <= shard[0] < shard[1]:
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        self.identifies.append({"intents": data.get("intents"), "path": conn.path, "shard": list(shard),
                                "by": conn.by})
        session = Session((shard[0], shard[1]), live=conn)
        self.sessions = [s for s in self.sessions if s.shard != session.shard] + [session]
        held = [g for g in self.guilds if session.holds(g.id)]
        self.dispatch("READY", self.ready_payload(session, held), session)
        for guild in held:
            self.dispatch("GUILD_CREATE", self.guild_payload(guild), session)

    async def on_resume(self, conn: Connection, data: dict[str, Any]) -> None:
        seq = data.get("seq") or 0
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if data.get("token") != self.token or session is None or seq > session.seq:
            await self.send(conn, {"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resumes.append({"seq": seq, "missed": session.seq - seq, "path": conn.path, "shard": list(session.shard)})
        conn.sent_seq = seq
        session.live = conn
        self.dispatch("RESUMED", {}, session)  # after the replay: flush sends everything past ``seq`` in order

    def dispatch(self, event: str, data: dict[str, Any], session: Session | None = None) -> None:
        """Raise a gateway event in ``session`` (by default the one holding the event's guild: Discord sends a
        guild's events on its shard): kept in the session's log, sent now if a socket is live. No session holds
        that shard: the event is lost, as when no process is connected."""
        if session is None:
            session = self.session_of(int(data["guild_id"]) if data.get("guild_id") else None)
        if session is None:
            log.info("no gateway session holds the shard of %s: dropped", event)
            self.touch()
            return
        session.seq += 1
        session.events.append({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        if session.live is not None:
            self.spawn(self.flush(session, session.live))
        self.touch()

    async def flush(self, session: Session, conn: Connection) -> None:
        async with conn.lock:
            for event in session.events:
                if event["s"] > conn.sent_seq and not conn.closed and session.live is conn:
                    await self.send(conn, event)
                    conn.sent_seq = event["s"]

    def ready_payload(self, session: Session, guilds: list[Guild]) -> dict[str, Any]:
        return {
            "v": 10, "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds], "session_id": session.id,
            "resume_gateway_url": self.resume_url(session), "session_type": "normal",
            "application": {"id": str(self.app_id), "flags": 0}, "private_channels": [], "relationships": [],
            "presences": [], "geo_ordered_rtc_regions": [], "_trace": ["discord-double"],
            **({"shard": list(session.shard)} if session.shard != (0, 1) else {}),
        }

    def resume_url(self, session: Session) -> str:
        tag = session.live.by if session.live is not None else ""
        return f"ws://127.0.0.1:{self.port}" + (f"/p/{tag}" if tag else "") + "/resume"

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        everyone = self.role(guild.id, "@everyone", MEMBER_PERMISSIONS, position=0)
        bot_role = self.role(guild.bot_role_id, self.bot.name, BOT_PERMISSIONS, position=1,
                             tags={"bot_id": str(self.app_id)})
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(guild.id)]
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.users["carol"].id), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 1,
            "explicit_content_filter": 0, "roles": [everyone, bot_role], "emojis": [], "features": [],
            "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "max_members": 500000, "vanity_url_code": None, "description": None,
            "banner": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": None, "nsfw_level": 0, "stickers": [], "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None, "joined_at": "2025-01-01T00:00:00+00:00", "large": False,
            "unavailable": False, "member_count": 1 + len(self.users), "voice_states": [],
            "members": [self.bot.member([guild.bot_role_id])],
            "channels": [c for c in mine if c["type"] == 0],
            "threads": [c for c in mine if "thread_metadata" in c],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }

    @staticmethod
    def role(role_id: int, name: str, permissions: int, *, position: int,
             tags: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "icon": None, "unicode_emoji": None,
                "position": position, "permissions": str(permissions), "managed": tags is not None,
                "mentionable": False, "flags": 0, **({"tags": tags} if tags else {})}

    @staticmethod
    def text_channel(channel_id: int, name: str, guild_id: int) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": name, "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                "last_message_id": None, "rate_limit_per_user": 0, "default_auto_archive_duration": 10080,
                "default_thread_rate_limit_per_user": 0, "flags": 0}

    # --- REST: the frame ------------------------------------------------------------------------------------

    async def rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        tagged = TAGGED.fullmatch(path)
        if tagged is not None:  # a process told apart by its API base (api_url_for): served in its own task
            BY.set(tagged["tag"])
            path = tagged["rest"]
        found = self.match(request.method, path)
        if found is None:
            return self.not_found(request)
        route, params = found
        if route not in NO_AUTH and request.headers.get("Authorization") != f"Bot {self.token}":
            return self.reply(request, route, 401, {"message": "401: Unauthorized", "code": 0})
        stall = next((s for s in self.stalls if s.route == route and not s.arrived.is_set() and not s.processed),
                     None)
        if stall is not None and await self.held(request, stall):
            return self.reply(request, route, 503, {"message": "abandoned", "code": 0})
        fault = next((f for f in self.faults if f.route == route), None)
        if fault is not None:
            self.faults.remove(fault)
            return self.fault_reply(request, route, params, fault)
        over = self.count(route, params)
        if over is not None:
            return over
        body, files = await self.read_body(request)
        try:
            status, answer = await getattr(self, route)(
                Request(request.method, route, params, dict(request.query), body, files))
        except DiscordError as e:
            status, answer = e.status, {"message": e.message, "code": e.code}
        stall = next((s for s in self.stalls if s.route == route and not s.arrived.is_set() and s.processed), None)
        if stall is not None:
            await self.held(request, stall)  # applied: only the answer waits (and is lost if the client went away)
        return self.reply(request, route, status, answer, params)

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        if not path.startswith(API + "/"):
            return None
        rest = path[len(API):]
        for m, pattern, name in COMPILED:
            hit = pattern.fullmatch(rest)
            if m == method and hit:
                return name, {k: v for k, v in hit.groupdict().items() if v is not None}
        return None

    def not_found(self, request: web.Request) -> web.Response:
        line = f"{request.method} {request.path_qs}"
        self.unknown.append(line)
        log.error("DISCORD DOUBLE: UNKNOWN ROUTE %s (answered 404)", line)
        print(f"DISCORD DOUBLE: UNKNOWN ROUTE {line} (answered 404)", file=sys.stderr)
        self.touch()
        return json_response(404, {"message": "404: Not Found", "code": 0})

    async def held(self, request: web.Request, stall: Stall) -> bool:
        """Hold a stalled request; True when its client went away meanwhile (nothing is processed then)."""
        stall.arrived.set()
        self.touch()
        await stall.released.wait()
        transport = request.transport
        stall.abandoned = stall.abandoned or transport is None or transport.is_closing()
        return stall.abandoned

    def fault_reply(self, request: web.Request, route: str, params: dict[str, str], fault: Fault) -> web.Response:
        self.faults_served.append((fault.status, f"{request.method} {request.path}"))
        self.requests.append((request.method, request.path, fault.status))
        self.touch()
        if fault.status == 429:
            headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(fault.retry_after)),
                       "X-RateLimit-Scope": "global" if fault.is_global else "user",
                       **({"X-RateLimit-Global": "true"} if fault.is_global else self.limit_headers(route, params))}
            body = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                    "global": fault.is_global, "code": 0}
            return json_response(429, body, headers)
        if fault.status == 502:  # Cloudflare's gateway error is an HTML page
            return web.Response(status=502, text="<html><body>502 Bad Gateway</body></html>",
                                content_type="text/html")
        return json_response(fault.status, {"message": f"{fault.status}: Internal Server Error", "code": 0})

    def bucket_key(self, route: str, params: dict[str, str]) -> tuple[str, str]:
        major = next((f"{k}={params[k]}" for k in MAJOR if k in params), "")
        return route, major

    def count(self, route: str, params: dict[str, str]) -> web.Response | None:
        """Count the request in its bucket; past the advertised limit Discord answers 429 (a violation)."""
        bucket = self.buckets.setdefault(self.bucket_key(route, params), Bucket(self.rate_limit, self.rate_window))
        now = time.monotonic()
        if now - bucket.start >= bucket.window:
            bucket.start, bucket.count = now, 0
        bucket.count += 1
        if bucket.count <= bucket.limit:
            return None
        left = bucket.window - (now - bucket.start)
        self.rate_limit_violations.append(f"{route} {params}")
        headers = {"Via": "1.1 google", "X-RateLimit-Scope": "user", **self.limit_headers(route, params)}
        return json_response(429, {"message": "You are being rate limited.", "retry_after": round(left, 3),
                                   "global": False, "code": 0}, headers)

    def limit_headers(self, route: str, params: dict[str, str]) -> dict[str, str]:
        bucket = self.buckets.setdefault(self.bucket_key(route, params), Bucket(self.rate_limit, self.rate_window))
        left = max(0.0, bucket.window - (time.monotonic() - bucket.start))
        return {"X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.count)),
                "X-RateLimit-Reset": f"{time.time() + left:.3f}", "X-RateLimit-Reset-After": f"{left:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16]}

    def reply(self, request: web.Request, route: str, status: int, body: Any,
              params: dict[str, str] | None = None) -> web.Response:
        self.requests.append((request.method, request.path, status))
        self.touch()
        headers = self.limit_headers(route, params or {})
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        return json_response(status, body, headers)

    async def read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            files: list[Attachment] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                elif getattr(part, "filename", None):
                    data = bytes(await part.read())  # type: ignore[union-attr]
                    ctype = part.headers.get("Content-Type", "application/octet-stream")
                    files.append(Attachment(self.snowflake(), part.filename, data, ctype))  # type: ignore[arg-type]
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    # --- REST: login and commands --------------------------------------------------------------------------

    async def get_me(self, req: Request) -> tuple[int, Any]:
        return 200, {**self.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def get_application(self, req: Request) -> tuple[int, Any]:
        owner = self.users["carol"]
        return 200, {
            "id": str(self.app_id), "name": self.bot.name, "icon": None, "description": "", "summary": "",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False, "bot": self.bot.payload(),
            "owner": owner.payload(), "team": None, "verify_key": "0" * 64, "flags": 1 << 19, "hook": True,
            "interactions_endpoint_url": None, "redirect_uris": [], "tags": [],
        }

    async def get_gateway(self, req: Request) -> tuple[int, Any]:
        url = self.gateway_url_for(BY.get()) if BY.get() else self.gateway_url
        return 200, {"url": url, "shards": self.shard_count,
                     "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 86400000,
                                             "max_concurrency": 1}}

    async def put_commands(self, req: Request) -> tuple[int, Any]:
        """Bulk overwrite: a command keeps its id while its name stays (as Discord does)."""
        guild = int(req.params["guild"]) if "guild" in req.params else None
        old = {c["name"]: c["id"] for c in self.commands.get(guild, [])}
        out = []
        for cmd in req.body:
            full = {"type": 1, "description": "", "options": [], "default_member_permissions": None,
                    "nsfw": False, **cmd, "id": old.get(cmd["name"]) or str(self.snowflake()),
                    "application_id": str(self.app_id), "version": str(self.snowflake())}
            if guild is not None:
                full["guild_id"] = str(guild)
            out.append(full)
        self.commands[guild] = out
        self.syncs += 1
        return 200, out

    async def get_commands(self, req: Request) -> tuple[int, Any]:
        return 200, self.commands.get(int(req.params["guild"]) if "guild" in req.params else None, [])

    # --- REST: channels and messages -----------------------------------------------------------------------

    def channel(self, channel_id: int | str) -> dict[str, Any]:
        found = self.channels.get(int(channel_id))
        if found is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return found

    def message(self, channel_id: int | str, message_id: int | str) -> Message:
        found = self.messages.get(int(message_id))
        if found is None or found.deleted or found.channel_id != int(channel_id):
            raise DiscordError(404, 10008, "Unknown Message")
        return found

    def message_payload(self, msg: Message, *, gateway: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(msg.id), "channel_id": str(msg.channel_id), "author": msg.author.payload(),
            "content": msg.content, "embeds": [{"type": "rich", **e} for e in msg.embeds],
            "components": msg.components, "attachments": [a.payload(self.base) for a in msg.attachments],
            "timestamp": msg.created, "edited_timestamp": msg.edited, "tts": False, "mention_everyone": False,
            "mentions": [self.user_by_id(u).payload() for u in USER_RE.findall(msg.content)
                         if self.user_by_id(u) is not None],
            "mention_roles": [], "pinned": False, "type": 20 if msg.interaction_id else 0, "flags": msg.flags,
        }
        if msg.webhook_id is not None:
            payload |= {"webhook_id": str(msg.webhook_id), "application_id": str(self.app_id)}
        guild_id = self.guild_of(msg.channel_id)
        if gateway and guild_id is not None:
            payload |= {"guild_id": str(guild_id), "member": {k: v for k, v in msg.author.member().items()
                                                                     if k != "user"}}
        return payload

    def user_by_id(self, user_id: int | str) -> User | None:
        uid = int(user_id)
        return self.bot if uid == self.bot.id else next((u for u in self.users.values() if u.id == uid), None)

    def new_message(self, channel_id: int, author: User, body: dict[str, Any], files: list[Attachment], *,
                    flags: int = 0, interaction_id: int | None = None) -> Message:
        msg = Message(self.snowflake(), channel_id, author, body.get("content") or "", body.get("embeds") or [],
                      body.get("components") or [], list(files), flags | (body.get("flags") or 0) & EPHEMERAL,
                      interaction_id, self.app_id if interaction_id else None)
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            self.dispatch("MESSAGE_CREATE", self.message_payload(msg, gateway=True))
        return msg

    def apply_edit(self, msg: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "attachments" in body:  # the attachments listed by id stay; new uploads are added
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
        msg.attachments += files
        msg.flags &= ~LOADING
        msg.edited = now_iso()
        if not msg.ephemeral:
            self.dispatch("MESSAGE_UPDATE", self.message_payload(msg, gateway=True))

    def record(self, kind: str, msg: Message | None, body: dict[str, Any] | None, files: list[Attachment], *,
               channel_id: int | None = None, interaction_id: int | None = None) -> Sent:
        body = body or {}
        sent = Sent(kind, channel_id or (msg.channel_id if msg else 0), msg.id if msg else None,
                    body.get("content"), body.get("embeds") or [], body.get("components") or [],
                    [(f.filename, f.data) for f in files], bool(msg and msg.ephemeral),
                    pinged(body.get("content") or "", body.get("allowed_mentions")), interaction_id,
                    time.monotonic(), by=BY.get())
        reference = (body.get("message_reference") or {}).get("message_id")
        sent.reference = int(reference) if reference is not None else None
        self.sent.append(sent)
        for listener in self.on_sent:  # a benchmark's index of what is posted where
            listener(sent)
        return sent

    async def post_message(self, req: Request) -> tuple[int, Any]:
        channel_id = int(self.channel(req.params["channel"])["id"])
        body = req.body or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or req.files
                or body.get("sticker_ids")):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        if len(body.get("content") or "") > 2000:
            raise DiscordError(400, 50035, "Invalid Form Body: content must be 2000 or fewer in length.")
        msg = self.new_message(channel_id, self.bot, body, req.files)
        self.record("message", msg, body, req.files)
        return 200, self.message_payload(msg)

    async def get_messages(self, req: Request) -> tuple[int, Any]:
        channel_id = int(self.channel(req.params["channel"])["id"])
        limit = int(req.query.get("limit", 50))
        found = [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted
                 and not m.ephemeral]
        return 200, [self.message_payload(m) for m in reversed(found[-limit:])]

    async def get_message(self, req: Request) -> tuple[int, Any]:
        return 200, self.message_payload(self.message(req.params["channel"], req.params["message"]))

    async def edit_message(self, req: Request) -> tuple[int, Any]:
        msg = self.message(req.params["channel"], req.params["message"])
        if msg.author is not self.bot or msg.webhook_id is not None:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self.apply_edit(msg, req.body or {}, req.files)
        self.record("edit", msg, req.body, req.files)
        return 200, self.message_payload(msg)

    async def delete_message(self, req: Request) -> tuple[int, Any]:
        msg = self.message(req.params["channel"], req.params["message"])
        msg.deleted = True
        self.record("delete", msg, None, [])
        self.dispatch("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id),
                                         "guild_id": str(self.guild_of(msg.channel_id))})
        return 204, None

    async def start_thread(self, req: Request) -> tuple[int, Any]:
        parent = self.channel(req.params["channel"])
        body = req.body or {}
        thread_id = int(req.params["message"]) if "message" in req.params else self.snowflake()
        now = now_iso()
        thread = {
            "id": str(thread_id), "guild_id": parent["guild_id"], "parent_id": parent["id"],
            "owner_id": str(self.bot.id), "name": body.get("name", "thread")[:100], "type": body.get("type", 11),
            "last_message_id": None, "message_count": 0, "member_count": 1, "total_message_sent": 0,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": body.get("auto_archive_duration", 4320),
                                "archive_timestamp": now, "locked": False, "invitable": True,
                                "create_timestamp": now},
            "member": {"id": str(thread_id), "user_id": str(self.bot.id), "join_timestamp": now, "flags": 0},
        }
        self.channels[thread_id] = thread
        self.threads.append(thread_id)
        self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return 201, thread

    async def get_channel(self, req: Request) -> tuple[int, Any]:
        return 200, self.channel(req.params["channel"])

    async def edit_channel(self, req: Request) -> tuple[int, Any]:
        channel = self.channel(req.params["channel"])
        body = req.body or {}
        for key in ("name", "rate_limit_per_user"):
            if key in body:
                channel[key] = body[key]
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in body and "thread_metadata" in channel:
                channel["thread_metadata"][key] = body[key]
        self.dispatch("THREAD_UPDATE" if "thread_metadata" in channel else "CHANNEL_UPDATE", channel)
        return 200, channel

    async def delete_channel(self, req: Request) -> tuple[int, Any]:
        channel = self.channels.pop(int(self.channel(req.params["channel"])["id"]))
        event = "THREAD_DELETE" if "thread_metadata" in channel else "CHANNEL_DELETE"
        self.dispatch(event, {k: channel[k] for k in ("id", "guild_id", "parent_id", "type")})
        return 200, channel

    async def no_content(self, req: Request) -> tuple[int, Any]:
        return 204, None

    async def add_thread_member(self, req: Request) -> tuple[int, Any]:
        """A member added to a thread by the bot (spectators): kept in ``thread_members``."""
        self.thread_members.setdefault(int(req.params["channel"]), set()).add(int(req.params["user"]))
        return 204, None

    async def remove_thread_member(self, req: Request) -> tuple[int, Any]:
        self.thread_members.get(int(req.params["channel"]), set()).discard(int(req.params["user"]))
        return 204, None

    async def open_dm(self, req: Request) -> tuple[int, Any]:
        user = self.user_by_id((req.body or {}).get("recipient_id", 0))
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipients")
        dm_id = user.id + 1  # one DM channel per user, stable
        self.channels.setdefault(dm_id, {"id": str(dm_id), "type": 1, "recipients": [user.payload()],
                                         "last_message_id": None, "flags": 0})
        return 200, self.channels[dm_id]

    # --- REST: interactions ---------------------------------------------------------------------------------

    def interaction_by_token(self, token: str) -> Interaction:
        found = next((i for i in self.interactions.values() if i.token == token), None)
        if found is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return found

    async def callback(self, req: Request) -> tuple[int, Any]:
        inter = self.interactions.get(int(req.params["interaction"]))
        if inter is None or inter.token != req.params["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = req.body or {}
        if "type" not in body:
            raise DiscordError(400, 50035, "Invalid Form Body: type is required")
        age = asyncio.get_running_loop().time() - inter.created
        if inter.callbacks:
            inter.refused.append(f"callback {body['type']} after {inter.callbacks[0][0]}")
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if age > INTERACTION_DEADLINE:
            inter.refused.append(f"callback after {age:.2f}s")
            raise DiscordError(404, 10062, "Unknown interaction")
        kind, data = body["type"], body.get("data") or {}
        inter.callbacks.append((kind, age))
        msg = self.answer(inter, kind, data, req.files)
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        reply = {"id": str(inter.id), "type": inter.type, "response_message_loading": kind == 5,
                 "response_message_ephemeral": bool(msg and msg.ephemeral)}
        resource: dict[str, Any] = {"type": kind}
        if msg is not None and kind in (4, 5, 7):
            reply["response_message_id"] = str(msg.id)
            resource["message"] = self.message_payload(msg)
        return 200, {"interaction": reply, "resource": resource}

    def answer(self, inter: Interaction, kind: int, data: dict[str, Any], files: list[Attachment]) -> Message | None:
        """Apply an interaction response: 4 a message, 5 a "thinking…" message, 6 nothing to see, 7 the
        component's message edited."""
        if kind == 4:
            msg = self.new_message(inter.channel_id, self.bot, data, files, interaction_id=inter.id)
            inter.original_id = msg.id
            self.record("response", msg, data, files, interaction_id=inter.id)
            return msg
        if kind == 5:
            msg = self.new_message(inter.channel_id, self.bot, {"flags": data.get("flags", 0)}, [],
                                   flags=LOADING, interaction_id=inter.id)
            inter.original_id = msg.id
            self.record("defer", msg, None, [], interaction_id=inter.id)
            return msg
        if kind in (6, 7) and inter.message_id is not None:
            target = self.messages[inter.message_id]
            inter.original_id = target.id
            if kind == 7:
                self.apply_edit(target, data, files)
            self.record("update" if kind == 7 else "ack", target, data if kind == 7 else None, files,
                        interaction_id=inter.id)
            return target
        raise DiscordError(400, 50035, f"Invalid Form Body: response type {kind} for interaction type {inter.type}")

    async def followup(self, req: Request) -> tuple[int, Any]:
        inter = self.interaction_by_token(req.params["token"])
        if not inter.callbacks:
            raise DiscordError(404, 10015, "Unknown Webhook")  # no response yet: the token is not usable
        body = req.body or {}
        loading = self.messages.get(inter.original_id or 0)
        if loading is not None and loading.flags & LOADING:  # the first follow-up replaces "thinking…"
            self.apply_edit(loading, body, req.files)
            msg = loading
        else:
            msg = self.new_message(inter.channel_id, self.bot, body, req.files, interaction_id=inter.id)
        inter.followups.append(msg.id)
        self.record("followup", msg, body, req.files, interaction_id=inter.id)
        wait = req.query.get("wait", "false").lower() in ("1", "true")
        return (200, self.message_payload(msg)) if wait else (204, None)

    def webhook_message(self, req: Request) -> tuple[Interaction, Message]:
        inter = self.interaction_by_token(req.params["token"])
        which = req.params["message"]
        message_id = inter.original_id if which == "@original" else int(which)
        msg = self.messages.get(message_id or 0)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return inter, msg

    async def get_webhook_message(self, req: Request) -> tuple[int, Any]:
        return 200, self.message_payload(self.webhook_message(req)[1])

    async def edit_webhook_message(self, req: Request) -> tuple[int, Any]:
        inter, msg = self.webhook_message(req)
        self.apply_edit(msg, req.body or {}, req.files)
        self.record("edit", msg, req.body, req.files, interaction_id=inter.id)
        return 200, self.message_payload(msg)

    async def delete_webhook_message(self, req: Request) -> tuple[int, Any]:
        inter, msg = self.webhook_message(req)
        msg.deleted = True
        self.record("delete", msg, None, [], interaction_id=inter.id)
        if not msg.ephemeral:
            self.dispatch("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id),
                                             "guild_id": str(self.guild_of(msg.channel_id))})
        return 204, None

    # --- users acting -----------------------------------------------------------------------------------------

    def command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        for scope in (guild_id or self.guild_id, None):
            found = next((c for c in self.commands.get(scope, []) if c["name"] == name), None)
            if found is not None:
                return found
        raise AssertionError(f"no slash command {name!r} was synced (synced: {self.command_names()})")

    def command_names(self) -> list[str]:
        return sorted(c["name"] for cs in self.commands.values() for c in cs)

    def slash(self, name: str, user: str = "alice", channel_id: int | None = None, **options: Any) -> Interaction:
        """``/name option:value…`` as a user's client sends it: the synced command's id, name and options."""
        channel_id = channel_id or self.channel_id
        cmd = self.command(name, self.guild_of(channel_id))
        by_name = {o["name"]: o for o in cmd.get("options", [])}
        opts = []
        for key, value in options.items():
            assert key in by_name, f"/{name} has no option {key!r} (it has {sorted(by_name)})"
            opts.append({"name": key, "type": by_name[key]["type"], "value": value})
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1), "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return self.interact(2, data, user, channel_id)

    def click(self, message: Message, which: str, user: str = "alice") -> Interaction:
        """A click on ``message``'s button labelled ``which`` (or whose custom_id contains it), as shown now."""
        button = message.button(which)
        assert button is not None, f"no button {which!r} on message {message.id}: {message.labels()}"
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return self.interact(3, data, user, message.channel_id, message)

    def select(self, message: Message, values: list[str], user: str = "alice") -> Interaction:
        menu = next((c for c in walk(message.components) if c.get("type") == 3), None)
        assert menu is not None, f"no select menu on message {message.id}"
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
        return self.interact(3, data, user, message.channel_id, message)

    def say(self, text: str, user: str = "alice", channel_id: int | None = None) -> Message:
        """A user's message in a channel (MESSAGE_CREATE with its content: the bot has that intent)."""
        msg = Message(self.snowflake(), channel_id or self.channel_id, self.users[user], text)
        self.messages[msg.id] = msg
        self.dispatch("MESSAGE_CREATE", self.message_payload(msg, gateway=True))
        return msg

    def interact(self, kind: int, data: dict[str, Any], user: str, channel_id: int,
                 message: Message | None = None) -> Interaction:
        person = self.users[user]
        inter = Interaction(self.snowflake(), secrets.token_urlsafe(24), kind, channel_id, person, data,
                            asyncio.get_running_loop().time(), message.id if message else None)
        self.interactions[inter.id] = inter
        channel = self.channel(channel_id)
        guild_id = self.guild_of(channel_id)
        payload: dict[str, Any] = {
            "id": str(inter.id), "application_id": str(self.app_id), "type": kind, "data": data,
            "guild_id": str(guild_id), "channel_id": str(channel_id), "channel": channel,
            "member": {**person.member(), "permissions": str(person.permissions)}, "token": inter.token,
            "version": 1, "locale": "en-US", "guild_locale": "en-US", "app_permissions": str(ALL_PERMISSIONS),
            "entitlements": [], "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0,
            "attachment_size_limit": 10 << 20,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        self.dispatch("INTERACTION_CREATE", payload)
        return inter

    # --- queries ---------------------------------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

    def with_button(self, which: str, channel_id: int | None = None) -> Message | None:
        """The latest message (as it is now) with a button ``which``."""
        for msg in reversed(self.messages.values()):
            if (channel_id is None or msg.channel_id == channel_id) and not msg.deleted and msg.button(which):
                return msg
        return None

    def public_pngs(self, channel_id: int | None = None) -> list[bytes]:
        return [png for s in self.sent if s.public and (channel_id is None or s.channel_id == channel_id)
                for png in s.pngs()]

    def problems(self) -> list[str]:
        """What Discord would have refused or never seen answered; a clean run has none."""
        out = [f"unknown route {u}" for u in self.unknown]
        out += [f"rate limit exceeded: {v}" for v in self.rate_limit_violations]
        for inter in self.interactions.values():
            if not inter.callbacks:
                out.append(f"interaction {inter.id} ({inter.data.get('name') or inter.data.get('custom_id')}) "
                           "was never answered")
            out += [f"interaction {inter.id}: {r}" for r in inter.refused]
        bad = [f"{m} {p} → {s}" for m, p, s in self.requests if 400 <= s < 500 and s != 429]
        return out + [f"the bot got an error answer: {b}" for b in bad]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with the Content-Type exactly ``application/json`` (discord.py compares the header verbatim)."""
    return web.Response(status=status, body=json.dumps(body).encode(),
                        headers={**(headers or {}), "Content-Type": "application/json"})

