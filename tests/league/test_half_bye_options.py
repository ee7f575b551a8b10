"""The organiser's half-bye settings (issue 22): what a requested bye is worth and how many each entrant may take,
set in `tournament simulate` and `/tournament create`, checked before anything runs (one line, exit 2)."""

from __future__ import annotations

from typing import Any

import pytest

import cli
import engine.simulate


def _simulate(*args: str) -> list[str]:
    return ["tournament", "simulate", "--game", "flying_blades", "--format", "swiss", "--players", "4", *args]


@pytest.mark.parametrize(("args", "word"), [
    (("--half-bye-points", "1.5"), "--half-bye-points"),
    (("--half-bye-points", "-0.5"), "--half-bye-points"),
    (("--max-half-byes", "-1"), "--max-half-byes"),
    (("--max-half-byes", "51"), "--max-half-byes"),
])
def test_half_bye_settings_out_of_range_exit_2_with_one_line_before_any_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], word: str) -> None:
    def run(**kw: Any) -> None:
        raise AssertionError("the simulation ran before the arguments were checked")

    monkeypatch.setattr(engine.simulate, "run", run)
    assert cli.invoke(_simulate(*args)) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and word in errors[0] and "Traceback" not in err, err


def test_half_bye_settings_reach_the_simulated_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def run(**kw: Any) -> Any:
        seen.append(kw["settings"])
        raise SystemExit(0)

    monkeypatch.setattr(engine.simulate, "run", run)
    cli.invoke(_simulate("--half-bye-points", "0", "--max-half-byes", "2"))
    cli.invoke(_simulate())
    (chosen, default) = seen
    assert (chosen.half_bye_points, chosen.max_half_byes) == (0.0, 2)
    assert (default.half_bye_points, default.max_half_byes) == (0.5, 1)
