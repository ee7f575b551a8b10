"""Floor Plan in Discord: private moves with a preview, one public summary per round.

Every player acts privately each round: ``/move <action>`` answers with an ephemeral preview of the player's
own blueprint, the placement highlighted, and **Confirm** / **Cancel** buttons. Only Confirm plays the move
(``engine.act`` with the interaction id, so a redelivered click is applied once). Typed moves in the game's
thread (and ``!move``) are refused with a hint: typed in public they would show the move to everyone; a mistyped
one gets a hint with a move legal now (`cogs.utils.hints`). Polish verbs (`ALIASES`, `rules.floor_plan.words`)
work typed, with /move and in the terminal.

The pending preview text lives in memory (``FloorPlan.previews``, one per player and table); the button's
custom_id carries the table, the user, the table version and a short hash of the text. A preview made before
a restart, or replaced by a newer one, answers "make the move again". A Confirm made while others played
(the version moved on) still counts when the round and the player's own work this round are unchanged; after
the round closed it is refused as stale.

Nothing is posted when one player acts (the status message's phase line counts who has acted, throttled).
When a round closes ONE public message says what happened: the roll, who claimed what, a scoreboard (top
`TOP` and "and K more") and the summary image (thumbnails for up to 6 players, else a leaderboard), and it
pings the humans who are to act in the next round (mentions in chunks under Discord's 2,000 characters, at
most `MAX_PING_POSTS` messages). ``/sheet [player]`` and the **My sheet** button show a blueprint privately.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import hints
from cogs.utils.components import RematchButton, custom_id, delegate, id_number, view_of
from cogs.utils.ending import game_ended, result_ping
from cogs.utils.lang import locale_of_interaction, ls
from cogs.utils.posting import MAX_CONTENT, MEDALS, after_move, channel_of, pinging
from cogs.utils.replies import edit_response, in_time, send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, Segment, seat_name, shown_names
from cogs.utils.text import mention
from engine import (
    ActResult,
    GameNotFoundError,
    GameOverError,
    LobbyError,
    Notice,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    Table,
)
from i18n import t
from render import floor_plan as draw
from rules.base import Msg, NotYourTurnError, RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan import planner
from rules.floor_plan.notation import USAGE, VERBS
from rules.floor_plan.sheet import CENTRE, HEIGHT, WIDTH, cell_name
from rules.floor_plan.words import (  # what players type in their language: the terminal reads it too
    ALIASES,
    VERB_ALIAS,
    WORD_ALIAS,  # noqa: F401 - the tables stay importable from the cog
    WORD_ALIASES,
    canonical_text,
)

if TYPE_CHECKING:
    from bot import Floorboard

log = logging.getLogger(__name__)

GAME = "floor_plan"
TABLE_TEMPLATE = rf"{GAME}:(?P<action>sheet|plan):(?P<table>[0-9]+)"
PREVIEW_TEMPLATE = (rf"{GAME}:(?P<choice>ok|no):(?P<table>[0-9]+):(?P<user>[0-9]+):(?P<version>[0-9]+)"
                    r":(?P<key>[0-9a-f]{8})")
PICK_TEMPLATE = rf"{GAME}:pick:(?P<table>[0-9]+):(?P<user>[0-9]+)" r":(?P<key>[0-9a-f]{8})"
SUGGESTIONS = 4  # placements offered as buttons (the planner's best, varied)
TOP = 10  # scoreboard lines in a public summary
MAX_CLAIM_LINES = 10
MAX_PING_POSTS = 3  # messages of mentions at the start of a round (the rest are told by the status message)
MAX_SUMMARIES = 3  # round summaries with an image in one run (a table of bots may play several rounds at once)
MAX_DESCRIPTION = 4000
TYPED_VERBS = tuple(v for v in VERBS if v != "resign")
# What a move's arguments are made of: cells, sizes, type@label, feature sets, wild, +, note=, demand ids.
# A token of a move's arguments: cells, runs of cells (C3-E3), sizes, labels, feature sets (3:…, 3x2:, 3*2:, a set
# whose cells come after a space), wild dice, claims.
ARGUMENT = re.compile(r"^(?:[a-q]\d{1,2}(?:[-–][a-q]\d{1,2})?(?:,[a-q]\d{1,2}(?:[-–][a-q]\d{1,2})?)*,?|\d+[x×]\d+"
                      r"|[a-z]@[a-q]\d{1,2}|[1-6](?:[x×*]2)?:[a-q0-9,\-–]*|[1-6](?:=|->)[1-6]|wild|\+|note=\d"
                      r"|[a-z_]+\.\d)$", re.IGNORECASE)
MENTION = re.compile(r"^<@!?([0-9]+)>$")


@dataclass(frozen=True)
class Preview:
    key: str
    text: str
    round: int
    before: str  # the seat's work this round when the preview was made


def is_argument(token: str) -> bool:
    return ARGUMENT.match(token) is not None


def move_shaped(text: str) -> bool:
    """Every step a verb with arguments that could be its arguments: a move (to refuse in public), not chat
    ("start now?", "room for one more")."""
    for step in text.split(";"):
        verb, *rest = step.lower().split() or [""]
        if verb not in TYPED_VERBS or (verb == "skip") != (not rest) or not all(is_argument(w) for w in rest):
            return False
    return True


def start_example(table: Table) -> str | None:
    """A starting room legal with this setup roll (6×d over I7, either way round), checked by the rules for a
    seat still to draw (every sheet is empty in setup, so one example serves all)."""
    state = table.state
    if state is None or state.phase != "setup" or state.roll is None:
        return None
    seats = sorted(table.to_move())
    d = state.roll[1]
    for w, h in ((6, d), (d, 6)):
        x = min(max(CENTRE[0] - w // 2, 0), WIDTH - w)
        y = min(max(CENTRE[1] - h // 2, 0), HEIGHT - h)
        text = f"start {cell_name((x, y))} {w}x{h}"
        try:
            if seats:
                table.rules.apply(state, seats[0], text)
        except RulesError:
            continue
        return text
    return None


def with_legal_start(error: RulesError, table: Table) -> RulesError:
    """The rules' errors show the notation's fixed ``start`` example; in setup, one legal with this roll."""
    example = start_example(table)
    if example is None or error.msg.params.get("usage") != USAGE["start"]:
        return error
    return type(error)(error.msg.key, **{**error.msg.params, "usage": example})


def preview_key(text: str, round_no: int) -> str:
    return hashlib.sha256(f"{round_no}:{text}".encode()).hexdigest()[:8]


def roll_text(roll: Any) -> str:
    return " · ".join(str(v) for v in roll or ()) or "—"


def demand_line(demand_id: str, locale: str) -> str:
    demand = dm.DEMANDS.get(demand_id)
    pts = demand.points if demand else 0
    return t("fpui.demand_line", locale, id=demand_id, text=t(f"fp.demand.{demand_id}", locale),
             points=draw.points(pts, locale))


def capped(lines: list[str], limit: int, more_key: str, locale: str, shown: int, total: int) -> str:
    """Lines joined, cut to ``limit`` characters at a line, with "and K more" for what is left out."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 80 > limit:
            shown = i
            break
        out.append(line)
        size += len(line) + 1
    if total > shown:
        out.append(t(more_key, locale, count=total - shown))
    return "\n".join(out)


