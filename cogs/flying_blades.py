"""Night of the 27 Ninja in Discord: captions with colours, and buttons that build the same notation.

Under each board: **Show my hand** (an ephemeral reply with the viewer's own image and cards), during the
draft **Choose cards** (an ephemeral multi-select of the dealt hand that submits ``keep ...``), in play
**Pass**. Every button goes through ``engine.act`` with the interaction id (a redelivered click is applied
once) and, where the position matters, the board version it was drawn for (a stale Pass gets "the board has
changed"). Typed moves in the game's thread are recognized by their shape (a verb and cells), in English or with
the Polish verbs of `ALIASES` (`rules.flying_blades.words`, shared with the terminal); an attempted move that
is not one (``atack c3 c4``, ``c3 c4``) gets a hint with moves legal now (`cogs.utils.hints`), and chat gets nothing.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from cogs.utils import hints
from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.lang import locale_of_interaction
from cogs.utils.posting import after_move, channel_of, send_private
from cogs.utils.replies import acknowledge, edit_response, in_time, send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, seat_name
from engine import ActResult, NotSeatedError, Table
from i18n import t
from rules.base import IllegalActionError, InvalidActionError, Msg, NotYourTurnError
from rules.flying_blades.board import COLOURS
from rules.flying_blades.cards import CARD_IDS, PRICE_LIMIT, PRICES
from rules.flying_blades.notation import CARD_VERBS, USAGE, VERBS
from rules.flying_blades.words import (  # what players type in their language: the terminal reads it too
    ALIASES,
    CARD_ALIAS,  # noqa: F401 - the tables stay importable from the cog
    CARD_ALIASES,  # noqa: F401
    VERB_ALIAS,
    WORD_ALIAS,
    WORD_ALIASES,
    canonical_text,
)

GAME = "flying_blades"
EMOJI = {"red": "🟥", "yellow": "🟨", "blue": "🟦", "green": "🟩", "black": "⬛"}
BUTTON_TEMPLATE = rf"{GAME}:(?P<action>hand|choose|pass|keepnone):(?P<table>[0-9]+):(?P<version>[0-9]+)"
SELECT_TEMPLATE = rf"{GAME}:keep:(?P<table>[0-9]+):(?P<version>[0-9]+)"
BUTTON_STYLES = {
    "hand": discord.ButtonStyle.secondary,
    "choose": discord.ButtonStyle.primary,
    "pass": discord.ButtonStyle.secondary,
    "keepnone": discord.ButtonStyle.secondary,
}
# Verbs typed in the game's thread (``resign`` asks first: /resign); arguments a typed move is made of.
TYPED_VERBS = tuple(v for v in VERBS if v != "resign")
CELL = re.compile(r"^[a-z][0-9]{1,2}$", re.IGNORECASE)  # off-board cells too: the rules say which board it is
def move_shaped(action: str) -> bool:
    """A (normalized) message that is a move to check, rather than chat: a verb with arguments that could be
    its arguments (``attack z9 a1`` is checked and told which board it is; ``pass the salt`` is chat)."""
    verb, *rest = action.split() or [""]
    if verb == "keep":
        return len(rest) == 1 and all(c in CARD_IDS or c == "none" for c in rest[0].split(","))
    if verb not in TYPED_VERBS:
        return False
    if verb == "pass":
        return not rest
    return 1 <= len(rest) <= 3 and all(is_argument(w) for w in rest)


def is_argument(token: str) -> bool:
    return CELL.match(token) is not None or token in ("from", *WORD_ALIAS)


MAX_LEGAL_SHOWN = 40


def colour_name(seat: int, locale: str) -> str:
    return t(f"colour.{COLOURS[seat]}", locale)


def card_name(card: str, locale: str) -> str:
    return t(f"fb.card.{card}", locale)


def cards_text(cards: list[str], locale: str) -> str:
    if not cards:
        return t("fbui.no_cards", locale)
    return ", ".join(f"{card_name(c, locale)} ({PRICES[c]})" for c in sorted(cards, key=CARD_IDS.index))


class FlyingBladesSurface(GameSurface):
    game_id = GAME

    def game_name(self, locale: str) -> str:
        return t("fb.name", locale)

    def seat_label(self, table: Table, seat: int, locale: str) -> str:
        return f"{EMOJI[COLOURS[seat]]} {seat_name(table, seat)}"

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        return f"{EMOJI[COLOURS[seat]]} <@{info.user_id}>"

    def intro(self, table: Table, locale: str) -> str:
        return super().intro(table, locale) + "\n" + t("fbui.intro_help", locale)

    def describe(self, result: ActResult, locale: str) -> str:
        name = self.seat_label(result.table, result.seat, locale)
        verb = result.action.split()[0].lower()
        action = f"`{result.action}`"
        prefix = self.timer_prefix(result, locale)
        if verb == "timeout":  # a missed turn, said as such (never as a pass); the line carries its own ⏰
            draft = any(e.kind == "timeout" and "kept" in e.data for e in result.events)
            line, prefix = t("fbui.timed_out_draft" if draft else "fbui.timed_out", locale, name=name), ""
        elif verb == "keep":
            line = t("fbui.kept", locale, name=name)
        elif verb in ("pass", "resign"):
            line = t(f"fbui.{verb}ed", locale, name=name)
        elif verb == "attack":
            line = t("fbui.attacked", locale, name=name, action=action)
        else:
            line = t("fbui.played", locale, name=name, card=card_name(verb, locale), action=action)
        removed = sum(len(e.data.get("removed", [])) for e in result.events if e.kind in ("attack", "card"))
        if removed:
            line += " " + t("fbui.removed", locale, count=removed)
        for event in result.events:
            if event.kind == "draft_done":
                first = self.seat_label(result.table, event.data["first"], locale)
                line += "\n" + t("fbui.draft_done", locale, name=first)
        return prefix + line

    def is_quiet(self, result: ActResult) -> bool:
        """A card choice (or a resignation) while others still choose: the board has not changed."""
        state = result.table.state
        return (result.action.split()[0] in ("keep", "resign", "timeout")
                and getattr(state, "phase", None) == "draft")

    def turn_line(self, table: Table, locale: str) -> tuple[str, list[int]]:
        line, ids = super().turn_line(table, locale)
        if line and getattr(table.state, "phase", None) == "draft":
            who = ", ".join(self.seat_mention(table, s, locale) for s in table.humans_to_move())
            line = t("fbui.turn_draft", locale, who=who, limit=PRICE_LIMIT)
        return line, ids

    def score_text(self, table: Table, seat: int, score: float, locale: str) -> str:
        if len(table.seats) == 2:
            return t("fb.captured_count", locale, count=int(score))
        return t("unit.ninja", locale, count=int(score))

    # --- the status message and /help ----------------------------------------------------------------

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        line = f"{self.seat_label(table, seat, locale)} — {colour_name(seat, locale)}"
        resigned = getattr(table.state, "resigned", ())
        if seat < len(resigned) and resigned[seat]:
            line += " " + t("fbui.status_resigned", locale)
        return line

    def phase_text(self, table: Table, locale: str) -> str:
        phase = getattr(table.state, "phase", None)
        if phase is None or table.status == "aborted":
            return super().phase_text(table, locale)
        return t(f"fb.phase.{phase}", locale)

    def help_embed(self, locale: str) -> discord.Embed:
        """The notation: one field per verb, with an example, what it does and (for a card) its price."""
        embed = discord.Embed(title=t("fbui.help.title", locale, game=self.game_name(locale)),
                              description=t("fbui.help.intro", locale, limit=PRICE_LIMIT),
                              colour=discord.Colour.dark_red())

        def verb(name: str, example: str, text: str) -> None:
            embed.add_field(name=name, value=f"`{example}` — {text}", inline=False)

        verb(t("fbui.help.attack_name", locale), USAGE["attack"], t("fbui.help.attack", locale))
        for card in CARD_IDS:
            name = t("fbui.help.card_name", locale, card=card_name(card, locale), price=PRICES[card])
            verb(name, USAGE[card], t(f"fbui.help.{card}", locale))
        verb(t("fbui.help.pass_name", locale), USAGE["pass"], t("fbui.help.pass", locale))
        verb(t("fbui.help.keep_name", locale), USAGE["keep"], t("fbui.help.keep", locale, limit=PRICE_LIMIT))
        if locale in ALIASES:
            words = hints.alias_lines(ALIASES[locale] | WORD_ALIASES[locale], 1000 - 100)
            embed.add_field(name=t("hints.aliases_name", locale),
                            value=f"{t('hints.aliases_intro', locale)}\n{words}", inline=False)
        embed.set_footer(text=t("fbui.help.footer", locale))
        return embed

    # --- components ----------------------------------------------------------------------------------

    def has_cards(self, table: Table) -> bool:
        return table.options.get("cards", "hidden") != "none"

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        items = self.image_items(table, locale)
        phase = getattr(table.state, "phase", None)
        if phase == "draft":
            items.append(FlyingBladesButton.make("choose", table, locale))
        elif phase == "play":
            items.append(FlyingBladesButton.make("pass", table, locale))
        return items

    def image_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return [FlyingBladesButton.make("hand", table, locale)] if self.has_cards(table) else []

    # --- typed moves and private information ---------------------------------------------------------

    def normalize(self, action: str) -> str:
        return canonical_text(action)

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        return move_shaped(self.normalize(text))

    def typed_hint(self, text: str, table: Table, seat: int) -> Msg | None:
        return hints.near_miss_msg(text.lower(), TYPED_VERBS, aliases=VERB_ALIAS,
                                   examples=lambda: self.examples(table, seat),
                                   game=GAME, arg=is_argument, alone=("pass",))

    def examples(self, table: Table, seat: int) -> list[str]:
        """Moves legal now to show in a public hint: never a card play or a keep while the cards are hidden
        (it would show the hand): an attack (or a card play when the cards are open) and ``pass``."""
        if table.state is None or getattr(table.state, "phase", None) != "play":
            return []
        legal = table.rules.legal_actions(table.state, seat) or []
        if table.options.get("cards", "hidden") == "hidden":
            legal = [a for a in legal if a.split()[0] not in CARD_VERBS]
        firsts = {a.split()[0]: a for a in reversed(legal)}  # the first legal move of each verb
        moves = [firsts[v] for v in ("attack", *CARD_VERBS) if v in firsts][:hints.MAX_EXAMPLES - 1]
        return moves + (["pass"] if "pass" in firsts else [])

    def is_private_action(self, table: Table, action: str) -> bool:
        return action.strip().lower().startswith("keep") and table.options.get("cards", "hidden") == "hidden"

    def redact_record(self, table: Table, record: str) -> str:
        """While the game runs with hidden cards, the record does not tell who kept what."""
        if table.status != "active" or table.options.get("cards", "hidden") != "hidden":
            return record
        return re.sub(r"^(\d+) keep .*$", r"\1 keep ?", record, flags=re.MULTILINE)

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        view = table.view(seat)
        colours = view["colours"]
        lines = [t("fbui.hand_title", locale, name=self.seat_label(table, seat, locale),
                   colour=colour_name(seat, locale), cards=cards_text(view["hand"] or [], locale))]
        prey = ", ".join(t(f"colour.{colours[s]}", locale) for s in view["prey"][seat]) or "—"
        hunters = ", ".join(t(f"colour.{colours[s]}", locale) for s in view["hunters"][seat]) or "—"
        if view["neutral"]:
            prey = t(f"colour.{view['neutral']}", locale)
        lines.append(t("fbui.hand_prey", locale, prey=prey, hunters=hunters))
        if view["phase"] == "draft":
            key = "fbui.hand_draft_done" if view["drafted"][seat] else "fbui.hand_draft"
            lines.append(t(key, locale, limit=PRICE_LIMIT, example=self.keep_example(table, seat)))
        elif view["phase"] == "play" and seat in view["to_move"]:
            lines.append(self.legal_text(table, seat, locale))
        return "\n".join(lines)

    def keep_example(self, table: Table, seat: int) -> str:
        """A keep this seat may make now (the most cards within the budget): the example in its private text."""
        keeps = [a for a in table.rules.legal_actions(table.state, seat) or [] if a.startswith("keep ")]
        return max(keeps, key=lambda a: (len(a.split(",")), a != "keep none"), default="keep none")

    def legal_text(self, table: Table, seat: int, locale: str) -> str:
        legal = table.rules.legal_actions(table.state, seat) or []
        shown = ", ".join(f"`{a}`" for a in legal[:MAX_LEGAL_SHOWN])
        hidden = len(legal) - MAX_LEGAL_SHOWN
        more = t("fbui.and_more", locale, count=hidden) if hidden > 0 else ""
        return t("fbui.hand_legal", locale, count=len(legal), moves=shown + more)


class FlyingBladesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, action: str, table_id: int, version: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or action, style=BUTTON_STYLES[action],
                                           custom_id=custom_id(GAME, action, table_id, version)))
        self.action, self.table_id, self.version = action, table_id, version

    @classmethod
    def make(cls, action: str, table: Table, locale: str) -> FlyingBladesButton:
        return cls(action, table.id, table.version, label=t(f"fbui.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> FlyingBladesButton:
        return cls(match["action"], id_number(match["table"]), id_number(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "FlyingBlades", "button", self.action, self.table_id, self.version)


class KeepSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """The draft: pick the dealt cards to keep (values are ``card.index``, since a hand may repeat a card)."""

    def __init__(self, table_id: int, version: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=custom_id(GAME, "keep", table_id, version),
                                                     options=[discord.SelectOption(label="-")]))
        self.table_id, self.version = table_id, version

    @classmethod
    def make(cls, table: Table, hand: list[str], locale: str) -> KeepSelect:
        options = [
            discord.SelectOption(label=f"{card_name(card, locale)} ({PRICES[card]})"[:100],
                                 value=f"{card}.{i}",
                                 description=t(f"fb.card.{card}.help", locale)[:100])
            for i, card in sorted(enumerate(hand), key=lambda ic: (CARD_IDS.index(ic[1]), ic[0]))
        ]
        select = discord.ui.Select(custom_id=custom_id(GAME, "keep", table.id, table.version),
                                   options=options,
                                   min_values=1, max_values=len(options),
                                   placeholder=t("fbui.keep_placeholder", locale, limit=PRICE_LIMIT)[:150])
        return cls(table.id, table.version, select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> KeepSelect:
        return cls(id_number(match["table"]), id_number(match["version"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await delegate(interaction, "FlyingBlades", "keep", self.table_id, values)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (FlyingBladesButton, KeepSelect)


def keep_action(values: list[str]) -> str:
    cards = sorted(v.split(".")[0] for v in values)
    if not all(c in CARD_IDS for c in cards):
        raise InvalidActionError("fbui.bad_selection")
    return "keep " + (",".join(cards) or "none")


class FlyingBlades(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def button(self, interaction: discord.Interaction, action: str, table_id: int,
                     version: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.bot.engine.get(table_id)
            if action == "hand":
                await send_private(self.bot, interaction, table, locale)
            elif action == "choose":
                await self.open_keep_menu(interaction, table, locale)
            elif action == "pass":
                await self.play(interaction, table, "pass", locale, version=version)
            else:
                await self.play(interaction, table, "keep none", locale)

    async def keep(self, interaction: discord.Interaction, table_id: int, values: list[str]) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.bot.engine.get(table_id)
            await self.play(interaction, table, keep_action(values), locale)

    async def open_keep_menu(self, interaction: discord.Interaction, table: Table, locale: str) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeatedError("engine.not_seated")
        view = table.view(seat) if table.state is not None else {"phase": None}
        if view["phase"] != "draft":
            raise IllegalActionError("fb.keep_not_draft")
        if view["drafted"][seat]:
            raise NotYourTurnError("fb.wait_draft")
        hand = list(view["hand"])
        items: list[discord.ui.Item[Any]] = [FlyingBladesButton.make("keepnone", table, locale)]
        if hand:
            items.insert(0, KeepSelect.make(table, hand, locale))
        content = t("fbui.keep_prompt", locale, cards=cards_text(hand, locale), limit=PRICE_LIMIT)
        await interaction.response.send_message(content, view=view_of(items), ephemeral=True)

    async def play(self, interaction: discord.Interaction, table: Table, action: str, locale: str, *,
                   version: int | None = None) -> None:
        """A button's move. A card choice is simultaneous (others' choices change the version but not the
        chooser's hand), so it is not tied to a version; Pass is."""
        result = await in_time(interaction, self.bot.engine.act(table.id, interaction.user.id, action,
                                                                version=version, interaction_id=interaction.id))
        if result.duplicate:
            await send_ephemeral(interaction, t("bot.duplicate", locale))
            return
        if action.startswith("keep"):
            cards = [c for c in action.removeprefix("keep ").split(",") if c in CARD_IDS]
            await edit_response(interaction, content=t("fbui.kept_private", locale, cards=cards_text(cards, locale)),
                                view=None)
        else:
            await acknowledge(interaction)  # after the save: the board follows in the channel
        channel = await channel_of(self.bot, table.channel_id)
        if channel is not None:
            await after_move(self.bot, result, locale, channel=channel)


async def setup(bot: App) -> None:
    bot.surfaces[GAME] = FlyingBladesSurface()
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(FlyingBlades(bot))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)
