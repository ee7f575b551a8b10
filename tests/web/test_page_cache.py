"""A tournament page is built once per tournament version and language (a 256-entrant page held the event loop
for 90 ms to a second a request): a new version, another language or a page older than PAGE_SECONDS is built anew, so
a visitor never sees a stale round for long."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from render import pool as render_pool
from tests.web.conftest import writer
from tests.web.test_pages import slugs
from web import pages
from web.data import PAGE_SECONDS, READER


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    real = pages._tournament_html

    def counted(*args: Any) -> str:
        made.append(args[5])  # the locale
        return real(*args)

    monkeypatch.setattr(pages, "_tournament_html", counted)
    return made


async def rename(path: Path, name: str) -> None:
    """What the bot's next save of the tournament does to the page: a new version."""
    store = await writer(path)
    try:
        (row,) = await store.tournaments_in_guild(1, ("finished",))
        await store.save_tournament(replace(row, name=name, data={**row.data, "name": name}, version=row.version + 1),
                                    expect_version=row.version)
    finally:
        await store.close()


async def test_a_tournament_page_is_built_once_per_version_and_language(client: TestClient[Any, Any],
                                                                       db_copy: Path, builds: list[str]) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    first = await (await client.get(f"/t/{slug}?lang=en")).text()
    assert await (await client.get(f"/t/{slug}?lang=en")).text() == first
    await client.get(f"/t/{slug}?lang=pl")
    assert builds == ["en", "pl"]
    await rename(db_copy, "Winter Cup")
    assert "Winter Cup" in await (await client.get(f"/t/{slug}?lang=en")).text()
    assert builds == ["en", "pl", "en"]


async def test_requests_arriving_together_wait_for_one_build(client: TestClient[Any, Any], db_copy: Path,
                                                             builds: list[str]) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    answers = await asyncio.gather(*(client.get(f"/t/{slug}") for _ in range(6)))
    assert [a.status for a in answers] == [200] * 6 and builds == ["en"]


async def test_a_kept_page_is_built_anew_after_page_seconds(client: TestClient[Any, Any], db_copy: Path,
                                                            builds: list[str]) -> None:
    """A slug given without a new tournament version (a player's page made by another game) shows up soon."""
    now = [1000.0]
    client.server.app[READER].clock = lambda: now[0]  # type: ignore[union-attr]
    (slug,) = (await slugs(db_copy, "tournament")).values()
    await client.get(f"/t/{slug}")
    now[0] += PAGE_SECONDS - 1
    await client.get(f"/t/{slug}")
    now[0] += 2
    await client.get(f"/t/{slug}")
    assert builds == ["en", "en"]


async def test_a_finished_games_move_list_marks_the_move_shown(client: TestClient[Any, Any], db_copy: Path) -> None:
    """The escaped move list is kept per game version and language; each page still marks its own move."""
    slug = (await slugs(db_copy, "game"))[1]
    for n in (3, 5, 3):
        page = await (await client.get(f"/g/{slug}?move={n}")).text()
        items = re.findall(r"<li( class=\"here\"[^>]*)?><a href=\"/g/[^\"]+move=(\d+)&amp;lang=en\">", page)
        assert [int(i) for _, i in items] == list(range(1, len(items) + 1)) and len(items) > 5
        assert [int(i) for here, i in items if here] == [n]
    polish = await (await client.get(f"/g/{slug}?move=3&lang=pl")).text()
    assert "move=1&amp;lang=pl" in polish and "lang=en\">" not in polish.split('<ol class="moves">')[1]


async def test_spectators_fetching_the_same_board_at_once_get_one_drawing(client: TestClient[Any, Any], db_copy: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A live game's new move is fetched by every open page at once: it is drawn once, then kept."""
    drawn: list[str] = []
    real = render_pool.board

    def counted(game: str, view: Any, **kw: Any) -> bytes | None:
        drawn.append(kw["locale"])
        return real(game, view, **kw)

    monkeypatch.setattr(render_pool, "board", counted)
    slug = (await slugs(db_copy, "game"))[1]
    answers = await asyncio.gather(*(client.get(f"/g/{slug}/board?move=4") for _ in range(6)))
    bodies = {await a.read() for a in answers}
    assert [a.status for a in answers] == [200] * 6 and len(bodies) == 1 and drawn == ["en"]
    await client.get(f"/g/{slug}/board?move=4&lang=pl")
    await client.get(f"/g/{slug}/board?move=4")
    assert drawn == ["en", "pl"]
