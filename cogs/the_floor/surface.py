"""The Floor's game surface: names, captions, the status message, typed moves and posting."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord

from cogs.the_floor.basics import (
    GAME,
    MARKS,
    MAX_ANSWER,
    MAX_CONTENT,
    SIDE_EMOJI_BY_SIDE,
    VERB_ALIASES,
    answer_text,
    category_text,
    move_word,
    seconds,
    sex_marker,
    shaped,
    side_colour,
    stamp_ms,
)
from cogs.the_floor.draft import DraftPosting
from cogs.the_floor.prompts import DuelPrompts
from cogs.utils.app import App
from cogs.utils.components import view_of
from cogs.utils.ending import game_ended, result_ping, web_line
from cogs.utils.hints import moves_msg, near_miss, render
from cogs.utils.posting import board_file, pinging, render_view, supersede_prompt
from cogs.utils.replies import send_ephemeral
from cogs.utils.summary import summary_parts
from cogs.utils.surface import GameSurface, Segment, escape, seat_name
from cogs.utils.text import clean
from engine import (
    GUEST_SEAT,
    ActResult,
    Table,
)
from i18n import t
from rules.base import FloorboardError, IllegalActionError, InvalidActionError, Msg
from rules.the_floor.bot import example
from rules.the_floor.names import names_own_choice
from rules.the_floor.options import DEAL, DOUBT_CAP, DOUBT_OPTION, SPECTATORS_OPTION
from rules.the_floor.words import (  # what players type in their language: the terminal reads it too
    ALIASED_VERBS,
    TYPED_VERBS,
    canonical_text,
    typed_verb,
)


class TheFloorSurface(DraftPosting, DuelPrompts, GameSurface):
    game_id = GAME
    custom_posting = True
    resumes_itself = True
    private_action_key = "tfui.typed_private"

    def __init__(self, bot: App | None = None) -> None:
        self.bot = bot
        self.draft_locks: dict[int, asyncio.Lock] = {}

    # --- names ---------------------------------------------------------------------------------------

    def game_name(self, locale: str) -> str:
        return t("tf.name", locale)

    def side_of(self, table: Table, seat: int) -> int:
        return table.state.seat_side[seat] if table.state is not None else seat

    def seat_label(self, table: Table, seat: int, locale: str) -> str:
        if seat == GUEST_SEAT:  # a vote by a member without a seat (the referee, a spectator)
            return t("tfui.guest", locale)
        side = self.side_of(table, seat) if table.state is not None else seat % len(SIDE_EMOJI_BY_SIDE)
        return f"{SIDE_EMOJI_BY_SIDE[side]} {seat_name(table, seat)}"

    def side_label(self, table: Table, side: int, locale: str) -> str:
        names = ", ".join(seat_name(table, i) for i in table.state.seats_of(side))
        return f"{SIDE_EMOJI_BY_SIDE[side]} {names}"

    def side_mention(self, table: Table, side: int, locale: str, only: set[int] | None = None) -> str:
        parts = []
        for i in table.state.seats_of(side):
            info = table.seats[i]
            if only is not None and i not in only:
                continue
            parts.append(escape(info.name) if info.bot or info.user_id is None else f"<@{info.user_id}>")
        return f"{SIDE_EMOJI_BY_SIDE[side]} " + ", ".join(parts)

    def cat(self, table: Table, cid: str) -> str:
        return f"«{category_text(table.rules.category_name(table.state, cid))}{sex_marker(table, cid)}»"

    @staticmethod
    def cat_name(table: Table, cid: str, limit: int = 100) -> str:
        """A category's name for a menu (cleaned, at most ``limit`` characters) with its marker, if any."""
        marker = sex_marker(table, cid)
        return clean(table.rules.category_name(table.state, cid), max(1, limit - len(marker))) + marker

    def pings(self, table: Table, seats: set[int] | frozenset[int]) -> list[int]:
        return [uid for i in sorted(seats) if not table.seats[i].bot and (uid := table.seats[i].user_id)]

    # --- captions ------------------------------------------------------------------------------------

    def intro(self, table: Table, locale: str) -> str:
        s = table.state
        sides = "\n".join(f"{self.side_label(table, x, locale)} — {side_colour(x, locale)}" for x in range(s.sides))
        intro = t("tfui.intro", locale, game=self.game_name(locale), table=table.id, sides=sides,
                  clock=s.clock_s, judging=t(f"tfui.judging.{s.judging_mode}", locale))
        return intro + self.guest_judges(table, locale)

    def guest_judges(self, table: Table, locale: str) -> str:
        """The intro's line on judges without a seat: the referee, the spectators, the cap on doubtful answers."""
        s = table.state
        parts = []
        if s.referee:
            seated = table.seat_of(s.referee) is not None  # a seated referee judges as a player (a seat's vote)
            parts.append(t("tfui.referee_seated" if seated else "tfui.referee", locale, who=f"<@{s.referee}>"))
        if s.spectators:
            parts.append(t("tfui.spectators", locale))
        if s.doubt_cap:
            parts.append(t("tfui.doubt_cap", locale, cap=s.doubt_cap))
        return "".join("\n" + p for p in parts)

    def is_quiet(self, result: ActResult) -> bool:
        kinds = {e.kind for e in result.events}
        return not kinds & {"draft_done", "challenge", "take", "keep", "final", "round_over", "final_pick",
                            "game_over", "eliminated", "resign"}

    def describe(self, result: ActResult, locale: str) -> str:
        table = result.table
        name = self.seat_label(table, result.seat, locale)
        lines = [self.event_line(table, result, e, name, locale) for e in result.events]
        text = "\n".join(x for x in lines if x)
        return (self.timer_prefix(result, locale) + text) if text else ""

    def event_line(self, table: Table, result: ActResult, e: Any, name: str, locale: str) -> str:
        d, k = e.data, e.kind

        def side(x: int) -> str:
            return self.side_label(table, x, locale)

        if k == "draft_done":
            return t("tfui.ev.draft_done", locale, side=side(d["first"]))
        if k == "challenge":
            return t("tfui.ev.challenge", locale, name=name, defender=side(d["defender"]), frm=d["from"],
                     to=d["to"], category=self.cat(table, d["category"]))
        if k == "ready":
            return t("tfui.ev.ready", locale, side=side(e.seat))
        if k == "answer":
            verb = result.action.split()
            spent = seconds(int(verb[1])) if len(verb) > 1 and verb[1].isdigit() else "?"
            return t("tfui.ev.answer", locale, mark=MARKS[d["mark"]], name=name, answer=answer_text(d["answer"]),
                     seconds=spent)
        if k == "judging":
            return t("tfui.ev.judging", locale, name=name, answer=answer_text(d["answer"]))
        if k == "judged":
            return t("tfui.ev.judged_yes" if d["accepted"] else "tfui.ev.judged_no", locale, side=side(e.seat))
        if k == "pass":
            return t("tfui.ev.pass", locale, name=name)
        if k == "dispute":
            return t("tfui.ev.dispute", locale, side=side(e.seat), answer=answer_text(d["answer"]))
        if k == "absent":
            return t("tfui.ev.absent", locale, side=side(e.seat))
        if k == "duel_over":
            clocks = d.get("clocks_ms", [0, 0])
            return t("tfui.ev.duel_over", locale, winner=side(e.seat), loser=side(d["loser"]),
                     category=self.cat(table, d["category"]), a=seconds(clocks[0]), b=seconds(clocks[1]))
        if k == "take":
            return t("tfui.ev.take", locale, side=side(e.seat), count=len(d["cells"]), cells=", ".join(d["cells"]),
                     loser=side(d["loser"]))
        if k == "eliminated":
            return t("tfui.ev.eliminated", locale, side=side(e.seat))
        if k == "keep":
            return t("tfui.ev.keep", locale, side=side(e.seat), category=self.cat(table, d["category"]))
        if k == "final":
            return t("tfui.ev.final_card", locale, side=side(e.seat)) if e.seat is not None else \
                t("tfui.ev.final", locale, ladder=" → ".join(side(x) for x in reversed(d["ranking"])))
        if k == "round_over":
            return t("tfui.ev.round_over", locale, round=d["round"], side=side(e.seat))
        if k == "round_start":
            return t("tfui.ev.round_start", locale, round=d["round"])
        if k == "final_pick":
            return t("tfui.ev.final_pick", locale, side=side(e.seat), category=self.cat(table, d["category"]))
        if k == "final_duel":
            return t("tfui.ev.final_duel", locale, holder=side(e.seat), defender=side(d["defender"]),
                     category=self.cat(table, d["category"]))
        if k == "resign":
            return t("tfui.ev.resign", locale, name=name, side=side(e.seat))
        return ""

    def turn_line(self, table: Table, locale: str) -> tuple[str, list[int]]:
        """``/board``: the current prompt again (this game's own posts build it in `publish`)."""
        lines, pings, _, _ = self.prompt(table, locale)
        return "\n".join(lines), pings

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return self.prompt(table, locale)[2]

    def score_text(self, table: Table, seat: int, score: float, locale: str) -> str:
        return t("tfui.cells", locale, count=int(score))

    # --- the status message and /help ----------------------------------------------------------------

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        line = self.seat_label(table, seat, locale)
        s = table.state
        if s is None:
            return line
        side = s.seat_side[seat]
        line += f" — {side_colour(side, locale)}, " + t("tfui.cells", locale, count=s.board.count(side))
        if s.resigned[side]:
            line += " " + t("tfui.status.resigned", locale)
        elif side in s.eliminated:
            line += " " + t("tfui.status.eliminated", locale)
        return line

    def phase_text(self, table: Table, locale: str) -> str:
        s = table.state
        if s is None or table.status != "active":
            return super().phase_text(table, locale)
        if s.phase == "draft":
            return t("tfui.phase.draft", locale, n=len(s.picked[0]) + 1, total=DEAL[s.sides] - 1)
        if s.duel is not None:
            d = s.duel
            a, b = SIDE_EMOJI_BY_SIDE[d.challenger], SIDE_EMOJI_BY_SIDE[d.defender]
            line = t("tfui.phase.duel", locale, a=a, b=b, category=self.cat(table, d.category))
            if d.started:  # the status message's edits are throttled: it shows the clocks as of the last step
                line += " — " + t("tfui.phase.clocks", locale, letter=d.letter, a=a, b=b,
                                  ca=seconds(d.clocks[0]), cb=seconds(d.clocks[1]))
            return line
        if s.phase == "final":
            return t("tfui.phase.final", locale)
        return t("tfui.phase.play", locale, round=s.round, side=SIDE_EMOJI_BY_SIDE[s.current])

    def help_embed(self, locale: str) -> discord.Embed:
        embed = discord.Embed(title=t("tfui.help.title", locale, game=self.game_name(locale)),
                              description=t("tfui.help.intro", locale), colour=discord.Colour.purple())
        for key in ("challenge", "duel", "judging", "referees", "resolution", "rounds", "options"):
            embed.add_field(name=t(f"tfui.help.{key}_name", locale), value=t(f"tfui.help.{key}", locale),
                            inline=False)
        return embed

    async def lobby_options(self, bot: App, guild_id: int | None, options: dict[str, Any],
                            locale: str) -> dict[str, Any]:
        """The categories' language follows the server's unless chosen; the server's own categories and its
        list of accepted answers go into the game as they are now (so the game replays exactly)."""
        options = dict(options)
        options.setdefault("lang", locale if locale in ("en", "pl") else "en")
        options.setdefault(SPECTATORS_OPTION, True)  # with nobody neutral seated, the thread's spectators judge
        options.setdefault(DOUBT_OPTION, DOUBT_CAP[0])  # a stalling player cannot freeze the duel
        if guild_id is not None and "content" not in options:
            content = await bot.engine.floor_content.server_content(guild_id, str(options["lang"]))
            if content:
                options["content"] = content
        return options

    async def preview_move(self, ctx: Any, table: Table, action: str, locale: str) -> bool:
        """``/move`` never carries a player's own clock reading: in a running duel its text is the answer (or
        ``pass`` / ``dispute``), timed by the command's snowflake like a typed message; ``timeout`` is the
        timers' alone."""
        parts = action.split()
        verb = (typed_verb(parts[0]) or parts[0].lower()) if parts else ""
        if verb == "timeout":
            raise IllegalActionError("tfui.timer_only")
        if verb in TYPED_VERBS and not shaped(verb, parts[1:]):  # the rules' usage would show `challenge B2 B3`
            move = self.example(table, table.seat_of(ctx.author.id))
            if move is not None:
                raise InvalidActionError("tfui.usage", move=move)
        if verb == "pick" and getattr(table.state, "phase", None) == "draft":
            await self.draft_pick(ctx, table, action, locale)
            return True
        d = getattr(table.state, "duel", None)
        if d is None or not d.started or d.judging:
            if verb in ("answer", "pass", "dispute"):
                raise IllegalActionError("tfui.no_running_duel")
            return False
        if verb in ("answer", "pass", "dispute"):  # the verb is not part of the answer
            rest = parts[2:] if len(parts) > 2 and parts[1].isdigit() else parts[1:]  # nor a typed clock reading
            parts = rest if verb == "answer" else [verb]
        cog = self.bot.get_cog("TheFloor") if self.bot is not None else None
        if cog is None or not parts:
            raise IllegalActionError("tfui.no_running_duel")
        if len(" ".join(parts)) > MAX_ANSWER:  # as a typed message this long is chat, not an answer
            raise IllegalActionError("tfui.answer_too_long", max=MAX_ANSWER)
        source = ctx.interaction or ctx.message
        result = await cog.duel_act(table.id, ctx.author.id, " ".join(parts), stamp_ms(source.id), source.id)
        if result.duplicate:
            await send_ephemeral(ctx, t("bot.duplicate", locale))
            return True
        await ctx.defer()
        await cog.announce(result, locale, ctx.channel, first=ctx.send)
        return True

    async def draft_pick(self, ctx: Any, table: Table, action: str, locale: str) -> None:
        """``/move pick <id>``: a secret choice, confirmed privately (a prefix command could only answer in
        public, so it is refused)."""
        if ctx.interaction is None:
            raise FloorboardError(self.private_action_key)
        result = await self.bot.engine.act(table.id, ctx.author.id, self.normalize(action),
                                           interaction_id=ctx.interaction.id)
        if result.duplicate:
            await send_ephemeral(ctx, t("bot.duplicate", locale))
            return
        cid = action.split()[1]
        name = category_text(table.rules.category_name(result.table.state, cid)) + sex_marker(result.table, cid)
        await send_ephemeral(ctx, t("tfui.menu.done", locale, choice=name))
        cog = self.bot.get_cog("TheFloor")
        if cog is not None:
            await cog.announce(result, locale, ctx.channel)

    # --- typed moves and private information ---------------------------------------------------------

    def normalize(self, action: str) -> str:
        """One spelling: a verb typed in another language (``wyzwij B2 B3``) becomes the English notation."""
        return canonical_text(action)

    def example(self, table: Table, seat: int | None) -> str | None:
        """A move the seat could type now, legal in this position (prompts and hints show no other)."""
        if seat is None or table.state is None or table.status != "active":
            return None
        return example(table.rules, table.state, seat)

    def hint(self, table: Table, seat: int, text: str, locale: str) -> str | None:
        """What a seated player nearly typed (``chalenge b2 b3``, ``redy``, ``challenge B2``): a short hint naming
        the verb and a move legal for them now, or None for chat (`cogs.utils.hints` decides what is an
        attempted move; a real verb with cells that are not a move gets the legal move alone)."""
        examples = self.examples(table, seat, text)
        parts = text.split()
        if parts and typed_verb(parts[0]) is not None:
            if not examples or not parts[1:] or not all(move_word(w) for w in parts[1:]) or \
                    self.looks_like_move(text, table, seat):
                return None
            return render(Msg("hints.reply", head="", guess="", moves=moves_msg(examples, False),
                              help=Msg("hints.help", game=GAME)), locale)
        return near_miss(text, ALIASED_VERBS, locale, aliases=VERB_ALIASES, examples=examples, game=GAME,
                         arg=move_word, alone=("ready",))

    def examples(self, table: Table, seat: int, text: str) -> list[str]:
        """The move typed, spelled right, when it is legal now; else the seat's legal example (or none)."""
        parts = text.split()
        fallback = self.example(table, seat)
        if fallback is None or len(parts) < 2:
            return [fallback] if fallback else []
        try:
            typed = table.rules.notation(table.state, " ".join([fallback.split()[0], *parts[1:]]))
        except FloorboardError:
            return [fallback]
        legal = table.rules.legal_actions(table.state, seat) or []
        return [typed if typed in legal else fallback]

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        """Turn moves in notation, a verb followed by words shaped like its arguments (``challenge accepted!``
        is chat); a running duel's answers are read by the cog itself (any text)."""
        s = table.state
        if s is None or (s.duel is not None and s.duel.started):
            return False
        parts = text.split()
        first = (typed_verb(parts[0]) or "") if parts else ""
        if first not in TYPED_VERBS and not (first == "pick" and s.phase == "final"):
            return False
        side = s.seat_side[seat]
        return shaped(first, parts[1:], lambda typed: names_own_choice(table.rules.catalog(s), s, side, typed))

    def is_private_action(self, table: Table, action: str) -> bool:
        """A draft pick is hidden until the categories are placed: never typed in the open."""
        return action.strip().lower().startswith("pick") and getattr(table.state, "phase", None) == "draft"

    def redact_record(self, table: Table, record: str) -> str:
        """While the draft runs, the record does not tell who picked what (the picks go face up onto the Floor
        when it ends)."""
        if table.status != "active" or getattr(table.state, "phase", None) != "draft":
            return record
        return re.sub(r"^(\d+) pick .*$", r"\1 pick ?", record, flags=re.MULTILINE)

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        s = table.state
        view = table.rules.view(s, seat)
        side = s.seat_side[seat]
        lines = [t("tfui.hand.title", locale, side=self.side_label(table, side, locale),
                   colour=side_colour(side, locale))]
        if view["hand"] is not None:
            lines.append(t("tfui.hand.draft", locale, cards=", ".join(self.cat(table, c["id"])
                                                                      for c in view["hand"])))
            if view["picked"]:
                lines.append(t("tfui.hand.picked", locale,
                               cards=", ".join(self.cat(table, c["id"]) for c in view["picked"])))
        mine = [f for f in view["fields"] if f["side"] == side]
        for f in mine:
            cats = ", ".join(self.cat(table, c["id"]) for c in f["categories"]) or "—"
            lines.append(t("tfui.hand.field", locale, cells=", ".join(f["cells"]), size=f["size"], cats=cats))
        pending = view["pending"]
        if pending and pending["side"] == side and pending["options"]:
            lines.append(t("tfui.hand.options", locale, options=", ".join(
                f"{self.cat(table, o['id'])} (`{o['id']}`)" for o in pending["options"])))
        return "\n".join(lines)[:MAX_CONTENT]

    # --- posting ---------------------------------------------------------------------------------------

    async def publish(self, bot: App, channel: Any, segments: list[Segment], locale: str, *,
                      first: Any = None, final: bool = True) -> list[Any]:
        """One message per run of moves: what happened, the board when it changed, and (when ``final``) the
        prompt for whoever acts next, with its pings and buttons. A running duel's prompt is the letter; the
        draft is one message kept current (`publish_draft`); a finished game then goes to the shared ending."""
        if not segments:
            return []
        latest = segments[-1].table
        if not final:  # what happened, without a prompt (`after_move` posts a move whose bots then failed)
            lines = [seg.line for seg in segments if seg.line]
            return [await (first or channel.send)(content=self.content(lines), allowed_mentions=pinging([]))] \
                if lines else []
        if latest.status == "active" and latest.state is not None and latest.state.phase == "draft":
            return await self.publish_draft(bot, channel, segments, locale, first)
        await self.close_draft(bot, channel, segments, locale)
        sent = await self.publish_post(bot, channel, segments, locale, first)
        if latest.status == "finished":
            # the shared end (thread renamed); the summary went with the result post
            await game_ended(bot, channel, latest, locale, summarised=True)
        return sent

    async def publish_post(self, bot: App, channel: Any, segments: list[Segment], locale: str,
                           first: Any) -> list[Any]:
        latest = await self.fix_ready_deadline(bot, segments[-1].table)
        lines = [seg.line for seg in segments if seg.line]
        image = any(seg.image for seg in segments)
        learn = await self.judged_answers(bot, segments, locale)
        prompt_lines, pings, items, extra = self.prompt(latest, locale)
        lines += prompt_lines
        kw: dict[str, Any] = {"allowed_mentions": pinging(pings), **extra}
        if items or learn:
            kw["view"] = view_of([*items, *learn][:25])
        if latest.status == "finished":
            kw["embed"], ends = await summary_parts(bot, latest, locale)  # result, ratings, length, key moments
            kw["view"] = view_of([*learn, *ends][:25])
            image = True
            line, ids = result_ping(latest, locale)
            lines, kw["allowed_mentions"] = [line, *lines] if line else lines, pinging(ids)
            if web := await web_line(bot, latest, locale):  # the game's web page, as every game's result post
                lines.append(web)
        if not lines and not image and "view" not in kw and "embed" not in kw:
            await self.after_prompt(bot, latest, None)
            await bot.status_messages.update(latest, locale)
            return []
        kw["content"] = self.content(lines)
        if image and latest.state is not None:
            png = await render_view(latest, None, locale)
            if png is not None:
                kw["file"] = board_file(latest, png)
        message = await (first or channel.send)(**kw)
        await self.after_prompt(bot, latest, message)  # first: it fixes the duel clock's base and arms the timer
        if "view" in kw:  # this message's buttons are the live ones now: the last prompt's go
            await supersede_prompt(bot, channel, latest, message)
        await bot.status_messages.update(latest, locale)
        return [message]

    @staticmethod
    def content(lines: list[str]) -> str | None:
        text = "\n".join(lines)
        return ("…" + text[-(MAX_CONTENT - 1):] if len(text) > MAX_CONTENT else text) or None
