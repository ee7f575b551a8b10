"""Floor Plan's posts: scoreboards, claims, round summaries and sheets as texts and images, the round's embeds."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord

from cogs.floor_plan.basics import (
    GAME,
    MAX_CLAIM_LINES,
    MAX_DESCRIPTION,
    MAX_PING_POSTS,
    MAX_SUMMARIES,
    TOP,
    capped,
    demand_line,
    mention_chunks,
    roll_text,
    start_example,
)
from cogs.floor_plan.components import table_items
from cogs.utils.app import App
from cogs.utils.components import RematchButton, view_of
from cogs.utils.ending import result_ping
from cogs.utils.posting import MAX_CONTENT, MEDALS, pinging
from cogs.utils.surface import GameSurface, Segment, seat_name, shown_names
from engine import (
    ActResult,
    Table,
)
from i18n import t
from render import floor_plan as draw
from render import pool as render_pool
from render.kit import image_name
from rules.floor_plan import demands as dm
from rules.floor_plan.notation import USAGE

# --- texts and images ---------------------------------------------------------------------------------


def scores_of(table: Table) -> list[int]:
    return table.view(None)["scores"]


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
    view = table.view(None)
    if event is not None:
        view = {**view, "round": event.get("round", view["round"]), "roll": event.get("roll") or view["roll"],
                "to_move": []}  # the summary shows a closed round: nobody is waiting in it
    return view


def summary_png(table: Table, event: dict[str, Any] | None, locale: str) -> bytes:
    """The public summary: thumbnails of every sheet for up to 6 players (only then are sheets drawn)."""
    return draw.render_summary(*summary_parts(table, event), names=shown_names(table), locale=locale)


def summary_parts(table: Table, event: dict[str, Any] | None) -> tuple[dict[str, Any], list[Any] | None]:
    """What the summary image is drawn from: its view and the sheets' views (for up to 6 players)."""
    rules, state = table.rules, table.state
    sheets = [rules.sheet_view(state, i) for i in range(state.players)] if state.players <= 6 else None
    return summary_view(table, event), sheets


async def draw_summary(table: Table, event: dict[str, Any] | None, locale: str) -> bytes:
    """`summary_png` off the loop (`render.pool`): the views are computed here, the worker gets plain data."""
    return await render_pool.draw(draw.render_summary, *summary_parts(table, event), names=shown_names(table),
                                  locale=locale)


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
    return await render_pool.draw(draw.render_sheet, view, name=shown_names(table)[seat], locale=locale)


def png_file(table: Table, png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=image_name(f"{GAME}-{table.id}-{name}", png))


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
        png = await draw_summary(table, event, locale)
        kw["file"] = png_file(table, png, f"r{(event or {}).get('round', table.state.round)}")
    view = view_of(post.items or [])
    if view is not None:
        kw["view"] = view
    return kw


def round_embed(surface: GameSurface, table: Table, result: ActResult, data: dict[str, Any],
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


def final_embed(surface: GameSurface, table: Table, locale: str,
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
    view = table.view(None)
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


def round_posts(surface: GameSurface, bot: App, segments: list[Segment], locale: str) -> list[RoundPost]:
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
