"""Floor Plan's game surface: captions, the status message, typed moves, private sheets and posting."""

from __future__ import annotations

from typing import Any

import discord

from cogs.floor_plan.basics import (
    GAME,
    MAX_PING_POSTS,
    TYPED_VERBS,
    is_argument,
    mention_chunks,
    move_shaped,
    roll_text,
    start_example,
)
from cogs.floor_plan.components import table_items
from cogs.floor_plan.posts import draw_summary, post_kwargs, round_posts, sheet_png, sheet_text
from cogs.utils import hints
from cogs.utils.app import App
from cogs.utils.ending import game_ended, web_line
from cogs.utils.posting import pinging
from cogs.utils.summary import add_summary
from cogs.utils.surface import GameSurface, Segment
from engine import (
    ActResult,
    Notice,
    Table,
)
from i18n import t
from render import floor_plan as draw
from rules.base import Msg
from rules.floor_plan.notation import USAGE
from rules.floor_plan.words import (  # what players type in their language: the terminal reads it too
    ALIASES,
    VERB_ALIAS,
    WORD_ALIASES,
    canonical_text,
)


class FloorPlanSurface(GameSurface):
    game_id = GAME
    custom_posting = True
    private_action_key = "fpui.typed_refused"

    def __init__(self) -> None:
        self.buffers: dict[int, list[Segment]] = {}
        self.reminded: dict[tuple[int, str], int] = {}  # (table, reminder|warning) -> the round it was posted for

    def game_name(self, locale: str) -> str:
        return t("fp.name", locale)

    def describe(self, result: ActResult, locale: str) -> str:
        name = self.seat_label(result.table, result.seat, locale)
        if result.action == "resign":
            return t("bot.resigned", locale, name=name)
        if result.action == "timeout":  # a missed round, never said as a move of the player's
            return t("fpui.timed_out", locale, name=name)
        return t("fpui.acted", locale, name=name)  # never the action: it stays private until the round closes

    def is_quiet(self, result: ActResult) -> bool:
        return True

    def turn_line(self, table: Table, locale: str) -> tuple[str, list[int]]:
        state = table.state
        if state is None or table.status != "active":
            return "", []
        waiting = len(table.to_move())
        return t("fpui.turn_line", locale, round=state.round, roll=roll_text(state.roll), count=waiting), []

    def score_text(self, table: Table, seat: int, score: float, locale: str) -> str:
        return draw.points(int(score), locale)

    # --- the status message and /help ----------------------------------------------------------------

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        state = table.state
        line = self.seat_label(table, seat, locale)
        if state is None:
            return line
        board = state.boards[seat]  # the committed sheet: notes and end bonus (cheap for 100 seats)
        line += " — " + draw.points(board.notes_total() + board.end_bonus, locale)
        if seat in state.resigned:
            line += " " + t("fpui.status_resigned", locale)
        return line

    def phase_text(self, table: Table, locale: str) -> str:
        state = table.state
        if state is None or table.status != "active":
            return super().phase_text(table, locale)
        acted = sum(1 for seat, text in enumerate(state.actions) if text and seat not in state.to_act)
        playing = acted + len(state.to_act)  # (a claim alone does not end a seat's round)
        key = "fpui.phase_setup" if state.phase == "setup" else "fpui.phase_round"
        return t(key, locale, round=state.round, roll=roll_text(state.roll), acted=acted, count=playing)

    def help_embed(self, locale: str) -> discord.Embed:
        embed = discord.Embed(title=t("help.game_title", locale, game=self.game_name(locale)),
                              description=t("fpui.help.intro", locale), colour=discord.Colour.dark_blue())
        for verb in ("start", "room", "features", "doors", "claim", "skip"):
            embed.add_field(name=t(f"fpui.help.{verb}_name", locale),
                            value=f"`{USAGE[verb]}` — {t(f'fpui.help.{verb}', locale)}", inline=False)
        if locale in ALIASES:
            words = hints.alias_lines(ALIASES[locale] | WORD_ALIASES[locale], 1000 - 100)
            embed.add_field(name=t("hints.aliases_name", locale),
                            value=f"{t('hints.aliases_intro', locale)}\n{words}", inline=False)
        embed.set_footer(text=t("fpui.help.footer", locale))
        return embed

    # --- components ----------------------------------------------------------------------------------

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return table_items(table, locale)

    def image_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return table_items(table, locale)

    # --- private moves -------------------------------------------------------------------------------

    def normalize(self, action: str) -> str:
        return canonical_text(action)

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        """A message shaped like a move (Polish verbs too) is refused with the hint to use /move, whether or not
        the rules would take it (/move tells why, privately); chat like "start now?" is chat."""
        return move_shaped(self.normalize(text))

    def typed_hint(self, text: str, table: Table, seat: int) -> Msg | None:
        return hints.near_miss_msg(text, TYPED_VERBS, aliases=VERB_ALIAS,
                                   examples=lambda: self.examples(table, seat),
                                   game=GAME, private=True, arg=is_argument, alone=("skip",))

    def examples(self, table: Table, seat: int) -> list[str]:
        """Moves legal now for a hint (shown in public: nothing of the seat's private work): the starting room
        in setup, ``skip`` in a round."""
        state = table.state
        if state is None or table.status != "active" or seat not in table.to_move():
            return []
        if state.phase == "setup":
            example = start_example(table)
            return [example] if example else []
        return ["skip"]

    def is_private_action(self, table: Table, action: str) -> bool:
        return not action.strip().lower().startswith("resign")

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        return sheet_text(table, seat, seat, locale)

    async def board_png(self, table: Table, locale: str) -> bytes | None:
        return await draw_summary(table, None, locale)

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        return await sheet_png(table, seat, seat, locale)

    async def preview_move(self, ctx: Any, table: Table, action: str, locale: str) -> bool:
        if action.strip().lower() == "resign":
            return False  # nothing secret: the generic path resigns
        cog = ctx.bot.get_cog("FloorPlan")
        if cog is None:
            return False
        await cog.preview(ctx, table, self.normalize(action), locale)
        return True

    # --- posting -------------------------------------------------------------------------------------

    async def publish(self, bot: App, channel: Any, segments: list[Segment], locale: str, *,
                      first: Any = None, final: bool = True) -> list[Any]:
        """Round summaries and the round's pings; a run that is not final waits for the rest of it."""
        key = getattr(channel, "id", 0)
        if not final:
            self.buffers.setdefault(key, []).extend(segments)
            return []
        segments = [*self.buffers.pop(key, []), *segments]
        posts = round_posts(self, bot, segments, locale)
        final = posts[-1].embed if posts and segments[-1].table.status == "finished" else None
        if final is not None:  # the final round's post becomes the game's summary (ratings, length, key moments)
            posts[-1].items = await add_summary(bot, segments[-1].table, locale, final)
            if web := await web_line(bot, segments[-1].table, locale):  # its web page, as other games' results
                posts[-1].content = "\n".join(x for x in (posts[-1].content, web) if x)
        sent = []
        for i, post in enumerate(posts):
            kwargs = await post_kwargs(post, locale)
            send = first if first is not None and i == 0 else channel.send
            sent.append(await send(**kwargs))
        latest = segments[-1].table
        await bot.status_messages.update(latest, locale)
        if latest.status == "finished":
            await game_ended(bot, channel, latest, locale, summarised=final is not None)
        return sent

    async def on_notice(self, bot: App, channel: Any, notice: Notice, locale: str) -> bool:
        table = notice.table
        if notice.kind == "timeout":
            results = notice.results()
            await self.publish(bot, channel, [self.segment(r, locale) for r in results], locale)
            return True
        if notice.kind in ("reminder", "warning"):
            # Every seat's reminder falls due together: one message per round names all who still have to act.
            state = table.state
            if state is None or self.reminded.get((table.id, notice.kind)) == state.round:
                return True
            self.reminded[(table.id, notice.kind)] = state.round
            humans = table.humans_to_move()
            mentions = [f"<@{table.seats[s].user_id}>" for s in humans if table.seats[s].user_id is not None]
            due = notice.data.get("due")
            when = f"<t:{int(due.timestamp())}:R>" if due is not None else "—"
            head = t(f"fpui.{notice.kind}", locale, round=state.round, table=table.id, when=when)
            for text in mention_chunks(mentions, head)[:MAX_PING_POSTS]:
                await channel.send(text, allowed_mentions=pinging([int(m[2:-1]) for m in mentions]))
            return True
        return False
