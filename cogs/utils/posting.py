"""Posting a game: board images rendered off the event loop, captions, turn pings and the final result.

Every step is a NEW message (edits of old messages are rate-limited and do not notify): a run of moves is
grouped so that moves which leave the board unchanged (a hidden card choice) share the next message, the
last message says whose turn it is with a mention that notifies, and carries the board's buttons. Then the
game's one status message is brought up to date (`cogs.utils.status`, throttled).
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

import discord

from cogs.utils.components import view_of
from cogs.utils.surface import GameSurface, Segment, surface_for
from i18n import t
from rules.base import FloorboardError
from rules.engine import ActResult, LobbyError, NotSeatedError, Table
from storage import StorageError

if TYPE_CHECKING:
    from bot import Floorboard

log = logging.getLogger(__name__)

Sender = Callable[..., Awaitable[Any]]
MAX_CONTENT = 2000
MEDALS = ("🥇", "🥈", "🥉")
BOARD_LOOKBACK = 20  # recent messages searched for a board posted just before a restart
ANNOUNCED_META = "announced"  # meta: the number of moves shown on the boards posted so far


def renderer(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"render.{game}")
    except ModuleNotFoundError:
        return None


async def render_view(table: Table, seat: int | None, locale: str) -> bytes | None:
    """The PNG of a seat's view (None = spectator), drawn in a worker thread; None without a renderer."""
    module = renderer(table.game)
    draw = getattr(module, "render", None)  # a game without one public board image (Floor Plan) has none
    if draw is None or table.state is None:
        return None
    view = table.rules.view(table.state, seat)
    return await asyncio.to_thread(draw, view, names=table.names(), locale=locale)


def pinging(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (and never @everyone or roles)."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


def board_file(table: Table, png: bytes, suffix: str = "") -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"{table.game}-{table.id}-{table.moves}{suffix}.png")


@dataclass
class Post:
    lines: list[str]
    image_table: Table | None = None
    pings: list[int] = field(default_factory=list)
    embed: discord.Embed | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)

    async def kwargs(self, locale: str) -> dict[str, Any]:
        content = "\n".join(line for line in self.lines if line)[:MAX_CONTENT]
        kw: dict[str, Any] = {"content": content or None, "allowed_mentions": pinging(self.pings)}
        if self.image_table is not None:
            png = await render_view(self.image_table, None, locale)
            if png is not None:
                kw["file"] = board_file(self.image_table, png)
        if self.embed is not None:
            kw["embed"] = self.embed
        view = view_of(self.items)
        if view is not None:
            kw["view"] = view
        return kw


def group(segments: list[Segment]) -> list[Post]:
    """Lines of moves without a new board join the message before them (or open the first one)."""
    posts: list[Post] = []
    for seg in segments:
        if seg.image or not posts:
            posts.append(Post([seg.line], seg.table if seg.image else None))
        else:
            posts[-1].lines.append(seg.line)
    return posts


def finish_post(post: Post, surface: GameSurface, table: Table, locale: str) -> None:
    """The last message of a run: whose turn it is (a notifying mention) or the result, and the buttons."""
    if table.status == "active":
        line, pings = surface.turn_line(table, locale)
        post.lines.append(line)
        post.pings = pings
        post.items = surface.board_items(table, locale)
    elif table.status == "finished":
        post.embed = result_embed(surface, table, locale)
        post.items = surface.result_items(table, locale)
    elif table.status == "aborted":
        post.lines.append(t("bot.aborted", locale, table=table.id))


