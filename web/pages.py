"""The pages: a tournament, a game, a player and a server's leaderboard, each found by its slug. Every text shown
comes from i18n or is escaped user text; a game shows only public views (`view(state, None)`) and, while it runs,
no move list (a move's text can name what a seat chose but others have not seen yet) and never the seed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import orjson
from aiohttp import web

from i18n import t
from i18n.text import clean
from league import export as ex
from league.model import Table
from league.tournament import Tournament
from render import pool as render_pool
from render.registry import renderer
from rules import GAMES
from storage import GameRow, TournamentRow
from web.data import READER, NotFound, Reader, Replay, Target
from web.guard import locale_of
from web.html import attr, esc, link, page, table

RESULTS_SHOWN = 30
NAME_LIMIT = 60
LEADERS_SHOWN = 20
EXPORTS = {"json": ("application/json", "json"), "csv": ("text/csv", "csv"),
           "crosstable": ("text/csv", "crosstable.csv"), "trf": ("text/plain", "trf")}


def reader_of(request: web.Request) -> Reader:
    return request.app[READER]


async def found(request: web.Request, kind: str) -> Target:
    try:
        return await reader_of(request).target(request.match_info["slug"], kind)
    except NotFound:
        raise web.HTTPNotFound from None


def html_response(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html", charset="utf-8")


def game_name(game: str, locale: str) -> str:
    return t(f"game.{game}", locale)


def number(value: float) -> str:
    return f"{value:g}"


# --- tournament ------------------------------------------------------------------------------------------------


async def tournament_row(request: web.Request) -> tuple[Target, TournamentRow]:
    target = await found(request, "tournament")
    row = await reader_of(request).store.load_tournament(target.object_id)
    if row is None or row.guild_id != target.guild_id:
        raise web.HTTPNotFound
    return target, row


async def tournament_of(request: web.Request) -> tuple[Target, TournamentRow, Tournament]:
    target, row = await tournament_row(request)
    return target, row, await asyncio.to_thread(Tournament.from_json, row.data)  # CPU: off the event loop


def _result(table_: Table, names: dict[str, str], locale: str) -> str:
    if table_.ranking is None:
        return esc(t("web.playing", locale))
    groups = [", ".join(esc(names.get(p, p)) for p in group) for group in table_.ranking]
    return " &gt; ".join(groups)


async def tournament_page(request: web.Request) -> web.Response:
    """Built once per tournament version and language (a 256-entrant page took up to a second on a busy machine), the
    building in a thread: the event loop keeps serving (and, beside the bot, playing) meanwhile."""
    target, row = await tournament_row(request)
    locale = locale_of(request)
    slug = request.match_info["slug"]

    async def build() -> str:
        value = await asyncio.to_thread(Tournament.from_json, row.data)
        reader = reader_of(request)
        game_ids = [tb.game_id for r in value.rounds for tb in r.tables if tb.game_id is not None]
        game_slugs = await reader.store.web_slugs("game", target.guild_id, game_ids)
        players = [int(p) for p in (e.id for e in value.entrants) if p.isdigit()]
        player_slugs = {str(k): v for k, v in
                        (await reader.store.web_slugs("player", target.guild_id, players)).items()}
        return await asyncio.to_thread(_tournament_html, slug, row, value, game_slugs, player_slugs, locale,
                                       request.path)

    return html_response(await reader_of(request).page(("tournament", row.id, row.version, locale), build))


def _tournament_html(slug: str, row: TournamentRow, value: Tournament, game_slugs: dict[int, str],
                     player_slugs: dict[str, str], locale: str, path: str) -> str:
    names = {e.id: e.name for e in value.entrants}

    def who(player: str) -> str:
        found_ = player_slugs.get(player)
        text = esc(names.get(player, player))
        return f'<a href="{attr(link(f"/p/{found_}", locale))}">{text}</a>' if found_ else text

    summary = t("web.tournament.summary", locale, game=game_name(value.settings.game, locale),
                format=t("tour.format." + value.fmt.replace("-", "_"), locale),
                status=t("web.tournament.status." + row.status, locale))
    count = t("web.tournament.players", locale, count=len(value.entrants))
    parts = [f"<p>{esc(summary)} · {esc(count)}</p>"]
    parts.append(_standings(value, who, locale))
    if value.bracket is not None:
        parts.append(_bracket(value, who, game_slugs, locale))
    parts.append(_rounds(value, who, names, game_slugs, locale))
    if value.rounds:
        parts.append(_crosstable(value, who, locale))
    parts.append(_downloads(slug, value, locale))
    live = None
    if row.status in ("registration", "running"):
        parts.append(f'<p class="note">{esc(t("web.live", locale))}</p>')
        live = f"/t/{slug}/live.json"
    return page(value.name, "".join(parts), locale, path, live=live)


def _standings(value: Tournament, who: Any, locale: str) -> str:
    rows = value.standings()
    keys = list(value.settings.tiebreak_order)
    head = [t("web.rank", locale), t("web.player", locale), t("web.points", locale),
            *(t(f"tour.tb.{k}", locale) for k in keys)]
    body = [[str(s.rank), who(s.player) + (f" {esc(t('web.dropped', locale))}" if s.dropped else ""),
             number(s.points), *(number(s.tiebreaks.get(k, 0.0)) for k in keys)] for s in rows]
    legend = "".join(f"<li><abbr>{esc(t(f'tour.tb.{k}', locale))}</abbr>: {esc(t(f'tour.tb_full.{k}', locale))}"
                     "</li>" for k in keys)
    out = f"<h2>{esc(t('web.standings', locale))}</h2>" + table(t("web.standings", locale), head, body, "standings")
    if keys:
        out += f"<p>{esc(t('web.tiebreaks', locale))}:</p><ol class=\"tiebreaks\">{legend}</ol>"
    return out


def _bracket(value: Tournament, who: Any, game_slugs: dict[int, str], locale: str) -> str:
    assert value.bracket is not None
    games = _match_games(value)
    body = []
    for m in value.bracket.matches:
        slots = " – ".join(who(p) if p else "…" for p in m.slots)
        winner = who(m.winner) if m.winner else esc(t("web.to_be_decided", locale))
        kind, number_ = m.stage
        # As the bot's bracket image: the round's title translated, the match id (W2-1, GF1) in every language.
        label = f"{esc(t(f'tour.stage.{kind}', locale, round=number_))} · {esc(m.id)}"
        links = [f'<a href="{attr(link(f"/g/{game_slugs[g]}", locale))}">{esc(t("web.view_game", locale))}</a>'
                 for g in games.get(m.id, ()) if g in game_slugs]
        body.append([label, slots, winner, " ".join(links)])
    head = [t("web.match", locale), t("web.player", locale), t("web.winner", locale), t("web.game", locale)]
    return f"<h2>{esc(t('web.bracket', locale))}</h2>" + table(t("web.bracket", locale), head, body, "bracket")


def _match_games(value: Tournament) -> dict[str, list[int]]:
    """Each bracket match's games, in play order (a drawn game replayed keeps the earlier game in ``replays``)."""
    out: dict[str, list[int]] = {}
    for rnd in value.rounds:
        ids = rnd.extra.get("matches") or []
        for index, tb in enumerate(rnd.tables[:len(ids)]):
            earlier = [r.get("game_id") for r in rnd.extra.get("replays", ()) if r.get("table") == index]
            out.setdefault(str(ids[index]), []).extend(g for g in (*earlier, tb.game_id) if isinstance(g, int))
    return out