def mention_chunks(mentions: list[str], head: str, limit: int = MAX_CONTENT - 100) -> list[str]:
    """``head`` and the mentions, split into messages under ``limit`` characters."""
    chunks, line = [], head
    for m in mentions:
        if len(line) + len(m) + 1 > limit:
            chunks.append(line)
            line = ""
        line = f"{line} {m}" if line else m
    if line:
        chunks.append(line)
    return chunks


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
        return await asyncio.to_thread(summary_png, table, None, locale)

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

    async def publish(self, bot: Floorboard, channel: Any, segments: list[Segment], locale: str, *,
                      first: Any = None, final: bool = True) -> list[Any]:
        """Round summaries and the round's pings; a run that is not final waits for the rest of it."""
        key = getattr(channel, "id", 0)
        if not final:
            self.buffers.setdefault(key, []).extend(segments)
            return []
        segments = [*self.buffers.pop(key, []), *segments]
        posts = round_posts(self, bot, segments, locale)
        sent = []
        for i, post in enumerate(posts):
            kwargs = await post_kwargs(post, locale)
            send = first if first is not None and i == 0 else channel.send
            sent.append(await send(**kwargs))
        latest = segments[-1].table
        await bot.status_messages.update(latest, locale)
        if latest.status == "finished":
            await game_ended(bot, channel, latest, locale)
        return sent

    async def on_notice(self, bot: Floorboard, channel: Any, notice: Notice, locale: str) -> bool:
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


