"""``/leaderboard``, ``/profile`` and ``/history``: what finished games left behind (engine/results.py writes it
with each game's final save, storage/league.py reads it).

- Every rating shown (leaderboard, profile, the leaderboard image, /history's change) is `Rating.display`, mu on the
  1500 scale, with ``?`` while it is provisional (σ high, league.ratings.PROVISIONAL_SIGMA). The leaderboard orders
  by the conservative mu − 3σ (storage/league.py): an uncertain rating sits below its number until it is confirmed,
  and provisional players are flagged, never listed apart (docs/ratings.md). Public: a leaderboard is for showing.
- A profile and a history are answered privately (a player's record is theirs to share).
- Every name is a member's own text: escaped; a player the bot can no longer see shows as "user <id>".
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.lang import aliases, locale_of_ctx, ls
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import find_game, game_choices, surface_for
from cogs.utils.text import NAME_LIMIT, clean, safe
from engine.queries import GLOBAL, RatingRow, ResultRow
from i18n import t
from league.tournament import Tournament
from render import pool as render_pool
from render.kit import image_name
from render.league import standings_image
from rules.base import FloorboardError

PAGE = 10
LAST_GAMES = 5  # in a profile
LAST_TOURNAMENTS = 5  # in a profile
MAX_PAGE, MAX_GAME_NAME = 1000, 60
SCOPES = ("server", "global")
SCOPE_CHOICES = [app_commands.Choice(name=ls(f"profile.scope.{s}"), value=s) for s in SCOPES]
MAX_FIELD = 1024


def jump_link(row: ResultRow) -> str:
    return f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}"


def shown_rating(row: RatingRow | None, locale: str) -> str:
    """The display rating, ``?`` marking a provisional one; a dash without one."""
    if row is None:
        return t("profile.no_rating", locale)
    return f"{row.rating.display}{'?' if row.rating.provisional() else ''}"


def wdl(counts: tuple[int, int, int], locale: str) -> str:
    wins, draws, losses = counts
    return t("profile.wdl", locale, wins=wins, draws=draws, losses=losses)


def change_text(row: ResultRow, locale: str) -> str:
    change = row.change
    if change is None:
        return t("profile.history.unrated", locale)
    return f"+{change}" if change >= 0 else f"\u2212{-change}"  # a real minus sign


class Profile(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    # --- helpers -----------------------------------------------------------------------------------------

    def name_of(self, guild: discord.Guild | None, user_id: int, locale: str) -> str:
        """A player's name as this server shows it (escaped), else the bot's cached user, else "user <id>"."""
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self.bot.get_user(user_id)
        return safe(user.display_name, NAME_LIMIT) if user is not None else t("profile.unknown_user", locale,
                                                                               id=user_id)

    def plain_name(self, guild: discord.Guild | None, user_id: int, locale: str) -> str:
        """The same name for an image: drawn, not parsed as markdown, so cleaned but not escaped."""
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self.bot.get_user(user_id)
        return clean(user.display_name, NAME_LIMIT) if user is not None else t("profile.unknown_user", locale,
                                                                                id=user_id)

    def game_name(self, game: str, locale: str) -> str:
        return surface_for(self.bot, game).game_name(locale)

    def game_id(self, text: str) -> str:
        """A game by id or by name in any language; an unknown one is the user's error (quoted, escaped)."""
        return find_game(self.bot.engine.games, text).id

    @staticmethod
    def scope_of(text: str, guild: discord.Guild) -> int:
        wanted = text.strip().lower()
        for scope in SCOPES:
            names = {scope, *(t(f"profile.scope.{scope}", loc).lower() for loc in ("en", "pl"))}
            if wanted in names:
                return guild.id if scope == "server" else GLOBAL
        raise FloorboardError("profile.bad_scope", value=text)

    def history_line(self, row: ResultRow, locale: str) -> str:
        score = "" if row.score is None else t("profile.history.score", locale, score=f"{row.score:g}")
        place = t("profile.history.place", locale, place=row.place, players=row.players)
        return t("profile.history.line", locale, game=self.game_name(row.game, locale), table=row.game_id,
                 link=jump_link(row), place=place, score=score, change=change_text(row, locale),
                 when=f"<t:{int(row.finished_at.timestamp())}:d>")

    def tournament_line(self, row: Any, user_id: int, locale: str) -> str:
        """A tournament the player entered: its name (escaped), game, and their rank in the field (so far)."""
        value = Tournament.from_json(row.data)
        rank = next((s.rank for s in value.standings() if s.player == str(user_id)), None)
        key = "profile.tournament_line" if value.status == "finished" else "profile.tournament_line_running"
        return t(key, locale, name=safe(value.name, 60), game=self.game_name(row.game, locale), id=row.id,
                 rank=rank if rank is not None else "—", field=len(value.entrants))

    # --- /leaderboard ------------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.leaderboard.name"), description=ls("cmd.leaderboard.description"),
                             aliases=aliases("cmd.leaderboard.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.leaderboard.game.name"), scope=ls("cmd.leaderboard.scope.name"),
                         page=ls("cmd.leaderboard.page.name"))
    @app_commands.describe(game=ls("cmd.leaderboard.game.description"),
                           scope=ls("cmd.leaderboard.scope.description"), page=ls("cmd.leaderboard.page.description"))
    @app_commands.choices(game=game_choices(), scope=SCOPE_CHOICES)
    async def leaderboard(self, ctx: commands.Context[Any], game: commands.Range[str, 1, MAX_GAME_NAME],
                          scope: str = "server", page: commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            game_id, where = self.game_id(game), self.scope_of(scope, ctx.guild)
            await ctx.defer()
            rows = await self.bot.engine.queries.leaderboard(where, game_id, limit=PAGE, offset=(page - 1) * PAGE)
            name = self.game_name(game_id, locale)
            if not rows:
                key = "profile.leaderboard.empty" if page == 1 else "profile.leaderboard.past_end"
                await ctx.send(t(key, locale, game=name, page=page), allowed_mentions=discord.AllowedMentions.none())
                return
            lines = [self.leaderboard_line(ctx.guild, (page - 1) * PAGE + i + 1, row, locale)
                     for i, row in enumerate(rows)]
            title = t("profile.leaderboard.title", locale, game=name,
                      scope=t("profile.scope.server" if where else "profile.scope.global", locale))
            embed = discord.Embed(title=title, description="\n".join(lines), colour=discord.Colour.gold())
            embed.set_footer(text=t("profile.leaderboard.footer", locale))
            data = self.leaderboard_data(ctx.guild, title, rows, (page - 1) * PAGE, locale)
            png = await render_pool.draw(standings_image, data, locale=locale)
            filename = image_name("leaderboard", png)  # the embed's attachment:// URL names the file as sent
            embed.set_image(url=f"attachment://{filename}")
            await ctx.send(embed=embed, file=discord.File(io.BytesIO(png), filename),
                           allowed_mentions=discord.AllowedMentions.none())

    def leaderboard_data(self, guild: discord.Guild, title: str, rows: list[RatingRow], first: int,
                         locale: str) -> dict[str, Any]:
        """The leaderboard as `render.league.standings_image` draws it: the rating where a tournament has points."""
        return {"title": title, "points_label": t("profile.leaderboard.rating", locale),
                "columns": [t("profile.leaderboard.games", locale)],
                "rows": [{"rank": first + i + 1, "name": self.plain_name(guild, row.user_id, locale),
                          "points": row.rating.display, "tiebreaks": [row.games],
                          "record": wdl((row.wins, row.draws, row.losses), locale),
                          "provisional": row.rating.provisional(), "dropped": False, "highlight": False}
                         for i, row in enumerate(rows)]}

    def leaderboard_line(self, guild: discord.Guild, rank: int, row: RatingRow, locale: str) -> str:
        return t("profile.leaderboard.line", locale, rank=rank, name=self.name_of(guild, row.user_id, locale),
                 rating=row.rating.display, mark="?" if row.rating.provisional() else "",
                 games=t("profile.games", locale, count=row.games),
                 wdl=wdl((row.wins, row.draws, row.losses), locale))

    # --- /profile ----------------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.profile.name"), description=ls("cmd.profile.description"),
                             aliases=aliases("cmd.profile.name"))
    @commands.guild_only()
    @app_commands.rename(member=ls("cmd.profile.member.name"))
    @app_commands.describe(member=ls("cmd.profile.member.description"))
    async def profile(self, ctx: commands.Context[Any], member: discord.Member | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            user = member or ctx.author
            found = await self.bot.engine.queries.profile(user.id, ctx.guild.id, last_games=LAST_GAMES)
            here, everywhere, counts, last = found.here, found.everywhere, found.counts, found.last
            name, tournaments = safe(user.display_name, NAME_LIMIT), found.tournaments
            if not (here or everywhere or counts or tournaments):
                await send_ephemeral(ctx, t("profile.none", locale, name=name))
                return
            embed = discord.Embed(title=t("profile.title", locale, name=name), colour=discord.Colour.blurple())
            for game in sorted({*here, *everywhere, *counts}, key=lambda g: self.game_name(g, locale)):
                value = t("profile.game_line", locale, server=shown_rating(here.get(game), locale),
                          everywhere=shown_rating(everywhere.get(game), locale),
                          wdl=wdl(counts.get(game, (0, 0, 0)), locale))
                embed.add_field(name=self.game_name(game, locale), value=value, inline=False)
            if last:
                lines = "\n".join(self.history_line(r, locale) for r in last)
                embed.add_field(name=t("profile.last_games", locale), value=lines[:MAX_FIELD], inline=False)
            if tournaments:
                lines = "\n".join(self.tournament_line(r, user.id, locale) for r in tournaments[:LAST_TOURNAMENTS])
                embed.add_field(name=t("profile.tournaments", locale), value=lines[:MAX_FIELD], inline=False)
            embed.set_footer(text=t("profile.footer", locale))
            await send_ephemeral(ctx, None, embed=embed)

    # --- /history ----------------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.history.name"), description=ls("cmd.history.description"),
                             aliases=aliases("cmd.history.name"))
    @commands.guild_only()
    @app_commands.rename(member=ls("cmd.history.member.name"), game=ls("cmd.history.game.name"),
                         page=ls("cmd.history.page.name"))
    @app_commands.describe(member=ls("cmd.history.member.description"), game=ls("cmd.history.game.description"),
                           page=ls("cmd.history.page.description"))
    @app_commands.choices(game=game_choices())
    async def history(self, ctx: commands.Context[Any], member: discord.Member | None = None,
                      game: commands.Range[str, 1, MAX_GAME_NAME] | None = None,
                      page: commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            game_id = None if game is None else self.game_id(game)
            await ctx.defer(ephemeral=True)
            user = member or ctx.author
            rows = await self.bot.engine.queries.history(user.id, guild_id=ctx.guild.id, game=game_id, limit=PAGE,
                                                        offset=(page - 1) * PAGE)
            name = safe(user.display_name, NAME_LIMIT)
            if not rows:
                key = "profile.history.none" if page == 1 else "profile.history.past_end"
                await send_ephemeral(ctx, t(key, locale, name=name, page=page))
                return
            title = t("profile.history.title", locale, name=name) if game_id is None else \
                t("profile.history.title_game", locale, name=name, game=self.game_name(game_id, locale))
            embed = discord.Embed(title=title, description="\n".join(self.history_line(r, locale) for r in rows),
                                  colour=discord.Colour.blurple())
            embed.set_footer(text=t("profile.history.footer", locale, page=page))
            await send_ephemeral(ctx, None, embed=embed)


async def setup(bot: App) -> None:
    await bot.add_cog(Profile(bot))
