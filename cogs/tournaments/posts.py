"""What a tournament posts in its channel as the director runs it: each round's pairings (pings respecting quiet
hours), a thread per table, the games' first status messages, standings, the cut, replays and the final."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from cogs.tournaments import view as tv
from cogs.utils.app import App
from cogs.utils.lang import guild_locale
from cogs.utils.posting import channel_of, edit_quietly, pinging, publish
from cogs.utils.status import status_message
from cogs.utils.surface import Segment, surface_for
from cogs.utils.text import Markup, clean, escape
from engine import DamagedGameError, GameNotFoundError
from engine.queries import TournamentRow
from engine.web import publish_tournament
from i18n import t
from league.model import Round
from league.tournament import Tournament
from render import pool as render_pool
from render.kit import image_name
from render.league import bracket_image, standings_image

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 10080
THREAD_NAME = 100
ANNOUNCE_KEY = "tour_msg:{id}"  # server setting: the announcement's message id


class TournamentPosts:
    """The director's surface, a part of the `Tournaments` cog: the channel and thread posts of each event."""

    bot: App
    _fake: int  # made-up channel ids handed out so far (tables without a thread)

    def game_name(self, game: str, locale: str) -> str:
        return surface_for(self.bot, game).game_name(locale)

    async def web_line(self, row: TournamentRow, locale: str) -> str:
        """The tournament's web page as one line (WEB_BASE_URL set and the server opted in with /web), else "".
        Publishing here also gives the round's new games their addresses, so the page links to them."""
        base = (self.bot.settings.web_base_url or "").rstrip("/")
        slug = await publish_tournament(self.bot.engine.store, row.guild_id, row.id) if base else None
        return "\n" + t("tour.web_link", locale, url=f"{base}/t/{slug}") if slug else ""

    async def row_locale(self, row: TournamentRow) -> str:
        guild = self.bot.get_guild(row.guild_id) if row.guild_id else None
        return await guild_locale(self.bot, row.guild_id, guild.preferred_locale if guild else None)

    async def refresh_announcement(self, row: TournamentRow, value: Tournament) -> None:
        """Edit the announcement to show the entrants and the status now (nothing if it is gone)."""
        message_id = await self.bot.engine.guild_setting(row.guild_id or 0, ANNOUNCE_KEY.format(id=row.id), None)
        channel = await channel_of(self.bot, row.channel_id)
        if message_id is None or channel is None:
            return
        locale = await self.row_locale(row)
        await edit_quietly(channel, int(message_id),
                           **tv.announcement(row, value, self.game_name(row.game, locale), locale))

    async def links(self, row: TournamentRow, rnd: Round) -> dict[int, str]:
        """Each game of the round → a link to its thread (none for a table without a thread)."""
        out = {}
        for game_id in tv.game_ids(rnd):
            try:
                table = await self.bot.engine.get(game_id)
            except Exception:  # a damaged game: its table is listed without a link
                log.warning("game %s of tournament %s could not be loaded", game_id, row.id)
                continue
            if table.channel_id > 0:
                out[game_id] = tv.game_link(row.guild_id, table.channel_id)
        return out

    # --- posts -----------------------------------------------------------------------------------------------

    async def standings_post(self, row: TournamentRow, value: Tournament, title: str, locale: str,
                             ) -> dict[str, Any]:
        """The standings image and a compact text (rank, name, points, the first tie-break)."""
        table = value.standings()
        subtitle = " · ".join((self.game_name(row.game, locale), tv.format_text(value, locale),
                               tv.round_text(value, locale)))
        data = tv.standings_data(value, table, title, subtitle, locale)
        png = await render_pool.draw(standings_image, data, locale=locale)
        link = await self.web_line(row, locale)
        text = "\n".join([f"**{escape(title)}**", *tv.standings_lines(value, table, locale)])[
            :tv.MAX_CONTENT - len(link)] + link
        file = discord.File(io.BytesIO(png), filename=image_name(f"tournament-{row.id}-standings", png))
        return {"content": text, "file": file, "allowed_mentions": discord.AllowedMentions.none()}

    async def bracket_file(self, row: TournamentRow, value: Tournament, locale: str) -> discord.File:
        png = await render_pool.draw(bracket_image, tv.bracket_data(value, locale), locale=locale)
        return discord.File(io.BytesIO(png), filename=image_name(f"tournament-{row.id}-bracket", png))

    async def round_texts(self, row: TournamentRow, value: Tournament, rnd: Round, locale: str) -> list[str]:
        header = t("tour.round_header", locale, name=escape(value.name), round=rnd.number,
                   total=tv.planned_rounds(value) or "?", when=tv.stamp(row.due_at) or "—")
        return tv.chunks([header, *tv.round_lines(value, rnd, await self.links(row, rnd), locale)])

    # --- the director's surface ----------------------------------------------------------------------------

    async def make_table_channel(self, row: TournamentRow, value: Tournament, rnd: Round, index: int) -> int:
        """A thread for the table in the tournament's channel; a made-up id when Discord will not make one."""
        locale = await self.row_locale(row)
        number = index + 1 if value.fmt != "score" else len(rnd.extra.get("games", {})) + 1
        name = clean(t("tour.thread_name", locale, name=clean(value.name, 40), round=rnd.number, table=number),
                     THREAD_NAME)
        parent = await channel_of(self.bot, row.channel_id)
        try:
            if not isinstance(parent, discord.TextChannel):
                raise TypeError(f"channel {row.channel_id} cannot hold threads")
            thread = await parent.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            return thread.id
        except (discord.HTTPException, TypeError) as e:
            log.warning("no thread for table %s of round %s of tournament %s: %s", number, rnd.number, row.id, e)
        if parent is not None:
            try:
                await parent.send(t("tour.no_thread", locale, table=number, round=rnd.number))
            except discord.HTTPException:
                log.warning("could not tell tournament %s that a thread is missing", row.id)
        # Unique among open games (a unique index): negative, from the clock, never a Discord id.
        self._fake += 1
        return -(discord.utils.time_snowflake(discord.utils.utcnow()) + self._fake)

    async def on_tournament(self, kind: str, row: TournamentRow, value: Tournament) -> None:
        channel = await channel_of(self.bot, row.channel_id)
        if channel is None:
            return
        locale = await self.row_locale(row)
        if kind == "round" and value.current is not None:
            await self.web_line(row, locale)  # the round's games get their web addresses (when published)
            await self.post_round(channel, row, value, value.current, locale)
            await self.start_games(value.current, locale)
        elif kind == "round_closed" and value.current is not None and not value.finished:
            # After the last round the final standings follow ("finished"): one image, not two.
            title = t("tour.standings_after", locale, name=value.name, round=value.current.number)
            await channel.send(**await self.standings_post(row, value, title, locale))
        elif kind == "cut":
            await self.post_cut(channel, row, value, locale)
        elif kind == "replay" and value.current is not None:
            await self.post_replays(channel, row, value, value.current, locale)
            await self.start_games(value.current, locale)
        elif kind == "finished":
            await self.post_final(channel, row, value, locale)
        elif kind == "cancelled":
            await channel.send(t("tour.cancelled", locale, name=escape(value.name)))
        elif kind == "started" and value.bracket is None and 0 < value.planned < value.settings.rounds:
            # Fewer took part than the rounds asked need (league.settings.most_rounds): say why there are fewer.
            await channel.send(t("tour.rounds_capped", locale, name=escape(value.name), players=len(value.entrants),
                                 most=value.planned, rounds=value.settings.rounds))
        if kind in ("started", "finished", "cancelled"):
            await self.refresh_announcement(row, value)

    async def post_round(self, channel: Any, row: TournamentRow, value: Tournament, rnd: Round, locale: str) -> None:
        """The pairings, pinging the round's players (not those in their quiet hours), with links to the threads."""
        pings = set(tv.round_players(rnd))
        for text in await self.round_texts(row, value, rnd, locale):
            await channel.send(text, allowed_mentions=pinging([u for u in pings if f"<@{u}>" in text]))

    async def start_games(self, rnd: Round, locale: str) -> None:
        """Each new game's status message and first turn ping in its thread (what /play does at Start)."""
        engine = self.bot.engine
        for game_id in tv.game_ids(rnd):
            try:
                table = await engine.get(game_id)
                if table.status != "active" or table.channel_id <= 0 or table.meta.get("status_message_id"):
                    continue
                thread = await channel_of(self.bot, table.channel_id)
                if thread is None:
                    continue
                message = await thread.send(**status_message(self.bot, table, locale))
                await self.bot.status_messages.adopt(table, message.id, locale)
                surface = surface_for(self.bot, table.game)
                await publish(self.bot, thread, [Segment(surface.intro(table, locale), table)], locale)
            except Exception:  # one table that cannot be announced must not keep the others quiet
                log.exception("could not announce game %s of a tournament round", game_id)

    async def post_replays(self, channel: Any, row: TournamentRow, value: Tournament, rnd: Round,
                           locale: str) -> None:
        """A drawn elimination game's deciding game, posted as a round's game is: its table and thread link,
        pinging its players (a game already announced has its status message and is not posted again)."""
        replayed = {r.get("table") for r in rnd.extra.get("replays", ())}
        links = await self.links(row, rnd)
        for i, table in enumerate(rnd.tables):
            if i not in replayed or table.decided or table.game_id is None:
                continue
            try:
                if (await self.bot.engine.get(table.game_id)).meta.get("status_message_id"):
                    continue
            except (GameNotFoundError, DamagedGameError):
                continue
            line = tv.table_line(value, rnd, i, links, locale)
            await channel.send(t("tour.replay_line", locale, round=rnd.number, line=Markup(line)),
                               allowed_mentions=pinging(tv.human_ids(table.seats)))

    async def post_cut(self, channel: Any, row: TournamentRow, value: Tournament, locale: str) -> None:
        """A multi-stage event's first stage is over: who advanced, by seed (pinged), and the playoff's bracket."""
        stage, playoff = tv.stage_name(value.stages[0].format, locale), value.stages[-1]
        if value.bracket is None:
            await channel.send(t("tour.cut_none", locale, name=escape(value.name), stage=stage))
            return
        names = tv.names_of(value)
        lines = [t("tour.cut_announce", locale, name=escape(value.name), stage=stage,
                   format=tv.format_name(playoff.format, locale)),
                 *(t("tour.cut_seed_line", locale, seed=i, player=tv.who(p, names))
                   for i, p in enumerate(playoff.seeds, 1))]
        for text in tv.chunks(lines):
            await channel.send(text, allowed_mentions=pinging([u for u in tv.human_ids(playoff.seeds)
                                                               if f"<@{u}>" in text]))
        await channel.send(file=await self.bracket_file(row, value, locale),
                           allowed_mentions=discord.AllowedMentions.none())

    async def post_final(self, channel: Any, row: TournamentRow, value: Tournament, locale: str) -> None:
        table = value.standings()
        title = t("tour.final_title", locale, name=value.name)
        await channel.send(**await self.standings_post(row, value, title, locale))
        if value.bracket is not None:
            await channel.send(t("tour.bracket_caption", locale, name=escape(value.name)),
                               file=await self.bracket_file(row, value, locale))
        top = tv.winners(table)
        if top:
            names = ", ".join(tv.who(p, tv.names_of(value)) for p in top)
            await channel.send(t("tour.congratulations", locale, names=names, name=escape(value.name)),
                               allowed_mentions=pinging(tv.human_ids(top)))
