"""Floating World in Discord: captions in words with every roll's dice, the map after every move, the Nightmare
as one summary message (its image and the new map), and buttons that build the same notation.

Under the latest map: **End turn**, **Harvest**, **Heal**, **Create Village**, **Seal the Gate** when the rules
allow them now, a select of the Lands to move to or create and a select of the rolls (a demon on your Land and a
stat, another Kitsune, a take-over), and **My Kitsune** (an ephemeral reply with your stats, cards and legal
moves). While a harvest is pending: one button per drawn Dream card (its name and cost) and **Keep none**.
While the Nightmare waits for a decision (6.1 demon order and 6.4.3 where a spawn appears: the current player's;
6.2 where a cut-off Kitsune goes: its owner's): the choices as selects of up to 25 (Discord's limit; a big map's
spawn Lands fill up to four, ordered row by row, each placeholder naming its first and last Land; beyond that
the turn line says to type ``spawn x,y``), the bot's choice marked; the turn line pings the decider and the map
outlines the candidate Lands; anyone else's pick is refused with whose choice it is.
The drawn cards are posted as an image (`render.floating_world.cards`) with the map.
Every component carries the table and its version: the callback re-reads the table, and ``engine.act`` checks the
seat, the turn and the version (a stale or forged click changes nothing); a select's value must be one of the
seat's legal actions now. Typed moves in the game's thread are the rules' notation (`rules.floating_world.
notation`): a message the parser accepts is a move, anything else is chat.
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

import discord

from cogs.utils.app import App
from cogs.utils.components import custom_id
from cogs.utils.lang import locale_of_interaction
from cogs.utils.play import MoveButton, MoveCog, MoveSelect, legal, play_component
from cogs.utils.posting import Post, send_private
from cogs.utils.replies import send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, Segment, escape, seat_name, shown_names
from engine import ActResult, Table
from i18n import t
from render import floating_world as draw
from render import pool as render_pool
from render.floating_world import cards as dream_cards
from render.floating_world import words
from render.kit import image_name
from rules.base import RulesError
from rules.floating_world import notation as nt
from rules.floating_world.bot import nightmare_choice
from rules.floating_world.content import DREAM_BY_ID

GAME = "floating_world"
SIMPLE = ("end", "harvest", "heal", "village", "seal")  # buttons whose action is their own name
BUTTON_TEMPLATE = (rf"{GAME}:(?P<action>end|harvest|heal|village|seal|keepnone|hand|buy\.[a-z][a-z0-9_]{{1,39}})"
                   r":(?P<table>[0-9]+):(?P<version>[0-9]+)")
SELECT_TEMPLATE = rf"{GAME}:(?P<kind>go|roll|decide[2-4]?):(?P<table>[0-9]+):(?P<version>[0-9]+)"
DECIDE_VERBS = ("resolve", "flee", "spawn")
# A decision's choices fill up to four selects (a message holds five rows; the last keeps the buttons).
DECIDE_KINDS = ("decide", "decide2", "decide3", "decide4")
SELECT_VERBS = {"go": ("move", "land"), "roll": ("attack", "takeover"), **dict.fromkeys(DECIDE_KINDS, DECIDE_VERBS)}
STYLES = {"end": discord.ButtonStyle.danger, "seal": discord.ButtonStyle.success,
          "keepnone": discord.ButtonStyle.secondary, "hand": discord.ButtonStyle.secondary}
MAX_OPTIONS = 25
MAX_LEGAL_SHOWN = 30
MAX_INTRO_EXAMPLES = 4


def names_of(table: Table) -> list[str]:
    return [escape(s.name) for s in table.seats]


def label(table: Table, seat: int) -> str:
    return f"{words.SEAT_EMOJI[seat % len(words.SEAT_EMOJI)]} {seat_name(table, seat)}"


def labels(table: Table) -> list[str]:
    return [label(table, i) for i in range(len(table.seats))]


def suggested(table: Table, seat: int) -> list[str]:
    """One legal move per verb worth suggesting now: the rules' `examples` (never an attack on a partner)."""
    if table.state is None:
        return []
    by_verb: dict[str, str] = {}
    for action in table.rules.examples(table.state, seat):
        by_verb.setdefault(action.split()[0], action)
    return list(by_verb.values())


