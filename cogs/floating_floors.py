"""Floating Floors in Discord: the map after every move (with its physics overlay), captions that give every
balance check's margin, buttons and selects that build the notation, and a "what if" before every action.

Under the latest map: in the acquire phase a **Take** button per rolled Jutsu still in the pool and a select of
the same Jutsu on the map (on top, or from under a board — with its balance preview); while navigating **End
turn**, **Claim Bansen** when the ninja stands next to one of its own, and three selects — *Step to…*, *Place a
Jutsu…*, *Lay the top floorboard…* — whose every option says whether the board would stand and its new margin
— only its band, safe / shaky / falls, with ``tension=bands`` (the default) —
(`rules.floating_floors.game.preview`, tried with steady hands and stopped before the next turn's dice, so that it
never gives away a draw the real move has not made);
after a collapse **Set the card up again** (the automatic arrangement; the selects and ``stand 1 b2`` place the
fallen pieces by hand); always **My ninja** (an ephemeral reply with the hand and the legal moves) and **Without
physics** (the board without the overlay, for the one who asks). ``/whatif <move>`` (or ``/move ? <move>``)
answers privately with the verdict and a picture of the board as it would be. **Several at once / nudge…**
(while navigating) opens a private draft: *Add…* appends a placement or a step (the rulebook's "multiple actions at
the same time"), *Nudge…* names where the piece the last one touches goes, and one picture previews the combined
board; **Commit** plays it as one action. The draft lives in the components' ids (no memory to lose on a restart);
each click is answered first, then the seat, the turn and the table's version are checked again. Every component
carries the table and its version: the callback re-reads the table and ``engine.act`` checks the seat, the turn and the
version, so a stale or forged click changes nothing; a select's value must be one of the seat's legal actions now.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.components import MAX_CUSTOM_ID, custom_id, delegate, id_number
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.play import MoveButton, MoveCog, MoveSelect, legal, play_component
from cogs.utils.posting import send_private
from cogs.utils.replies import handle_command_error, send_ephemeral, shown_msg, user_errors
from cogs.utils.surface import GameSurface, seat_name, shown_names
from engine import ActResult, GameNotFoundError, NotSeatedError, Table
from engine.bots import ThoughtTooLong, within
from i18n import t
from render import floating_floors as draw
from render import pool as render_pool
from render.floating_floors import words
from render.kit import image_name
from rules.base import IllegalActionError, InvalidActionError, Msg, RulesError
from rules.floating_floors import game as ff
from rules.floating_floors import notation as nt
from rules.floating_floors import statics
from rules.floating_floors.layout import name as space_name

log = logging.getLogger(__name__)

GAME = "floating_floors"
SIMPLE = ("end", "claim", "reset")  # buttons whose action is their own name
BUTTON_TEMPLATE = (rf"{GAME}:(?P<action>end|claim|reset|hand|plain|draft|take\.[bw][sth])"
                   r":(?P<table>[0-9]+):(?P<version>[0-9]+)")
SELECT_TEMPLATE = rf"{GAME}:(?P<kind>step|put|lay|grab|home):(?P<table>[0-9]+):(?P<version>[0-9]+)"
# A draft of several actions at once rides in the custom_id: "place.ws.c1.ne~move.b3" (spaces as dots, " + " as ~).
DRAFT_TEMPLATE = (rf"{GAME}:(?P<kind>add|nudge|commit):(?P<table>[0-9]+):(?P<version>[0-9]+)"
                  r":(?P<draft>[a-z0-9.~]{0,80})")
NUDGES = tuple(o for o in statics.OFFSETS if o != "c")
SELECT_VERBS = {"step": ("move", "stand"), "put": ("place",), "lay": ("board",), "grab": ("take",),
                "home": ("chakra",)}
VERB_KIND = {verb: kind for kind, verbs in SELECT_VERBS.items() for verb in verbs}
STYLES = {"end": discord.ButtonStyle.danger, "claim": discord.ButtonStyle.success,
          "reset": discord.ButtonStyle.primary, "hand": discord.ButtonStyle.secondary,
          "plain": discord.ButtonStyle.secondary, "draft": discord.ButtonStyle.secondary}
MAX_OPTIONS = 25
MAX_LEGAL_SHOWN = 40
MAX_ACTION = 100
WHATIF_PREFIXES = ("?", "whatif ", "what if ")


def label(table: Table, seat: int) -> str:
    state = table.state
    ninja = state.seats[seat].ninja if state is not None else ""
    return f"{words.NINJA_EMOJI.get(ninja, '')} {seat_name(table, seat)}".strip()


def labels(table: Table) -> list[str]:
    return [label(table, i) for i in range(len(table.seats))]



class FloatingFloorsSurface(GameSurface):
    game_id = GAME

    def seat_label(self, table: Table, seat: int, locale: str) -> str:
        return label(table, seat)

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        ninja = table.state.seats[seat].ninja if table.state is not None else ""
        return f"{words.NINJA_EMOJI.get(ninja, '')} <@{info.user_id}>".strip()

    def intro(self, table: Table, locale: str) -> str:
        return super().intro(table, locale) + "\n" + t("ffui.intro_help", locale)

    def describe(self, result: ActResult, locale: str) -> str:
        lines = words.action_lines(result.events, labels(result.table), locale)
        if not lines:
            return super().describe(result, locale)
        prefix = "" if result.action == "timeout" else self.timer_prefix(result, locale)
        return prefix + "\n".join(lines)

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        if table.state is None:
            return self.seat_label(table, seat, locale)
        view = table.view(None)
        return words.player_line(view["ninjas"][seat], view["hands"][seat], label(table, seat), locale)

    def phase_text(self, table: Table, locale: str) -> str:
        state = table.state
        if state is None or table.status != "active":
            return super().phase_text(table, locale)
        key = {"reset": "ffui.phase_reset", "hide": "ffui.phase_hide", "chakra": "ffui.phase_chakra"}.get(
            state.phase, "ffui.phase")
        return t(key, locale, turn=state.turn, name=self.seat_label(table, state.current, locale))

    def help_embed(self, locale: str) -> discord.Embed:
        embed = discord.Embed(title=t("ffui.help.title", locale, game=self.game_name(locale)),
                              description=t("ffui.help.intro", locale), colour=discord.Colour.dark_teal())
        for part in ("acquire", "navigate", "collapse", "options"):
            embed.add_field(name=t(f"ffui.help.{part}_name", locale), value=t(f"ffui.help.{part}", locale),
                            inline=False)
        embed.set_footer(text=t("ffui.help.footer", locale))
        return embed

    # --- components ----------------------------------------------------------------------------------

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        state = table.state
        if state is None or table.status != "active":
            return []
        actions = legal(table, state.current)
        items: list[discord.ui.Item[Any]] = []
        for kind in sorted({a.split()[1] for a in actions if a.startswith("take ") and a.endswith(" pool")}):
            items.append(take_button(kind, table, locale))
        items += [FloatingFloorsButton.make(a, table, locale) for a in SIMPLE if a in actions]
        if any(a.startswith("place ") for a in actions):  # several at once, or a placement with a chosen nudge
            items.append(FloatingFloorsButton.make("draft", table, locale))
        items += self.image_items(table, locale)
        for kind, options in menu_options(table, actions, locale).items():
            items.append(ActionSelect.make(kind, table, options, locale))
        return items

    def image_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return [FloatingFloorsButton.make("hand", table, locale), FloatingFloorsButton.make("plain", table, locale)]

    # --- typed moves, previews and private information -----------------------------------------------

    def normalize(self, action: str) -> str:
        return " ".join(action.lower().split())

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        try:
            act = nt.parse(self.normalize(text))
        except RulesError:
            return False
        return act.verb not in ("resign", *nt.ENGINE_VERBS)

    async def preview_move(self, ctx: Any, table: Table, action: str, locale: str) -> bool:
        text = self.normalize(action)
        prefix = next((p for p in WHATIF_PREFIXES if text.startswith(p)), None)
        if prefix is None:
            return False
        await answer_whatif(ctx, table, text.removeprefix(prefix).strip(), locale)
        return True

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        view = table.view(seat)
        lines = [words.player_line(view["ninjas"][seat], view["hands"][seat], label(table, seat), locale)]
        actions = legal(table, seat)
        if actions:
            shown = ", ".join(f"`{a}`" for a in actions[:MAX_LEGAL_SHOWN])
            more = t("ffui.and_more", locale, count=len(actions) - MAX_LEGAL_SHOWN) \
                if len(actions) > MAX_LEGAL_SHOWN else ""
            lines.append(t("ffui.hand_legal", locale, count=len(actions), moves=shown + more))
        return "\n".join(lines)

    async def board_png(self, table: Table, locale: str) -> bytes | None:
        if table.state is None:
            return None
        return await render_pool.draw(draw.render, table.view(None), locale=locale, names=shown_names(table))

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        if table.state is None:
            return None
        return await render_pool.draw(draw.render, table.view(seat), locale=locale, names=shown_names(table))


# --- "what if" -------------------------------------------------------------------------------------------


def whatif(table: Table, seat: int, action: str, locale: str) -> tuple[str, bytes | None]:
    """The verdict in words and the board as it would be (None when the rules refuse the action)."""
    return whatif_of(table.state, seat, action, locale, shown_names(table))


# A preview takes milliseconds (docs/benchmarks.md); one that runs on is a rules bug, and must not keep a render worker
# (every game's images) for ever: a player could ask for it again and again.
WHATIF_SECONDS = 10.0


def whatif_of(state: Any, seat: int, action: str, locale: str, names: list[str],
              limit: float = WHATIF_SECONDS) -> tuple[str, bytes | None]:
    """`whatif` from plain data (the rules' state, the shown names), so that a render worker can run it; stopped
    after ``limit`` seconds there (`engine.bots.within`), when it answers that the preview could not be worked out
    and the worker draws on."""
    try:
        return within(limit, _whatif_of, state, seat, action, locale, names)
    except ThoughtTooLong:
        log.error("a Floating Floors preview ran over %g s: %r by seat %d", limit, action[:200], seat)
        return t(Msg("ffui.whatif_slow"), locale), None


def _whatif_of(state: Any, seat: int, action: str, locale: str, names: list[str]) -> tuple[str, bytes | None]:
    try:
        result = ff.preview(state, seat, action)
    except RulesError as e:  # both the move and the rules' words about it are the player's text: made safe
        return t(shown_msg(Msg("ffui.whatif_error", action=action, error=e.msg)), locale), None
    view = ff.preview_view(state, seat, action)  # drawn from nothing the real move has not revealed yet
    card = result["checks"][-1]["card"] if result["checks"] else None
    index = next((b["index"] for b in view["boards"] if b["card"] == card), None)
    png = draw.preview_image(view, index, locale=locale) if index is not None and result["collapse"] is None \
        else draw.render(view, locale=locale, names=names)
    return words.preview_text(result, locale), png


async def answer_whatif(ctx: Any, table: Table, action: str, locale: str) -> None:
    interaction = getattr(ctx, "interaction", None)
    if interaction is not None and not interaction.response.is_done():  # before the render: answer Discord first
        await interaction.response.defer(ephemeral=True, thinking=True)
    seat = table.seat_of(ctx.author.id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    if table.state is None or table.status != "active" or seat not in table.rules.to_move(table.state):
        raise IllegalActionError("ffui.not_now")
    text, png = await render_pool.draw(whatif_of, table.state, seat, action, locale, shown_names(table))
    files = [discord.File(io.BytesIO(png), filename=image_name(f"{GAME}-{table.id}-whatif", png))] if png else []
    await send_ephemeral(ctx, text, files=files)


# --- select options --------------------------------------------------------------------------------------


def by_kind(actions: list[str]) -> dict[str, list[str]]:
    """The actions grouped by the select that offers them, in one pass: a turn's surface is built after every
    action, from a few hundred legal actions, and five selects each filtering all of them cost more than it."""
    out: dict[str, list[str]] = {}
    for action in actions:
        kind = VERB_KIND.get(action.partition(" ")[0])
        if kind is not None:
            out.setdefault(kind, []).append(action)
    return out


def menu_options(table: Table, actions: list[str], locale: str) -> dict[str, list[discord.SelectOption]]:
    """Each select of the board's menu that offers something, by kind, with its options: every option's preview
    is worked out here, on every board posted (the memory soak asks for them as a board does)."""
    groups = by_kind(actions)
    menus = {kind: select_options(table, groups.get(kind, []), kind, locale)
             for kind in ("home", "grab", "step", "put", "lay")}
    return {kind: options for kind, options in menus.items() if options}


def select_options(table: Table, actions: list[str], kind: str, locale: str) -> list[discord.SelectOption]:
    verbs = SELECT_VERBS[kind]
    chosen = [a for a in actions if a.split()[0] in verbs and not (kind == "grab" and a.endswith(" pool"))]
    chosen = rank(table, chosen, kind)[:MAX_OPTIONS]
    if kind == "home":  # nothing to balance yet
        return [discord.SelectOption(label=action, value=action) for action in chosen]
    out = []
    for action, result in zip(chosen, ff.previews(table.state, table.state.current, chosen), strict=True):
        if result is None:  # refused: not offered
            continue
        out.append(discord.SelectOption(label=option_label(action, locale)[:100], value=action,
                                        description=words.option_description(result, locale)[:100]))
    return out


def rank(table: Table, actions: list[str], kind: str) -> list[str]:
    """The options a player most likely wants first: places near their ninja, the middle of cards."""
    state = table.state
    me = state.seats[state.current]
    here = me.space or (state.layout.alcoves[me.home].space if me.alcove is not None else (0, 0))

    def distance(action: str) -> int:
        act = nt.parse(action)
        sp = act.space or here
        return abs(sp[0] - here[0]) + abs(sp[1] - here[1])
    return sorted(actions, key=lambda a: (distance(a), a)) if kind in ("put", "grab") else actions


def option_label(action: str, locale: str) -> str:
    act = nt.parse(action)
    if act.verb == "place":
        return f"{words.jutsu(act.kind, locale)} → {space_name(act.space)}"
    if act.verb == "take":
        where = t(f"ffui.from.{act.source}", locale, space=space_name(act.space) if act.space else "")
        return f"{words.jutsu(act.kind, locale)} {where}"
    return action


# --- components ------------------------------------------------------------------------------------------


class FloatingFloorsButton(MoveButton, template=BUTTON_TEMPLATE):
    GAME, COG, PREFIX, STYLES = GAME, "FloatingFloors", "ffui", STYLES


def take_button(kind: str, table: Table, locale: str) -> FloatingFloorsButton:
    text = t("ffui.button.take", locale, jutsu=words.jutsu(kind, locale))
    return FloatingFloorsButton(f"take.{kind}", table.id, table.version, label=text[:80])


class ActionSelect(MoveSelect, template=SELECT_TEMPLATE):
    """Step, place, lay a board, take from the map or place the Chakra."""

    GAME, COG, PREFIX = GAME, "FloatingFloors", "ffui"
    PLACEHOLDERS: ClassVar[dict[str, str]] = {"step": "move", "put": "place", "lay": "board", "grab": "take",
                                              "home": "chakra"}


# --- a draft of several actions at once (and a chosen nudge) ----------------------------------------------


def encode(parts: list[str]) -> str:
    return "~".join(p.replace(" ", ".") for p in parts)


def decode(draft: str) -> list[str]:
    return [p.replace(".", " ") for p in draft.split("~") if p]


def draft_id(kind: str, table: Table, draft: str) -> str:
    return custom_id(GAME, kind, table.id, table.version, draft)


class DraftItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=DRAFT_TEMPLATE):
    """*Add…* and *Nudge…* (selects) and **Commit** (a button) of a private draft; the draft is in the id."""

    def __init__(self, kind: str, table_id: int, version: int, draft: str, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        self.kind, self.table_id, self.version, self.draft = kind, table_id, version, draft

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> DraftItem:
        return cls(match["kind"], id_number(match["table"]), id_number(match["version"]), match["draft"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await delegate(interaction, "FloatingFloors", "draft_click", self.kind, self.table_id, self.version,
                       self.draft, values)


def draft_parts(draft: str, kind: str, values: list[str]) -> list[str]:
    """The draft after a click: a part added, or the last part's nudge named. Anything else is refused."""
    parts = decode(draft)
    value = values[0] if len(values) == 1 else ""
    if kind == "add" and value and nt.parse(value).verb in nt.TOGETHER_VERBS:
        return [*parts, nt.text(nt.parse(value))]
    if kind == "nudge" and value in NUDGES and parts and nt.parse(parts[-1]).verb in nt.TOGETHER_VERBS:
        last = nt.parse(parts[-1])
        return [*parts[:-1], nt.text(replace(last, nudge=value))]
    raise InvalidActionError("ffui.not_now")


def draft_seat(table: Table, user_id: int, version: int) -> int:
    """The seat that may build this draft now: seated, to move, navigating, on the board the draft was made on."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    state = table.state
    if table.version != version:
        raise IllegalActionError("ffui.draft_stale")
    if state is None or table.status != "active" or seat not in table.rules.to_move(state) or \
            state.phase != "navigate":
        raise IllegalActionError("ffui.not_now")
    return seat


def draft_reply(table: Table, seat: int, parts: list[str], locale: str,
                preview: tuple[str, bytes | None] | None = None) -> tuple[str, bytes | None, discord.ui.View]:
    """The draft's words, the combined board's picture and its components (run in a worker thread); ``preview``
    is the draft's `whatif` when the caller drew it already (in a render worker)."""
    action = " + ".join(parts)
    view = discord.ui.View(timeout=None)
    state, text, png, events = table.state, t("ffui.draft_empty", locale), None, []
    if parts:
        ff.preview(state, seat, action)  # refused: the rules' words, and nothing is offered
        text, png = preview or whatif(table, seat, action, locale)
        state, events = ff.look_ahead(table.state, seat, action)
    moved = any(nt.parse(p).verb == "move" for p in parts)
    room = len(parts) < nt.MAX_PARTS and state.phase == "navigate" and state.current == seat
    options = draft_options(table, seat, state, parts, moved, locale) if room else []
    if options and len(draft_id("add", table, encode([*parts, "place.ws.a1.nw.nudge.se"]))) <= MAX_CUSTOM_ID:
        view.add_item(DraftItem("add", table.id, table.version, encode(parts), discord.ui.Select(
            custom_id=draft_id("add", table, encode(parts)), options=options,
            placeholder=t("ffui.select.draft_add", locale))))
    if any(e.kind == "nudge" for e in events):
        nudges = [discord.SelectOption(label=t("ffui.draft_nudge_to", locale, offset=o), value=o) for o in NUDGES]
        view.add_item(DraftItem("nudge", table.id, table.version, encode(parts), discord.ui.Select(
            custom_id=draft_id("nudge", table, encode(parts)), options=nudges,
            placeholder=t("ffui.select.draft_nudge", locale))))
    if parts:
        label = t("ffui.button.draft_commit", locale, action=action)[:80]
        view.add_item(DraftItem("commit", table.id, table.version, encode(parts), discord.ui.Button(
            custom_id=draft_id("commit", table, encode(parts)), label=label, style=discord.ButtonStyle.success)))
    return text, png, view


def draft_options(table: Table, seat: int, state: Any, parts: list[str], moved: bool,
                  locale: str) -> list[discord.SelectOption]:
    """The singles legal after the draft, each previewed as the draft with it: placements, and a step if none."""
    verbs = ("place",) if moved else ("place", "move")
    singles = [a for a in table.rules.legal_actions(state, seat) if a.split()[0] in verbs]
    out = []
    for single in rank(table, singles, "put")[:MAX_OPTIONS]:
        try:
            desc = words.option_description(ff.preview(table.state, seat, " + ".join([*parts, single])), locale)
        except RulesError:
            continue
        out.append(discord.SelectOption(label=option_label(single, locale)[:100], value=single,
                                        description=desc[:100]))
    return out


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (FloatingFloorsButton, ActionSelect, DraftItem)


def button_action(action: str) -> str:
    if action.startswith("take."):
        return f"take {action.removeprefix('take.')} pool"
    return action


class FloatingFloors(MoveCog):
    SELECT_VERBS, NOT_NOW = SELECT_VERBS, "ffui.not_now"

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.whatif.name"), description=ls("cmd.whatif.description"),
                             aliases=aliases("cmd.whatif.name"))
    @commands.guild_only()
    @app_commands.rename(action=ls("cmd.whatif.action.name"))
    @app_commands.describe(action=ls("cmd.whatif.action.description"))
    async def whatif(self, ctx: commands.Context[Any], *, action: commands.Range[str, 1, MAX_ACTION]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            if ctx.interaction is not None:  # before the database and the render
                await ctx.interaction.response.defer(ephemeral=True, thinking=True)
            table = await self.bot.engine.table_in_channel(ctx.channel.id)
            if table is None or table.game != GAME:
                raise GameNotFoundError("ffui.whatif_here")
            await answer_whatif(ctx, table, " ".join(action.lower().split()), locale)

    async def button(self, interaction: discord.Interaction, action: str, table_id: int, version: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if action in ("plain", "draft"):  # a private reply: answered before the database and the render
                await interaction.response.defer(ephemeral=True, thinking=True)
            table = await self.bot.engine.get(table_id)
            if action == "draft":
                await self.show_draft(interaction, table, [], locale, version)
                return
            if action == "hand":
                await send_private(self.bot, interaction, table, locale)
                return
            if action == "plain":
                await self.plain(interaction, table, locale)
                return
            await play_component(self.bot, interaction, table, button_action(action), locale, version)

    async def draft_click(self, interaction: discord.Interaction, kind: str, table_id: int, version: int,
                          draft: str, values: list[str]) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if kind == "commit":  # the engine checks the seat, the turn and the version, as for any button
                table = await self.bot.engine.get(table_id)
                await play_component(self.bot, interaction, table, " + ".join(decode(draft)), locale, version)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)  # before the database and the render
            parts = draft_parts(draft, kind, values)
            await self.show_draft(interaction, await self.bot.engine.get(table_id), parts, locale, version)

    async def show_draft(self, interaction: discord.Interaction, table: Table, parts: list[str], locale: str,
                         version: int) -> None:
        seat = draft_seat(table, interaction.user.id, version)
        preview = await render_pool.draw(whatif_of, table.state, seat, " + ".join(parts), locale,
                                         shown_names(table)) if parts else None
        text, png, view = await asyncio.to_thread(draft_reply, table, seat, parts, locale, preview)
        files = [discord.File(io.BytesIO(png), filename=image_name(f"{GAME}-{table.id}-draft", png))] if png else []
        await send_ephemeral(interaction, text, files=files, view=view)

    async def plain(self, interaction: discord.Interaction, table: Table, locale: str) -> None:
        if table.state is None:
            raise IllegalActionError("ffui.not_now")
        # The board without the physics overlay: each player may look at it that way, whatever the table's option.
        png = await render_pool.draw(draw.board_image, table.view(None), locale=locale, names=shown_names(table),
                                     physics=False)
        await send_ephemeral(interaction, t("ffui.plain", locale),
                             files=[discord.File(io.BytesIO(png),
                                                 filename=image_name(f"{GAME}-{table.id}-plain", png))])


async def setup(bot: App) -> None:
    bot.surfaces[GAME] = FloatingFloorsSurface()
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(FloatingFloors(bot))


async def teardown(bot: App) -> None:
    bot.surfaces.pop(GAME, None)
    bot.remove_dynamic_items(*ITEMS)
