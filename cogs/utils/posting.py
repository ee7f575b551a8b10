"""Posting a game: board images rendered off the event loop, captions, turn pings and the final result.

Every step is a NEW message (edits of old messages are rate-limited and do not notify). A run of moves posted
together (a player's move and the bots' replies, a timeout and the bots after it, what a restart left unposted)
is ONE message with one image: the board after the run, every move of it marked (the renderer gets the moves'
``last_action`` as ``moves``) and one caption line each; only a very long run (bots playing on alone) is split.
The message says whose turn it is with a mention that notifies, and carries the board's buttons: the previous
message with live buttons loses them (one edit, `supersede_prompt`), so that only the latest can be clicked.
Then the game's one status message is brought up to date (`cogs.utils.status`, throttled), and at the end the
game's thread shows the result (`cogs.utils.ending`).
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.utils.app import App
from cogs.utils.components import view_of
from cogs.utils.ending import game_ended, result_ping, web_line
from cogs.utils.summary import result_lines, summary_parts
from cogs.utils.surface import GameSurface, Segment, shown_names, surface_for
from engine import CLOSED_STATUSES, ActResult, LobbyError, NotSeatedError, Table
from engine import players as quiet
from engine.errors import StorageError
from i18n import t
from render import pool as render_pool
from render.kit import image_name
from render.registry import renderer
from rules.base import FloorboardError

log = logging.getLogger(__name__)

Sender = Callable[..., Awaitable[Any]]
MAX_CONTENT = 2000
MEDALS = ("🥇", "🥈", "🥉")
BOARD_LOOKBACK = 20  # recent messages searched for a board posted just before a restart
ANNOUNCED_META = "announced"  # meta: the number of moves shown on the boards posted so far
PROMPT_META = "prompt_message_id"  # meta: the message whose buttons are live (the latest board's)
MAX_RUN = 6  # moves marked on one image; a longer run is split (bots playing on after the last human left)
RUN_CONTENT = 1800  # a run's caption lines per message, well within Discord's 2,000 characters
EDIT_TIMEOUT = 5.0  # seconds an edit of an old prompt may wait on Discord's rate limits before it is dropped
TOO_OLD_TO_EDIT = 30046  # Discord's "too many edits to messages older than an hour"
_prompt_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
# Per bot: table id → the version of the latest board it posted (or is posting) as a run's last message. Two
# posters may reach the same moves: a restart's resume (cogs/lobby.py, games whose posts lagged at the start) and the
# live move that was applied meanwhile but is not posted yet. The first to claim a version posts its board; the
# other says its moves in words. Bounded: only the last moments of a game's posts are ever contested.
_claims: weakref.WeakKeyDictionary[Any, OrderedDict[int, int]] = weakref.WeakKeyDictionary()
MAX_CLAIMED_BOARDS = 4096


async def render_view(table: Table, seat: int | None, locale: str, moves: list[dict[str, Any]] | None = None,
                      *, view: dict[str, Any] | None = None) -> bytes | None:
    """The image of a seat's view (None = spectator), drawn off the loop (`render.pool`: a worker process, or a
    thread); None for a game without a public board image (`render.registry`). ``moves`` (the run's moves, oldest
    first) go to a renderer that marks them; ``view``, when the caller has it already, is that seat's view of
    ``table`` (computed once per click). The view is computed here, on the loop: the worker gets plain data."""
    drawer = renderer(table.game)
    if drawer is None or not drawer.has_board or table.state is None:
        return None
    if view is None:
        view = table.view(seat)
    return await render_pool.draw(render_pool.board, table.game, view, names=shown_names(table), locale=locale,
                                  moves=moves)


def public_view(table: Table) -> dict[str, Any] | None:
    """What everyone may see of ``table`` (None before it starts)."""
    return None if table.state is None else table.view(None)


def last_move(table: Table, view: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The move that led to ``table`` as everyone may see it (its public view's ``last_action``), to mark;
    ``view`` is that public view when the caller has it."""
    view = public_view(table) if view is None else view
    mark = None if view is None else view.get("last_action")
    return mark if isinstance(mark, dict) else None


