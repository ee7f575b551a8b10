"""The end of a game: one summary message (the final image, the result in words, each player's rating change, the
game's length, the key moments its rules name) with Rematch and Replay buttons.

A game posted by `cogs.utils.posting.publish` gets the summary as its last message (the board after the last
move); every other ending (a game that posts for itself, /abort, an admin's adjudication, the abandoned-games
sweep) gets it from `cogs.utils.ending.game_ended` as a message of its own. The facts are gathered (`gather`:
the log replayed off the loop for the moments, the results rows for the ratings), then worded (`summary_embed`,
pure). Moments come from `rules.moments`: a game's secrets stay secret unless its replay may tell them
(`engine.replays`: closed, seed shown, the lobby did not say ``reveal=no``). Nothing here raises to the caller:
a summary that cannot be gathered falls back to the result alone.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord
from babel.dates import format_timedelta

from cogs.utils.app import App
from cogs.utils.components import RematchButton, custom_id, delegate, id_number, view_of
from cogs.utils.lang import locale_of_interaction
from cogs.utils.replies import send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, shown_names, surface_for
from engine import GameNotFoundError, Table
from engine.replays import Replay, table_source
from engine.results import unrated_reason
from i18n import normalize_locale, t
from render import pool as render_pool
from render.kit import image_name
from render.registry import renderer
from rules.moments import Moment, from_log

log = logging.getLogger(__name__)

MEDALS = ("🥇", "🥈", "🥉")
REPLAY_TEMPLATE = r"replay:open:(?P<table>[0-9]+):(?P<step>[0-9]+)"  # /replay's replay:<op>:<table>:<step>
HISTORY_LOOKBACK = 5  # a player's latest results searched for this game's row (it was written a moment ago)
ENDINGS = ("aborted", "adjudicated", "abandoned")  # meta["closed"] of a started game closed without a result


@dataclass(frozen=True)
class Facts:
    """What the summary says besides the result, gathered from the log and the results rows."""

    moves: int = 0
    moments: list[Moment] = field(default_factory=list)
    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)  # seat → display rating before, after
    forfeits: list[int] = field(default_factory=list)  # seats that forfeited after missed turns
    timed_out: int | None = None  # the seat whose timeout was the game's last action


def result_lines(surface: GameSurface, table: Table, locale: str) -> list[str]:
    """The result in words: the winner(s), how the game ended, the ranking with scores."""
    outcome = table.outcome
    if outcome is None:
        return []
    winners = ", ".join(surface.seat_label(table, s, locale) for s in outcome.winners)
    key = "bot.winner" if len(outcome.winners) == 1 else "bot.winners_shared"
    lines = [t(key, locale, names=winners) if winners else "", t(outcome.reason, locale) if outcome.reason else ""]
    for place, seats in enumerate(outcome.ranking, start=1):
        medal = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        for seat in seats:
            score = surface.score_text(table, seat, outcome.scores[seat], locale)
            lines.append(t("bot.rank_line", locale, medal=medal, place=place,
                           name=surface.seat_label(table, seat, locale), score=score))
    return [x for x in lines if x]


def ending_line(surface: GameSurface, table: Table, facts: Facts, locale: str) -> str:
    """How a game ended when it was not played out: by timeouts (a forfeit, or a last timeout) or closed by an
    admin, /abort or the abandoned-games sweep; "" for an ordinary end."""
    closed = table.meta.get("closed")
    if table.status == "aborted" and closed in ENDINGS:
        return t(f"summary.ended.{closed}", locale)
    if facts.forfeits:
        names = ", ".join(surface.seat_label(table, s, locale) for s in facts.forfeits)
        return t("summary.ended.forfeit", locale, names=names)
    if facts.timed_out is not None:
        return t("summary.ended.timeout", locale, name=surface.seat_label(table, facts.timed_out, locale))
    return ""


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


def rating_lines(surface: GameSurface, table: Table, facts: Facts, locale: str) -> list[str]:
    lines = []
    for seat, (before, after) in sorted(facts.ratings.items()):
        change = round(after) - round(before)
        lines.append(t("summary.rating_line", locale, name=surface.seat_label(table, seat, locale),
                       before=round(before), after=round(after), change=signed(change)))
    return lines


def length_line(table: Table, facts: Facts, locale: str) -> str:
    wall = max(table.updated_at - table.created_at, timedelta(0))
    time = format_timedelta(wall, threshold=1.5, locale=normalize_locale(locale))
    return t("summary.length_line", locale, count=facts.moves, time=time)


def moment_line(surface: GameSurface, table: Table, moment: Moment, locale: str) -> str:
    names = [surface.seat_label(table, s, locale) if 0 <= s < len(table.seats) else "?" for s in moment.seats]
    return "• " + t(f"moments.{table.game}.{moment.kind}", locale, name=names[0] if names else "",
                    other=names[1] if len(names) > 1 else "", step=moment.step, **moment.numbers)


def summary_embed(surface: GameSurface, table: Table, facts: Facts, locale: str, *, result: bool = True
                  ) -> discord.Embed:
    """The summary in words (pure): the result (unless the game's own post showed it: ``result`` False), how it
    ended, ratings, length and key moments."""
    title = "bot.game_over" if result else "summary.title"
    embed = discord.Embed(title=t(title, locale, game=surface.game_name(locale), table=table.id),
                          colour=discord.Colour.gold())
    lines = [ending_line(surface, table, facts, locale), *(result_lines(surface, table, locale) if result else ())]
    embed.description = "\n".join(x for x in lines if x)[:4096] or None
    ratings = rating_lines(surface, table, facts, locale)
    if ratings:
        embed.add_field(name=t("summary.ratings", locale), value="\n".join(ratings)[:1024], inline=False)
    embed.add_field(name=t("summary.length", locale), value=length_line(table, facts, locale)[:1024], inline=False)
    moments = [moment_line(surface, table, m, locale) for m in facts.moments]
    if moments:
        embed.add_field(name=t("summary.moments", locale), value="\n".join(moments)[:1024], inline=False)
    return embed


def summary_items(table: Table, locale: str, *, rematch: bool = True, moments: Sequence[Moment] = ()
                  ) -> list[discord.ui.Item[Any]]:
    """Rematch (a finished game, unless its own result post carries one), Replay from the start, and a button
    per key moment that opens the replay at its step."""
    items: list[discord.ui.Item[Any]] = []
    if rematch and table.status == "finished":
        items.append(RematchButton.make(table.game, table.id, table.version, locale))
    items.append(ReplayOpenButton(table.id, label=t("summary.button.replay", locale)))
    for step in dict.fromkeys(m.step for m in moments if m.step > 0):  # two moments of one move: one button
        items.append(ReplayOpenButton(table.id, step, label=t("summary.button.moment", locale, step=step)))
    return items


# --- gathering the facts ---------------------------------------------------------------------------------------


async def gather(bot: App, table: Table) -> Facts:
    """The log replayed (off the loop) for the moments, the timeouts and the length; the ratings from the results
    rows the final save wrote. A part that fails is left out (logged), never the whole summary."""
    facts = Facts()
    try:
        source = await table_source(bot.engine.store, table)
        rows = await bot.engine.queries.actions(table.id)
        actions = Replay(table.rules, source).actions  # the standing actions: /replay's steps
        moments = await render_pool.draw(from_log, table.game, source.players, source.options, source.seed,
                                         actions, source.revealed)
        forfeits = [r.seat for r in rows if r.source == "timer" and r.action == "resign"]
        last = actions[-1] if actions else None
        timed_out = last[0] if last is not None and last[1].split(" ", 1)[0] == "timeout" else None
        facts = Facts(len(actions), moments, {}, list(dict.fromkeys(forfeits)), timed_out)
    except Exception:  # a damaged log: the summary says the result without moments
        log.exception("no key moments for table %s", table.id)
    return Facts(facts.moves or table.moves, facts.moments, await ratings(bot, table), facts.forfeits,
                 facts.timed_out)


async def ratings(bot: App, table: Table) -> dict[int, tuple[float, float]]:
    """seat → (before, after) display ratings of a rated finished game, from its results rows."""
    if table.status != "finished" or unrated_reason(table) is not None:
        return {}
    out = {}
    try:
        for seat, info in enumerate(table.seats):
            if info.bot or info.user_id is None:
                continue
            rows = await bot.engine.queries.history(info.user_id, guild_id=table.guild_id, game=table.game,
                                                    limit=HISTORY_LOOKBACK)
            row = next((r for r in rows if r.game_id == table.id), None)
            if row is not None and row.before is not None and row.after is not None:
                out[seat] = (row.before, row.after)
    except Exception:
        log.exception("no rating changes for table %s", table.id)
    return out


async def final_image(bot: App, table: Table, locale: str) -> discord.File | None:
    """The board at the end, as everyone may see it (the game's board image, or its surface's own)."""
    if table.state is None:
        return None
    drawer = renderer(table.game)
    try:
        if drawer is not None and drawer.has_board:
            png = await render_pool.draw(render_pool.board, table.game, table.view(None), names=shown_names(table),
                                         locale=locale, moves=None)
        else:
            png = await surface_for(bot, table.game).board_png(table, locale)
    except Exception:
        log.exception("no final image for table %s", table.id)
        return None
    if png is None:
        return None
    return discord.File(io.BytesIO(png), filename=image_name(f"{table.game}-{table.id}-{table.moves}-end", png))


async def summary_parts(bot: App, table: Table, locale: str, *, result: bool = True
                        ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
    """The summary's embed and buttons; without ``result`` (a game that posted its result, image and Rematch
    itself) only what that post lacks: how it ended, ratings, length, moments and Replay."""
    surface = surface_for(bot, table.game)
    facts = await gather(bot, table)
    items = summary_items(table, locale, rematch=result, moments=facts.moments)
    return summary_embed(surface, table, facts, locale, result=result), items


async def add_summary(bot: App, table: Table, locale: str, embed: discord.Embed) -> list[discord.ui.Item[Any]]:
    """A game's own final post becomes its summary (Floor Plan's last round, with its result and image): how it
    ended, ratings, length and key moments are added to ``embed``; returns its buttons (Rematch, Replay)."""
    facts = await gather(bot, table)
    more = summary_embed(surface_for(bot, table.game), table, facts, locale, result=False)
    if more.description:
        embed.description = f"{more.description}\n{embed.description or ''}".strip()[:4096]
    for f in more.fields:
        if len(embed.fields) < 25:  # Discord's limit on an embed's fields
            embed.add_field(name=f.name or "", value=f.value or "", inline=False)
    return summary_items(table, locale, moments=facts.moments)


def wants_summary(table: Table) -> bool:
    """A started game that ended: finished, or closed without a result by /abort or an admin (a lobby that
    expired or lost its host has nothing to sum up)."""
    return table.state is not None and (table.status == "finished" or (
        table.status == "aborted" and table.meta.get("closed") in ENDINGS))


async def post_summary(bot: App, channel: Any, table: Table, locale: str) -> None:
    """The summary as a message of its own: a game closed without a result (/abort, an admin) gets all of it; a
    finished game that posted its own result (The Floor, Floor Plan: `GameSurface.custom_posting`) gets the rest.
    Never raises."""
    result = table.status != "finished"
    try:
        embed, items = await summary_parts(bot, table, locale, result=result)
        kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}
        image = await final_image(bot, table, locale) if result else None
        if image is not None:
            kwargs["file"] = image
        view = view_of(items)
        if view is not None:
            kwargs["view"] = view
        await channel.send(**kwargs)
    except discord.HTTPException as error:
        log.warning("could not post the summary of table %s: %r", table.id, error)
    except Exception:
        log.exception("the summary of table %s failed", table.id)


# --- the Replay button ---------------------------------------------------------------------------------------------


class ReplayOpenButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_TEMPLATE):
    """Replay on a summary: opens /replay's stepping message as a NEW message (a /replay button would turn the
    summary itself into the replay, and its result and ratings would be gone from the thread)."""

    def __init__(self, table_id: int, step: int = 0, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "replay", style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id("replay", "open", table_id, step)))
        self.table_id, self.step = table_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> ReplayOpenButton:
        return cls(id_number(match["table"]), id_number(match["step"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        replays = interaction.client.get_cog("Replays")  # type: ignore[attr-defined]
        if replays is None:
            await delegate(interaction, "Replays", "go", self.table_id, self.step)  # says it is unavailable
            return
        await open_replay(replays, interaction, self.table_id, self.step)


async def open_replay(replays: Any, interaction: discord.Interaction, table_id: int, step: int) -> None:
    """/replay's message for ``table_id`` at ``step``, posted as a new message in the channel; a forged or foreign
    table gets a short private refusal."""
    locale = await locale_of_interaction(interaction)
    async with user_errors(interaction, locale):
        guild_id = interaction.guild.id if interaction.guild is not None else None
        try:
            if not table_id:
                raise GameNotFoundError("engine.no_game", table=table_id)
            table = await replays.table_for(guild_id, 0, table_id)
        except GameNotFoundError:
            await send_ephemeral(interaction, t("summary.replay_gone", locale))
            return
        await interaction.response.defer(thinking=True)  # rebuilding and drawing may take longer than 3 s
        replay = await replays.replay_of(table)
        await interaction.followup.send(**await replays.message(table, replay, min(step, len(replay) - 1), locale))
