"""`tournament simulate --export FILE [--export-format ...]`: the format by option or extension, and a TRF the
tournament cannot give refused before the first game (exit 2, no file)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import cli

SWISS = ["tournament", "simulate", "--game", "flying_blades", "--format", "swiss", "--players", "5", "--rounds", "2"]


def test_simulate_export_picks_trf_and_csv_by_extension_and_json_otherwise(tmp_path: Path) -> None:
    trf, table, data = tmp_path / "cup.trf", tmp_path / "cup.csv", tmp_path / "cup.out"
    assert cli.invoke([*SWISS, "--export", str(trf)]) == 0
    lines = [line for line in trf.read_bytes().decode().split("\r\n") if line.startswith("001")]
    assert len(lines) == 5 and all(len(line) == 91 + 10 * 2 - 2 for line in lines)
    assert cli.invoke([*SWISS, "--export", str(table)]) == 0
    assert next(csv.reader(io.StringIO(table.read_text())))[:3] == ["place", "name", "points"]
    assert cli.invoke([*SWISS, "--export", str(data)]) == 0
    assert {"settings", "seeds", "players", "standings"} <= json.loads(data.read_text()).keys()


def test_simulate_export_format_option_beats_the_extension(tmp_path: Path) -> None:
    out = tmp_path / "cup.json"
    assert cli.invoke([*SWISS, "--export", str(out), "--export-format", "crosstable"]) == 0
    assert out.read_text().startswith("no,place,name,points,R1,R2")


@pytest.mark.parametrize("how", [["--export-format", "trf"], []])
def test_simulate_refuses_a_trf_of_pods_before_playing(tmp_path: Path, how: list[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pods.trf"
    argv = ["tournament", "simulate", "--game", "flying_blades", "--format", "pods", "--table-size", "3",
            "--players", "6", "--export", str(out), *how]
    assert cli.invoke(argv) == 2
    assert not out.exists() and "TRF" in capsys.readouterr().err
    assert "games in" not in capsys.readouterr().out