def map_png(table: Table, seat: int | None, locale: str) -> bytes:
    view = table.view(seat)
    return draw.map_image(view, locale=locale, card_names=words.card_names(locale), names=shown_names(table))


async def draw_map(table: Table, seat: int | None, locale: str) -> bytes:
    """`map_png` off the loop (`render.pool`): the view is computed here, the worker gets plain data."""
    return await render_pool.draw(draw.map_image, table.view(seat), locale=locale,
                                  card_names=words.card_names(locale), names=shown_names(table))


def png_file(table: Table, png: bytes, suffix: str = "") -> discord.File:
    return discord.File(io.BytesIO(png), filename=image_name(f"{table.game}-{table.id}-{table.moves}{suffix}", png))


async def map_files(table: Table, locale: str) -> list[discord.File]:
    if table.state is None:
        return []
    return [png_file(table, await draw_map(table, None, locale))]


async def nightmare_files(table: Table, locale: str) -> list[discord.File]:
    if table.state is None:
        return []
    night = await render_pool.draw(draw.nightmare_image, table.view(None), locale=locale, names=shown_names(table))
    return [png_file(table, night, "-nightmare"), *await map_files(table, locale)]


def harvest_of(result: ActResult | None) -> tuple[int, list[str]] | None:
    """(seat, drawn cards) of a harvest in this action, if it drew any."""
    if result is None:
        return None
    return next(((e.seat, list(e.data["cards"])) for e in result.events if e.kind == "harvest" and e.data.get("cards")
                 and e.seat is not None), None)


def harvest_draw(seat: int, cards: list[str]) -> Any:
    """The drawn Dream cards as an image (dimmed where the harvester cannot pay), then the map."""
    async def files(table: Table, locale: str) -> list[discord.File]:
        praise = table.state.kitsune[seat].praise if table.state is not None and table.state.harvest else None
        png = await render_pool.draw(dream_cards.dream_cards_image, cards, locale=locale, praise=praise)
        return [png_file(table, png, "-dreams"), *await map_files(table, locale)]
    return files


