"""The Floor's cog: restarts, typed answers in the thread, buttons and private menus; setup of the extension."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import discord
from discord.ext import commands

from cogs.the_floor.admin import TheFloorAdmin
from cogs.the_floor.basics import (
    CATEGORY_LIMIT,
    CLOCK_META,
    GAME,
    LEARN_META,
    LETTER_META,
    MAX_ANSWER,
    POSTED_META,
    RESUME_ALLOWANCE,
    SIDE_EMOJI_BY_SIDE,
    answer_text,
    category_text,
    sex_marker,
    side_colour,
    stamp_ms,
)
from cogs.the_floor.components import ITEMS, TheFloorSelect
from cogs.the_floor.surface import TheFloorSurface
from cogs.utils.app import App
from cogs.utils.checks import can_manage
from cogs.utils.components import view_of
from cogs.utils.lang import guild_locale, locale_of_interaction
from cogs.utils.posting import after_move, channel_of
from cogs.utils.replies import acknowledge, edit_response, in_time, send_ephemeral, user_errors
from cogs.utils.surface import Segment
from cogs.utils.text import safe
from engine import (
    ActResult,
    DamagedGameError,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    Table,
)
from i18n import t
from rules.base import IllegalActionError, NotYourTurnError
from rules.the_floor import board as bd
from rules.the_floor.bot import default_take
from rules.the_floor.words import (  # what players type in their language: the terminal reads it too
    duel_action,
)

log = logging.getLogger(__name__)


class TheFloor(commands.Cog):
    def __init__(self, bot: App, surface: TheFloorSurface) -> None:
        self.bot = bot
        self.surface = surface
        self.resumed = False

    @property
    def engine(self) -> Any:
        return self.bot.engine

    # --- restarts ----------------------------------------------------------------------------------------

    async def cog_load(self) -> None:
        """A running duel's clock must not run out while the bot is away: push its timer past the reconnect;
        `resume` then posts a fresh letter (the time the bot was down is charged to no one)."""
        for table in await self.open_tables():
            d = table.state.duel
            if d is None or not d.started or d.judging:
                continue
            due = self.bot.now() + timedelta(milliseconds=d.clocks[d.active]) + RESUME_ALLOWANCE
            await self.engine.arm_timer(table.id, version=table.version, seat=sorted(table.to_move())[0],
                                        action="timeout", due_at=due)

    async def open_tables(self) -> list[Table]:
        """Running games of The Floor that load (a damaged one is isolated by the engine, never fatal here), in
        servers on this process's gateway shards: another process pauses and resumes its own servers' duels."""
        owns = self.engine.scheduler.owns
        return [table for table in await self.engine.running_tables(GAME)
                if table.state is not None and owns(table.guild_id)]

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self.resumed:
            self.resumed = True
            await self.resume()

    async def resume(self) -> None:
        """After a restart: every running duel gets a fresh letter, and a game whose last step was saved but
        never announced (the bot stopped in between) gets its prompt, so no one waits for a message that
        will not come."""
        for table in await self.open_tables():
            d = table.state.duel
            running = d is not None and d.started and not d.judging
            if not running and table.meta.get(POSTED_META) == table.state.turn:
                continue
            channel = await channel_of(self.bot, table.channel_id)
            if channel is None:
                continue
            locale = await self.table_locale(table)
            if running:  # the duellists were kept waiting: the fresh letter calls them
                table = await self.engine.set_meta(table.id, **{LETTER_META: None})
            line = t("tfui.resumed" if running else "tfui.resumed_prompt", locale)
            await self.surface.publish(self.bot, channel, [Segment(line, table, image=not running)], locale)

    async def table_locale(self, table: Table) -> str:
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        return await guild_locale(self.bot, table.guild_id, guild.preferred_locale if guild else None)

    # --- typed answers -------------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Any message of the running side in a duel's thread is an answer (or ``pass`` / ``dispute``)."""
        if message.author.bot or message.guild is None or message.webhook_id is not None:
            return
        text = " ".join(message.content.split())
        if not text or len(text) > MAX_ANSWER or "\n" in message.content:
            return
        try:
            table = await self.engine.table_in_channel(message.channel.id)
        except DamagedGameError:
            return  # isolated; its players were told once
        if table is None or table.game != GAME or table.status != "active":
            return
        d = table.state.duel
        seat = table.seat_of(message.author.id)
        if seat is None or await self.is_command(message):
            return
        if d is None or not d.started:  # between duels: a verb nearly typed gets a hint, chat stays chat
            await self.hint(message, table, seat, text)
            return
        if d.judging or seat not in table.to_move():
            return
        locale = await guild_locale(self.bot, message.guild.id, message.guild.preferred_locale)
        async with user_errors(message, locale):
            result = await self.duel_act(table.id, message.author.id, text, stamp_ms(message.id), message.id)
            if result is not None:
                await self.announce(result, locale, message.channel)

    async def hint(self, message: discord.Message, table: Table, seat: int, text: str) -> None:
        """``chalenge b2 b3`` / ``redy`` from a seated player: a short reply with the legal move meant."""
        locale = await guild_locale(self.bot, message.guild.id, message.guild.preferred_locale)
        reply = self.surface.hint(table, seat, text, locale)
        if reply is None:
            return
        try:
            await send_ephemeral(message, reply)  # a reply to the message: it pings no one
        except discord.HTTPException as e:  # a hint is a courtesy: never an error for the player
            log.info("table %s: a hint was not sent (%s)", table.id, e)

    async def is_command(self, message: discord.Message) -> bool:
        prefixes = await self.bot.get_prefix(message)
        prefixes = [prefixes] if isinstance(prefixes, str) else prefixes
        return any(message.content.startswith(p) for p in prefixes)

    async def duel_act(self, table_id: int, user_id: int, text: str, at_ms: int, source_id: int, *,
                       version: int | None = None) -> ActResult | None:
        """An answer, ``pass`` or ``dispute`` with its elapsed time read from Discord's timestamps. The table is
        read, then acted on at that version: if another move got in between, read again (its base moved) —
        unless ``version`` names the position the player saw (a button), which must still be current."""
        for _ in range(3):
            table = await self.engine.get(table_id)
            if version is not None and table.version != version:
                raise StaleVersionError("engine.stale")
            s = table.state
            d = s.duel
            if d is None or not d.started or d.judging:
                raise IllegalActionError("tfui.no_running_duel")
            clock = table.meta.get(CLOCK_META) or {}
            if clock.get("turn") != s.turn:
                raise NotYourTurnError("tfui.wait_for_letter")
            elapsed = max(0, at_ms - int(clock["base"]))
            action = duel_action(text, elapsed)  # ``pas`` is ``pass`` here as in the terminal
            try:
                return await self.engine.act(table_id, user_id, action, version=table.version,
                                             interaction_id=source_id)
            except StaleVersionError:
                continue
        raise StaleVersionError("engine.stale")

    async def announce(self, result: ActResult, locale: str, channel: Any, first: Any = None) -> None:

        await after_move(self.bot, result, locale, channel=channel, first=first)

    # --- buttons -------------------------------------------------------------------------------------------

    async def button(self, interaction: discord.Interaction, action: str, table_id: int, version: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.engine.get(table_id)
            if table.status != "active":
                raise IllegalActionError("tf.game_over")
            seat = table.seat_of(interaction.user.id)
            if action == "learn":
                await self.learn(interaction, table, version, locale)
                return
            if seat is None and action not in ("accept", "reject"):
                raise NotSeatedError("engine.not_seated")
            if seat is None:  # a referee's or a spectator's vote: the rules say whether they may (`guest_action`)
                await self.guest_vote(interaction, table, action, locale, version)
                return
            if action in ("pick", "challenge", "choose"):
                await self.open_menu(interaction, table, seat, action, locale)
                return
            if action in ("pass", "dispute"):
                # The button is the letter it sits under: a double click or a stale one must not pass twice.
                word = t(f"tfui.word.{action}", "en").split(",")[0]
                result = await in_time(interaction, self.duel_act(table.id, interaction.user.id, word,
                                                                  stamp_ms(interaction.id), interaction.id,
                                                                  version=version))
                await self.after_click(interaction, result, locale)
            elif action == "suggest":
                p = table.state.pending[0] if table.state.pending else None
                if p is None or p.kind != "take":
                    raise IllegalActionError("tfui.nothing_to_choose")
                cells = default_take(table.state, p.side, p.cells, p.count)
                await self.play(interaction, table, "take " + ",".join(bd.name(c) for c in cells), locale, version)
            elif action == "ready":
                d = table.state.duel
                side = table.state.seat_side[seat]
                if d is not None and not d.started and side in (d.challenger, d.defender) and \
                        d.ready[0 if side == d.challenger else 1]:
                    raise NotYourTurnError("tfui.already_ready")
                await self.play(interaction, table, "ready", locale, None)
            else:  # accept / reject: judges vote on the answer shown at this version
                await self.play(interaction, table, f"judge {action}", locale, version)

    async def guest_vote(self, interaction: discord.Interaction, table: Table, action: str, locale: str,
                         version: int) -> None:
        """A vote by a member without a seat, from the game's own thread only (a forged button elsewhere, or a
        user from outside the server, changes nothing); the engine logs it as the table's action naming them."""
        member = interaction.guild is not None and interaction.guild_id == table.guild_id
        if not member or interaction.channel_id != table.channel_id:
            raise NotSeatedError("tfui.vote_here_only")
        if version != table.version:  # a button of an answer already judged
            raise StaleVersionError("engine.stale")
        if not table.rules.guest_may_vote(table.state, interaction.user.id):
            raise NotYourTurnError("tf.not_a_judge")  # checked again when applied, under the game's lock
        await self.play(interaction, table, f"judge {action}", locale, version)

    async def play(self, interaction: discord.Interaction, table: Table, action: str, locale: str,
                   version: int | None) -> None:
        result = await in_time(interaction, self.engine.act(table.id, interaction.user.id, action, version=version,
                                                            interaction_id=interaction.id))
        await self.after_click(interaction, result, locale)

    async def after_click(self, interaction: discord.Interaction, result: ActResult | None, locale: str) -> None:
        if result is None:
            return
        if result.duplicate:
            await send_ephemeral(interaction, t("bot.duplicate", locale))
            return
        await acknowledge(interaction)
        channel = await channel_of(self.bot, result.table.channel_id)
        if channel is not None:
            await self.announce(result, locale, channel)

    async def learn(self, interaction: discord.Interaction, table: Table, version: int, locale: str) -> None:
        if interaction.user.id != table.host_id and not can_manage(interaction):
            raise PermissionDeniedError("tfui.learn_not_allowed")
        entry = table.meta.get(LEARN_META, {}).get(str(version))
        if entry is None:
            raise IllegalActionError("tfui.learn_gone")
        lang, category, answer = entry
        added = await in_time(interaction, self.engine.floor_content.learn_answer(
            table.guild_id or 0, lang, category, answer, interaction.user.id, self.bot.now()))
        key = "tfui.learned" if added else "tfui.learned_already"
        await send_ephemeral(interaction, t(key, locale, answer=answer_text(answer),
                                            category=self.surface.cat(table, category)))

    # --- private menus -------------------------------------------------------------------------------------

    async def open_menu(self, interaction: discord.Interaction, table: Table, seat: int, action: str,
                        locale: str) -> None:
        s = table.state
        if seat not in table.to_move():
            raise NotYourTurnError("tf.not_your_turn")
        side = s.seat_side[seat]
        selects: list[Any] = []
        if action == "pick":
            if s.phase != "draft":
                raise IllegalActionError("tfui.nothing_to_choose")
            options = [discord.SelectOption(label=self.surface.cat_name(table, c), value=c)
                       for c in sorted(s.hands[side], key=lambda c: table.rules.category_name(s, c))]
            selects.append(TheFloorSelect.make("pick", table, 0, options, t("tfui.menu.pick", locale)))
        elif action == "challenge":
            if s.phase != "play" or s.duel is not None or s.pending:
                raise IllegalActionError("tfui.nothing_to_choose")
            options = [self.challenge_option(table, a, b, locale) for a, b in table.rules.challenges(s, side)]
            for part in range(0, min(len(options), 100), 25):
                selects.append(TheFloorSelect.make("challenge", table, part // 25, options[part:part + 25],
                                                   t("tfui.menu.challenge", locale)))
        else:
            if not s.pending:
                raise IllegalActionError("tfui.nothing_to_choose")
            p = s.pending[0]
            if p.kind == "take":
                options = [discord.SelectOption(label=bd.name(c), value=bd.name(c)) for c in p.cells]
                selects.append(TheFloorSelect.make("take", table, 0, options,
                                                   t("tfui.menu.take", locale, count=p.count), count=p.count))
            else:
                options = [discord.SelectOption(label=self.surface.cat_name(table, c), value=c)
                           for c in p.options]
                selects.append(TheFloorSelect.make("keep", table, 0, options, t("tfui.menu.keep", locale)))
        await interaction.response.send_message(t(f"tfui.menu.{action}_intro", locale), view=view_of(selects),
                                                ephemeral=True)

    def challenge_option(self, table: Table, a: int, b: int, locale: str) -> discord.SelectOption:
        s = table.state
        defender = s.board[b]
        field = bd.field_of(s.board, b)
        cat = next((c for cell, c in s.cards if cell in field), "")
        label = f"{bd.name(a)} → {bd.name(b)} · {SIDE_EMOJI_BY_SIDE[defender]} " + \
            self.surface.cat_name(table, cat, CATEGORY_LIMIT)
        desc = t("tfui.menu.challenge_option", locale, colour=side_colour(defender, locale), size=len(field),
                 own=len(bd.field_of(s.board, a)))
        return discord.SelectOption(label=label[:100], value=f"{bd.name(a)} {bd.name(b)}", description=desc[:100])

    async def select(self, interaction: discord.Interaction, kind: str, table_id: int, version: int,
                     values: list[str]) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.engine.get(table_id)
            if not values:
                raise IllegalActionError("tfui.nothing_to_choose")
            if kind == "pick":
                action, tied = f"pick {values[0]}", None  # simultaneous: other sides' picks move the version
            elif kind == "challenge":
                action, tied = f"challenge {values[0]}", version
            elif kind == "take":
                action, tied = "take " + ",".join(sorted(values)), version
            else:
                p = table.state.pending[0] if table.state and table.state.pending else None
                verb = "pick" if p is not None and p.kind == "final_pick" else "keep"
                action, tied = f"{verb} {values[0]}", version
            result = await in_time(interaction, self.engine.act(table.id, interaction.user.id, action, version=tied,
                                                                interaction_id=interaction.id))
            if result.duplicate:
                await send_ephemeral(interaction, t("bot.duplicate", locale))
                return
            choice = category_text(table.rules.category_name(result.table.state, values[0])) + \
                sex_marker(result.table, values[0]) \
                if kind in ("pick", "keep") else safe(", ".join(values), 200)  # cells (a client could send any)
            await edit_response(interaction, content=t("tfui.menu.done", locale, choice=choice), view=None)
            channel = await channel_of(self.bot, table.channel_id)
            if channel is not None:
                await self.announce(result, locale, channel)


async def setup(bot: App) -> None:
    surface = TheFloorSurface(bot)
    bot.surfaces[GAME] = surface
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(TheFloor(bot, surface))
    await bot.add_cog(TheFloorAdmin(bot))  # /floor: the server's own content, loaded and unloaded with the game


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)