# --- texts and images ---------------------------------------------------------------------------------


def scores_of(table: Table) -> list[int]:
    return table.rules.view(table.state, None)["scores"]


def scoreboard(table: Table, locale: str, top: int = TOP) -> str:
    state = table.state
    scores = scores_of(table)
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    lines = []
    for seat in order[:top]:
        place = 1 + sum(1 for x in scores if x > scores[seat])  # equal scores share a place
        medal = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        lines.append(t("fpui.score_line", locale, medal=medal, name=seat_name(table, seat),
                       points=draw.points(scores[seat], locale), demands=len(state.boards[seat].claims)))
    return capped(lines, 1800, "fpui.and_more", locale, len(lines), len(order))


def claim_lines(table: Table, claims: list[dict[str, Any]], locale: str) -> list[str]:
    lines = []
    for item in claims:
        demands = ", ".join(f"{draw.demand_short(d, locale)} (+{dm.DEMANDS[d].points})"
                            for d in item["demands"] if d in dm.DEMANDS)
        lines.append(t("fpui.claimed", locale, name=seat_name(table, item["seat"]), demands=demands))
    return lines


def summary_view(table: Table, event: dict[str, Any] | None) -> dict[str, Any]:
    view = table.rules.view(table.state, None)
    if event is not None:
        view = {**view, "round": event.get("round", view["round"]), "roll": event.get("roll") or view["roll"],
                "to_move": []}  # the summary shows a closed round: nobody is waiting in it
    return view


def summary_png(table: Table, event: dict[str, Any] | None, locale: str) -> bytes:
    """The public summary: thumbnails of every sheet for up to 6 players (only then are sheets drawn)."""
    rules, state = table.rules, table.state
    sheets = [rules.sheet_view(state, i) for i in range(state.players)] if state.players <= 6 else None
    return draw.render_summary(summary_view(table, event), sheets, names=shown_names(table), locale=locale)


def sheet_text(table: Table, seat: int, viewer: int | None, locale: str) -> str:
    rules, state = table.rules, table.state
    own = viewer == seat
    view = rules.sheet_view(state, seat, viewer)
    lines = [t("fpui.sheet_own" if own else "fpui.sheet_other", locale, name=seat_name(table, seat),
               points=draw.points(view["score"], locale), demands=len(view["claims"]))]
    if table.status == "active":
        lines.append(t("fpui.sheet_round", locale, round=state.round, roll=roll_text(state.roll)))
    if own and table.status == "active":
        if seat in state.to_act:
            lines.append(t("fpui.sheet_to_act", locale))
        elif state.actions[seat]:
            lines.append(t("fpui.sheet_done", locale, action=draw.action_words(state.actions[seat], locale)))
        claimable = rules.claimable(state, seat) if seat in state.to_act else []
        if claimable:
            lines.append(t("fpui.claimable", locale) + "\n" + "\n".join(demand_line(d, locale) for d in claimable))
    return "\n".join(lines)[:MAX_CONTENT]


