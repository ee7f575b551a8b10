"""The read-only web site (issue 28): an aiohttp application over a store opened read-only.

`make_app(store)` builds it (tests drive it with aiohttp's test client); `serve(url, host, port)` opens the
database read-only and runs it until stopped (``./floorboard web``). Routes: ``/t/<slug>`` a tournament (with
``/live.json`` and ``/export/<kind>``), ``/g/<slug>`` a game (``?move=N``, ``/board?move=N``: the image),
``/p/<slug>`` a player, ``/s/<slug>`` a server's leaderboard, ``/static/…`` the one stylesheet and script.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from aiohttp import web

from storage import Store, open_read_only
from web import pages
from web.data import READER, Reader
from web.guard import Buckets, middlewares

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {"site.css": "text/css", "site.js": "text/javascript"}


def _static_files() -> dict[str, bytes]:
    return {name: (STATIC / name).read_bytes() for name in STATIC_TYPES}


def make_app(store: Store, buckets: Buckets | None = None) -> web.Application:
    app = web.Application(middlewares=middlewares(buckets or Buckets()), client_max_size=1024)
    app[READER] = Reader(store)
    files = _static_files()

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in files:
            raise web.HTTPNotFound
        return web.Response(body=files[name], content_type=STATIC_TYPES[name], charset="utf-8",
                            headers={"Cache-Control": "public, max-age=3600"})

    app.router.add_get("/", pages.index_page)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/t/{slug}", pages.tournament_page)
    app.router.add_get("/t/{slug}/live.json", pages.tournament_live)
    app.router.add_get("/t/{slug}/export/{kind}", pages.tournament_export)
    app.router.add_get("/g/{slug}", pages.game_page)
    app.router.add_get("/g/{slug}/board", pages.game_board)
    app.router.add_get("/p/{slug}", pages.player_page)
    app.router.add_get("/s/{slug}", pages.leaderboard_page)
    return app


async def start(store: Store, host: str, port: int) -> web.AppRunner:
    """Serve the site over ``store`` on the running event loop (the bot's, with WEB_PORT set: the pages only
    read, so the bot's own store serves them); ``await runner.cleanup()`` stops it."""
    runner = web.AppRunner(make_app(store), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info("serving %s on http://%s:%d/", store.path, host, port)
    return runner


async def serve(url: str, host: str, port: int, ready: asyncio.Event | None = None) -> None:
    """Open the database read-only and serve until cancelled."""
    store = await open_read_only(url)
    try:
        runner = await start(store, host, port)
        try:
            if ready is not None:
                ready.set()
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    finally:
        await store.close()
