"""The Floor in Discord: async turns between live duels in the game's thread.

Turns (a challenge, the winner's cells, a field's category, the Final cards) are buttons that open private
select menus, or typed notation (``challenge B2 B3``). A challenge pings the defender; the duel starts when both
sides pressed **Ready** (with a deadline: the absent side loses the duel). In a running duel the letter is a NEW
message addressed to the side to answer (a ping only for its first letter, after the judges or after a silence:
`needs_call`), and its id is the clock's base: an answer typed in the thread is charged
``snowflake(answer) − snowflake(letter message)``, so neither the bot's latency nor Discord's counts against a
player. Every reading goes into the action (``answer 3120 Paris``), so the duel replays exactly. The running
side's clock is also an engine action timer (``timeout`` when it runs out; a grace second covers answers in
flight, which the rules charge by their own timestamps anyway). An answer that is not on the list goes to the
judges (Accept / Reject buttons, the clock stopped, a vote deadline; a referee named in the lobby and, with
nobody neutral seated, the thread's spectators vote with the same buttons as members without a seat, logged
through the engine's `GUEST_SEAT`); an accepted one can be added to the server's own list. Relative timestamps
(``<t:…:R>``) count down in every client without a single edit.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.utils.checks import can_manage
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.ending import game_ended, result_ping
from cogs.utils.hints import moves_msg, near_miss, render
from cogs.utils.lang import guild_locale, locale_of_interaction
from cogs.utils.posting import board_file, channel_of, pinging, render_view, result_embed, supersede_prompt
from cogs.utils.replies import acknowledge, edit_response, in_time, send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, Segment, escape, seat_name
from cogs.utils.text import clean, clip, safe, safe_name
from engine import (
    GUEST_SEAT,
    ActResult,
    DamagedGameError,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    Table,
)
from i18n import t
from render.the_floor import SIDE_COLOURS
from rules.base import FloorboardError, IllegalActionError, InvalidActionError, Msg, NotYourTurnError
from rules.the_floor import board as bd
from rules.the_floor.bot import default_take, example
from rules.the_floor.game import DEAL, DOUBT_CAP, DOUBT_OPTION, DRAFT_TIMER, LETTERS_OPTION, SPECTATORS_OPTION
from rules.the_floor.names import names_own_choice
from rules.the_floor.words import (  # what players type in their language: the terminal reads it too
    ALIASED_VERBS,
    TYPED_VERBS,
    VERB_ALIAS,
    canonical_text,
    duel_action,
    typed_verb,
)

if TYPE_CHECKING:
    from bot import Floorboard

log = logging.getLogger(__name__)

GAME = "the_floor"
SIDE_EMOJI = {"orange": "🟧", "blue": "🟦", "green": "🟩", "purple": "🟪", "yellow": "🟨"}
SIDE_EMOJI_BY_SIDE = tuple(SIDE_EMOJI[c] for c in SIDE_COLOURS)  # the renderer's colours, side by side
MARKS = {"accepted": "✅", "trusted": "☑️", "judged": "⚖️✅", "rejected": "❌", "pass": "⏭️"}
BUTTONS = ("ready", "pass", "dispute", "accept", "reject", "pick", "challenge", "choose", "suggest", "learn")
BUTTON_TEMPLATE = rf"{GAME}:(?P<action>{'|'.join(BUTTONS)}):(?P<table>[0-9]+):(?P<version>[0-9]+)"
SELECT_TEMPLATE = (rf"{GAME}:sel:(?P<kind>pick|challenge|take|keep):(?P<table>[0-9]+):(?P<version>[0-9]+)"
                   r":(?P<part>[0-9])")
BUTTON_STYLES = {"ready": discord.ButtonStyle.success, "accept": discord.ButtonStyle.success,
                 "reject": discord.ButtonStyle.danger, "dispute": discord.ButtonStyle.danger,
                 "challenge": discord.ButtonStyle.primary, "choose": discord.ButtonStyle.primary,
                 "pick": discord.ButtonStyle.primary}
GRACE = timedelta(seconds=1.5)  # answers in flight when a clock runs out are charged by their own timestamps
RESUME_ALLOWANCE = timedelta(seconds=90)  # after a restart, a running clock waits for the bot to reconnect
MAX_ANSWER = 100
CATEGORY_LIMIT = 40  # a server category's longest name (`engine.floor_content.MAX_NAME`)
MAX_CONTENT = 2000
CLOCK_META, READY_META, LEARN_META, POSTED_META = "tf_clock", "tf_ready_due", "tf_learn", "tf_posted"
DRAFT_META, LETTER_META = "tf_draft", "tf_letter_at"
VOTE_META = "tf_vote"  # {key, due}: the vote deadline of the answer under judgment, fixed when it went to the judges
MAX_LEARN = 20
SILENCE = timedelta(seconds=60)  # a duellist not called for this long may have looked away: the letter pings
PRESENT = timedelta(seconds=60)  # a player who picked this recently still watches the draft: no ping


def category_text(name: str) -> str:
    """A category's name in a message: a server's own categories are named by its members."""
    return safe_name(name, CATEGORY_LIMIT)


def sex_marker(table: Table, cid: str) -> str:
    """`` (women)`` / `` (men)`` after a category for women or men only (flags K / M), in the game's language like
    the category's name itself; "" for any other."""
    s = table.state
    sex = table.rules.category_sex(s, cid) if s is not None else ""
    return " " + t(f"tfui.sex.{sex}", s.lang) if sex else ""