def pinging(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (and never @everyone or roles), except those inside their quiet
    hours (`engine.players`): their name still shows, nothing buzzes."""
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in quiet.awake(user_ids)])


def board_file(table: Table, png: bytes, suffix: str = "") -> discord.File:
    return discord.File(io.BytesIO(png), filename=image_name(f"{table.game}-{table.id}-{table.moves}{suffix}", png))


@dataclass
class Post:
    lines: list[str]
    image_table: Table | None = None
    image_view: dict[str, Any] | None = None  # image_table's public view, computed once for its mark and image
    pings: list[int] = field(default_factory=list)
    embed: discord.Embed | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    marks: list[dict[str, Any]] = field(default_factory=list)  # the moves the image marks, oldest first
    # A surface that draws its own images (Floating World: the map, and the Nightmare's image with it): called
    # with ``image_table`` and the locale, instead of the generic renderer.
    draw: Callable[[Table, str], Awaitable[list[discord.File]]] | None = None

    def full(self, line: str) -> bool:
        """No room for another move: as many marked as one image shows, or the text would grow too long."""
        return len(self.marks) >= MAX_RUN or sum(len(x) + 1 for x in self.lines) + len(line) > RUN_CONTENT

    async def kwargs(self, locale: str) -> dict[str, Any]:
        content = "\n".join(line for line in self.lines if line)[:MAX_CONTENT]
        kw: dict[str, Any] = {"content": content or None, "allowed_mentions": pinging(self.pings)}
        if self.image_table is not None and self.draw is not None:
            files = await self.draw(self.image_table, locale)
            if files:
                kw["files"] = files
        elif self.image_table is not None:
            png = await render_view(self.image_table, None, locale, self.marks, view=self.image_view)
            if png is not None:
                kw["file"] = board_file(self.image_table, png)
        if self.embed is not None:
            kw["embed"] = self.embed
        view = view_of(self.items)
        if view is not None:
            kw["view"] = view
        return kw


def group(segments: list[Segment]) -> list[Post]:
    """A run of moves as one message: a line each, and the board after the last one that changed it, marking
    every move that did. A run longer than one image shows (`Post.full`) goes on in a new message."""
    posts: list[Post] = []
    for seg in segments:
        if not posts or posts[-1].full(seg.line):
            posts.append(Post([]))
        post = posts[-1]
        post.lines.append(seg.line)
        if seg.image:
            post.image_table = seg.table
            post.image_view = public_view(seg.table)
            mark = last_move(seg.table, post.image_view)
            if mark is not None:
                post.marks.append(mark)
    return posts


def finish_post(post: Post, surface: GameSurface, table: Table, locale: str) -> None:
    """The last message of a run: whose turn it is (a notifying mention) or the result, and the buttons."""
    if table.status == "active":
        line, pings = surface.turn_line(table, locale)
        post.lines.append(line)
        post.pings = pings
        post.items = surface.board_items(table, locale)
    elif table.status == "finished":
        line, pings = result_ping(table, locale)
        post.lines.append(line)
        post.pings = pings
        post.embed = result_embed(surface, table, locale)
        post.items = surface.result_items(table, locale)
    elif table.status == "aborted":
        post.lines.append(t("bot.aborted", locale, table=table.id))


async def publish(
    bot: App,
    channel: discord.abc.Messageable,
    segments: list[Segment],
    locale: str,
    *,
    first: Sender | None = None,
    final: bool = True,
) -> list[Any]:
    """Post a run of moves. ``first`` sends the first message (e.g. an interaction's followup);
    ``final`` adds the turn line or result to the last one."""
    if not segments:
        return []
    latest = segments[-1].table
    surface = surface_for(bot, latest.game)
    if surface.custom_posting:
        sent = await surface.publish(bot, channel, segments, locale, first=first, final=final)
        if final:
            await tell_followers(bot, latest, segments, locale)
        return sent
    boards = _claims.setdefault(bot, OrderedDict())
    previous = boards.get(latest.id)
    if final and not claim_board(boards, latest):
        return [await send_words_only(channel, segments, latest, locale, first)]
    try:
        return await publish_posts(bot, channel, segments, locale, surface, latest, first=first, final=final)
    except BaseException:
        if final:  # nothing of it may have been shown: the next poster must not think the board is out
            unclaim_board(boards, latest, previous)
        raise


def claim_board(boards: OrderedDict[int, int], table: Table) -> bool:
    """Claim the posting of ``table``'s board as it stands now (its version): False when this bot has posted it
    already or is posting it."""
    before = boards.get(table.id)
    if before is not None and before >= table.version:
        return False
    boards[table.id] = table.version
    boards.move_to_end(table.id)
    while len(boards) > MAX_CLAIMED_BOARDS:
        boards.popitem(last=False)
    return True


def unclaim_board(boards: OrderedDict[int, int], table: Table, previous: int | None) -> None:
    """Give a claim back (its post failed): the version claimed before it, if any."""
    if boards.get(table.id) != table.version:
        return
    if previous is None:
        del boards[table.id]
    else:
        boards[table.id] = previous


async def send_words_only(channel: discord.abc.Messageable, segments: list[Segment], table: Table, locale: str,
                          first: Sender | None) -> Any:
    """The run's caption lines, without the board another poster of this process has just posted with the turn
    line and the live buttons (a second image, or buttons taken from it, would only confuse)."""
    content = "\n".join(s.line for s in segments if s.line)[:MAX_CONTENT] or t("bot.board_above", locale,
                                                                                  table=table.id)
    send = first if first is not None else channel.send
    return await send(content=content, allowed_mentions=pinging([]))


async def publish_posts(bot: App, channel: discord.abc.Messageable, segments: list[Segment], locale: str,
                        surface: GameSurface, latest: Table, *, first: Sender | None, final: bool) -> list[Any]:
    # only the last message carries buttons: earlier ones would be dead at once
    posts = surface.posts(segments, locale) or group(segments)
    last = posts[-1]
    if final:
        if last.image_table is not None and last.image_table is not latest:
            last.image_table, last.image_view = latest, None  # the board after the quiet moves that joined it
        finish_post(last, surface, latest, locale)
        if latest.status == "finished" and (line := await web_line(bot, latest, locale)):
            last.lines.append(line)
        if latest.status == "finished":  # the last board becomes the summary: its embed and buttons
            last.embed, last.items = await summary_parts(bot, latest, locale)
            if last.image_table is None and last.draw is None:  # a resignation: the final board all the same
                last.image_table = latest
    sent = []
    for i, post in enumerate(posts):
        send = first if first is not None and i == 0 else channel.send
        sent.append(await send(**await post.kwargs(locale)))
    if final:  # after the new board and the ping: the bookkeeping, then the edits (none of it ever fails)
        live = sent[-1] if last.items else None  # one write: what is announced, and which buttons are live
        await supersede_prompt(bot, channel, latest, live, **{ANNOUNCED_META: latest.moves})
        await bot.status_messages.update(latest, locale)
        if latest.status in CLOSED_STATUSES:
            await game_ended(bot, channel, latest, locale, summarised=latest.status == "finished")
        await tell_followers(bot, latest, segments, locale)
    return sent


async def tell_followers(bot: App, table: Table, segments: list[Segment], locale: str) -> None:
    """The game's spectators (cogs/follow.py) get what was just posted for everyone: the run's caption lines and
    the public board. Never breaks the post: the players' boards are out already."""
    follows = bot.get_cog("Follows")
    if follows is None:
        return
    try:
        await follows.deliver(table, [s.line for s in segments if s.line], locale)  # type: ignore[attr-defined]
    except (FloorboardError, StorageError, discord.HTTPException) as e:
        log.warning("the followers of table %s got nothing this time: %s", table.id, e)


async def supersede_prompt(bot: App, channel: Any, table: Table, message: Any, **meta: Any) -> None:
    """``message`` now carries the game's live buttons (None: no message does any more): the one that carried
    them before loses them, in one edit, so that old boards cannot be clicked. Its id is kept in the table's
    meta (like `ANNOUNCED_META`, it does not move the version), written with ``meta`` in the same write, before
    the edit (which may wait on rate limits). Never raises."""
    new_id = getattr(message, "id", None)
    lock = _prompt_locks.setdefault(table.id, asyncio.Lock())  # two posts at once must not both keep theirs
    async with lock:
        try:
            old_id = (await bot.engine.get(table.id)).meta.get(PROMPT_META)
            if old_id != new_id or meta:
                await bot.engine.set_meta(table.id, **{PROMPT_META: new_id, **meta})
        except (FloorboardError, StorageError) as e:  # bookkeeping only: at worst one old board keeps buttons
            log.warning("no prompt bookkeeping for table %s: %s", table.id, e)
            return
        if old_id is not None and old_id != new_id:
            await edit_quietly(channel, int(old_id), view=None)


async def edit_quietly(channel: Any, message_id: int, **kwargs: Any) -> bool:
    """Edit one of the bot's older messages when missing the edit costs nothing (its buttons would only refuse):
    a message deleted, out of reach, too old to edit or held up by rate limits is left as it is."""
    try:
        async with asyncio.timeout(EDIT_TIMEOUT):
            await discord.PartialMessage(channel=channel, id=message_id).edit(**kwargs)
    except (TimeoutError, discord.RateLimited) as e:
        log.info("the edit of message %s was held up (%r): left as it is", message_id, e)
    except (discord.NotFound, discord.Forbidden) as e:
        log.info("message %s cannot be edited (%s): left as it is", message_id, e)
    except discord.HTTPException as e:
        level = logging.INFO if e.code == TOO_OLD_TO_EDIT else logging.WARNING
        log.log(level, "could not edit message %s: %s", message_id, e)
    else:
        return True
    return False


async def mark_announced(bot: App, table: Table) -> None:
    """Remember how many moves are on the boards posted, so that a restart posts what a crash left unposted."""
    try:
        await bot.engine.set_meta(table.id, **{ANNOUNCED_META: table.moves})
    except (FloorboardError, StorageError) as e:  # bookkeeping only: the move itself is saved
        log.warning("could not mark table %s announced: %s", table.id, e)


async def board_posted(bot: App, channel: Any, table: Table) -> bool:
    """Did the bot post the board of the table's latest move before it stopped (after the post, before marking
    it)? Boards are named by table and move count (whatever the format: older posts are PNGs), so the channel's
    recent history tells."""
    stem = f"{table.game}-{table.id}-{table.moves}"
    try:
        async for message in channel.history(limit=BOARD_LOOKBACK):
            if message.author.id == getattr(bot.user, "id", None) and any(a.filename.rpartition(".")[0] == stem
                                                                            for a in message.attachments):
                await mark_announced(bot, table)
                return True
    except (discord.HTTPException, AttributeError):  # no history to read: post again rather than lose it
        return False
    return False


async def resume(bot: App, table: Table, locale: str) -> None:
    """After a restart: post the moves a crash left unposted (one board for them), then let due bots play."""
    channel = await channel_of(bot, table.channel_id)
    if channel is None:
        return
    surface = surface_for(bot, table.game)
    announced = int(table.meta.get(ANNOUNCED_META, table.moves))
    segments: list[Segment] = []
    if announced < table.moves and not await board_posted(bot, channel, table):
        actions = [a for a in await bot.engine.queries.actions(table.id) if a.seq > announced]
        # A hidden choice (cards kept in the draft) is named by its verb only, as the record shows it.
        shown = [a.action.split()[0] + " ?" if surface.is_private_action(table, a.action) else a.action
                 for a in actions]
        moves = ", ".join(f"{surface.seat_label(table, a.seat, locale)} `{text}`" for a, text in zip(actions, shown,
                                                                                                 strict=True))
        segments.append(Segment(t("bot.resumed", locale, moves=moves), table))
    if any(table.seats[s].bot for s in table.to_move()):
        segments += [surface.segment(r, locale) for r in await bot.engine.play_bots(table.id)]
    if segments:
        await publish(bot, channel, segments, locale)


def result_embed(surface: GameSurface, table: Table, locale: str) -> discord.Embed:
    """The result alone (a reposted board, a game that posts for itself); the end of a game posted here gets the
    whole summary instead (`cogs.utils.summary`)."""
    embed = discord.Embed(title=t("bot.game_over", locale, game=surface.game_name(locale), table=table.id),
                          colour=discord.Colour.gold())
    if table.outcome is not None:
        embed.description = "\n".join(result_lines(surface, table, locale))[:4096]
    return embed


async def channel_of(bot: App, channel_id: int) -> discord.abc.Messageable | None:
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s of a game is gone or not visible", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def after_move(bot: App, result: ActResult, locale: str, *, channel: Any,
                     first: Sender | None = None) -> None:
    """Let the bots play after a player's move, then post them all as one message (one image marking every
    move) that pings who is next. The bots are quick, and the player's move is on the image (step 1): one
    message per human move rather than one per seat, and the player sees the board they have to answer."""
    if result.duplicate:
        return
    surface = surface_for(bot, result.table.game)
    table = result.table
    segments = [surface.segment(result, locale)]
    if table.status == "active" and any(table.seats[s].bot for s in table.to_move()):
        try:
            bots = await bot.engine.play_bots(table.id)
        except Exception:  # the player's move is saved: post it all the same, then report the failure
            await publish(bot, channel, segments, locale, first=first, final=False)
            raise
        segments += [surface.segment(r, locale) for r in bots]
        if not bots:  # another request played the bots meanwhile: say whose turn it is now
            segments.append(Segment("", await bot.engine.get(table.id), image=False))
    await publish(bot, channel, segments, locale, first=first)
    collect_young()


YOUNG_COLLECTIONS_PER_MIDDLE = 10  # CPython's own ratio: the middle generation every 10 young collections


def collect_young() -> None:
    """Collect the cyclic GC's young generation now, between moves, once the move is posted: the collector would
    otherwise run inside a later move, all at once. Bounded caches (previews, balance checks) replace old entries
    with new ones, and each old object freed takes one off the collector's count, so new objects pile up
    uncounted: a collection then walked 14,000–23,000 of them, 7–16 ms inside one Floating Floors turn. Here it
    walks one move's worth, under a millisecond (docs/benchmarks.md, "The collector between moves")."""
    if gc.isenabled():
        gc.collect(1 if gc.get_count()[1] >= YOUNG_COLLECTIONS_PER_MIDDLE else 0)


async def send_private(bot: App, interaction: discord.Interaction, table: Table, locale: str) -> None:
    """The user's own view as an ephemeral reply: re-fetched on every request, never an edit of an old one."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    if table.state is None:
        raise LobbyError("engine.not_started")
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(ephemeral=True, **await private_reply(bot, table, seat, locale))


async def private_reply(bot: App, table: Table, seat: int, locale: str) -> dict[str, Any]:
    """A seat's private view: its own board image (with its cards) and the surface's text."""
    surface = surface_for(bot, table.game)
    kw: dict[str, Any] = {"content": surface.private_text(table, seat, locale)[:MAX_CONTENT]}
    png = await surface.private_png(table, seat, locale) or await render_view(table, seat, locale)
    if png is not None:
        kw["file"] = board_file(table, png, suffix="-private")
    return kw