async def sheet_png(table: Table, seat: int, viewer: int | None, locale: str) -> bytes:
    view = table.rules.sheet_view(table.state, seat, viewer)
    return await asyncio.to_thread(draw.render_sheet, view, name=shown_names(table)[seat], locale=locale)


def png_file(table: Table, png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=f"{GAME}-{table.id}-{name}.png")


@dataclass
class RoundPost:
    content: str = ""
    embed: discord.Embed | None = None
    image: tuple[Table, dict[str, Any] | None] | None = None
    items: list[discord.ui.Item[Any]] | None = None
    pings: list[int] | None = None


async def post_kwargs(post: RoundPost, locale: str) -> dict[str, Any]:
    kw: dict[str, Any] = {"content": post.content[:MAX_CONTENT] or None,
                          "allowed_mentions": pinging(post.pings or [])}
    if post.embed is not None:
        kw["embed"] = post.embed
    if post.image is not None:
        table, event = post.image
        png = await asyncio.to_thread(summary_png, table, event, locale)
        kw["file"] = png_file(table, png, f"r{(event or {}).get('round', table.state.round)}")
    view = view_of(post.items or [])
    if view is not None:
        kw["view"] = view
    return kw


def round_embed(surface: FloorPlanSurface, table: Table, result: ActResult, data: dict[str, Any],
                locale: str) -> discord.Embed:
    round_no = data.get("round", 0)
    title = (t("fpui.setup_closed", locale, table=table.id) if round_no == 0
             else t("fpui.round_closed", locale, round=round_no, table=table.id))
    lines = [t("fpui.summary_roll", locale, roll=roll_text(data.get("roll")))]
    claims = claim_lines(table, data.get("claims", []), locale)
    if claims:
        lines.append(t("fpui.summary_claims", locale))
        lines.append(capped(claims[:MAX_CLAIM_LINES], 1500, "fpui.and_more", locale, min(len(claims),
                                                                                        MAX_CLAIM_LINES),
                            len(claims)))
    for event in result.events:
        if event.kind == "ending":
            names = ", ".join(seat_name(table, s) for s in [*event.data["sixth"], *event.data["stuck"]][:10])
            lines.append(t(f"fpui.ending_{event.data['ending']}", locale, names=names))
    lines.append("")
    lines.append(t("fpui.scoreboard", locale))
    lines.append(scoreboard(table, locale))
    embed = discord.Embed(title=title[:256], description="\n".join(lines)[:MAX_DESCRIPTION],
                          colour=discord.Colour.dark_blue())
    return embed


def final_embed(surface: FloorPlanSurface, table: Table, locale: str,
                last: dict[str, Any] | None = None) -> discord.Embed:
    outcome = table.outcome
    embed = discord.Embed(title=t("bot.game_over", locale, game=surface.game_name(locale), table=table.id),
                          colour=discord.Colour.gold())
    if outcome is None:
        return embed
    winners = ", ".join(seat_name(table, s) for s in outcome.winners[:10])
    key = "bot.winner" if len(outcome.winners) == 1 else "bot.winners_shared"
    lines = [t(key, locale, names=winners)]
    if outcome.reason:
        lines.append(t(outcome.reason, locale))
    view = table.rules.view(table.state, None)
    if view.get("rating"):
        lines.append(t("fpui.rating", locale, rating=t(f"fp.rating.{view['rating']}", locale),
                       points=draw.points(int(outcome.scores[0]), locale)))
    ranked = []
    for place, seats in enumerate(outcome.ranking, start=1):
        medal = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        for seat in seats:
            ranked.append(t("bot.rank_line", locale, medal=medal, place=place, name=seat_name(table, seat),
                            score=draw.points(int(outcome.scores[seat]), locale)))
    shown = min(len(ranked), 15)
    lines.append(capped(ranked[:shown], 2500, "fpui.and_more", locale, shown, len(ranked)))
    claims = claim_lines(table, (last or {}).get("claims", []), locale)
    if claims:
        lines += ["", t("fpui.summary_claims", locale)]
        lines.append(capped(claims[:MAX_CLAIM_LINES], 800, "fpui.and_more", locale,
                            min(len(claims), MAX_CLAIM_LINES), len(claims)))
    embed.description = "\n".join(lines)[:MAX_DESCRIPTION]
    return embed


