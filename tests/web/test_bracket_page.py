"""The tournament page's bracket (issue 28: "the bracket for elimination stages", in the page's language): each
match names its round in the visitor's language (as the bot's bracket image does) and links to its games."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
from aiohttp.test_utils import TestClient

from tests.web.test_pages import rows_of, slugs


async def test_bracket_rounds_are_named_in_the_pages_language(client: TestClient[Any, Any], db_copy: Path) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    polish = rows_of(await (await client.get(f"/t/{slug}?lang=pl")).text(), "bracket")
    english = rows_of(await (await client.get(f"/t/{slug}?lang=en")).text(), "bracket")
    assert [r[0] for r in polish][:1] == ["Runda 1 · W1-1"] and english[0][0] == "Round 1 · W1-1"
    assert not any(re.search(r"Semi-final|Quarter-final|Final\b", r[0]) for r in polish)


async def test_each_bracket_match_links_to_its_game(client: TestClient[Any, Any], db_copy: Path) -> None:
    (slug,) = (await slugs(db_copy, "tournament")).values()
    page = await (await client.get(f"/t/{slug}")).text()
    export = orjson.loads(await (await client.get(f"/t/{slug}/export/json")).read())
    bracket = re.search(r'<table class="bracket">.*?</table>', page, re.S)
    assert bracket
    game_slugs = await slugs(db_copy, "game")
    linked = set(re.findall(r'href="/g/([A-Za-z0-9_-]+)\?', bracket.group()))
    assert linked == {game_slugs[t["game_id"]] for r in export["rounds"] for t in r["tables"]}