async def publish(
    bot: Floorboard,
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
        return await surface.publish(bot, channel, segments, locale, first=first, final=final)
    posts = group(segments)
    for post in posts[:-1] if final else posts:
        if post.image_table is not None:
            post.items = surface.image_items(post.image_table, locale)
    if final:
        last = posts[-1]
        if last.image_table is not None:
            last.image_table = latest  # the board after the quiet moves that joined it is the same board
        finish_post(last, surface, latest, locale)
    sent = []
    for i, post in enumerate(posts):
        send = first if first is not None and i == 0 else channel.send
        sent.append(await send(**await post.kwargs(locale)))
    if final:  # after the new board and the ping: the status message follows (throttled, never failing)
        await mark_announced(bot, latest)
        await bot.status_messages.update(latest, locale)
    return sent


async def mark_announced(bot: Floorboard, table: Table) -> None:
    """Remember how many moves are on the boards posted, so that a restart posts what a crash left unposted."""
    try:
        await bot.engine.set_meta(table.id, **{ANNOUNCED_META: table.moves})
    except (FloorboardError, StorageError) as e:  # bookkeeping only: the move itself is saved
        log.warning("could not mark table %s announced: %s", table.id, e)


async def board_posted(bot: Floorboard, channel: Any, table: Table) -> bool:
    """Did the bot post the board of the table's latest move before it stopped (after the post, before marking
    it)? Boards are named by table and move count, so the channel's recent history tells."""
    name = f"{table.game}-{table.id}-{table.moves}.png"
    try:
        async for message in channel.history(limit=BOARD_LOOKBACK):
            if message.author.id == getattr(bot.user, "id", None) and any(a.filename == name
                                                                            for a in message.attachments):
                await mark_announced(bot, table)
                return True
    except (discord.HTTPException, AttributeError):  # no history to read: post again rather than lose it
        return False
    return False


async def resume(bot: Floorboard, table: Table, locale: str) -> None:
    """After a restart: post the moves a crash left unposted (one board for them), then let due bots play."""
    channel = await channel_of(bot, table.channel_id)
    if channel is None:
        return
    surface = surface_for(bot, table.game)
    announced = int(table.meta.get(ANNOUNCED_META, table.moves))
    segments: list[Segment] = []
    if announced < table.moves and not await board_posted(bot, channel, table):
        actions = [a for a in await bot.engine.store.actions(table.id) if a.seq > announced]
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
    outcome = table.outcome
    embed = discord.Embed(title=t("bot.game_over", locale, game=surface.game_name(locale), table=table.id),
                          colour=discord.Colour.gold())
    if outcome is None:
        return embed
    winners = ", ".join(surface.seat_label(table, s, locale) for s in outcome.winners)
    key = "bot.winner" if len(outcome.winners) == 1 else "bot.winners_shared"
    lines = [t(key, locale, names=winners), t(outcome.reason, locale) if outcome.reason else ""]
    for place, seats in enumerate(outcome.ranking, start=1):
        medal = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        for seat in seats:
            score = surface.score_text(table, seat, outcome.scores[seat], locale)
            lines.append(t("bot.rank_line", locale, medal=medal, place=place,
                           name=surface.seat_label(table, seat, locale), score=score))
    embed.description = "\n".join(x for x in lines if x)[:4096]
    return embed


async def channel_of(bot: Floorboard, channel_id: int) -> discord.abc.Messageable | None:
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s of a game is gone or not visible", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def after_move(bot: Floorboard, result: ActResult, locale: str, *, channel: Any,
                     first: Sender | None = None) -> None:
    """Post a player's move, then let the bots play and post theirs; the last post pings who is next."""
    if result.duplicate:
        return
    surface = surface_for(bot, result.table.game)
    table = result.table
    segments = [surface.segment(result, locale)]
    if table.status == "active" and any(table.seats[s].bot for s in table.to_move()):
        await publish(bot, channel, segments, locale, first=first, final=False)
        first = None
        segments = [surface.segment(r, locale) for r in await bot.engine.play_bots(table.id)]
        if not segments:  # another request played the bots meanwhile: just say whose turn it is
            segments = [Segment("", await bot.engine.get(table.id), image=False)]
    await publish(bot, channel, segments, locale, first=first)


async def send_private(bot: Floorboard, interaction: discord.Interaction, table: Table, locale: str) -> None:
    """The user's own view as an ephemeral reply: re-fetched on every request, never an edit of an old one."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    if table.state is None:
        raise LobbyError("engine.not_started")
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(ephemeral=True, **await private_reply(bot, table, seat, locale))


async def private_reply(bot: Floorboard, table: Table, seat: int, locale: str) -> dict[str, Any]:
    """A seat's private view: its own board image (with its cards) and the surface's text."""
    surface = surface_for(bot, table.game)
    kw: dict[str, Any] = {"content": surface.private_text(table, seat, locale)[:MAX_CONTENT]}
    png = await surface.private_png(table, seat, locale) or await render_view(table, seat, locale)
    if png is not None:
        kw["file"] = board_file(table, png, suffix="-private")
    return kw
