"""The web site's pages against the league's own export of the same tournament (issue 28: "the tournament page
shows the standings that the export has, the bracket links to each game, a game page steps through moves")."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import orjson
from aiohttp.test_utils import TestClient

from engine.web import set_web
from tests.web.conftest import GUILD, client_for, writer


async def slugs(path: Path, kind: str) -> dict[int, str]:
    store = await writer(path)
    try:
        rows = await store.tournaments_in_guild(GUILD, ("finished",))
        ids = [rows[-1].id] if kind == "tournament" else list(range(1, 100))
        return await store.web_slugs(kind, GUILD, ids)
    finally:
        await store.close()


def rows_of(page: str, cls: str) -> list[list[str]]:
    """The text of each body row of the table with class ``cls``."""
    body = re.search(rf'<table class="{cls}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, cls
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
            for r in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)]


async def test_the_tournament_page_shows_the_standings_the_export_has(client: TestClient[Any, Any],
                                                                     db_copy: Path) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    page = await (await client.get(f"/t/{slug}")).text()
    export = orjson.loads(await (await client.get(f"/t/{slug}/export/json")).read())
    names = {p["id"]: p["name"] for p in export["players"]}
    shown = rows_of(page, "standings")
    assert [(r[0], r[1], float(r[2])) for r in shown] == [
        (str(s["rank"]), names[s["player"]], s["points"]) for s in export["standings"]]
    for key in export["settings"].get("tiebreaks") or ("buchholz_cut1",):  # named in full under the table
        assert key != "buchholz_cut1" or "Buchholz Cut-1 (opponents" in html.unescape(page)


async def test_the_bracket_and_rounds_link_to_every_game(client: TestClient[Any, Any], db_copy: Path) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    page = await (await client.get(f"/t/{slug}")).text()
    export = orjson.loads(await (await client.get(f"/t/{slug}/export/json")).read())
    game_ids = [t["game_id"] for r in export["rounds"] for t in r["tables"]]
    game_slugs = await slugs(db_copy, "game")
    assert len(game_ids) == 7 and all(f'href="/g/{game_slugs[g]}?' in page for g in game_ids)
    assert "<h2>Bracket</h2>" in page and len(rows_of(page, "bracket")) == len(export["matches"])


async def test_a_game_page_steps_through_its_moves_with_links(client: TestClient[Any, Any], db_copy: Path) -> None:
    slug = (await slugs(db_copy, "game"))[1]
    last = await (await client.get(f"/g/{slug}")).text()
    total = int(re.search(r"Move (\d+) of \1<", last).group(1))  # type: ignore[union-attr]
    page = await (await client.get(f"/g/{slug}?move=3")).text()
    assert f"Move 3 of {total}" in page
    assert f'rel="next" href="/g/{slug}?move=4&amp;lang=en"' in page
    assert f'rel="prev" href="/g/{slug}?move=2&amp;lang=en"' in page
    assert 'alt="Night of the 27 Ninja: the board after move 3 of' in page
    image = await client.get(f"/g/{slug}/board?move=3")
    assert image.status == 200 and image.content_type in ("image/png", "image/webp")
    assert (await client.get(f"/g/{slug}?move={total + 1}")).status == 404


async def test_the_page_language_follows_accept_language_and_the_switch(client: TestClient[Any, Any],
                                                                       db_copy: Path) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    polish = await (await client.get(f"/t/{slug}", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})).text()
    assert '<html lang="pl">' in polish and "Klasyfikacja" in polish
    english = await (await client.get(f"/t/{slug}?lang=en", headers={"Accept-Language": "pl"})).text()
    assert '<html lang="en">' in english and "Standings" in english


async def test_a_server_that_turned_its_pages_off_is_404_everywhere(db_copy: Path) -> None:
    (tslug,) = (await slugs(db_copy, "tournament")).values()
    gslug = (await slugs(db_copy, "game"))[1]
    store = await writer(db_copy)
    await set_web(store, GUILD, False)
    await store.close()
    client, reader = await client_for(db_copy)
    try:
        for path in (f"/t/{tslug}", f"/t/{tslug}/export/json", f"/t/{tslug}/live.json", f"/g/{gslug}",
                     f"/g/{gslug}/board?move=1"):
            response = await client.get(path)
            assert response.status == 404, path
            assert "Simulation" not in await response.text()
    finally:
        await client.close()
        await reader.close()


async def test_unknown_or_malformed_slugs_are_404_not_errors(client: TestClient[Any, Any], db_copy: Path) -> None:
    (tslug,) = (await slugs(db_copy, "tournament")).values()
    for path in ("/t/AAAAAAAAAAAAAAAA", "/t/" + "a" * 200, "/t/%3Cscript%3E", "/t/..%2F..%2Fetc", "/g/" + tslug,
                 "/p/" + tslug, f"/t/{tslug}/export/nope", "/static/..%2Fapp.py", "/nothing"):
        response = await client.get(path)
        assert response.status == 404, path
        assert "Traceback" not in await response.text()
