"""The web site as a person sees it (issue 28: "Browser tests with Playwright driving Debian's Chromium headless"):
a seeded tournament simulated into a temporary database, served by a real ``./floorboard web`` process on a
loopback port, and driven by Chromium: standings against the export, the bracket's game links, keyboard stepping,
the public view only for every running game with hidden information, 404 for a server that has not opted in,
no sideways scrolling on a phone, and screenshots of each page at phone and desktop sizes.

Screenshots go to the test's temporary folder and, when ``FLOORBOARD_WEB_SCREENSHOTS=DIR`` is set, into DIR too
(docs/images/web/ is made that way). Without Chromium (/usr/bin/chromium, or FLOORBOARD_CHROMIUM) or the
``playwright`` package these tests skip; under CI=true they fail instead (.ci/run installs Chromium).
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.web import publish_game
from league.ratings import Rating, rate_table
from render.registry import renderer
from rules import GAMES
from storage import Finish, SeatResult, Store
from tests.web.conftest import GUILD, running_game, writer
from web.pages import text_lines

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("FLOORBOARD_CHROMIUM", "/usr/bin/chromium"))
SHOTS_ENV = "FLOORBOARD_WEB_SCREENSHOTS"
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
SEED = "hidden-seed-7f3a"
CLOSED_GUILD = 2  # a server that never turned /web on, though its objects have slugs


def _playwright_or_skip() -> Any:
    """The sync API, or a skip (a failure under CI=true) saying how to enable the browser tests."""
    problem = None
    try:
        from playwright import sync_api  # heavy: only these tests load the browser driver
    except ImportError:
        sync_api, problem = None, "the playwright package is missing (pip install -r requirements-dev.txt)"
    if problem is None and not CHROMIUM.exists():
        problem = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set FLOORBOARD_CHROMIUM)"
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {problem}: the browser tests must run in CI (.ci/run)")
        pytest.skip(f"browser tests skipped: {problem}")
    return sync_api


@dataclass
class Site:
    """What the server holds, as the tests need it."""

    url: str
    tournament: str
    games: dict[int, str]
    players: dict[int, str]
    guild: str
    running: dict[str, tuple[str, Any]] = field(default_factory=dict)  # game → (slug, state)
    closed: dict[str, str] = field(default_factory=dict)  # kind → slug of the server without /web on


async def _prepare(path: Path) -> Site:
    store = await writer(path)
    try:
        tournaments = await store.tournaments_in_guild(GUILD, ("finished",))
        site = Site("", (await store.web_slugs("tournament", GUILD, [tournaments[-1].id]))[tournaments[-1].id],
                    await store.web_slugs("game", GUILD, list(range(1, 100))), {},
                    (await store.web_slugs("guild", GUILD, [GUILD]))[GUILD])
        for i in range(3):  # first: a running game's channel holds one open game at a time
            await _finished_game(store, f"shown-{i}")
        for game in sorted(GAMES):  # every game whose seats see more than a spectator
            game_id, state = await running_game(store, game, moves=6, seed=SEED)
            rules = GAMES[game]
            if all(rules.view(state, s) == rules.view(state, None) for s in range(rules.min_players)):
                continue
            row = await store.load_game(game_id)
            assert row is not None
            users = [s["user_id"] for s in row.seats]
            site.running[game] = (str(await publish_game(store, GUILD, game_id, users)), state)
            if not site.closed:
                closed_id = await store.insert_game(replace(row, id=0, guild_id=CLOSED_GUILD, channel_id=77))
                now = datetime.now(UTC)
                wanted = [(("game", CLOSED_GUILD, closed_id), "closedGame0123456"),
                          (("guild", CLOSED_GUILD, CLOSED_GUILD), "closedGuild012345")]
                made = await store.add_web_slugs(wanted, now)
                site.closed = {key[0]: slug for key, slug in made.items()}
        site.players = await store.web_slugs("player", GUILD, list(range(11, 20)))
        return site
    finally:
        await store.close()


async def _finished_game(store: Store, seed: str) -> None:
    """A Flying Blades game between the two humans, played to its end with its results and ratings recorded
    (what the bot's final save writes), so the player and leaderboard pages have something to show."""
    game_id, state = await running_game(store, "flying_blades", moves=1000, seed=seed)
    outcome = GAMES["flying_blades"].outcome(state)
    row = await store.load_game(game_id)
    assert outcome is not None and row is not None
    places = {s: 1 + sum(len(g) for g in outcome.ranking[:i]) for i, group in enumerate(outcome.ranking)
              for s in group}
    ranking = [[str(row.seats[s]["user_id"]) for s in group] for group in outcome.ranking]

    def rate(current: dict[int, Rating]) -> dict[int, Rating]:
        return {int(k): v for k, v in rate_table({str(k): v for k, v in current.items()}, ranking).items()}

    shared = len(outcome.ranking[0]) > 1
    rows = tuple(SeatResult(row.seats[s]["user_id"], s, places[s], "draw" if shared and places[s] == 1
                            else "win" if places[s] == 1 else "loss") for s in range(len(row.seats)))
    now = datetime.now(UTC)
    await store.save_game(replace(row, status="finished", outcome=outcome.to_json(), version=row.version + 1),
                          expect_version=row.version,
                          finish=Finish(game_id, GUILD, "flying_blades", now, True, rows, rate))
    await publish_game(store, GUILD, game_id, [s["user_id"] for s in row.seats])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"./floorboard web exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise AssertionError(f"./floorboard web did not answer within 30 s: {log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def sync_api() -> Any:
    return _playwright_or_skip()


@pytest.fixture(scope="module")
def site(sync_api: Any, simulated_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The simulated tournament plus a running game of each hidden-information game, served by ./floorboard web."""
    folder = tmp_path_factory.mktemp("browser")
    path = folder / "web.sqlite3"
    path.write_bytes(simulated_db.read_bytes())
    prepared = asyncio.run(_prepare(path))
    port, log = _free_port(), folder / "web.log"
    with log.open("wb") as out:
        server = subprocess.Popen([str(ROOT / "floorboard"), "web", "--db", str(path), "--port", str(port)],
                                  cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        prepared.url = f"http://127.0.0.1:{port}"
        _wait_until_up(prepared.url + "/", server, log)
        yield prepared
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser(sync_api: Any, site: Site) -> Iterator[Any]:
    """Started after ``site``: the sync API keeps an event loop running in this thread, where asyncio.run fails."""
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, site: Site) -> Iterator[Any]:
    context = browser.new_context(base_url=site.url, viewport=_viewport("desktop"),
                                  locale="en-GB")
    yield context.new_page()
    context.close()


def _as_shown(text: str) -> str:
    return html.unescape(text_lines(text)).strip()


def _viewport(size: str) -> dict[str, int]:
    width, height = SIZES[size]
    return {"width": width, "height": height}


def _cells(page: Any, selector: str) -> list[list[str]]:
    return [row.locator("th, td").all_inner_texts() for row in page.locator(f"{selector} tbody tr").all()]


def test_the_tournament_page_shows_the_standings_the_export_has(page: Any, site: Site) -> None:
    page.goto(f"/t/{site.tournament}")
    export = page.request.get(f"/t/{site.tournament}/export/json").json()
    names = {p["id"]: p["name"] for p in export["players"]}
    shown = [(r[0], r[1].strip(), float(r[2])) for r in _cells(page, "table.standings")]
    assert shown == [(str(s["rank"]), names[s["player"]], s["points"]) for s in export["standings"]]


def test_the_bracket_links_to_each_game_of_the_elimination(page: Any, site: Site) -> None:
    page.goto(f"/t/{site.tournament}")
    export = page.request.get(f"/t/{site.tournament}/export/json").json()
    game_ids = [t["game_id"] for r in export["rounds"] for t in r["tables"]]
    links = page.locator("table.bracket a[href^='/g/']")
    hrefs = {re.sub(r"\?.*", "", h) for h in (a.get_attribute("href") for a in links.all()) if h}
    assert hrefs == {f"/g/{site.games[g]}" for g in game_ids} and len(game_ids) == 7
    links.first.click()
    page.wait_for_url(re.compile(r"/g/"))
    assert page.locator("img.board").evaluate("img => img.complete && img.naturalWidth > 0")


def test_a_game_page_steps_through_moves_with_the_arrow_keys(page: Any, site: Site) -> None:
    """Keys ←, →, Home and End step the board and the move number (site.js follows the page's own links)."""
    slug = site.games[1]

    def shown() -> tuple[int, bytes]:
        number = int(re.search(r"\d+", page.locator("nav.steps > span:not(.off)").inner_text()).group())  # type: ignore[union-attr]
        src = page.locator("img.board").get_attribute("src")
        assert src and f"move={number}" in src
        return number, page.request.get(src).body()

    page.goto(f"/g/{slug}?move=3")
    start = shown()
    seen = [start]
    for key, expected in (("ArrowRight", 4), ("ArrowRight", 5), ("ArrowLeft", 4), ("ArrowLeft", 3)):
        page.keyboard.press(key)
        page.wait_for_url(re.compile(rf"move={expected}\b"))
        seen.append(shown())
    assert [n for n, _ in seen] == [3, 4, 5, 4, 3]
    assert seen[-1] == start and len({image for _, image in seen}) > 1  # the board changed, and came back
    page.keyboard.press("End")
    page.wait_for_url(re.compile(r"move=\d+"))
    total = shown()[0]
    assert f"of {total}" in page.locator("nav.steps").inner_text() and total > 5
    page.keyboard.press("Home")
    page.wait_for_url(re.compile(r"move=0\b"))
    assert shown()[0] == 0


def test_a_running_games_page_shows_only_the_public_view(page: Any, site: Site) -> None:
    """DESIGN: "Render from views only, so an image can never leak a card": for every game with hidden
    information, the board the browser gets is the renderer's image of ``view(state, None)`` (not of any seat's
    view), the text it shows is the spectator's, and neither the seed nor the move list appears."""
    assert len(site.running) >= 4, site.running
    bites = 0  # games where a seat's view draws differently: the comparison would catch a leak there
    for game, (slug, state) in site.running.items():
        rules, drawer = GAMES[game], renderer(game)
        assert drawer is not None
        response = page.goto(f"/g/{slug}")
        assert response is not None and response.status == 200
        text = page.inner_text("body")
        assert SEED not in text and "The move list is shown once the game is over." in text, game
        names = [f"Human {i}" for i in range(max(2, rules.min_players))]  # running_game's seats
        public = rules.view(state, None)
        privates = [v for v in (rules.view(state, s) for s in range(len(names))) if v != public]
        assert privates, game
        if drawer.has_board:
            src = page.locator("img.board").get_attribute("src")
            assert src
            image = page.request.get(src)
            assert image.status == 200, game
            shown = image.body()
            assert shown == drawer.board(public, names=names, locale="en"), game
            bites += any(drawer.board(v, names=names, locale="en") != shown for v in privates)
        else:
            shown_text = page.inner_text("pre.text-board").strip()
            assert shown_text == _as_shown(drawer.text_board(public, names=names, locale="en")), game
            bites += any(_as_shown(drawer.text_board(v, names=names, locale="en")) != shown_text for v in privates)
    assert bites >= 1


def test_a_server_that_never_opted_in_answers_404(page: Any, site: Site) -> None:
    """Issue 28: "only games and tournaments of opted-in servers are served" — a slug alone opens nothing."""
    for path in (f"/g/{site.closed['game']}", f"/g/{site.closed['game']}/board?move=0", f"/s/{site.closed['guild']}"):
        response = page.goto(path)
        assert response is not None and response.status == 404, path
        assert "Human 0" not in page.inner_text("body")


def test_no_page_scrolls_sideways_on_a_phone_and_every_page_is_photographed(browser: Any, site: Site,
                                                                           tmp_path: Path) -> None:
    """A phone-sized layout (issue 28): wide tables scroll inside their own box, never the whole page. The
    screenshots are the test's artifacts (and the docs' images with FLOORBOARD_WEB_SCREENSHOTS=DIR)."""
    running_slug = next(iter(site.running.values()))[0]
    text_game = next(g for g in site.running if not renderer(g).has_board)  # type: ignore[union-attr]
    pages = {"tournament": f"/t/{site.tournament}", "game": f"/g/{site.games[1]}?move=5",
             "game-running": f"/g/{running_slug}", "game-text": f"/g/{site.running[text_game][0]}",
             "player": f"/p/{next(iter(site.players.values()))}",
             "server": f"/s/{site.guild}", "tournament-pl": f"/t/{site.tournament}?lang=pl"}
    folders = [tmp_path] + ([Path(os.environ[SHOTS_ENV])] if os.environ.get(SHOTS_ENV) else [])
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        context = browser.new_context(base_url=site.url, viewport=_viewport(size),
                                      device_scale_factor=1, locale="en-GB")
        page = context.new_page()
        try:
            for name, path in pages.items():
                response = page.goto(path)
                assert response is not None and response.status == 200, path
                page.wait_for_load_state("load")
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, (name, size, overflow)
                shot = page.screenshot(full_page=False)
                for folder in folders:
                    (folder / f"{name}-{size}.png").write_bytes(shot)
        finally:
            context.close()
