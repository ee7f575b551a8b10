"""``/tournament``'s commands (who may run each, what they post and the decisions: see the package docstring)."""

from __future__ import annotations

import io
import json
import logging
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.admin import require_manager
from cogs.lobby import MAX_OPTIONS, parse_options
from cogs.tournaments import view as tv
from cogs.tournaments.options import (
    CREATE_DESCRIPTIONS,
    CREATE_NAMES,
    CUT_FORMAT_CHOICES,
    DRAW_RULE_CHOICES,
    EXPORT_CHOICES,
    FORMAT_CHOICES,
    TOP_CUT_CHOICES,
)
from cogs.tournaments.posts import ANNOUNCE_KEY, TournamentPosts
from cogs.utils.app import App
from cogs.utils.checks import can_manage
from cogs.utils.components import id_number
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.posting import pinging
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import find_game, game_choices
from cogs.utils.text import NAME_LIMIT, Markup, clean, escape, mention
from engine import GameNotFoundError
from engine.policies import allowed_policies, check_options
from engine.tournaments import Entry
from i18n import t
from league import export as ex
from league.model import Entrant
from league.settings import Settings, TournamentError, check_rounds, resolve_format
from league.tournament import FINISHED, REGISTRATION, RUNNING, Tournament
from render import pool as render_pool
from render.kit import image_name
from render.league import crosstable_image
from rules.rng import new_seed

log = logging.getLogger(__name__)

DEFAULT_RATING = 1500.0  # a newcomer's display rating (storage/league.py)
MAX_GAME_NAME, MAX_RANKING, MAX_ID = 60, 300, 2**53
OPEN = (REGISTRATION, RUNNING)


