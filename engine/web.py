"""Publishing to the read-only web site (issue 28, web/): a server's opt-in and the random slugs of what it serves.

The web process only reads; the slugs are made here, on the bot's and the CLI's side: for everything a server
holds when it opts in (`set_web`), then for each tournament and game as the bot links to it (`publish_tournament`,
`publish_game`). A slug is ``secrets.token_urlsafe(12)`` (16 characters, 96 random bits): addresses cannot be
guessed or listed. Turning the site off keeps the slugs, so the same addresses come back when it is on again.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import UTC, datetime

from storage import Store, WebKey

SETTING = "web"
SLUG_BYTES = 12  # token_urlsafe: 16 characters
ALL_GAMES = ("active", "finished", "aborted", "lobby")


def new_slug() -> str:
    return secrets.token_urlsafe(SLUG_BYTES)


async def is_published(store: Store, guild_id: int | None) -> bool:
    return guild_id is not None and await store.get_setting(guild_id, SETTING) is True


async def _ensure(store: Store, keys: Iterable[WebKey]) -> dict[WebKey, str]:
    unique = list(dict.fromkeys(keys))
    if not unique:
        return {}
    return await store.add_web_slugs([(key, new_slug()) for key in unique], datetime.now(UTC))


def _players(entrants: Iterable[object]) -> list[int]:
    """The entrants that are Discord users (ids written as digits); bots have no player page."""
    out = []
    for e in entrants:
        player = str(e.get("id", "")) if isinstance(e, dict) else ""
        if player.isdigit():
            out.append(int(player))
    return out


async def _tournament_keys(store: Store, guild_id: int, tournament_id: int) -> list[WebKey]:
    row = await store.load_tournament(tournament_id)
    if row is None:
        return []
    keys: list[WebKey] = [("tournament", guild_id, tournament_id)]
    for rnd in row.data.get("rounds", ()):
        for table in rnd.get("tables", ()) if isinstance(rnd, dict) else ():
            if isinstance(table, dict) and isinstance(table.get("game_id"), int):
                keys.append(("game", guild_id, table["game_id"]))
        games = rnd.get("extra", {}).get("games", {}) if isinstance(rnd, dict) else {}
        keys += [("game", guild_id, g) for g in games.values() if isinstance(g, int)] if isinstance(games, dict) else []
    keys += [("player", guild_id, u) for u in _players(row.data.get("entrants", ()))]
    return keys


async def set_web(store: Store, guild_id: int, on: bool) -> str | None:
    """Turn a server's web pages on (every tournament, game and player it has gets a slug; the server's own slug is
    returned, for the leaderboard's link) or off (its pages answer 404 from now on)."""
    if not on:
        await store.set_setting(guild_id, SETTING, None)
        return None
    keys: list[WebKey] = [("guild", guild_id, guild_id)]
    for row in await store.tournaments_in_guild(guild_id, ("registration", "running", "finished")):
        keys += await _tournament_keys(store, guild_id, row.id)
    for game in await store.games_in_guild(guild_id, ALL_GAMES):
        keys.append(("game", guild_id, game.id))
        keys += [("player", guild_id, s["user_id"]) for s in game.seats
                 if isinstance(s.get("user_id"), int) and not s.get("bot")]
    slugs = await _ensure(store, keys)
    await store.set_setting(guild_id, SETTING, True)
    return slugs[("guild", guild_id, guild_id)]


async def publish_tournament(store: Store, guild_id: int | None, tournament_id: int) -> str | None:
    """The tournament's slug (its games' and players' made too), or None when its server has not opted in."""
    if guild_id is None or not await is_published(store, guild_id):
        return None
    keys = [("guild", guild_id, guild_id), *await _tournament_keys(store, guild_id, tournament_id)]
    return (await _ensure(store, keys)).get(("tournament", guild_id, tournament_id))


async def publish_game(store: Store, guild_id: int | None, game_id: int, users: Iterable[int] = ()) -> str | None:
    """The game's slug (and its players'), or None when its server has not opted in."""
    if guild_id is None or not await is_published(store, guild_id):
        return None
    keys = [("game", guild_id, game_id), *(("player", guild_id, u) for u in users)]
    return (await _ensure(store, keys))[("game", guild_id, game_id)]