def round_posts(surface: FloorPlanSurface, bot: Floorboard, segments: list[Segment], locale: str) -> list[RoundPost]:
    """What a run of moves shows in public: resignations, a summary per closed round, the next round's pings."""
    posts: list[RoundPost] = []
    latest = segments[-1].table
    new_round = False
    summaries = 0
    for seg in segments:
        result = seg.result
        if result is None:
            if seg.line:  # the game's intro (Start); an empty line only asks to say whose turn it is
                posts.append(RoundPost(content=seg.line + "\n" + t("fpui.intro_help", locale)))
                new_round = True
            continue
        if result.action == "resign":
            posts.append(RoundPost(content=surface.describe(result, locale)))
        closed = next((e for e in result.events if e.kind == "round_closed"), None)
        over = any(e.kind == "game_over" for e in result.events)
        if closed is not None and not over and summaries < MAX_SUMMARIES:
            # (a table left to its bots may play many rounds in one run: only the first few are shown)
            summaries += 1
            embed = round_embed(surface, result.table, result, closed.data, locale)
            posts.append(RoundPost(embed=embed, image=(result.table, closed.data),
                                   items=table_items(result.table, locale)))
        if over:
            embed = final_embed(surface, result.table, locale, closed.data if closed else None)
            line, ids = result_ping(result.table, locale)  # mentions in the embed would notify no one
            posts.append(RoundPost(content=line, embed=embed, image=(result.table, closed.data if closed else None),
                                   items=[RematchButton.make(GAME, result.table.id, result.table.version, locale)],
                                   pings=ids))
        if any(e.kind == "round" for e in result.events):
            new_round = True
    if latest.status == "active" and new_round:
        state = latest.state
        humans = latest.humans_to_move()
        ids = [uid for s in humans if (uid := latest.seats[s].user_id) is not None]
        key = "fpui.setup_turn" if state.phase == "setup" else "fpui.round_turn"
        usage = start_example(latest) or USAGE["start"]  # a start legal with this roll, not a fixed one
        head = t(key, locale, round=state.round, roll=roll_text(state.roll), usage=usage, count=len(humans))
        chunks = mention_chunks([f"<@{u}>" for u in ids], head)[:MAX_PING_POSTS] if ids else [head]
        if posts and posts[-1].content == "" and posts[-1].embed is not None:
            posts[-1].content = chunks[0]
        else:
            posts.append(RoundPost(content=chunks[0], items=table_items(latest, locale)))
        posts[-1].pings = ids
        posts += [RoundPost(content=c, pings=ids) for c in chunks[1:]]
    return posts