class Tournaments(TournamentPosts, commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self._fake = 0

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(tv.TourButton)
        director = self.bot.director
        if director is not None:
            director.channels = self.make_table_channel
            director.add_listener(self.on_tournament)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(tv.TourButton)
        director = self.bot.director
        if director is not None:
            director.channels = None
            director.remove_listener(self.on_tournament)

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    # --- helpers -------------------------------------------------------------------------------------------

    @property
    def director(self) -> Any:
        return self.bot.director

    async def pick(self, ctx: commands.Context[Any], tournament: int | None, *, finished_ok: bool = False) -> Entry:
        """The tournament named, else the one open in this channel (or its parent, from a table's thread), else
        the only one open on the server; ``finished_ok``: else the latest finished one here."""
        if tournament is not None:
            entry = await self.director.get(tournament)
            if entry.row.guild_id != ctx.guild.id:
                raise GameNotFoundError("tour.no_tournament", id=tournament)
            return entry
        queries = self.bot.engine.queries
        here = {ctx.channel.id, getattr(ctx.channel, "parent_id", None)}
        rows = await queries.tournaments(ctx.guild.id, OPEN)
        local = [r for r in rows if r.channel_id in here]
        pool = local if len(local) == 1 else rows
        if len(pool) == 1:
            return Entry(pool[0], Tournament.from_json(pool[0].data))
        if rows:
            raise TournamentError("tour.which", ids=Markup(", ".join(f"#{r.id}" for r in rows[:20])))
        if finished_ok:
            done = await queries.tournaments(ctx.guild.id, (FINISHED,))
            done = [r for r in done if r.channel_id in here] or done
            if done:
                return Entry(done[-1], Tournament.from_json(done[-1].data))
        raise TournamentError("tour.none_open")

    def organiser(self, ctx: commands.Context[Any], entry: Entry) -> None:
        self.director.organiser_check(entry, ctx.author.id, is_admin=can_manage(ctx))

    async def rating_of(self, guild_id: int, game: str, user_id: int) -> float:
        """The player's server rating as shown (seeding only); a newcomer's 1500."""
        row = await self.bot.engine.queries.rating(guild_id, game, user_id)
        return float(row.rating.display) if row is not None else DEFAULT_RATING

    # --- /tournament ---------------------------------------------------------------------------------------

    @commands.hybrid_group(name=ls("cmd.tournament.name"), description=ls("cmd.tournament.description"),
                           aliases=aliases("cmd.tournament.name"), invoke_without_command=True)
    @commands.guild_only()
    async def tournament(self, ctx: commands.Context[Any]) -> None:
        """``!tournament`` alone: what the subcommands are."""
        await send_ephemeral(ctx, t("tour.usage", await locale_of_ctx(ctx), prefix=ctx.clean_prefix))

    @tournament.command(name=ls("cmd.tournament.create.name"), description=ls("cmd.tournament.create.description"),
                        aliases=aliases("cmd.tournament.create.name"))
    @commands.guild_only()
    @app_commands.rename(**CREATE_NAMES)
    @app_commands.describe(**CREATE_DESCRIPTIONS)
    @app_commands.choices(game=game_choices(), format=FORMAT_CHOICES, draw_rule=DRAW_RULE_CHOICES,
                          top_cut=TOP_CUT_CHOICES, cut_format=CUT_FORMAT_CHOICES)
    async def create(self, ctx: commands.Context[Any], name: commands.Range[str, 1, tv.TOURNAMENT_NAME],
                     game: commands.Range[str, 1, MAX_GAME_NAME], format: commands.Range[str, 1, 30],
                     table_size: commands.Range[int, 1, 10] = 2, rounds: commands.Range[int, 0, 30] = 0,
                     round_hours: commands.Range[int, 1, 720] = 72, max_players: commands.Range[int, 0, 512] = 0,
                     checkin: bool = False, late_join_rounds: commands.Range[int, 0, 10] = 0,
                     late_points: commands.Range[float, 0.0, 1.0] = 0.0,
                     starts_in_hours: commands.Range[int, 0, 720] = 0,
                     tiebreaks: commands.Range[str, 0, tv.MAX_TIEBREAKS] = "", draw_rule: str = "rematch",
                     bye_points: commands.Range[float, 0.0, 1.0] | None = None,
                     half_bye_points: commands.Range[float, 0.0, 1.0] = 0.5,
                     max_half_byes: commands.Range[int, 0, 50] = 1,
                     min_table_size: commands.Range[int, 0, 10] = 0, max_table_size: commands.Range[int, 0, 10] = 0,
                     grand_final_reset: bool = True, top_cut: int = 0, cut_format: str = "single",
                     third_place: bool | None = None, groups: commands.Range[int, 0, 16] = 0,
                     advance: commands.Range[int, 1, 8] = 2, *,
                     options: commands.Range[str, 0, MAX_OPTIONS] = "") -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            title = clean(name, tv.TOURNAMENT_NAME)
            if not title:
                raise TournamentError("tour.bad_name")
            rules = find_game(self.bot.engine.games, game)
            if not rules.min_players <= table_size <= rules.max_players:
                raise TournamentError("tour.table_size_for_game", size=table_size, min=rules.min_players,
                                      max=rules.max_players)
            opts = parse_options(options)
            # A tournament must finish: a missed turn forfeits unless the organiser or the game says otherwise.
            if "on_timeout" not in opts and "forfeit" in allowed_policies(rules):
                opts["on_timeout"] = "forfeit"
            settings = Settings(game=rules.id, format=resolve_format(format, table_size), table_size=table_size,
                                rounds=rounds, max_players=max_players, checkin=checkin,
                                late_join_rounds=late_join_rounds, late_points=late_points,
                                tiebreaks=tuple(k.strip().lower() for k in tiebreaks.split(",") if k.strip()),
                                round_hours=round_hours, draw_rule=draw_rule.strip().lower(), bye_points=bye_points,
                                half_bye_points=half_bye_points, max_half_byes=max_half_byes,
                                min_size=min_table_size, max_size=max_table_size,
                                grand_final_reset=grand_final_reset, top_cut=top_cut,
                                cut_format=cut_format.strip().lower(), third_place=third_place, groups=groups,
                                advance=advance, options=opts)
            if max_players:  # the field's size is known only when capped; the start caps the rounds otherwise
                check_rounds(settings, max_players)
            check_options(rules, dict(opts))  # the games' options fail before anything is posted
            await ctx.defer()
            now = self.bot.engine.now()
            starts = now + timedelta(hours=starts_in_hours) if starts_in_hours else None
            entry = await self.director.create(name=title, settings=settings, guild_id=ctx.guild.id,
                                               channel_id=ctx.channel.id, organizer_id=ctx.author.id,
                                               seed=new_seed(), starts_at=starts)
            message = await ctx.send(**tv.announcement(entry.row, entry.value, self.game_name(rules.id, locale),
                                                       locale))
            await self.bot.engine.set_guild_setting(ctx.guild.id, ANNOUNCE_KEY.format(id=entry.row.id), message.id)

    # --- entering ------------------------------------------------------------------------------------------

    async def enter(self, entry: Entry, member: discord.abc.User, guild_id: int) -> Entry:
        rating = await self.rating_of(guild_id, entry.row.game, member.id)
        entrant = Entrant(str(member.id), clean(member.display_name, NAME_LIMIT) or str(member.id), rating)
        return await self.director.update(entry.row.id, lambda v: v.register(entrant))

    async def withdraw(self, entry: Entry, user_id: int) -> Entry:
        """Before the start the entry is withdrawn; later the player drops (their running game is resigned)."""
        if entry.value.status == RUNNING:
            return await self.director.drop(entry.row.id, str(user_id))
        return await self.director.update(entry.row.id, lambda v: v.drop(str(user_id)))

    async def check_in(self, entry: Entry, user_id: int) -> Entry:
        if not entry.value.settings.checkin:
            raise TournamentError("tour.no_checkin")
        return await self.director.update(entry.row.id, lambda v: v.check_in(str(user_id)))

    async def entering(self, ctx: commands.Context[Any], tournament: int | None, step: str) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament)
            if step == "join":
                entry = await self.enter(entry, ctx.author, ctx.guild.id)
            elif step == "leave":
                entry = await self.withdraw(entry, ctx.author.id)
            else:
                entry = await self.check_in(entry, ctx.author.id)
            await send_ephemeral(ctx, t(f"tour.done.{step}", locale, name=escape(entry.value.name)))
            await self.refresh_announcement(entry.row, entry.value)

    @tournament.command(name=ls("cmd.tournament.join.name"), description=ls("cmd.tournament.join.description"),
                        aliases=aliases("cmd.tournament.join.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def join(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                   ) -> None:
        await self.entering(ctx, tournament, "join")

    @tournament.command(name=ls("cmd.tournament.leave.name"), description=ls("cmd.tournament.leave.description"),
                        aliases=aliases("cmd.tournament.leave.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def leave(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                    ) -> None:
        await self.entering(ctx, tournament, "leave")

    @tournament.command(name=ls("cmd.tournament.checkin.name"),
                        description=ls("cmd.tournament.checkin.description"),
                        aliases=aliases("cmd.tournament.checkin.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def checkin(self, ctx: commands.Context[Any],
                      tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        await self.entering(ctx, tournament, "checkin")

    async def tour_button(self, interaction: discord.Interaction, rest: str) -> None:
        """A click on an announcement: everything is re-checked (the id, the tournament and where it is, that
        registration is still open, the user's entry), so a stale or forged button changes nothing."""
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            action, _, number = rest.partition(":")
            if action not in tv.BUTTON_ACTIONS or not number.isdigit():
                raise TournamentError("tour.bad_button")
            await interaction.response.defer(ephemeral=True, thinking=True)
            tournament_id = id_number(number)
            entry = await self.director.get(tournament_id)
            if entry.row.guild_id != interaction.guild_id:
                raise GameNotFoundError("tour.no_tournament", id=tournament_id)
            if entry.value.status != REGISTRATION:
                raise TournamentError("tour.registration_over", status=Markup(t(f"tour.status.{entry.value.status}",
                                                                                locale)))
            user = interaction.user
            if action == "join":
                entry = await self.enter(entry, user, interaction.guild_id or 0)
            elif action == "leave":
                entry = await self.withdraw(entry, user.id)
            else:
                entry = await self.check_in(entry, user.id)
            await send_ephemeral(interaction, t(f"tour.done.{action}", locale, name=escape(entry.value.name)))
            await self.refresh_announcement(entry.row, entry.value)

    # --- organising ----------------------------------------------------------------------------------------

    async def organising(self, ctx: commands.Context[Any], tournament: int | None) -> tuple[str, Entry]:
        """Deferred (privately: a refusal stays private), then the tournament if the author organises it (or
        manages the server)."""
        locale = await locale_of_ctx(ctx)
        await ctx.defer(ephemeral=True)
        entry = await self.pick(ctx, tournament)
        self.organiser(ctx, entry)
        return locale, entry

    async def announce(self, ctx: commands.Context[Any], text: str, pings: list[int] = ()) -> None:
        """An organiser's step, said publicly in the channel."""
        await self.publicly(ctx, content=text, allowed_mentions=pinging(list(pings)))

    async def publicly(self, ctx: commands.Context[Any], **kwargs: Any) -> None:
        """A public post in the channel after a private deferral (so that a refusal would have stayed private);
        the private "thinking…" placeholder goes away."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        await ctx.channel.send(**kwargs)
        if ctx.interaction is not None:
            try:
                await ctx.interaction.delete_original_response()
            except discord.HTTPException:
                log.info("could not remove the placeholder of a /tournament step in %s", ctx.channel.id)

    @tournament.command(name=ls("cmd.tournament.start.name"), description=ls("cmd.tournament.start.description"),
                        aliases=aliases("cmd.tournament.start.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def start(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                    ) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.director.start(entry.row.id)  # the listener posts the pairings
            await send_ephemeral(ctx, t("tour.done.start", locale, name=escape(entry.value.name)))

    @tournament.command(name=ls("cmd.tournament.pause.name"), description=ls("cmd.tournament.pause.description"),
                        aliases=aliases("cmd.tournament.pause.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def pause(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                    ) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            if entry.value.paused:
                raise TournamentError("tour.already_paused")
            entry = await self.director.pause(entry.row.id)
            await self.announce(ctx, t("tour.paused_by", locale, name=escape(entry.value.name), who=ctx.author.mention))

    @tournament.command(name=ls("cmd.tournament.resume.name"),
                        description=ls("cmd.tournament.resume.description"),
                        aliases=aliases("cmd.tournament.resume.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def resume(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                     ) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            if not entry.value.paused:
                raise TournamentError("tour.not_paused")
            await self.announce(ctx, t("tour.resumed_by", locale, name=escape(entry.value.name),
                                       who=ctx.author.mention))
            # The round's clock runs again with what it had left; results that came in during the pause count now,
            # and a round that closed meanwhile is followed by the next.
            await self.director.resume(entry.row.id)

    @tournament.command(name=ls("cmd.tournament.repair.name"),
                        description=ls("cmd.tournament.repair.description"),
                        aliases=aliases("cmd.tournament.repair.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def repair(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                     ) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.director.repair(entry.row.id)  # the listener posts the new pairings
            await send_ephemeral(ctx, t("tour.done.repair", locale, name=escape(entry.value.name)))

    @tournament.command(name=ls("cmd.tournament.award.name"), description=ls("cmd.tournament.award.description"),
                        aliases=aliases("cmd.tournament.award.name"))
    @commands.guild_only()
    @app_commands.rename(round=ls("cmd.tournament.award.round.name"), table=ls("cmd.tournament.award.table.name"),
                         ranking=ls("cmd.tournament.award.ranking.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(round=ls("cmd.tournament.award.round.description"),
                           table=ls("cmd.tournament.award.table.description"),
                           ranking=ls("cmd.tournament.award.ranking.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def award(self, ctx: commands.Context[Any], round: commands.Range[int, 1, 1000],
                    table: commands.Range[int, 1, 1000], ranking: commands.Range[str, 1, MAX_RANKING],
                    tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            value = entry.value
            if not 1 <= round <= len(value.rounds):
                raise TournamentError("tour.no_round", round=round)
            rnd = value.rounds[round - 1]
            if not 1 <= table <= len(rnd.tables):
                raise TournamentError("tour.no_table", table=table)
            order = tv.parse_ranking(ranking, rnd.tables[table - 1].seats)
            entry = await self.director.award(entry.row.id, round, table - 1, order)
            names = tv.names_of(entry.value)
            shown = " > ".join(" = ".join(tv.who(p, names) for p in group) for group in order)
            await self.announce(ctx, t("tour.awarded", locale, round=round, table=table, result=Markup(shown),
                                       who=ctx.author.mention))

    @tournament.command(name=ls("cmd.tournament.disqualify.name"),
                        description=ls("cmd.tournament.disqualify.description"),
                        aliases=aliases("cmd.tournament.disqualify.name"))
    @commands.guild_only()
    @app_commands.rename(member=ls("cmd.tournament.disqualify.member.name"), tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(member=ls("cmd.tournament.disqualify.member.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def disqualify(self, ctx: commands.Context[Any], member: discord.Member,
                         tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.withdraw(entry, member.id)
            await self.announce(ctx, t("tour.disqualified", locale, name=mention(member.id),
                                       tournament=escape(entry.value.name), who=ctx.author.mention), [member.id])
            await self.refresh_announcement(entry.row, entry.value)

    @tournament.command(name=ls("cmd.tournament.bye.name"), description=ls("cmd.tournament.bye.description"),
                        aliases=aliases("cmd.tournament.bye.name"))
    @commands.guild_only()
    @app_commands.rename(round=ls("cmd.tournament.bye.round.name"), member=ls("cmd.tournament.bye.member.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(round=ls("cmd.tournament.bye.round.description"),
                           member=ls("cmd.tournament.bye.member.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def bye(self, ctx: commands.Context[Any], round: commands.Range[int, 1, 1000],
                  member: discord.Member | None = None,
                  tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        """A requested half-point bye for a round not yet paired: an entrant for themself, the organiser for anyone."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament)
            player = member or ctx.author
            if player.id != ctx.author.id:
                self.organiser(ctx, entry)
            entry = await self.director.update(
                entry.row.id, lambda v: v.request_bye(str(player.id), round, by=str(ctx.author.id)))
            await self.announce(ctx, t("tour.half_bye_granted", locale, name=mention(player.id), round=round,
                                       points=entry.value.settings.half_bye_points,
                                       tournament=escape(entry.value.name), who=ctx.author.mention), [player.id])

    @tournament.command(name=ls("cmd.tournament.readmit.name"),
                        description=ls("cmd.tournament.readmit.description"),
                        aliases=aliases("cmd.tournament.readmit.name"))
    @commands.guild_only()
    @app_commands.rename(member=ls("cmd.tournament.readmit.member.name"), tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(member=ls("cmd.tournament.readmit.member.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def readmit(self, ctx: commands.Context[Any], member: discord.Member,
                      tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        """A player who left plays again from the next round to be paired (the organiser)."""
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.director.update(entry.row.id, lambda v: v.readmit(str(member.id), by=str(ctx.author.id)))
            await self.announce(ctx, t("tour.readmitted", locale, name=mention(member.id),
                                       tournament=escape(entry.value.name), round=len(entry.value.rounds) + 1,
                                       who=ctx.author.mention), [member.id])
            await self.refresh_announcement(entry.row, entry.value)

    async def keep_apart(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                         tournament: int | None, apart: bool) -> None:
        """Forbid (or allow again) a pairing of two entrants (the organiser)."""
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            a, b, by = str(first.id), str(second.id), str(ctx.author.id)
            entry = await self.director.update(
                entry.row.id, lambda v: v.forbid(a, b, by=by) if apart else v.allow(a, b, by=by))
            await self.announce(ctx, t("tour.forbidden_set" if apart else "tour.allowed_set", locale,
                                       first=mention(first.id), second=mention(second.id),
                                       tournament=escape(entry.value.name), who=ctx.author.mention))

    @tournament.command(name=ls("cmd.tournament.forbid.name"), description=ls("cmd.tournament.forbid.description"),
                        aliases=aliases("cmd.tournament.forbid.name"))
    @commands.guild_only()
    @app_commands.rename(first=ls("cmd.tournament.forbid.first.name"), second=ls("cmd.tournament.forbid.second.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(first=ls("cmd.tournament.forbid.first.description"),
                           second=ls("cmd.tournament.forbid.second.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def forbid(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                     tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        await self.keep_apart(ctx, first, second, tournament, True)

    @tournament.command(name=ls("cmd.tournament.allow.name"), description=ls("cmd.tournament.allow.description"),
                        aliases=aliases("cmd.tournament.allow.name"))
    @commands.guild_only()
    @app_commands.rename(first=ls("cmd.tournament.forbid.first.name"), second=ls("cmd.tournament.forbid.second.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(first=ls("cmd.tournament.forbid.first.description"),
                           second=ls("cmd.tournament.forbid.second.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def allow(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                    tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        await self.keep_apart(ctx, first, second, tournament, False)

    async def rearrange(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                        tournament: int | None, action: str) -> None:
        """Swap two players' tables, or force them to play each other, in the current round (the organiser)."""
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            a, b, by = str(first.id), str(second.id), str(ctx.author.id)
            entry = await self.director.rearrange(
                entry.row.id, lambda v: v.swap(a, b, by=by) if action == "swap" else v.force(a, b, by=by))
            await self.announce(ctx, t("tour.swapped" if action == "swap" else "tour.forced", locale,
                                       round=len(entry.value.rounds), tournament=escape(entry.value.name),
                                       first=mention(first.id), second=mention(second.id), who=ctx.author.mention),
                                [first.id, second.id])

    @tournament.command(name=ls("cmd.tournament.swap.name"), description=ls("cmd.tournament.swap.description"),
                        aliases=aliases("cmd.tournament.swap.name"))
    @commands.guild_only()
    @app_commands.rename(first=ls("cmd.tournament.forbid.first.name"), second=ls("cmd.tournament.forbid.second.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(first=ls("cmd.tournament.forbid.first.description"),
                           second=ls("cmd.tournament.forbid.second.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def swap(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                   tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        await self.rearrange(ctx, first, second, tournament, "swap")

    @tournament.command(name=ls("cmd.tournament.force.name"), description=ls("cmd.tournament.force.description"),
                        aliases=aliases("cmd.tournament.force.name"))
    @commands.guild_only()
    @app_commands.rename(first=ls("cmd.tournament.forbid.first.name"), second=ls("cmd.tournament.forbid.second.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(first=ls("cmd.tournament.forbid.first.description"),
                           second=ls("cmd.tournament.forbid.second.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def force(self, ctx: commands.Context[Any], first: discord.Member, second: discord.Member,
                    tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        await self.rearrange(ctx, first, second, tournament, "force")

    @tournament.command(name=ls("cmd.tournament.registration.name"),
                        description=ls("cmd.tournament.registration.description"),
                        aliases=aliases("cmd.tournament.registration.name"))
    @commands.guild_only()
    @app_commands.rename(is_open=ls("cmd.tournament.registration.open.name"),
                         tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(is_open=ls("cmd.tournament.registration.open.description"),
                           tournament=ls("cmd.tournament.id.description"))
    async def registration(self, ctx: commands.Context[Any], is_open: bool,
                           tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        """Open or close entries before the start (the organiser)."""
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.director.update(entry.row.id, lambda v: v.set_registration(is_open))
            key = "tour.done.registration_open" if is_open else "tour.done.registration_closed"
            await self.announce(ctx, t(key, locale, name=escape(entry.value.name), who=ctx.author.mention))
            await self.refresh_announcement(entry.row, entry.value)

    @tournament.command(name=ls("cmd.tournament.cancel.name"), description=ls("cmd.tournament.cancel.description"),
                        aliases=aliases("cmd.tournament.cancel.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def cancel(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                     ) -> None:
        async with user_errors(ctx, await locale_of_ctx(ctx)):
            locale, entry = await self.organising(ctx, tournament)
            entry = await self.director.cancel(entry.row.id)  # the listener says so in the tournament's channel
            await send_ephemeral(ctx, t("tour.done.cancel", locale, name=escape(entry.value.name)))

    @tournament.command(name=ls("cmd.tournament.export.name"), description=ls("cmd.tournament.export.description"),
                        aliases=aliases("cmd.tournament.export.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"), format=ls("cmd.tournament.export.format.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"),
                           format=ls("cmd.tournament.export.format.description"))
    @app_commands.choices(format=EXPORT_CHOICES)
    async def export(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                     format: commands.Range[str, 1, 20] = "json") -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament, finished_ok=True)
            self.organiser(ctx, entry)
            kind = format.strip().lower()
            ex.check_format(entry.value, kind)
            files = await self.export_files(entry, kind, locale)
            await ctx.send(t(f"tour.export_caption.{kind}", locale, name=escape(entry.value.name)), files=files,
                           ephemeral=True)

    async def export_files(self, entry: Entry, kind: str, locale: str) -> list[discord.File]:
        """The organiser's download. It holds no secret: a running game's seed is not in it (a finished one's is
        in that game's record)."""
        value, stem = entry.value, f"tournament-{entry.row.id}"
        if kind == "trf":
            return [discord.File(io.BytesIO(ex.trf(value).encode("utf-8")), filename=f"{stem}.trf")]
        if kind == "csv":
            return [discord.File(io.BytesIO(ex.standings_csv(value).encode("utf-8")), filename=f"{stem}.csv")]
        if kind == "crosstable":
            subtitle = " · ".join((self.game_name(entry.row.game, locale), tv.format_name(value.fmt, locale)))
            png = await render_pool.draw(crosstable_image, ex.crosstable_data(value, subtitle=subtitle),
                                         locale=locale)
            return [discord.File(io.BytesIO(ex.crosstable_csv(value).encode("utf-8")), filename=f"{stem}-cross.csv"),
                    discord.File(io.BytesIO(png), filename=image_name(f"{stem}-crosstable", png))]
        data = ex.json_export(value, await self.ratings_after(entry))
        return [discord.File(io.BytesIO(json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")),
                             filename=f"{stem}.json")]

    async def ratings_after(self, entry: Entry) -> dict[str, float]:
        """Each entrant's server rating now, as shown (after the event once it is over); none for a player
        without one or a tournament that is not rated."""
        if not entry.value.settings.rated or entry.row.guild_id is None:
            return {}
        out: dict[str, float] = {}
        for e in entry.value.entrants:
            if e.id.isdigit():
                row = await self.bot.engine.queries.rating(entry.row.guild_id, entry.row.game, int(e.id))
                if row is not None:
                    out[e.id] = float(row.rating.display)
        return out

    # --- showing -------------------------------------------------------------------------------------------

    @tournament.command(name=ls("cmd.tournament.standings.name"),
                        description=ls("cmd.tournament.standings.description"),
                        aliases=aliases("cmd.tournament.standings.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def standings(self, ctx: commands.Context[Any],
                        tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament, finished_ok=True)
            title = t("tour.standings_title", locale, name=entry.value.name)
            await self.publicly(ctx, **await self.standings_post(entry.row, entry.value, title, locale))

    @tournament.command(name=ls("cmd.tournament.bracket.name"),
                        description=ls("cmd.tournament.bracket.description"),
                        aliases=aliases("cmd.tournament.bracket.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def bracket(self, ctx: commands.Context[Any], tournament: commands.Range[int, 1, MAX_ID] | None = None,
                      ) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament, finished_ok=True)
            if entry.value.bracket is None:
                raise TournamentError("tour.no_bracket")
            await self.publicly(ctx, content=t("tour.bracket_caption", locale, name=escape(entry.value.name)),
                                file=await self.bracket_file(entry.row, entry.value, locale))

    @tournament.command(name=ls("cmd.tournament.pairings.name"),
                        description=ls("cmd.tournament.pairings.description"),
                        aliases=aliases("cmd.tournament.pairings.name"))
    @commands.guild_only()
    @app_commands.rename(tournament=ls("cmd.tournament.id.name"))
    @app_commands.describe(tournament=ls("cmd.tournament.id.description"))
    async def pairings(self, ctx: commands.Context[Any],
                       tournament: commands.Range[int, 1, MAX_ID] | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            entry = await self.pick(ctx, tournament)
            rnd = entry.value.current
            if rnd is None:
                raise TournamentError("tour.no_pairings")
            texts = await self.round_texts(entry.row, entry.value, rnd, locale)
            for text in texts[:-1]:  # shown, not pinged: the round's own post pinged everyone
                await ctx.channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            await self.publicly(ctx, content=texts[-1])

    @tournament.command(name=ls("cmd.tournament.list.name"), description=ls("cmd.tournament.list.description"),
                        aliases=aliases("cmd.tournament.list.name"))
    @commands.guild_only()
    async def list_(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer()
            rows = await self.bot.engine.queries.tournaments(ctx.guild.id, OPEN)
            if not rows:
                await ctx.send(t("tour.list_empty", locale))
                return
            lines = []
            for row in rows:
                value = Tournament.from_json(row.data)
                lines.append(t("tour.list_line", locale, id=row.id, name=escape(value.name),
                               game=self.game_name(row.game, locale), format=tv.format_name(value.fmt, locale),
                               round=tv.round_text(value, locale), count=len(value.entrants),
                               status=t(f"tour.status.{value.status}", locale)))
            embed = discord.Embed(title=t("tour.list_title", locale), colour=discord.Colour.gold(),
                                  description="\n".join(lines)[:4096])
            await ctx.send(embed=embed)