def nightmare_of(result: ActResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return next((e.data for e in result.events if e.kind == "nightmare"), None)



class FloatingWorldSurface(GameSurface):
    game_id = GAME

    def seat_label(self, table: Table, seat: int, locale: str) -> str:
        return label(table, seat)

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        return f"{words.SEAT_EMOJI[seat % len(words.SEAT_EMOJI)]} <@{info.user_id}>"

    def intro(self, table: Table, locale: str) -> str:
        seat = table.state.current if table.state is not None else 0
        moves = ", ".join(f"`{a}`" for a in suggested(table, seat)[:MAX_INTRO_EXAMPLES]) or "`end`"
        return super().intro(table, locale) + "\n" + t("fwui.intro_help", locale, moves=moves)

    # --- captions ------------------------------------------------------------------------------------

    def describe(self, result: ActResult, locale: str) -> str:
        lines = words.action_lines(result.events, result.seat, labels(result.table), locale)
        if not lines:
            return super().describe(result, locale)
        prefix = "" if result.action == "timeout" else self.timer_prefix(result, locale)
        return prefix + "\n".join(lines)

    def posts(self, segments: list[Segment], locale: str) -> list[Any] | None:
        """A post per run of Dream actions (the map after them) and one per Nightmare: the action that ended
        the turn, the summary of every step, the Nightmare's image and the new map."""
        posts: list[Post] = []
        for seg in segments:
            night = nightmare_of(seg.result)
            if night is not None:
                names = labels(seg.table)
                summary = words.nightmare_lines(night, names, locale)
                events = seg.result.events if seg.result is not None else []
                lines = [seg.line, *summary, *words.turn_lines(events, names, locale)]
                if any(e.kind == "timeout" for e in events) and asks(seg.table):
                    lines.append(t("fwui.decide.timeout", locale))  # absence is not a choice: say who chose
                posts.append(Post(lines, seg.table, draw=nightmare_files))
                posts.append(Post([]))  # what follows the Nightmare is a message of its own
                continue
            if not posts or posts[-1].full(seg.line):
                posts.append(Post([]))
            post = posts[-1]
            post.lines.append(seg.line)
            harvest = harvest_of(seg.result)
            if harvest is not None:
                post.image_table, post.draw = seg.table, harvest_draw(*harvest)
            elif seg.image:
                post.image_table, post.draw = seg.table, post.draw or map_files
        if posts and not posts[-1].lines and posts[-1].image_table is None and len(posts) > 1:
            posts.pop()  # the Nightmare's own message carries the turn line and the buttons
        return posts

    def turn_line(self, table: Table, locale: str) -> tuple[str, list[int]]:
        line, ids = super().turn_line(table, locale)
        if line and table.state is not None and table.state.harvest is not None:
            who = ", ".join(self.seat_mention(table, s, locale) for s in table.humans_to_move())
            line = t("fwui.turn_harvest", locale, who=who)
        if line and table.state is not None and table.state.pending is not None:
            who = ", ".join(self.seat_mention(table, s, locale) for s in table.humans_to_move())
            line = t("fwui.turn_decide", locale, who=who, what=decision_text(table, locale))
        return line, ids

    # --- the status message and /help ----------------------------------------------------------------

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        if table.state is None:
            return self.seat_label(table, seat, locale)
        view = table.view(None)
        return words.kitsune_line(view["kitsune"][seat], labels(table), locale)

    def phase_text(self, table: Table, locale: str) -> str:
        state = table.state
        if state is None or table.status != "active":
            return super().phase_text(table, locale)
        key = "fwui.phase_haunt" if state.phase == "haunt" else "fwui.phase_decide" if state.pending else "fwui.phase"
        seat = min(table.to_move(), default=state.current)  # a paused Nightmare waits for its decider (6.2)
        return t(key, locale, turn=state.turn, name=self.seat_label(table, seat, locale))

    def help_embed(self, locale: str) -> discord.Embed:
        embed = discord.Embed(title=t("fwui.help.title", locale, game=self.game_name(locale)),
                              description=t("fwui.help.intro", locale), colour=discord.Colour.dark_purple())
        for part in ("moves", "fight", "dreams", "end", "options"):
            embed.add_field(name=t(f"fwui.help.{part}_name", locale), value=t(f"fwui.help.{part}", locale),
                            inline=False)
        embed.set_footer(text=t("fwui.help.footer", locale))
        return embed

    # --- components ----------------------------------------------------------------------------------

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        state = table.state
        if state is None or table.status != "active":
            return []
        items: list[discord.ui.Item[Any]] = []
        if state.harvest is not None:
            items += [buy_button(card, table, locale) for card in state.harvest[:20]]
            items.append(FloatingWorldButton.make("keepnone", table, locale))
            return [*items, *self.image_items(table, locale)]
        if state.pending is not None:
            return [*decision_selects(table, locale), *self.image_items(table, locale)]
        actions = ["end"] if state.phase == "haunt" else legal(table, state.current)
        items += [FloatingWorldButton.make(a, table, locale) for a in SIMPLE if a in actions and a != "end"]
        if "end" in actions:
            items.append(FloatingWorldButton.make("end", table, locale))
        items += self.image_items(table, locale)
        for kind in ("go", "roll"):
            options = select_options(table, actions, kind, locale)
            if options:
                items.append(ActionSelect.make(kind, table, options, locale))
        return items

    def image_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return [FloatingWorldButton.make("hand", table, locale)]

    # --- typed moves and private information ---------------------------------------------------------

    def normalize(self, action: str) -> str:
        return " ".join(action.lower().split())

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        """A message the notation parses is a move (``end``, ``move 1,0``, ``attack oni mind``); chat that
        starts with a verb ("end of the world?") does not parse, so it stays chat."""
        try:
            act = nt.parse(self.normalize(text))
        except RulesError:
            return False
        return act.verb not in ("resign", *nt.ENGINE_VERBS)

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        view = table.view(seat)
        lines = [t("fwui.hand_title", locale, line=words.kitsune_line(view["kitsune"][seat], labels(table), locale))]
        if view["harvest"] and view["current"] == seat:
            lines.append(t("fwui.hand_harvest", locale, cards=words.cards_text(view["harvest"]["cards"], locale)))
        worth = set(table.rules.examples(table.state, seat))
        actions = sorted(legal(table, seat), key=lambda a: a not in worth)  # attacks on a partner come last
        if actions:
            shown = ", ".join(f"`{a}`" for a in actions[:MAX_LEGAL_SHOWN])
            more = t("fwui.and_more", locale, count=len(actions) - MAX_LEGAL_SHOWN) if len(actions) > MAX_LEGAL_SHOWN \
                else ""
            lines.append(t("fwui.hand_legal", locale, count=len(actions), moves=shown + more))
        return "\n".join(lines)

    async def board_png(self, table: Table, locale: str) -> bytes | None:
        if table.state is None:
            return None
        return await draw_map(table, None, locale)

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        if table.state is None:
            return None
        return await draw_map(table, seat, locale)


# --- select options --------------------------------------------------------------------------------------


def select_options(table: Table, actions: list[str], kind: str, locale: str) -> list[discord.SelectOption]:
    verbs = SELECT_VERBS[kind]
    chosen = [a for a in actions if a.split()[0] in verbs and not a.endswith(" boost")]
    return [discord.SelectOption(label=option_label(table, a, locale)[:100], value=a) for a in chosen[:MAX_OPTIONS]]


def asks(table: Table) -> bool:
    """The table decides the Nightmare's choices (``auto_nightmare`` off)."""
    return table.state is not None and not table.state.options.auto_nightmare


def decision_text(table: Table, locale: str) -> str:
    """What the paused Nightmare asks of its decider, in words (and how to type what no select holds)."""
    view = table.view(None)["pending"]
    name = seat_name(table, view["fleeing"]) if view["decision"] == "flee" else ""
    text = t(f"fwui.decide.{view['decision']}", locale, name=name, demon=words.demon(view.get("type", "oni"), locale))
    hidden = len(view["choices"]) - MAX_OPTIONS * len(DECIDE_KINDS)
    if hidden > 0:
        last = max(view["choices"], key=choice_order)  # one that no select holds
        text += " " + t("fwui.decide.type_more", locale, count=hidden, example=last)
    return text


def choice_order(action: str) -> tuple[int, int, str]:
    """Row by row (y, then x), so each select of a big map's choices is one stretch of the map."""
    at = nt.parse(action).at
    return (at[1], at[0], action) if at is not None else (1 << 30, 0, action)


def decision_selects(table: Table, locale: str) -> list[ActionSelect]:
    """The Nightmare's choices as selects of up to 25 (values are the legal actions; the bot's choice is marked).
    More than 25 (a big map's spawn Lands) fill up to four selects, each placeholder naming its stretch."""
    pending = table.state.pending
    hint = nightmare_choice(table.state)  # what a bot seat would answer here (the marked option says so)
    choices = list(pending["choices"])
    if len(choices) > MAX_OPTIONS:
        choices.sort(key=choice_order)
    parts = [choices[i:i + MAX_OPTIONS] for i in range(0, len(choices), MAX_OPTIONS)][:len(DECIDE_KINDS)]
    out = []
    for kind, part in zip(DECIDE_KINDS, parts, strict=False):
        options = [discord.SelectOption(label=option_label(table, a, locale)[:100], value=a,
                                        description=t("fwui.opt.suggested", locale) if a == hint else None)
                   for a in part]
        placeholder = t(f"fwui.select.decide_{pending['decision']}", locale)
        if len(parts) > 1:
            placeholder = t("fwui.select.decide_part", locale, what=placeholder.rstrip("…"),
                            first=words.at(nt.parse(part[0]).at), last=words.at(nt.parse(part[-1]).at))
        select = discord.ui.Select(custom_id=custom_id(GAME, kind, table.id, table.version), options=options,
                                   placeholder=placeholder[:150])
        out.append(ActionSelect(kind, table.id, table.version, select))
    return out


def not_your_choice(table: Table, user_id: int, locale: str) -> str | None:
    """"It is X's choice" for a seated player who is not the paused Nightmare's decider (None otherwise)."""
    seat = table.seat_of(user_id)
    waiting = sorted(table.to_move()) if table.state is not None and table.state.pending is not None else []
    if seat is None or not waiting or seat in waiting:
        return None
    return t("fwui.decide.not_yours", locale, name=label(table, waiting[0]))


def option_label(table: Table, action: str, locale: str) -> str:
    act = nt.parse(action)
    if act.verb == "resolve":
        if act.at is None:
            return t("fwui.opt.resolve_all", locale)
        return t("fwui.opt.resolve", locale, demon=words.demon(act.target or "oni", locale), at=words.at(act.at))
    if act.verb in ("flee", "spawn"):
        return t(f"fwui.opt.{act.verb}", locale, at=land_at(table, act.at, locale))
    if act.verb in ("move", "land"):
        return t(f"fwui.opt.{act.verb}", locale, at=words.at(act.at))
    stat = words.stat(act.stat or "body", locale)
    if act.verb == "takeover":
        return t("fwui.opt.takeover", locale, stat=stat)
    if act.seat is not None:
        target = shown_names(table)[act.seat] if act.seat < len(table.seats) else str(act.seat + 1)
        text = t("fwui.opt.attack_kitsune", locale, target=target, stat=stat)
        return f"{text} ({words.card_name(act.item, locale)})" if act.item else text
    return t("fwui.opt.attack", locale, demon=words.demon(act.target or "oni", locale), stat=stat)


def land_at(table: Table, at: tuple[int, int] | None, locale: str) -> str:
    """``2,1 (Cedar Shrine)``: the coordinates a player types, and the Land's name to find it on the map."""
    land = table.state.land_map().get(at) if table.state is not None and at is not None else None
    return words.at(at) if land is None else f"{words.at(at)} ({words.land_name(land.card, locale)})"


# --- components ------------------------------------------------------------------------------------------


class FloatingWorldButton(MoveButton, template=BUTTON_TEMPLATE):
    GAME, COG, PREFIX, STYLES = GAME, "FloatingWorld", "fwui", STYLES


def buy_button(card: str, table: Table, locale: str) -> FloatingWorldButton:
    """A drawn Dream card: ``buy.<card>`` in the custom_id, its name and cost on the label."""
    cost = DREAM_BY_ID[card].cost if card in DREAM_BY_ID else 0
    text = t("fwui.button.buy", locale, card=words.card_name(card, locale), cost=cost)
    return FloatingWorldButton(f"buy.{card}", table.id, table.version, label=text[:80])


class ActionSelect(MoveSelect, template=SELECT_TEMPLATE):
    """Move / create a Land (``go``), or a roll (``roll``): each option's value is a legal action."""

    GAME, COG, PREFIX = GAME, "FloatingWorld", "fwui"
    PLACEHOLDERS: ClassVar[dict[str, str]] = {"go": "move", "roll": "attack",
                                              **dict.fromkeys(DECIDE_KINDS, "decide_resolve")}


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (FloatingWorldButton, ActionSelect)


def button_action(action: str) -> str:
    if action == "keepnone":
        return "keep none"
    if action.startswith("buy."):
        return "buy " + action.removeprefix("buy.")
    return action


class FloatingWorld(MoveCog):
    SELECT_VERBS, NOT_NOW = SELECT_VERBS, "fwui.not_now"

    async def choose(self, interaction: discord.Interaction, kind: str, table_id: int, version: int,
                     values: list[str]) -> None:
        """A Nightmare decision picked by a seated player whose choice it is not: say whose it is (6.2: a
        cut-off Kitsune's owner's), change nothing."""
        if kind in DECIDE_KINDS:
            locale = await locale_of_interaction(interaction)
            async with user_errors(interaction, locale):
                table = await self.bot.engine.get(table_id)
                refusal = not_your_choice(table, interaction.user.id, locale)
                if refusal is not None:
                    await send_ephemeral(interaction, refusal)
                    return
        await super().choose(interaction, kind, table_id, version, values)

    async def button(self, interaction: discord.Interaction, action: str, table_id: int, version: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.bot.engine.get(table_id)
            if action == "hand":
                await send_private(self.bot, interaction, table, locale)
                return
            await play_component(self.bot, interaction, table, button_action(action), locale, version)


async def setup(bot: App) -> None:
    bot.surfaces[GAME] = FloatingWorldSurface()
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(FloatingWorld(bot))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)