def _rounds(value: Tournament, who: Any, names: dict[str, str], game_slugs: dict[int, str], locale: str) -> str:
    out = [f"<h2>{esc(t('web.rounds', locale))}</h2>"]
    head = [t("web.table", locale), t("web.player", locale), t("web.result", locale), t("web.game", locale)]
    for rnd in reversed(value.rounds):  # the newest round first: what a visitor comes for
        body = []
        for i, tb in enumerate(rnd.tables, 1):
            slug = game_slugs.get(tb.game_id) if tb.game_id is not None else None
            game = f'<a href="{attr(link(f"/g/{slug}", locale))}">{esc(t("web.view_game", locale))}</a>' if slug else ""
            body.append([str(i), " – ".join(who(p) for p in tb.seats), _result(tb, names, locale), game])
        caption = t("web.round", locale, number=rnd.number)
        out.append(table(caption, head, body, "round"))
        for key, who_ in (("web.bye", rnd.byes), ("web.half_bye", rnd.half_byes)):
            if who_:
                listed = ", ".join(clean(names.get(p, p), NAME_LIMIT) for p in who_)
                out.append(f"<p>{esc(t(key, locale, names=listed), 5000)}</p>")
    return "".join(out)


def _crosstable(value: Tournament, who: Any, locale: str) -> str:
    rows = ex.crosstable(value)
    head = ["#", t("web.player", locale), t("web.points", locale),
            *(str(i) for i in range(1, len(value.rounds) + 1))]
    body = [[str(r.number), who(r.player), number(r.points), *(esc(c.text()) for c in r.cells)] for r in rows]
    return f"<h2>{esc(t('web.crosstable', locale))}</h2>" + table(t("web.crosstable", locale), head, body, "cross")


