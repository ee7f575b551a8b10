"""What the web site must never show and how it meets hostile requests (issue 28): a running game's page is drawn
from the public view only (`view(state, None)`), for every game whose seats see more than a spectator; the seed
never appears; user text is escaped; security headers on every answer; a token bucket per address (429)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from engine.log import standing
from engine.web import publish_game
from render.registry import RENDERERS
from rules import GAMES
from tests.web.conftest import GUILD, client_for, running_game, writer
from web.guard import Buckets

SEED = "hidden-seed-7f3a"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_running_games_page_draws_the_public_view_only(game: str, db_copy: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN: "Render from views only, so an image can never leak a card" and "no output of a running game shows
    [the seed]". Every view the page hands the renderer is the spectator's view of that position."""
    store = await writer(db_copy)
    game_id, _ = await running_game(store, game, moves=6, seed=SEED)
    slug = await publish_game(store, GUILD, game_id)
    await store.close()
    seen: list[dict[str, Any]] = []
    drawer = RENDERERS[game]
    monkeypatch.setattr(type(drawer), "board", lambda self, view, **kw: seen.append(view) or b"\x89PNG-fake")
    monkeypatch.setattr(type(drawer), "text_board", lambda self, view, **kw: seen.append(view) or "board")
    client, reader = await client_for(db_copy)
    try:
        rules = GAMES[game]
        actions = standing([(a.seat, a.action) for a in await reader.actions(game_id)])
        replayed = rules.new(len((await reader.load_game(game_id)).seats), {}, SEED)  # type: ignore[union-attr]
        publics = [rules.view(replayed, None)]
        for seat, action in actions:
            replayed, _ = rules.apply(replayed, seat, action)
            publics.append(rules.view(replayed, None))
        for n in range(len(publics)):
            page = await (await client.get(f"/g/{slug}?move={n}")).text()
            image = await client.get(f"/g/{slug}/board?move={n}")
            assert image.status in (200, 404)
            assert SEED not in page
            assert "Moves are shown" not in page and "The move list is shown once the game is over." in page
            assert not any(action in page for _, action in actions if len(action) > 6)
        assert seen and all(view in publics for view in seen)
    finally:
        await client.close()
        await reader.close()


def test_the_privacy_check_covers_a_game_with_hands() -> None:
    """The check above must bite somewhere: Flying Blades' seats see their own cards, a spectator does not."""
    rules = GAMES["flying_blades"]
    state = rules.new(2, {}, SEED)
    assert rules.view(state, 0) != rules.view(state, None)


async def test_a_hostile_player_name_is_escaped(db_copy: Path) -> None:
    store = await writer(db_copy)
    game_id, _ = await running_game(store, "flying_blades", moves=2)
    row = await store.load_game(game_id)
    assert row is not None
    from dataclasses import replace

    hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    seats = [dict(s, name=hostile) for s in row.seats]
    await store.save_game(replace(row, seats=seats, version=row.version + 1), expect_version=row.version)
    slug = await publish_game(store, GUILD, game_id)
    await store.close()
    client, reader = await client_for(db_copy)
    try:
        page = await (await client.get(f"/g/{slug}")).text()
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in page
        assert len(re.findall(r"<script", page)) == 1  # the site's own script file, nothing inline
    finally:
        await client.close()
        await reader.close()


async def test_every_answer_carries_the_security_headers(client: TestClient[Any, Any]) -> None:
    for path in ("/", "/t/AAAAAAAAAAAAAAAA", "/static/site.css"):
        response = await client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_a_failing_page_answers_a_plain_500_without_the_error(client: TestClient[Any, Any],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from web.data import Reader

    async def broken(self: Any, slug: str, kind: str) -> Any:
        raise RuntimeError("secret internals /home/bot/floorboard.db")

    monkeypatch.setattr(Reader, "target", broken)
    response = await client.get("/t/AAAAAAAAAAAAAAAA")
    text = await response.text()
    assert response.status == 500 and "Something went wrong" in text
    assert "secret internals" not in text and "Traceback" not in text and "RuntimeError" not in text


async def test_an_address_past_its_token_bucket_gets_429_until_it_refills(db_copy: Path) -> None:
    now = [0.0]
    client, reader = await client_for(db_copy, Buckets(rate=1.0, burst=3.0, clock=lambda: now[0]))
    try:
        assert [(await client.get("/")).status for _ in range(4)] == [200, 200, 200, 429]
        limited = await client.get("/")
        assert limited.status == 429 and limited.headers["Retry-After"] == "5"
        now[0] += 2.0  # two tokens earned back
        assert [(await client.get("/")).status for _ in range(3)] == [200, 200, 429]
    finally:
        await client.close()
        await reader.close()
