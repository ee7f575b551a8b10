"""What a tournament looks like in Discord: the announcement embed and its buttons, the round's pairings, the
standings (text and the data `render.league` draws), the bracket's data, and the typed ranking of ``award``.

Pure functions of the `Tournament` value and its row (no I/O): the tournaments cog posts what they return. Every
name shown is an entrant's stored name (already `clean`); it is escaped here for messages and embeds, drawn as it
is in the images (the renderer cleans its own text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import discord

from cogs.utils.components import custom_id, delegate, view_of
from cogs.utils.text import Markup, escape, safe
from engine.queries import TournamentRow
from i18n import t
from league import elimination as elim
from league.model import Ranking, Round
from league.settings import TournamentError
from league.stages import has_playoff, playoff_format, third_place
from league.standings import Standing
from league.tournament import REGISTRATION, Tournament

FORMAT_CHOICES = ("swiss", "round-robin", "single-elimination", "double-elimination")
BUTTON_ACTIONS = ("join", "leave", "checkin")
# Everything after "tour:" is parsed by the callback, so that a forged or mangled id gets a clear reply rather than
# Discord's silent "interaction failed".
BUTTON_TEMPLATE = r"tour:(?P<rest>.*)"
MAX_FIELD, MAX_CONTENT, CHUNK = 1024, 2000, 1800
TEXT_ROWS = 20  # standings rows in the text beside the image (the image has them all)
TOURNAMENT_NAME = 60
_MENTION = re.compile(r"<@!?(\d{1,20})>")
_TOKEN = re.compile(r"<@!?\d+>|[>=]|[^\s>=]+")  # a mention (its ">" is not a separator), a separator, a word
BUTTON_STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
                 "checkin": discord.ButtonStyle.primary}


class TourButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Join / Leave / Check in on an announcement: ``tour:<action>:<tournament id>``; the cog re-checks all."""

    def __init__(self, rest: str, *, label: str = "", style: discord.ButtonStyle | None = None) -> None:
        action = rest.split(":", 1)[0]
        super().__init__(discord.ui.Button(label=label or action or "?", custom_id=custom_id("tour", rest),
                                           style=style or BUTTON_STYLES.get(action, discord.ButtonStyle.secondary)))
        self.rest = rest

    @classmethod
    def make(cls, action: str, tournament_id: int, locale: str) -> TourButton:
        return cls(f"{action}:{tournament_id}", label=t(f"tour.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> TourButton:
        return cls(match["rest"][:90], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Tournaments", "tour_button", self.rest)


# --- words -------------------------------------------------------------------------------------------------------


def format_name(fmt: str, locale: str) -> str:
    return t(f"tour.format.{fmt.replace('-', '_')}", locale)


def planned_rounds(value: Tournament) -> int:
    """How many rounds the tournament will have (an elimination's fixed schedule; 0 before the start = not known).
    A playoff's rounds follow the first stage's."""
    if value.bracket is not None:
        before = value.stages[-1].first_round - 1 if value.stages else 0
        return before + max((m.play_round for m in value.bracket.matches if any(m.slots) or not m.decided),
                            default=0)
    return value.planned


def stage_name(fmt: str, locale: str) -> str:
    """A multi-stage event's stage by its format: "Swiss stage", "Group stage", "Playoff"."""
    return t(f"tour.stage_name.{fmt.replace('-', '_')}", locale)


def format_text(value: Tournament, locale: str) -> str:
    """The format being played, and in a multi-stage event which stage it is."""
    if not value.stages:
        return format_name(value.fmt, locale)
    return f"{stage_name(value.fmt, locale)}: {format_name(value.fmt, locale)}"


def groups_of(value: Tournament) -> dict[str, str]:
    """While a group stage is played: each entrant's pool letter (A, B, ...); otherwise nobody's."""
    if len(value.stages) != 1 or not value.stages[0].groups:
        return {}
    return {p: chr(ord("A") + i) for i, pool in enumerate(value.stages[0].groups) for p in pool}


def shown_names(value: Tournament, locale: str) -> dict[str, str]:
    """Entrants' names in the standings, with their pool during a group stage (not escaped)."""
    names, groups = names_of(value), groups_of(value)
    for p, group in groups.items():
        names[p] = f"{names.get(p, p)} ({t('tour.group_tag', locale, group=group)})"
    return names


def round_text(value: Tournament, locale: str) -> str:
    total = planned_rounds(value)
    return t("tour.round_of", locale, round=len(value.rounds), total=total if total else "?")


def stamp(when: datetime | None, style: str = "R") -> str:
    return "" if when is None else f"<t:{int(when.timestamp())}:{style}>"


def who(player: str, names: dict[str, str]) -> str:
    """An entrant in a message: a mention for a Discord member (pings only where allowed_mentions say), else
    the escaped name (a simulation's bot)."""
    return f"<@{player}>" if player.isdigit() else escape(names.get(player, player))


def human_ids(players: Iterable[str]) -> list[int]:
    return [int(p) for p in players if p.isdigit()]


def chunks(lines: list[str], limit: int = CHUNK) -> list[str]:
    """Lines joined into messages of at most ``limit`` characters (a long pairing list goes in several)."""
    out: list[str] = []
    for line in lines:
        line = line[:limit]
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


# --- the announcement --------------------------------------------------------------------------------------------


def announcement(row: TournamentRow, value: Tournament, game_name: str, locale: str) -> dict[str, Any]:
    """The announcement's embed and buttons (the buttons only while registration is open)."""
    s = value.settings
    embed = discord.Embed(title=t("tour.announce.title", locale, name=safe(value.name, TOURNAMENT_NAME)),
                          colour=discord.Colour.gold())
    embed.description = t(f"tour.announce.help.{value.status}", locale, id=row.id)
    rounds = s.rounds or t("tour.auto", locale)
    fields = [("tour.field.game", game_name), ("tour.field.format", format_name(s.format, locale)),
              ("tour.field.table_size", str(s.table_size)), ("tour.field.rounds", str(rounds)),
              ("tour.field.round_hours", t("tour.hours", locale, count=s.round_hours)),
              ("tour.field.cap", str(s.max_players) if s.max_players else t("tour.no_cap", locale)),
              ("tour.field.checkin", t("tour.yes" if s.checkin else "tour.no", locale)),
              ("tour.field.starts", stamp(row.due_at) if value.status == REGISTRATION and row.due_at
               else t("tour.starts_by_organiser", locale))]
    if has_playoff(s):
        fields.append(("tour.field.playoff", playoff_text(value, locale)))
    for key, text in fields:
        embed.add_field(name=t(key, locale), value=text, inline=True)
    embed.add_field(name=t("tour.field.entrants", locale, count=len(value.entrants)),
                    value=entrant_list(value, locale), inline=False)
    embed.set_footer(text=t("tour.announce.footer", locale, id=row.id, status=t(f"tour.status.{value.status}",
                                                                                 locale)))
    items: list[discord.ui.Item[Any]] = []
    if value.status == REGISTRATION:
        actions = BUTTON_ACTIONS if s.checkin else BUTTON_ACTIONS[:2]
        items = [TourButton.make(a, row.id, locale) for a in actions]
    return {"embed": embed, "view": view_of(items)}


def playoff_text(value: Tournament, locale: str) -> str:
    """A multi-stage event's plan: "Top 8 · Single elimination · third-place match"."""
    s = value.settings
    fmt = format_name(playoff_format(s), locale)
    text = t("tour.plan.groups", locale, groups=s.groups, advance=s.advance, format=fmt) if s.groups else \
        t("tour.plan.cut", locale, cut=s.top_cut, format=fmt)
    single = playoff_format(s) == "single-elimination"
    return f"{text} · {t('tour.plan.third', locale)}" if single and third_place(s) else text


def entrant_list(value: Tournament, locale: str) -> str:
    if not value.entrants:
        return t("tour.no_entrants", locale)
    names = []
    for e in value.entrants:
        mark = " ✅" if value.settings.checkin and e.id in value.checked_in else ""
        names.append(escape(e.name) + mark)
    text = ", ".join(names)
    if len(text) <= MAX_FIELD:
        return text
    more = t("tour.more", locale, count=len(names))
    return text[:MAX_FIELD - len(more) - 2].rsplit(", ", 1)[0] + " " + more


# --- rounds and pairings -----------------------------------------------------------------------------------------


def names_of(value: Tournament) -> dict[str, str]:
    return {e.id: e.name for e in value.entrants}


def game_link(guild_id: int | None, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def table_line(value: Tournament, rnd: Round, index: int, links: dict[int, str], locale: str) -> str:
    """``Table 2: 1. @a · 2. @b — link`` (seat numbers are what ``award`` accepts), or its result once decided."""
    table, names = rnd.tables[index], names_of(value)
    seats = " · ".join(f"{i}. {who(p, names)}" for i, p in enumerate(table.seats, 1))
    if table.ranking is not None:
        result = " > ".join(" = ".join(who(p, names) for p in group) for group in table.ranking)
        return t("tour.table_done", locale, table=index + 1, seats=seats, result=Markup(result))
    link = links.get(table.game_id or 0)
    if link is None:
        return t("tour.table_line_nolink", locale, table=index + 1, seats=seats)
    return t("tour.table_line", locale, table=index + 1, seats=seats, link=link)


def score_lines(value: Tournament, rnd: Round, links: dict[int, str], locale: str) -> list[str]:
    """A score round: one line per entrant with their own game."""
    names, games = names_of(value), rnd.extra.get("games", {})
    lines = []
    for player in rnd.tables[0].seats:
        link = links.get(int(games.get(player, 0)))
        lines.append(t("tour.solo_line", locale, name=who(player, names), link=link or "—"))
    return lines


def round_lines(value: Tournament, rnd: Round, links: dict[int, str], locale: str) -> list[str]:
    if value.fmt == "score":
        lines = score_lines(value, rnd, links, locale)
    else:
        lines = [table_line(value, rnd, i, links, locale) for i in range(len(rnd.tables))]
    if rnd.byes:
        names = names_of(value)
        lines.append(t("tour.byes", locale, names=", ".join(who(p, names) for p in rnd.byes)))
    return lines


def round_players(rnd: Round) -> list[int]:
    return human_ids([*(p for table in rnd.tables for p in table.seats), *rnd.byes])


def game_ids(rnd: Round) -> list[int]:
    ids = [tb.game_id for tb in rnd.tables if tb.game_id is not None]
    return ids + [int(g) for g in rnd.extra.get("games", {}).values()]


# --- standings ---------------------------------------------------------------------------------------------------


MAX_TIEBREAKS = 200  # the /tournament create tiebreaks text: every name once, comma-separated


def tiebreak_names(value: Tournament) -> tuple[str, ...]:
    return () if value.bracket is not None else value.scoring.tiebreaks


def tiebreak_legend(value: Tournament, locale: str) -> str:
    """Every tie-break column's abbreviation with its full name, in the order they break ties."""
    return " · ".join(t("tour.tb_legend_item", locale, abbr=t(f"tour.tb.{k}", locale),
                        name=t(f"tour.tb_full.{k}", locale)) for k in tiebreak_names(value))


def number(x: float) -> str:
    return f"{x:g}"


def standings_lines(value: Tournament, table: list[Standing], locale: str) -> list[str]:
    names, tbs = shown_names(value, locale), tiebreak_names(value)
    lines = []
    for s in table[:TEXT_ROWS]:
        first = "" if not tbs else t("tour.tiebreak_part", locale, name=t(f"tour.tb.{tbs[0]}", locale),
                                     value=number(s.tiebreaks.get(tbs[0], 0.0)))
        dropped = t("tour.dropped_mark", locale) if s.dropped else ""
        lines.append(t("tour.standing_line", locale, rank=s.rank, name=escape(names.get(s.player, s.player)),
                       points=number(s.points), tiebreak=Markup(first), dropped=dropped))
    if len(table) > TEXT_ROWS:
        lines.append(t("tour.more", locale, count=len(table) - TEXT_ROWS))
    if tbs:
        lines.append(t("tour.tb_order", locale, names=", ".join(t(f"tour.tb_full.{k}", locale) for k in tbs)))
    return lines


def standings_data(value: Tournament, table: list[Standing], title: str, subtitle: str,
                   locale: str) -> dict[str, Any]:
    """The data `render.league.standings_image` draws (its docstring has the shape)."""
    names, tbs = shown_names(value, locale), tiebreak_names(value)
    rows = [{"rank": s.rank, "name": names.get(s.player, s.player), "points": s.points,
             "tiebreaks": [s.tiebreaks.get(k, 0.0) for k in tbs], "dropped": s.dropped,
             "record": t("tour.record", locale, wins=s.wins, played=s.played), "half_byes": s.half_byes}
            for s in table]
    return {"title": title, "subtitle": subtitle, "columns": [t(f"tour.tb.{k}", locale) for k in tbs],
            "rows": rows, "footer": tiebreak_legend(value, locale)}


def bracket_data(value: Tournament, locale: str) -> dict[str, Any]:
    """The data `render.league.bracket_image` draws: sections winners / losers / finals, a column per round."""
    bracket = value.bracket
    assert bracket is not None
    names, seeds = names_of(value), {p: i for i, p in enumerate(bracket.seeds, 1)}
    sections: dict[str, list[dict[str, Any]]] = {}
    for group in bracket.rounds():
        kind, number_ = group[0].stage
        # The match id (W2-1, L3-2, GF1) labels a box in every language; round titles are translated.
        matches = [{"label": m.id, "players": [None if p is None else names.get(p, p) for p in m.slots],
                    "seeds": [None if p is None else seeds.get(p) for p in m.slots],
                    "winner": m.slots.index(m.winner) if m.winner in m.slots else None,
                    "bye": m.result == elim.BYE} for m in group]
        title = t(f"tour.stage.{kind}", locale, round=number_)
        sections.setdefault(kind, []).append({"title": title, "matches": matches})
    return {"title": value.name, "sections": [{"title": t(f"tour.section.{k}", locale), "rounds": r}
                                              for k, r in sections.items()]}


def winners(table: list[Standing]) -> list[str]:
    return [s.player for s in table if s.rank == 1]


# --- award -------------------------------------------------------------------------------------------------------


def parse_ranking(text: str, seats: tuple[str, ...]) -> Ranking:
    """``@a > @b = @c`` (mentions) or ``1 > 2 = 3`` (seat numbers at the table, as the pairings show them):
    ``>`` separates places, ``=`` ties. Whether every seat is placed once is the tournament's check."""
    groups: list[list[str]] = [[]]
    expect_player = True
    for token in _TOKEN.findall(text):
        if token in (">", "="):
            if expect_player:
                raise TournamentError("tour.ranking_syntax", token=token)
            if token == ">":
                groups.append([])
            expect_player = True
            continue
        if not expect_player:  # two players with nothing between them
            raise TournamentError("tour.ranking_syntax", token=token)
        groups[-1].append(_player(token, seats))
        expect_player = False
    if expect_player:
        raise TournamentError("tour.ranking_syntax", token=text.strip()[-20:] or "—")
    return tuple(tuple(g) for g in groups)


def _player(token: str, seats: tuple[str, ...]) -> str:
    found = _MENTION.fullmatch(token)
    if found is not None:
        return found[1]
    digits = token.lstrip("#")
    if digits.isdigit() and len(digits) <= 3 and 1 <= int(digits) <= len(seats):
        return seats[int(digits) - 1]
    raise TournamentError("tour.ranking_syntax", token=token)