def _downloads(slug: str, value: Tournament, locale: str) -> str:
    kinds = ["json", "csv", "crosstable"] + (["trf"] if value.fmt in ex.TRF_FORMATS and value.bracket is None else [])
    items = "".join(f'<li><a href="/t/{attr(slug)}/export/{kind}" download>{esc(t(f"web.export.{kind}", locale))}'
                    "</a></li>" for kind in kinds)
    return f"<h2>{esc(t('web.downloads', locale))}</h2><ul>{items}</ul>"


async def tournament_export(request: web.Request) -> web.Response:
    kind = request.match_info["kind"]
    if kind not in EXPORTS:
        raise web.HTTPNotFound
    _, _, value = await tournament_of(request)
    body = await asyncio.to_thread(_export, kind, value)  # CPU (a 256-entrant crosstable): off the event loop
    if body is None:
        raise web.HTTPNotFound
    content_type, suffix = EXPORTS[kind]
    return web.Response(body=body, content_type=content_type, charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="tournament.{suffix}"'})


def _export(kind: str, value: Tournament) -> bytes | None:
    if kind == "json":
        return orjson.dumps(ex.json_export(value), option=orjson.OPT_INDENT_2)
    if kind == "csv":
        return ex.standings_csv(value).encode()
    if kind == "crosstable":
        return ex.crosstable_csv(value).encode()
    if value.fmt in ex.TRF_FORMATS and value.bracket is None:
        return ex.trf(value).encode()
    return None  # TRF describes Swiss and round robin only


async def tournament_live(request: web.Request) -> web.Response:
    _, row = await tournament_row(request)  # polled every 5 s by each open page: the row only, never parsed
    return web.json_response({"version": row.version, "status": row.status,
                              "running": row.status in ("registration", "running")})


# --- game ------------------------------------------------------------------------------------------------------


def _move(request: web.Request, total: int) -> int:
    text = request.query.get("move", "")
    if not text:
        return total
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or int(text) > total:
        raise web.HTTPNotFound
    return int(text)


def _seat_names(row: GameRow) -> list[str]:
    return [str(s.get("name") or f"#{i + 1}") for i, s in enumerate(row.seats)]


async def game_parts(request: web.Request) -> tuple[Target, GameRow, Replay]:
    target = await found(request, "game")
    reader = reader_of(request)
    try:
        row = await reader.game(target)
    except NotFound:
        raise web.HTTPNotFound from None
    return target, row, await reader.replay(row)


async def game_page(request: web.Request) -> web.Response:
    target, row, replay = await game_parts(request)
    locale = locale_of(request)
    total = len(replay.actions)
    n = _move(request, total)
    slug = request.match_info["slug"]
    names = _seat_names(row)
    gname = game_name(row.game, locale)
    status = {"active": "running"}.get(row.status, row.status)
    parts = [f"<p>{esc(t(f'web.game.{status}', locale))} · " + ", ".join(esc(n_) for n_ in names) + "</p>"]
    if row.outcome and row.status == "finished":
        winners = [names[s] for s in row.outcome.get("winners", ()) if isinstance(s, int) and s < len(names)]
        key = "web.winners" if len(winners) == 1 else "web.draw"
        parts.append(f"<p><strong>{esc(t(key, locale, names=', '.join(winners)), 1000)}</strong></p>")
    linked = await reader_of(request).store.tournament_of_game(row.id)
    if linked is not None:
        tslug = (await reader_of(request).store.web_slugs("tournament", target.guild_id, [linked[0]])).get(linked[0])
        trow = await reader_of(request).store.load_tournament(linked[0])
        if tslug and trow is not None:
            parts.append(f'<p><a href="{attr(link(f"/t/{tslug}", locale))}">'
                         f"{esc(t('web.in_tournament', locale, name=trow.name, round=linked[1]))}</a></p>")
    parts.append(_steps(slug, n, total, locale))
    alt = (t("web.board_alt", locale, game=gname, number=n, total=total) if n
           else t("web.board_alt_start", locale, game=gname))
    drawer = renderer(row.game)
    if drawer is not None and drawer.has_board:
        parts.append(f'<img class="board" src="{attr(link(f"/g/{slug}/board", locale, move=n))}"'
                     f' alt="{attr(alt)}">')
    elif drawer is not None:
        text = await asyncio.to_thread(drawer.text_board, replay.views[n], names=names, locale=locale)
        parts.append(f"<p>{esc(t('web.no_image', locale))}</p>"
                     f'<pre class="text-board" aria-label="{attr(alt)}">{text_lines(text)}</pre>')
    parts.append(f'<p class="note">{esc(t("web.keys", locale))}</p>')
    items: Sequence[str] = ()
    if row.status == "finished":
        items = await reader_of(request).kept(("moves", row.id, row.version, locale),
                                              lambda: _move_items(slug, replay, names, locale))
    parts.append(_move_list(row, items, n, locale))
    title = f"{gname} #{row.id}"
    return html_response(page(title, "".join(parts), locale, request.path))


def text_lines(text: str, limit: int = 400) -> str:
    """A text board for ``<pre>``: each line cleaned and escaped on its own, its indentation kept (`esc` alone
    would fold the lines into one)."""
    lines = text.splitlines()[:400]
    return "\n".join(" " * min(len(line) - len(line.lstrip(" ")), 40) + esc(line, limit) for line in lines)


def _steps(slug: str, n: int, total: int, locale: str) -> str:
    def step(to: int, rel: str, key: str, enabled: bool) -> str:
        label = esc(t(key, locale))
        if not enabled:
            return f'<span class="off">{label}</span>'
        return f'<a rel="{rel}" href="{attr(link(f"/g/{slug}", locale, move=to))}">{label}</a>'

    return ('<nav class="steps">' + step(0, "first", "web.first", n > 0) + step(n - 1, "prev", "web.previous", n > 0)
            + f"<span>{esc(t('web.move', locale, number=n, total=total))}</span>"
            + step(n + 1, "next", "web.next", n < total) + step(total, "last", "web.last", n < total) + "</nav>")


def _move_list(row: GameRow, items: Sequence[str], n: int, locale: str) -> str:
    head = f"<h2>{esc(t('web.moves', locale))}</h2>"
    if row.status != "finished":  # a running game's move texts may carry what only its seat saw
        return head + f"<p>{esc(t('web.moves_hidden', locale))}</p>"
    marked = (f'<li class="here" aria-current="step">{item}</li>' if i == n else f"<li>{item}</li>"
              for i, item in enumerate(items, 1))
    return head + f'<ol class="moves">{"".join(marked)}</ol>'


def _move_items(slug: str, replay: Replay, names: Sequence[str], locale: str) -> tuple[str, ...]:
    """Each move's link, escaped once per game version and language (a 300-move list took ~90 ms a page)."""
    who = [esc(name) for name in names]
    return tuple(f'<a href="{attr(link(f"/g/{slug}", locale, move=i))}">'
                 f"{who[seat] if 0 <= seat < len(who) else esc(seat)}: {esc(action)}</a>"
                 for i, (seat, action) in enumerate(replay.actions, 1))


async def game_board(request: web.Request) -> web.Response:
    _, row, replay = await game_parts(request)
    locale = locale_of(request)
    n = _move(request, len(replay.actions))
    drawer = renderer(row.game)
    if drawer is None or not drawer.has_board:
        raise web.HTTPNotFound
    # The render pool: the bot's worker processes when the site runs inside the bot (WEB_PORT), else threads.
    png = await reader_of(request).page(
        ("board", row.id, row.version, n, locale),
        lambda: render_pool.draw(render_pool.board, row.game, replay.views[n], names=_seat_names(row), locale=locale))
    if png is None:
        raise web.HTTPNotFound
    # A finished game's positions never change: the browser may keep them.
    cache = "public, max-age=86400" if row.status == "finished" else "no-cache"
    # The renderer's own bytes, in the format the bot sends (IMAGE_FORMAT: WebP or PNG), named by their signature.
    kind = "image/webp" if png[:4] == b"RIFF" and png[8:12] == b"WEBP" else "image/png"
    return web.Response(body=png, content_type=kind, headers={"Cache-Control": cache})


# --- player and leaderboard ------------------------------------------------------------------------------------


async def player_page(request: web.Request) -> web.Response:
    target = await found(request, "player")
    locale = locale_of(request)
    store = reader_of(request).store
    user, guild = target.object_id, target.guild_id
    name = await reader_of(request).player_name(guild, user)
    ratings = await store.ratings_of(user, guild)
    head = [t("web.game", locale), t("web.rating", locale), t("web.games_played", locale), t("web.record", locale)]
    body = [[esc(game_name(r.game, locale)), number(round(r.mu - 3 * r.sigma, 1)), str(r.games),
             f"{r.wins}–{r.draws}–{r.losses}"] for r in ratings]
    parts = [f"<h2>{esc(t('web.ratings', locale))}</h2>",
             table(t("web.ratings", locale), head, body) if body else f"<p>{esc(t('web.none', locale))}</p>"]
    results = await store.results_of(user, guild_id=guild, limit=RESULTS_SHOWN)
    slugs = await store.web_slugs("game", guild, [r.game_id for r in results])
    head = [t("web.finished_at", locale), t("web.game", locale), t("web.place", locale), t("web.result", locale)]
    body = []
    for r in results:
        slug = slugs.get(r.game_id)
        label = esc(game_name(r.game, locale))
        body.append([esc(r.finished_at.strftime("%Y-%m-%d")),
                     f'<a href="{attr(link(f"/g/{slug}", locale))}">{label}</a>' if slug else label,
                     f"{r.place}/{r.players}", esc(t(f"web.outcome.{r.outcome}", locale))])
    parts += [f"<h2>{esc(t('web.history', locale))}</h2>",
              table(t("web.history", locale), head, body) if body else f"<p>{esc(t('web.none', locale))}</p>"]
    tournaments = await store.tournaments_of(user, guild)
    tslugs = await store.web_slugs("tournament", guild, [r.id for r in tournaments])
    items = "".join(f'<li><a href="{attr(link(f"/t/{tslugs[r.id]}", locale))}">{esc(r.name)}</a></li>'
                    for r in tournaments if r.id in tslugs)
    parts += [f"<h2>{esc(t('web.tournaments', locale))}</h2>",
              f"<ul>{items}</ul>" if items else f"<p>{esc(t('web.none', locale))}</p>"]
    return html_response(page(name, "".join(parts), locale, request.path))


async def leaderboard_page(request: web.Request) -> web.Response:
    target = await found(request, "guild")
    locale = locale_of(request)
    reader = reader_of(request)
    parts = []
    for game in sorted(GAMES):
        rows = await reader.store.leaderboard(target.guild_id, game, limit=LEADERS_SHOWN)
        if not rows:
            continue
        slugs = await reader.store.web_slugs("player", target.guild_id, [r.user_id for r in rows])
        body = []
        for i, r in enumerate(rows, 1):
            text = esc(await reader.player_name(target.guild_id, r.user_id))
            slug = slugs.get(r.user_id)
            who = f'<a href="{attr(link(f"/p/{slug}", locale))}">{text}</a>' if slug else text
            body.append([str(i), who, number(round(r.mu - 3 * r.sigma, 1)), str(r.games),
                         f"{r.wins}–{r.draws}–{r.losses}"])
        head = [t("web.rank", locale), t("web.player", locale), t("web.rating", locale),
                t("web.games_played", locale), t("web.record", locale)]
        caption = t("web.leaderboard_of", locale, game=game_name(game, locale))
        parts.append(f"<h2>{esc(game_name(game, locale))}</h2>" + table(caption, head, body, "leaders"))
    tournaments = await reader.store.tournaments_in_guild(target.guild_id, ("registration", "running", "finished"))
    tslugs = await reader.store.web_slugs("tournament", target.guild_id, [r.id for r in tournaments])
    items = "".join(f'<li><a href="{attr(link(f"/t/{tslugs[r.id]}", locale))}">{esc(r.name)}</a></li>'
                    for r in reversed(tournaments) if r.id in tslugs)
    parts.append(f"<h2>{esc(t('web.tournaments', locale))}</h2>"
                 + (f"<ul>{items}</ul>" if items else f"<p>{esc(t('web.none', locale))}</p>"))
    if not any(p.startswith("<h2>") for p in parts[:-1]):
        parts.insert(0, f"<p>{esc(t('web.none', locale))}</p>")
    return html_response(page(t("web.server", locale), "".join(parts), locale, request.path))


async def index_page(request: web.Request) -> web.Response:
    locale = locale_of(request)
    return html_response(page(t("web.site", locale), f"<p>{esc(t('web.index', locale), 500)}</p>", locale,
                              request.path))
