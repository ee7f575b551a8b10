"""Floor Plan's persistent buttons (table, preview, pick) and what they compute: suggestions, previews, seats."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import discord

from cogs.floor_plan.basics import (
    GAME,
    MENTION,
    PICK_TEMPLATE,
    PREVIEW_TEMPLATE,
    SUGGESTIONS,
    TABLE_TEMPLATE,
    roll_text,
)
from cogs.utils.components import custom_id, delegate, id_number
from engine import (
    NotSeatedError,
    Table,
)
from i18n import t
from render import floor_plan as draw
from rules.floor_plan import planner

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