def answer_text(answer: str) -> str:
    """An answer typed in a duel, shown back (escaped: ``**@everyone**`` is shown, never formatted)."""
    return safe(answer, MAX_ANSWER) or "?"


def side_colour(side: int, locale: str) -> str:
    return t(f"tfui.colour.{SIDE_COLOURS[side]}", locale)


def stamp_ms(snowflake: int) -> int:
    """Discord's own time of a message or interaction (ms since the epoch), from its id."""
    return int(discord.utils.snowflake_time(snowflake).timestamp() * 1000)


def seconds(ms: int) -> str:
    return f"{ms / 1000:.1f}"


def relative(when: datetime) -> str:
    """A timestamp every Discord client shows as a live countdown ("in 42 seconds")."""
    return f"<t:{int(when.timestamp())}:R>"


VERB_ALIASES = VERB_ALIAS
CELL = re.compile(r"[a-e][1-5]", re.IGNORECASE)


def shaped(verb: str, args: list[str], names: Callable[[str], bool] | None = None) -> bool:
    """Whether the words after a turn verb have its arguments' shape: two cells, cells, nothing, or a category:
    one word (an id or a name), or several when ``names`` says they name one (a category's name as shown:
    ``keep Star Wars characters``); without ``names`` (``/move``) any words, which the rules read."""
    if verb == "ready":
        return not args
    if verb == "challenge":
        return len(args) == 2 and all(CELL.fullmatch(a) for a in args)
    if verb == "take":
        return bool(args) and all(move_word(a) for a in args)
    if len(args) <= 1 or names is None:
        return bool(args)
    return names(" ".join(args))


def move_word(token: str) -> bool:
    """A word a typed turn's arguments are made of: a cell, or cells joined by commas (``take B3,B4``)."""
    cells = [c for c in token.split(",") if c]
    return bool(cells) and all(CELL.fullmatch(c) for c in cells)