# --- components -----------------------------------------------------------------------------------------


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_TEMPLATE):
    """A button of a running game anyone may press for themselves: **My sheet** (``sheet``: the clicker's own
    blueprint with this round's pending work) or **Suggest a move** (``plan``: the planner's best few moves for
    the clicker's roll, as buttons); both answer privately."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {"sheet": discord.ButtonStyle.secondary,
                                                        "plan": discord.ButtonStyle.primary}

    def __init__(self, action: str, table_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or action, style=self.STYLES[action],
                                           custom_id=custom_id(GAME, action, table_id)))
        self.action, self.table_id = action, table_id

    @classmethod
    def make(cls, action: str, table: Table, locale: str) -> TableButton:
        return cls(action, table.id, label=t(f"fpui.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> TableButton:
        return cls(match["action"], id_number(match["table"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "FloorPlan", f"{self.action}_button", self.table_id)


class PreviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PREVIEW_TEMPLATE):
    """Confirm (``ok``) or Cancel (``no``) under a preview; only the previewing user may answer."""

    def __init__(self, choice: str, table_id: int, user_id: int, version: int, key: str, *,
                 label: str = "") -> None:
        style = discord.ButtonStyle.success if choice == "ok" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or choice, style=style,
                                           custom_id=custom_id(GAME, choice, table_id, user_id, version, key)))
        self.choice, self.table_id, self.user_id, self.version, self.key = choice, table_id, user_id, version, key

    @classmethod
    def make(cls, choice: str, table: Table, user_id: int, key: str, locale: str) -> PreviewButton:
        return cls(choice, table.id, user_id, table.version, key, label=t(f"fpui.button.{choice}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> PreviewButton:
        return cls(match["choice"], id_number(match["table"]), id_number(match["user"]), id_number(match["version"]),
                   match["key"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "FloorPlan", "preview_button", self.choice, self.table_id, self.user_id,
                       self.version, self.key)


class PickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PICK_TEMPLATE):
    """One suggestion: opens the usual preview of it. The custom_id names the suggestion by a hash of its text
    and round, and the planner is deterministic, so the click recomputes it (a restart loses nothing) and a
    suggestion made for an earlier roll or sheet is found stale."""

    def __init__(self, table_id: int, user_id: int, key: str, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "?", style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id(GAME, "pick", table_id, user_id, key)))
        self.table_id, self.user_id, self.key = table_id, user_id, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> PickButton:
        return cls(id_number(match["table"]), id_number(match["user"]), match["key"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "FloorPlan", "pick_button", self.table_id, self.user_id, self.key)


def table_items(table: Table, locale: str) -> list[discord.ui.Item[Any]]:
    """The buttons under a running game's posts: Suggest a move (while it runs) and My sheet."""
    plan: list[discord.ui.Item[Any]] = [TableButton.make("plan", table, locale)] if table.status == "active" else []
    return [*plan, TableButton.make("sheet", table, locale)]


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TableButton, PreviewButton, PickButton)


def suggestions(table: Table, seat: int) -> list[planner.Suggestion]:
    return planner.suggest(table.rules, table.state, seat, SUGGESTIONS)


def plan_lines(found: list[planner.Suggestion], table: Table, locale: str) -> str:
    state = table.state
    lines = [t("fpui.plan_head", locale, round=state.round, roll=roll_text(state.roll))]
    for n, suggestion in enumerate(found, start=1):
        key = "fpui.plan_line_points" if suggestion.points else "fpui.plan_line"
        lines.append(t(key, locale, n=n, action=suggestion.text, points=suggestion.points,
                       words=draw.action_words(suggestion.text, locale)))
    lines.append(t("fpui.plan_foot", locale))
    return "\n".join(lines)


def simulate(table: Table, seat: int, action: str) -> tuple[str, dict[str, Any], list[str]]:
    """The action's canonical text, the seat's sheet view after it (the placement as pending work) and what
    the seat could claim then. Pure: nothing is saved; raises the rules' error when the action is refused."""
    rules, state = table.rules, table.state
    text = rules.notation(state, action)
    after, _ = rules.apply(state, seat, text)
    board = after.pending[seat] or after.boards[seat]  # the last seat to act closes the round: committed
    done = state.actions[seat]
    tmp = replace(state, pending=(*state.pending[:seat], board, *state.pending[seat + 1:]),
                  actions=(*state.actions[:seat], f"{done}; {text}" if done else text, *state.actions[seat + 1:]))
    claimable = rules.claimable(tmp, seat)
    return text, rules.sheet_view(tmp, seat, seat), claimable


