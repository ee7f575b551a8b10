"""The same seeded bot tournament on SQLite and on PostgreSQL: ``python -m tools.pg_same_tournament [GAME ...]``.

Plays each game's tournament (engine/simulate.py: lobbies, moves, clocks, deadlines, results, ratings, the
director's rounds) twice from one seed, once per backend, and prints whether the standings are equal, with each
run's time. The PostgreSQL run uses a schema of its own in the server FLOORBOARD_TEST_PG_URL names (start one with
``bash tools/pg_cluster.sh start``), dropped afterwards. A check of the whole engine over PostgresStore, run by
hand (the storage contract in tests/storage/ is what CI runs on both backends).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import uuid

import asyncpg

from engine.simulate import simulate, standings_text
from tests.storage.backends import PG_URL_ENV, with_search_path

DEFAULT_GAMES = ("flying_blades", "the_floor")


async def _one(game: str, server: str) -> bool:
    schema = f"sim_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        texts = {}
        for backend, database in (("sqlite", None), ("postgres", with_search_path(server, schema))):
            start = time.perf_counter()
            sim = await simulate(game=game, fmt="swiss", players=8, table_size=2, rounds=3, seed="pg-same",
                                 database=database)
            texts[backend] = standings_text(sim.tournament)
            print(f"{game}: {backend} {time.perf_counter() - start:.1f} s", flush=True)
        same = texts["sqlite"] == texts["postgres"]
        print(f"{game}: standings {'equal' if same else 'DIFFER'}\n{texts['postgres']}", flush=True)
        return same
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def main(games: list[str]) -> int:
    server = os.environ.get(PG_URL_ENV)
    if not server:
        print(f"set {PG_URL_ENV} (bash tools/pg_cluster.sh start prints one)", file=sys.stderr)
        return 2
    results = [await _one(game, server) for game in games]
    return 0 if all(results) else 1


if __name__ == "__main__":  # the pairing worker is a spawned process: it must not run this again
    sys.exit(asyncio.run(main(sys.argv[1:] or list(DEFAULT_GAMES))))
