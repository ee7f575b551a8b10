"""``/tournament export format:`` through the real discord.py paths: TRF, CSV standings, the crosstable (CSV and
image) for the organiser, privately; a TRF refused, privately and in the locale, for a format it cannot describe."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.cogs.test_discord_tournaments import entered, only, reply, tour
from tests.discord_harness import USERS, Harness, check_png


@pytest.mark.usefixtures("webp")
async def test_export_formats_are_private_files_for_the_organiser(harness: Harness) -> None:
    h = harness
    await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=2)
    await tour(h, "start", "mod")
    _, value = await only(h)
    assert reply(await tour(h, "export", "alice", format="trf")).ephemeral  # refused: not the organiser
    trf = reply(await tour(h, "export", "mod", format="trf"))
    assert trf.ephemeral and len(trf.files) == 1 and trf.files[0][0].endswith(".trf")
    lines = [line for line in trf.files[0][1].decode().split("\r\n") if line.startswith("001")]
    assert len(lines) == 4 and "TRF" in trf.text
    table = reply(await tour(h, "export", "mod", format="csv"))
    rows = list(csv.reader(io.StringIO(table.files[0][1].decode())))
    assert table.ephemeral and rows[0][:3] == ["place", "name", "points"] and len(rows) == 5
    cross = reply(await tour(h, "export", "mod", format="crosstable"))
    assert cross.ephemeral and [n.rsplit(".", 1)[1] for n, _ in cross.files] == ["csv", "webp"]
    check_png(cross.pngs()[0])
    data = json.loads(reply(await tour(h, "export", "mod", format="json")).files[0][1])
    alice = next(p for p in data["players"] if p["id"] == str(USERS["alice"]))
    assert alice["rating_before"] == 1500.0 and data["settings"]["rounds"] == 2
    assert value.seed not in json.dumps(data)


async def test_a_trf_of_pods_is_refused_privately_in_the_locale(harness: Harness) -> None:
    h = harness
    await entered(h, "pods", ("alice", "bob", "carol"), table_size=3)
    await tour(h, "start", "mod")
    out = reply(await tour(h, "export", "mod", format="trf"))
    assert out.ephemeral and not out.files and "FIDE TRF" in out.text