def find_seat(table: Table, text: str) -> int:
    """A seat by mention, by 1-based number or by name (exact, then a unique prefix; case-insensitive)."""
    text = text.strip()
    m = MENTION.match(text)
    if m:
        seat = table.seat_of(int(m.group(1)))
        if seat is not None:
            return seat
    if text.isdigit() and 1 <= int(text) <= len(table.seats):
        return int(text) - 1
    wanted = text.casefold()
    names = [s.name.casefold() for s in table.seats]
    if wanted in names:
        return names.index(wanted)
    found = [i for i, n in enumerate(names) if n.startswith(wanted)]
    if len(found) == 1 and wanted:
        return found[0]
    raise NotSeatedError("fpui.no_player", name=text)  # quoted short and escaped by reply_error


class FloorPlan(commands.Cog):
    def __init__(self, bot: Floorboard, surface: FloorPlanSurface) -> None:
        self.bot = bot
        self.surface = surface
        self.previews: dict[tuple[int, int], Preview] = {}

    async def running(self, table_id: int) -> Table:
        table = await self.bot.engine.get(table_id)
        if table.game != GAME:
            raise GameNotFoundError("lobby.no_table")
        if table.status == "lobby":
            raise LobbyError("engine.not_started")
        if table.status != "active" and table.state is None:
            raise GameOverError("engine.not_running")
        return table

    # --- /move: the preview --------------------------------------------------------------------------

    async def preview(self, ctx: commands.Context[Any], table: Table, action: str, locale: str) -> None:
        if ctx.interaction is None:
            await send_ephemeral(ctx, t("fpui.use_slash", locale))
            return
        interaction = ctx.interaction
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeatedError("engine.not_seated")
        if table.status == "lobby":
            raise GameOverError("engine.not_started")
        if table.status != "active":
            raise GameOverError("engine.not_running")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show_preview(interaction, table, seat, action, locale)

    async def show_preview(self, interaction: discord.Interaction, table: Table, seat: int, action: str,
                           locale: str) -> None:
        """The preview of ``action`` on the seat's blueprint with Confirm / Cancel (the interaction deferred)."""
        try:
            text, view, claimable = await asyncio.to_thread(simulate, table, seat, action)
        except RulesError as error:
            raise with_legal_start(error, table) from None
        png = await asyncio.to_thread(draw.render_sheet, view, name=shown_names(table)[seat], locale=locale)
        state = table.state
        key = preview_key(text, state.round)
        self.previews[(table.id, interaction.user.id)] = Preview(key, text, state.round, state.actions[seat])
        lines = [t("fpui.preview", locale, action=text, round=state.round, roll=roll_text(state.roll))]
        if claimable:
            lines.append(t("fpui.preview_claimable", locale))
            lines += [demand_line(d, locale) for d in claimable]
        items: list[discord.ui.Item[Any]] = [PreviewButton.make(c, table, interaction.user.id, key, locale)
                                             for c in ("ok", "no")]
        await interaction.followup.send("\n".join(lines)[:MAX_CONTENT], file=png_file(table, png, "preview"),
                                        view=view_of(items), ephemeral=True)

    async def preview_button(self, interaction: discord.Interaction, choice: str, table_id: int, user_id: int,
                             version: int, key: str) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("fpui.not_your_preview", name=mention(user_id))
            preview = self.previews.get((table_id, user_id))
            if preview is None or preview.key != key:
                raise StaleVersionError("fpui.preview_gone")
            if choice == "no":
                del self.previews[(table_id, user_id)]
                await interaction.response.edit_message(content=t("fpui.cancelled", locale, action=preview.text),
                                                        view=None, attachments=[])
                return
            table = await self.running(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            state = table.state
            if table.status != "active" or (version != table.version and (
                    state.round != preview.round or state.actions[seat] != preview.before)):
                del self.previews[(table_id, user_id)]
                raise StaleVersionError("fpui.stale")
            result = await in_time(interaction, self.bot.engine.act(table_id, user_id, preview.text,
                                                                    interaction_id=interaction.id))
            self.previews.pop((table_id, user_id), None)
            if result.duplicate:
                await send_ephemeral(interaction, t("bot.duplicate", locale))
                return
            await edit_response(interaction, content=t("fpui.confirmed", locale, action=result.action), view=None,
                                attachments=[])
            channel = await channel_of(self.bot, table.channel_id)
            if channel is not None:
                await after_move(self.bot, result, locale, channel=channel)

    # --- suggestions: a whole game with buttons -------------------------------------------------------

    async def acting_seat(self, table_id: int, user_id: int) -> tuple[Table, int]:
        table = await self.running(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeatedError("engine.not_seated")
        if table.status != "active":
            raise GameOverError("engine.not_running")
        if seat not in table.to_move():
            raise NotYourTurnError("fp.already_acted")
        return table, seat

    async def plan_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table, seat = await self.acting_seat(table_id, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await asyncio.to_thread(suggestions, table, seat)
            round_no = table.state.round
            items: list[discord.ui.Item[Any]] = [
                PickButton(table.id, interaction.user.id, preview_key(s.text, round_no), label=str(n))
                for n, s in enumerate(found, start=1)]
            items.append(TableButton.make("sheet", table, locale))
            await interaction.followup.send(plan_lines(found, table, locale)[:MAX_CONTENT], view=view_of(items),
                                            ephemeral=True)

    async def pick_button(self, interaction: discord.Interaction, table_id: int, user_id: int, key: str) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("fpui.not_your_plan", name=mention(user_id))
            table, seat = await self.acting_seat(table_id, user_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await asyncio.to_thread(suggestions, table, seat)
            text = next((s.text for s in found if preview_key(s.text, table.state.round) == key), None)
            if text is None:
                raise StaleVersionError("fpui.plan_stale")
            await self.show_preview(interaction, table, seat, text, locale)

    # --- sheets --------------------------------------------------------------------------------------

    async def send_sheet(self, interaction: discord.Interaction, table: Table, seat: int, locale: str) -> None:
        viewer = table.seat_of(interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = sheet_text(table, seat, viewer, locale)
        png = await sheet_png(table, seat, viewer, locale)
        kw: dict[str, Any] = {}
        if viewer == seat and table.status == "active" and seat in table.to_move():
            kw["view"] = view_of([TableButton.make("plan", table, locale)])  # from one's own sheet straight to a move
        await interaction.followup.send(text, file=png_file(table, png, f"sheet{seat + 1}"), ephemeral=True, **kw)

    async def sheet_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.running(table_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeatedError("fpui.sheet_not_seated")
            await self.send_sheet(interaction, table, seat, locale)

    @app_commands.command(name=ls("cmd.sheet.name"), description=ls("cmd.sheet.description"))
    @app_commands.rename(player=ls("cmd.sheet.player.name"))
    @app_commands.describe(player=ls("cmd.sheet.player.description"))
    @app_commands.guild_only()
    async def sheet(self, interaction: discord.Interaction, player: str | None = None) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            channel = interaction.channel_id or 0
            # After the game ends its thread still shows its sheets: the final blueprints are what players look at.
            engine = self.bot.engine
            table = await engine.table_in_channel(channel) or await engine.last_closed_table_in_channel(channel)
            if table is None or table.game != GAME:
                raise GameNotFoundError("fpui.no_floor_plan")
            table = await self.running(table.id)
            if player:
                seat = find_seat(table, player)
            else:
                seat = table.seat_of(interaction.user.id)
                if seat is None:
                    raise NotSeatedError("fpui.sheet_not_seated")
            await self.send_sheet(interaction, table, seat, locale)


async def setup(bot: Floorboard) -> None:
    surface = FloorPlanSurface()
    bot.surfaces[GAME] = surface
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(FloorPlan(bot, surface))


async def teardown(bot: Floorboard) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)
