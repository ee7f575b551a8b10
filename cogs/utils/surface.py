"""How a game shows itself in Discord. `GameSurface` is the generic default; a game cog subclasses it.

The generic lobby cog asks the table's surface for everything game-specific: seat labels, the one-line
caption of a move, whether a typed message is a move, which actions are private (never typed in public),
the buttons under a board, the private text of ``/hand``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from cogs.utils.app import App
from cogs.utils.components import RematchButton
from cogs.utils.lang import ls
from cogs.utils.text import safe_name, seat_names
from engine import ActResult, GameNotFoundError, Table
from i18n import LOCALES, t
from rules import GAMES
from rules.base import Game, Msg

MAX_TYPED = 80
MAX_TYPED_WORDS = 6  # in one move, or in each part of a move made of several


@dataclass
class Segment:
    """One step of a game to announce: a caption line, the table after it, and whether to draw the board."""

    line: str
    table: Table
    image: bool = True
    result: ActResult | None = None


def escape(name: str) -> str:
    """A player's name for message content: no control or bidi characters, clipped, markdown and mentions
    escaped (see `cogs.utils.text`)."""
    return safe_name(name)


def shown_names(table: Table) -> list[str]:
    """The seats' names as shown at this table, in images and text (plain): bots marked, look-alikes numbered."""
    return seat_names(table.seats)


def seat_name(table: Table, seat: int) -> str:
    """One seat's shown name for message content (escaped)."""
    return escape(shown_names(table)[seat])