class TheFloorSurface(GameSurface):
    game_id = GAME
    custom_posting = True
    resumes_itself = True
    private_action_key = "tfui.typed_private"

    def __init__(self, bot: Floorboard | None = None) -> None:
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

    async def lobby_options(self, bot: Floorboard, guild_id: int | None, options: dict[str, Any],
                            locale: str) -> dict[str, Any]:
        """The categories' language follows the server's unless chosen; the server's own categories and its
        list of accepted answers go into the game as they are now (so the game replays exactly)."""
        options = dict(options)
        options.setdefault("lang", locale if locale in ("en", "pl") else "en")
        options.setdefault(LETTERS_OPTION, "answerable")  # a fair host redraws a letter the category cannot answer
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

    async def publish(self, bot: Floorboard, channel: Any, segments: list[Segment], locale: str, *,
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
            await game_ended(bot, channel, latest, locale)  # the shared end: result pinged, thread renamed
        return sent

    async def publish_post(self, bot: Floorboard, channel: Any, segments: list[Segment], locale: str,
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
            kw["embed"] = result_embed(self, latest, locale)
            kw["view"] = view_of([*learn, *self.result_items(latest, locale)][:25])
            image = True
            line, ids = result_ping(latest, locale)
            lines, kw["allowed_mentions"] = [line, *lines] if line else lines, pinging(ids)
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

    # --- the draft: one message kept current; pings only for whoever the draft waits for ----------------

    async def publish_draft(self, bot: Floorboard, channel: Any, segments: list[Segment], locale: str,
                            first: Any) -> list[Any]:
        """The draft's message is posted once (it pings everyone: the game starts) and then edited as picks come
        in. A new pass pings only those who have not been around for a while (whoever just picked is), and once most
        sides have picked, whoever the draft still waits for is pinged once. Nothing here shows a hand."""
        table = segments[-1].table
        async with self.draft_locks.setdefault(table.id, asyncio.Lock()):
            table = await bot.engine.get(table.id)
            if table.status != "active" or table.state.phase != "draft":
                return await self.publish_post(bot, channel, segments, locale, first)
            now = bot.now()
            meta = self.draft_meta(table, segments, now)
            lines = [seg.line for seg in segments if seg.line]
            sent: list[Any] = []
            if not meta.get("msg") or lines:
                meta["intro"] = not meta.get("msg") and any(seg.result is None and seg.line for seg in segments)
                message = await self.send_draft(channel, table, meta, lines, locale, first)
                meta["msg"] = message.id
                sent.append(message)
            else:
                await self.edit_draft(channel, table, meta, locale)
                call = self.draft_call(table, meta, now)
                if call:
                    sent.append(await self.send_call(channel, table, meta, call, locale, first))
                elif first is not None:  # a /move pick: its deferred reply still needs an answer
                    sent.append(await first(content=t("tfui.draft.noted", locale), allowed_mentions=pinging([])))
            await self.after_prompt(bot, table, None, extra={DRAFT_META: meta})
            await bot.status_messages.update(table, locale)
            return sent

    def draft_meta(self, table: Table, segments: list[Segment], now: datetime) -> dict[str, Any]:
        """The draft's bookkeeping: its message, the pass it shows, when each player last picked by hand, who
        was pinged this pass and when the pass's default pick falls due."""
        s = table.state
        if not table.meta.get(DRAFT_META) and (s.picked[0] or any(s.chosen)):
            meta: dict[str, Any] = {"legacy": True}  # a draft saved before this message: its old pace and no timer
        else:
            meta = dict(table.meta.get(DRAFT_META) or {})
        picked = dict(meta.get("picked") or {})
        for seg in segments:
            r = seg.result
            if r is not None and r.source != "timer" and r.action.startswith("pick") and r.seat is not None:
                picked[str(r.seat)] = now.isoformat()  # a timer's pick is no sign of anyone being here
        meta["picked"] = picked
        n = len(s.picked[0]) + 1
        if meta.get("pass") != n:
            minutes = 0 if meta.get("legacy") else int(table.options.get(DRAFT_TIMER[0], DRAFT_TIMER[1][0]))
            meta.update({"pass": n, "opened": now.isoformat(), "new": True, "waited": False,
                         "due": (now + timedelta(minutes=minutes)).isoformat() if minutes else None})
        return meta

    def draft_call(self, table: Table, meta: dict[str, Any], now: datetime) -> list[int]:
        """Seats to ping now: at a new pass, those who picked a while ago (or never by hand); later, once, the
        stragglers when most sides have picked and the pass has been open a while."""
        s = table.state
        humans = sorted(table.humans_to_move())
        picked = meta.get("picked", {})
        if meta.pop("new", False):
            return [i for i in humans if (at := picked.get(str(i))) is None
                    or now - datetime.fromisoformat(at) >= PRESENT]
        left = sum(1 for x in range(s.sides) if not s.chosen[x] and not s.resigned[x])
        if not humans or meta.get("waited") or left * 2 > s.sides \
                or now - datetime.fromisoformat(meta["opened"]) < PRESENT:
            return []  # most still pick, or the pass is young: no one holds the draft up yet
        meta["waited"] = True
        return humans

    def draft_text(self, table: Table, meta: dict[str, Any], locale: str) -> str:
        """Pass n of total, who has picked and who is still picking (names only), the default pick's time."""
        s = table.state
        done = [x for x in range(s.sides) if s.chosen[x] and not s.resigned[x]]
        left = [x for x in range(s.sides) if not s.chosen[x] and not s.resigned[x]]
        nobody = t("tfui.draft.nobody", locale)
        due = meta.get("due")
        deadline = t("tfui.draft.deadline", locale, when=relative(datetime.fromisoformat(due))) if due else ""
        return t("tfui.draft.status", locale, n=meta["pass"], total=DEAL[s.sides] - 1,
                 done=", ".join(self.side_label(table, x, locale) for x in done) or nobody,
                 waiting=", ".join(self.side_label(table, x, locale) for x in left) or nobody) + deadline

    async def send_draft(self, channel: Any, table: Table, meta: dict[str, Any], lines: list[str], locale: str,
                         first: Any) -> Any:
        """No board image: it would go stale as the message is edited (the board follows the draft)."""
        humans = set(table.humans_to_move())
        call = t("tfui.draft.call", locale, who=self.mentions(table, humans)) if humans else ""
        meta.pop("new", None)
        kw: dict[str, Any] = {"content": self.content([*lines, call, self.draft_text(table, meta, locale)]),
                              "view": view_of([TheFloorButton.make("pick", table, locale)]),
                              "allowed_mentions": pinging(self.pings(table, humans))}
        return await (first or channel.send)(**kw)

    async def edit_draft(self, channel: Any, table: Table, meta: dict[str, Any], locale: str) -> None:
        """Edits notify no one: the pings are new messages (`send_call`)."""
        try:
            content = self.content([*self.kept_intro(table, meta, locale), self.draft_text(table, meta, locale)])
            await channel.get_partial_message(int(meta["msg"])).edit(content=content)
        except (discord.HTTPException, AttributeError) as e:  # an old or deleted message: the call says it all
            log.info("table %s: the draft message was not edited (%s)", table.id, e)

    async def send_call(self, channel: Any, table: Table, meta: dict[str, Any], seats: list[int], locale: str,
                        first: Any) -> Any:
        key = "tfui.draft.waiting" if meta.get("waited") else "tfui.draft.pass"
        due = meta.get("due")
        deadline = t("tfui.draft.deadline", locale, when=relative(datetime.fromisoformat(due))) if due else ""
        content = t(key, locale, who=self.mentions(table, set(seats)), n=meta["pass"],
                    total=DEAL[table.state.sides] - 1) + deadline
        return await (first or channel.send)(content=content, allowed_mentions=pinging(self.pings(table, set(seats))),
                                             view=view_of([TheFloorButton.make("pick", table, locale)]))

    def kept_intro(self, table: Table, meta: dict[str, Any], locale: str) -> list[str]:
        """The game's opening lines stay on the draft's message when it opened the game."""
        return [self.intro(table, locale)] if meta.get("intro") else []

    async def close_draft(self, bot: Floorboard, channel: Any, segments: list[Segment], locale: str) -> None:
        """The draft is over: its message says so (the board follows in a new message)."""
        if not any(e.kind == "draft_done" for seg in segments if seg.result for e in seg.result.events):
            return
        table = await bot.engine.get(segments[-1].table.id)
        meta = table.meta.get(DRAFT_META) or {}
        if not meta.get("msg"):
            return
        try:
            content = self.content([*self.kept_intro(table, meta, locale), t("tfui.draft.done", locale)])
            await channel.get_partial_message(int(meta["msg"])).edit(content=content, view=None)
        except (discord.HTTPException, AttributeError) as e:
            log.info("table %s: the draft message was not closed (%s)", table.id, e)

    async def judged_answers(self, bot: Floorboard, segments: list[Segment], locale: str) -> list[Any]:
        """An answer the judges accepted can be added to the server's own list: remember it (by the version it
        was accepted at) and offer the host or an admin an Add button."""
        items: list[Any] = []
        for seg in segments:
            r = seg.result
            if r is None or not any(e.kind == "judged" and e.data.get("accepted") for e in r.events):
                continue
            d = r.table.state.duel
            judged = [x for x in (d.log if d is not None else ()) if x[2] == "judged"]
            if not judged:
                continue
            table = await bot.engine.get(r.table.id)
            learn = dict(table.meta.get(LEARN_META, {}))
            learn[str(r.table.version)] = [r.table.state.lang, d.category, judged[-1][1]]
            keep = dict(sorted(learn.items(), key=lambda kv: int(kv[0]))[-MAX_LEARN:])
            await bot.engine.set_meta(table.id, **{LEARN_META: keep})
            items.append(TheFloorButton("learn", r.table.id, r.table.version,
                                        label=clip(t("tfui.button.learn", locale,
                                                     answer=clean(judged[-1][1], MAX_ANSWER)), 80)))
        return items

    def prompt(self, table: Table, locale: str) -> tuple[list[str], list[int], list[discord.ui.Item[Any]],
                                                         dict[str, Any]]:
        """What the next actor is asked: lines, user ids to ping, buttons, extra send kwargs."""
        s = table.state
        if table.status != "active" or s is None:
            return ([t("bot.aborted", locale, table=table.id)] if table.status == "aborted" else []), [], [], {}
        humans = set(table.humans_to_move())

        def button(action: str) -> TheFloorButton:
            return TheFloorButton.make(action, table, locale)

        if s.phase == "draft":  # `/board`; the draft's own posts are `publish_draft`'s
            line = t("tfui.prompt.draft", locale, who=self.mentions(table, humans), n=len(s.picked[0]) + 1,
                     total=DEAL[s.sides] - 1)
            return [line], self.pings(table, humans), [button("pick")], {}
        if s.pending:
            return self.pending_prompt(table, humans, locale)
        d = s.duel
        if d is not None:
            return self.duel_prompt(table, humans, locale)
        move = self.example(table, min(humans)) if humans else None
        line = t("tfui.prompt.challenge", locale, who=self.side_mention(table, s.current, locale),
                 round=s.round) + (t("tfui.prompt.typed", locale, move=move) if move else "")
        return [line], self.pings(table, humans), [button("challenge")], {}

    def mentions(self, table: Table, seats: set[int]) -> str:
        return ", ".join(self.seat_mention(table, i, "") for i in sorted(seats))

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        side = self.side_of(table, seat)
        return f"{SIDE_EMOJI_BY_SIDE[side]} <@{info.user_id}>"

    def pending_prompt(self, table: Table, humans: set[int], locale: str) -> tuple[list[str], list[int],
                                                                                  list[Any], dict[str, Any]]:
        s = table.state
        p = s.pending[0]
        who = self.side_mention(table, p.side, locale)
        items: list[Any] = [TheFloorButton.make("choose", table, locale)]
        if p.kind == "take":
            suggestion = ",".join(bd.name(c) for c in default_take(s, p.side, p.cells, p.count))
            line = t("tfui.prompt.take", locale, who=who, count=p.count, cells=", ".join(bd.name(c) for c in p.cells),
                     suggestion=suggestion)
            items.append(TheFloorButton.make("suggest", table, locale))
        elif p.kind == "keep":
            line = t("tfui.prompt.keep", locale, who=who, cells=", ".join(bd.name(c) for c in p.cells),
                     count=len(p.options))
        elif p.kind == "final":
            line = t("tfui.prompt.final_card", locale, who=who, count=len(p.options))
        else:
            options = ", ".join(self.cat(table, c) for c in p.options)
            line = t("tfui.prompt.final_pick", locale, who=who, options=options)
        return [line], self.pings(table, humans), items, {}

    def duel_prompt(self, table: Table, humans: set[int], locale: str) -> tuple[list[str], list[int],
                                                                               list[Any], dict[str, Any]]:
        s = table.state
        d = s.duel
        now = self.bot.now() if self.bot is not None else datetime.now().astimezone()
        pair = (d.challenger, d.defender)
        category = self.cat(table, d.category)
        if not d.started:
            due = table.meta.get(READY_META)
            deadline = t("tfui.prompt.ready_deadline", locale, when=relative(datetime.fromisoformat(due))) \
                if due else ""
            line = t("tfui.prompt.ready", locale, a=self.side_mention(table, d.challenger, locale),
                     b=self.side_mention(table, d.defender, locale), category=category,
                     clock=s.clock_s) + deadline
            return [line], self.pings(table, humans), [TheFloorButton.make("ready", table, locale)], {}
        if d.judging:
            due = self.vote_due(table, now)
            when = " " + relative(due) if due else ""
            judges = set(table.rules.judge_seats(s))
            who, pings = self.judge_call(table, judges, locale)
            line = t("tfui.prompt.judge", locale, answer=answer_text(d.judging), category=category, letter=d.letter,
                     who=who, when=when)
            items = [TheFloorButton.make("accept", table, locale), TheFloorButton.make("reject", table, locale)]
            return [line], pings, items, {}
        runner = pair[d.active]
        left = d.clocks[d.active]
        clock = table.meta.get(CLOCK_META) or {}
        if clock.get("turn") == s.turn:  # the letter is out already (``/board``): its clock started then
            now = datetime.fromtimestamp(int(clock["base"]) / 1000, tz=UTC)
        line = t("tfui.prompt.letter", locale, letter=d.letter, category=category,
                 who=self.side_mention(table, runner, locale), left=seconds(left),
                 when=relative(now + timedelta(milliseconds=left)),
                 other=seconds(d.clocks[1 - d.active]))
        items = [TheFloorButton.make("pass", table, locale)]
        if table.rules.disputable(s):  # never offered with nobody outside the duel to judge it
            items.append(TheFloorButton.make("dispute", table, locale))
        return [line], self.pings(table, humans) if self.needs_call(table) else [], items, {}

    def judge_call(self, table: Table, judges: set[int], locale: str) -> tuple[str, list[int]]:
        """Who is asked to vote and pinged: the neutral seats, the referee (when not seated: a seated one is
        among the seats or duelling), and the thread's spectators when no seat can judge."""
        s = table.state
        who, pings = [self.mentions(table, judges)] if judges else [], self.pings(table, judges)
        if table.rules.guests_judge(s):
            if s.referee and table.seat_of(s.referee) is None:
                who.append(t("tfui.vote_referee", locale, who=f"<@{s.referee}>"))
                pings.append(s.referee)
            if s.spectators and not judges and not table.rules.judge_seats(s):
                who.append(t("tfui.vote_spectators", locale))
        return ", ".join(who) or t("tfui.vote_nobody", locale), pings

    def needs_call(self, table: Table) -> bool:
        """Whether a letter pings the side to answer: its first letter of the duel, or after a long silence (a
        vote, a restart); in between, the duellists are mid-exchange and a ping per answer is noise."""
        d = table.state.duel
        if not any(entry[0] == d.active for entry in d.log) or d.log[-1][2] in ("judged", "rejected"):
            return True  # its first letter, or the clock restarts after the judges (the clock stood still)
        at = table.meta.get(LETTER_META)
        now = self.bot.now() if self.bot is not None else datetime.now(UTC)
        return at is None or now - datetime.fromisoformat(at) >= SILENCE

    async def after_prompt(self, bot: Floorboard, table: Table, message: Any,
                           extra: dict[str, Any] | None = None) -> None:
        """Bookkeeping once a prompt is out, in one write: that it is out (``tf_posted``: a restart before it
        re-posts it), the duel clock's base, and the timer of the step now waiting."""
        s = table.state
        if table.status != "active" or s is None:
            return
        posted = {POSTED_META: s.turn, **(extra or {})}
        d = s.duel
        engine = bot.engine
        now = bot.now()
        armed = True
        try:
            if s.phase == "draft":
                armed = await self.arm_draft(bot, table, posted)
            elif d is None:
                await engine.set_meta(table.id, **posted)
            elif not d.started:
                armed = await self.arm_ready(bot, table, posted)
            elif d.judging:
                due = self.vote_due(table, now)
                judges = table.rules.judge_seats(s) or sorted(table.to_move())  # an old state: the opponent closes
                if due and judges:
                    posted[VOTE_META] = {"key": self.vote_key(table), "due": due.isoformat()}
                    armed = await engine.arm_timer(table.id, version=table.version, seat=judges[0],
                                                   action="timeout", due_at=due, meta=posted)
                else:
                    await engine.set_meta(table.id, **posted)
            else:
                message_id = getattr(message, "id", None)
                base = stamp_ms(message_id) if message_id else int(now.timestamp() * 1000)
                runner = sorted(table.to_move())[0]
                left = timedelta(milliseconds=d.clocks[d.active])
                armed = await engine.arm_timer(table.id, version=table.version, seat=runner, action="timeout",
                                               due_at=now + left + GRACE,
                                               meta={CLOCK_META: {"turn": s.turn, "base": base},
                                                     LETTER_META: now.isoformat(), **posted})
        except FloorboardError:
            armed = False
        if not armed:  # the next move's own post arms its step
            log.info("table %s moved on before its prompt's timers were armed", table.id)

    def vote_key(self, table: Table) -> str:
        s = table.state
        d = s.duel
        return f"{s.turn_no}:{s.ladder_pos}:{len(d.log)}:{d.active}:{d.judging}"

    def vote_due(self, table: Table, now: datetime) -> datetime | None:
        """The vote deadline (``vote_seconds``; None = no deadline), fixed when the answer went to the judges:
        a vote cast re-posts the prompt but must not push the deadline back while the clock stands still."""
        vote = int(table.options.get("vote_seconds", 20))
        if not vote:
            return None
        saved = table.meta.get(VOTE_META) or {}
        if saved.get("key") == self.vote_key(table) and saved.get("due"):
            return datetime.fromisoformat(saved["due"])
        return now + timedelta(seconds=vote)

    async def fix_ready_deadline(self, bot: Floorboard, table: Table) -> Table:
        """The Ready deadline is fixed when a duel is announced (kept in meta for the duel: each Ready re-arms
        the same deadline for whoever is still missing)."""
        s = table.state
        minutes = int(table.options.get("ready_minutes", 0))
        if table.status != "active" or s is None or s.duel is None or s.duel.started or not minutes:
            return table
        key = f"{s.round}:{s.turn_no}:{s.ladder_pos}"
        if table.meta.get(READY_META + "_key") == key:
            return table
        due = bot.now() + timedelta(minutes=minutes)
        return await bot.engine.set_meta(table.id, **{READY_META: due.isoformat(), READY_META + "_key": key})

    async def arm_draft(self, bot: Floorboard, table: Table, meta: dict[str, Any]) -> bool:
        """A draft pass's deadline (``draft_minutes``, fixed when the pass opened): the default pick for one
        player still picking; that post re-arms it for the next, so every straggler gets one."""
        due = (meta.get(DRAFT_META) or table.meta.get(DRAFT_META) or {}).get("due")
        humans = sorted(table.humans_to_move())
        if not due or not humans:
            await bot.engine.set_meta(table.id, **meta)
            return True
        seat = humans[0]
        armed = await bot.engine.arm_timer(table.id, version=table.version, seat=seat,
                                           action=table.rules.default_action(table.state, seat),
                                           due_at=datetime.fromisoformat(due), meta=meta)
        if not armed:  # a pick got in first (its own post re-arms): the draft's message id must still be kept
            await bot.engine.set_meta(table.id, **meta)
        return True

    async def arm_ready(self, bot: Floorboard, table: Table, meta: dict[str, Any]) -> bool:
        s = table.state
        d = s.duel
        due_text = table.meta.get(READY_META)
        if not int(table.options.get("ready_minutes", 0)) or not due_text:
            await bot.engine.set_meta(table.id, **meta)
            return True
        absent = d.challenger if not d.ready[0] else d.defender
        return await bot.engine.arm_timer(table.id, version=table.version, seat=s.seats_of(absent)[0],
                                          action="timeout", due_at=datetime.fromisoformat(due_text), meta=meta)

    async def on_notice(self, bot: Floorboard, channel: Any, notice: Any, locale: str) -> bool:
        if notice.kind != "timeout":
            return False
        results = notice.results()
        await self.publish(bot, channel, [self.segment(r, locale) for r in results], locale)
        return True


class TheFloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, action: str, table_id: int, version: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or action,
                                           style=BUTTON_STYLES.get(action, discord.ButtonStyle.secondary),
                                           custom_id=custom_id(GAME, action, table_id, version)))
        self.action, self.table_id, self.version = action, table_id, version

    @classmethod
    def make(cls, action: str, table: Table, locale: str) -> TheFloorButton:
        return cls(action, table.id, table.version, label=t(f"tfui.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> TheFloorButton:
        return cls(match["action"], id_number(match["table"]), id_number(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "TheFloor", "button", self.action, self.table_id, self.version)


class TheFloorSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, kind: str, table_id: int, version: int, part: int,
                 select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=custom_id(GAME, "sel", kind, table_id, version, part),
                                                     options=[discord.SelectOption(label="-")]))
        self.kind, self.table_id, self.version = kind, table_id, version

    @classmethod
    def make(cls, kind: str, table: Table, part: int, options: list[discord.SelectOption], placeholder: str,
             count: int = 1) -> TheFloorSelect:
        select = discord.ui.Select(custom_id=custom_id(GAME, "sel", kind, table.id, table.version, part),
                                   options=options, min_values=count, max_values=count,
                                   placeholder=placeholder[:150])
        return cls(kind, table.id, table.version, part, select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> TheFloorSelect:
        return cls(match["kind"], id_number(match["table"]), id_number(match["version"]), id_number(match["part"]),
                   item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await delegate(interaction, "TheFloor", "select", self.kind, self.table_id, self.version, values)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TheFloorButton, TheFloorSelect)


class TheFloor(commands.Cog):
    def __init__(self, bot: Floorboard, surface: TheFloorSurface) -> None:
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
        """Running games of The Floor that load (a damaged one is isolated by the engine, never fatal here)."""
        return [table for table in await self.engine.running_tables(GAME) if table.state is not None]

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
        from cogs.utils.posting import after_move

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


async def setup(bot: Floorboard) -> None:
    surface = TheFloorSurface(bot)
    bot.surfaces[GAME] = surface
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(TheFloor(bot, surface))


async def teardown(bot: Floorboard) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)


