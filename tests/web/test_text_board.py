"""A game without a board picture shows its text board (issue 28: "running games show the public view only")
as the renderer writes it: one line per line, indentation kept, each line cleaned and escaped."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from engine.web import publish_game
from render.registry import renderer
from rules import GAMES
from tests.web.conftest import GUILD, running_game, writer
from web.pages import text_lines


async def test_a_text_board_keeps_its_lines_and_indentation(client: TestClient[Any, Any], db_copy: Path) -> None:
    store = await writer(db_copy)
    game_id, state = await running_game(store, "floor_plan", moves=2)
    slug = await publish_game(store, GUILD, game_id)
    await store.close()
    page = await (await client.get(f"/g/{slug}")).text()
    shown = html.unescape(re.search(r'<pre class="text-board"[^>]*>(.*?)</pre>', page, re.S).group(1))  # type: ignore[union-attr]
    drawer = renderer("floor_plan")
    assert drawer is not None
    expected = drawer.text_board(GAMES["floor_plan"].view(state, None), names=["Human 0", "Human 1"], locale="en")
    assert shown.splitlines() == [line.rstrip() for line in expected.splitlines()] and shown.count("\n") > 3


def test_text_board_lines_are_escaped_one_by_one() -> None:
    assert text_lines("a <b>\n  \u202eeve\n\tc") == "a &lt;b&gt;\n  eve\nc"