class GameSurface:
    game_id = ""
    typed_moves = True
    # A game whose moves are private until a round closes (Floor Plan) answers ``/move`` itself (a preview) and
    # posts its own announcements: ``preview_move``, ``publish`` and ``on_notice`` below.
    custom_posting = False
    # A game that brings itself back after a restart (The Floor re-posts a running duel's letter); the others are
    # resumed by the lobby: moves saved but never posted, and bots whose turn it is.
    resumes_itself = False
    private_action_key = "bot.private_action"

    # --- names ---------------------------------------------------------------------------------------

    def game_name(self, locale: str) -> str:
        return t(f"game.{self.game_id}", locale)

    def seat_label(self, table: Table, seat: int, locale: str) -> str:
        return seat_name(table, seat)

    def seat_mention(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        if info.bot or info.user_id is None:
            return self.seat_label(table, seat, locale)
        return f"<@{info.user_id}> ({self.seat_label(table, seat, locale)})"

    # --- captions ------------------------------------------------------------------------------------

    def intro(self, table: Table, locale: str) -> str:
        seats = ", ".join(self.seat_label(table, i, locale) for i in range(len(table.seats)))
        return t("bot.started", locale, game=self.game_name(locale), table=table.id, seats=seats)

    def describe(self, result: ActResult, locale: str) -> str:
        name = self.seat_label(result.table, result.seat, locale)
        if result.action == "resign":
            line = t("bot.resigned", locale, name=name)
        else:
            line = t("bot.moved", locale, name=name, action=f"`{result.action}`")
        return self.timer_prefix(result, locale) + line

    def timer_prefix(self, result: ActResult, locale: str) -> str:
        if result.source != "timer":
            return ""
        return t("bot.timed_out", locale, name=self.seat_label(result.table, result.seat, locale)) + " "

    def is_quiet(self, result: ActResult) -> bool:
        """A move that changes nothing on the board (announced in text, without a new image)."""
        return False

    def segment(self, result: ActResult, locale: str) -> Segment:
        return Segment(self.describe(result, locale), result.table, image=not self.is_quiet(result), result=result)

    def posts(self, segments: list[Segment], locale: str) -> list[Any] | None:
        """A run of moves split into messages (``cogs.utils.posting.Post``s) by the game itself (Floating World: a
        Nightmare is a message of its own, with its images); None = the generic grouping."""
        return None

    def turn_line(self, table: Table, locale: str) -> tuple[str, list[int]]:
        """Who is to move, with mentions, and the user ids to ping."""
        seats = table.humans_to_move()
        if not seats:
            return "", []
        who = ", ".join(self.seat_mention(table, s, locale) for s in seats)
        key = "bot.turn_one" if len(seats) == 1 else "bot.turn_many"
        ids = [uid for s in seats if (uid := table.seats[s].user_id) is not None]
        return t(key, locale, who=who), ids

    def score_text(self, table: Table, seat: int, score: float, locale: str) -> str:
        return f"{score:g}"

    # --- the status message and /help ----------------------------------------------------------------

    def seat_status(self, table: Table, seat: int, locale: str) -> str:
        """A seat's line in the status message (no mention: edits never notify, and need not)."""
        return self.seat_label(table, seat, locale)

    def phase_text(self, table: Table, locale: str) -> str:
        return t(f"lobby.status.{table.status}", locale)

    async def lobby_options(self, bot: App, guild_id: int | None, options: dict[str, Any],
                            locale: str) -> dict[str, Any]:
        """The options a new lobby opens with (a game may fill defaults from the server, e.g. its content)."""
        return options

    def help_embed(self, locale: str) -> discord.Embed:
        """``/help <game>``: how to play this game in Discord (its notation)."""
        return discord.Embed(title=t("help.game_title", locale, game=self.game_name(locale)),
                             description=t("help.game_generic", locale))

    # --- components ----------------------------------------------------------------------------------

    def board_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        """Buttons under the current board of a running game."""
        return []

    def image_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        """Buttons under an older board in a sequence of posts (still valid later, e.g. Show my hand)."""
        return []

    def result_items(self, table: Table, locale: str) -> list[discord.ui.Item[Any]]:
        return [RematchButton.make(table.game, table.id, table.version, locale)]

    # --- typed moves and private information ---------------------------------------------------------

    def normalize(self, action: str) -> str:
        """The action text for the rules, from what was typed or sent with ``/move`` (a game with
        case-insensitive notation lowercases; a game with verb aliases, such as Polish verbs, maps them to its
        one canonical notation here, so that the log keeps the English form)."""
        return " ".join(action.split())

    def maybe_move(self, text: str) -> bool:
        """A cheap first filter on any message, before the database is asked about the channel. Words are counted
        per part of a move made of several (Floating Floors' ``place bs i1 + place bt i2 e + move g1``)."""
        return (0 < len(text) <= MAX_TYPED and "\n" not in text
                and all(len(part.split()) <= MAX_TYPED_WORDS for part in text.split("+")))

    def looks_like_move(self, text: str, table: Table, seat: int) -> bool:
        """Does a seated player's message look like a move (rather than chat)? By default: the first word is
        a verb of the seat's legal actions and the word count matches one of them."""
        if table.state is None:
            return False
        legal = table.rules.legal_actions(table.state, seat) or []
        words = text.lower().split()
        return bool(words) and any(a.split()[0] == words[0] and len(a.split()) == len(words) for a in legal)

    def typed_hint(self, text: str, table: Table, seat: int) -> Msg | None:
        """A seated player's message that is not a move (``looks_like_move`` said no): the hint to reply with
        when it is an *attempted* move (a mistyped verb, cells without a verb; see `cogs.utils.hints`), None
        for chat. By default None: a game opts in (a running duel's answers, say, must never get one)."""
        return None

    def is_private_action(self, table: Table, action: str) -> bool:
        """An action that reveals hidden information: never accept it typed in public."""
        return False

    def redact_record(self, table: Table, record: str) -> str:
        return record

    def private_text(self, table: Table, seat: int, locale: str) -> str:
        return t("bot.hand_generic", locale, name=self.seat_label(table, seat, locale))

    # --- games that post for themselves (``custom_posting``) -----------------------------------------

    async def preview_move(self, ctx: Any, table: Table, action: str, locale: str) -> bool:
        """``/move`` in this game's channel: True when the surface answered it (e.g. with a private preview)."""
        return False

    async def publish(self, bot: App, channel: Any, segments: list[Segment], locale: str, *,
                      first: Any = None, final: bool = True) -> list[Any]:
        raise NotImplementedError

    async def on_notice(self, bot: App, channel: Any, notice: Any, locale: str) -> bool:
        """An engine notice (timeout, reminder): True when the surface announced it itself."""
        return False

    async def board_png(self, table: Table, locale: str) -> bytes | None:
        """``/board`` of a game without a generic board image (``render.<game>.render``); None = text only."""
        return None

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        """The image of a seat's private view (``/hand``); None = the generic renderer's."""
        return None


def game_choices() -> list[app_commands.Choice[str]]:
    """The games as slash-command choices, their names translated."""
    return [app_commands.Choice(name=ls(f"game.{gid}"), value=gid) for gid in sorted(GAMES)]


def find_game(games: dict[str, Game], text: str) -> Game:
    """A game by its id, its rules name or its name in any language (case-insensitive)."""
    wanted = " ".join(text.split()).lower()
    for gid, rules in games.items():
        names = {gid, rules.name.lower(), *(t(f"game.{gid}", loc).lower() for loc in LOCALES)}
        if wanted in names:
            return rules
    raise GameNotFoundError("engine.unknown_game", game=text, games=", ".join(sorted(games)))


def surface_for(bot: App, game: str) -> GameSurface:
    surface = bot.surfaces.get(game)
    if surface is None:
        surface = GameSurface()
        surface.game_id = game
    return surface
