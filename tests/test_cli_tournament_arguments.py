"""`tournament simulate` checks every argument before the first game: a bad one exits 2 with the usage and one
error line, never a traceback, and never after a whole simulation (cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cli
import engine.simulate


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Records a simulation that would run instead of running it (a refused argument must not get that far)."""
    calls: list[dict[str, Any]] = []

    def run(**kw: Any) -> None:
        calls.append(kw)
        raise AssertionError("the simulation ran before the arguments were checked")

    monkeypatch.setattr(engine.simulate, "run", run)
    return calls


def simulate(*args: str) -> list[str]:
    return ["tournament", "simulate", "--game", "flying_blades", "--format", "swiss", *args]


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    assert cli.invoke(argv) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "Traceback" not in err, err
    assert all(w in errors[0] for w in words), errors[0]
    return errors[0]


@pytest.mark.parametrize(("players", "rounds", "most"), [("4", "10", "3"), ("5", "8", "3"), ("6", "4", "3")])
def test_more_swiss_rounds_than_the_field_can_play_without_rematches_exit_2(
        capsys: pytest.CaptureFixture[str], no_games: list[dict[str, Any]], players: str, rounds: str,
        most: str) -> None:
    # Before: --players 4 --rounds 10 played 14 rematches (bot-1 v bot-2 seven rounds running).
    refused(capsys, simulate("--players", players, "--rounds", rounds), most,
            "round-robin")
    assert not no_games


def test_more_pod_rounds_than_table_mates_allow_exit_2(capsys: pytest.CaptureFixture[str],
                                                       no_games: list[dict[str, Any]]) -> None:
    refused(capsys, ["tournament", "simulate", "--game", "flying_blades", "--format", "pods", "--players", "8",
                     "--table-size", "4", "--rounds", "3"], "Too many rounds")


@pytest.mark.parametrize("game", ["flying_blades", "the_floor"])
def test_a_table_size_the_game_cannot_seat_exits_2_not_a_lobby_traceback(
        capsys: pytest.CaptureFixture[str], no_games: list[dict[str, Any]], game: str) -> None:
    # Before: --format swiss --players 4 --table-size 1 raised LobbyError from the first game.
    refused(capsys, ["tournament", "simulate", "--game", game, "--format", "swiss", "--players", "4",
                     "--table-size", "1"], "--table-size", game)


@pytest.mark.parametrize(("fmt", "size", "players"), [("pods", "5", "3"), ("pods", "4", "2")])
def test_too_few_players_for_a_table_exit_2_before_the_first_game(capsys: pytest.CaptureFixture[str],
                                                                  no_games: list[dict[str, Any]], fmt: str,
                                                                  size: str, players: str) -> None:
    # Before the arguments were checked up front this was a TournamentError traceback from the start.
    refused(capsys, ["tournament", "simulate", "--game", "flying_blades", "--format", fmt, "--table-size", size,
                     "--players", players], "Not enough players")


def test_an_export_into_a_missing_folder_exits_2_before_the_simulation(
        capsys: pytest.CaptureFixture[str], no_games: list[dict[str, Any]]) -> None:
    # Before: FileNotFoundError only after the whole simulation had run.
    refused(capsys, simulate("--players", "4", "--export", "/no/such/dir/x.json"), "--export", "/no/such/dir")


def test_an_export_onto_a_folder_exits_2_before_the_simulation(
        capsys: pytest.CaptureFixture[str], no_games: list[dict[str, Any]], tmp_path: Path) -> None:
    refused(capsys, simulate("--players", "4", "--export", str(tmp_path)), "--export")


@pytest.mark.parametrize(("args", "word"), [
    (("--bye-points", "1.5"), "--bye-points"),
    (("--bye-points", "-1"), "--bye-points"),
    (("--min-table-size", "3"), "pods"),  # a Swiss has no pod sizes
])
def test_organiser_settings_out_of_range_exit_2(capsys: pytest.CaptureFixture[str], no_games: list[dict[str, Any]],
                                                args: tuple[str, ...], word: str) -> None:
    refused(capsys, simulate("--players", "4", *args), word)


@pytest.mark.parametrize("args", [("--min-table-size", "5"), ("--max-table-size", "3")])
def test_pod_table_sizes_around_the_table_size_are_checked(capsys: pytest.CaptureFixture[str],
                                                           no_games: list[dict[str, Any]],
                                                           args: tuple[str, ...]) -> None:
    refused(capsys, ["tournament", "simulate", "--game", "flying_blades", "--format", "pods", "--players", "9",
                     "--table-size", "4", *args], "table size")


def test_the_organisers_settings_reach_the_simulated_tournament(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[Any] = []

    def run(**kw: Any) -> Any:
        seen.append(kw["settings"])
        raise SystemExit(0)

    monkeypatch.setattr(engine.simulate, "run", run)
    cli.invoke(["tournament", "simulate", "--game", "flying_blades", "--format", "pods", "--players", "9",
                "--table-size", "4", "--min-table-size", "3", "--max-table-size", "5", "--bye-points", "0.5",
                "--rounds", "2"])
    cli.invoke(["tournament", "simulate", "--game", "flying_blades", "--format", "double-elimination",
                "--players", "8", "--no-grand-final-reset"])
    pods, bracket = seen
    assert (pods.sizes, pods.bye_points, pods.rounds) == ((3, 5), 0.5, 2)
    assert bracket.grand_final_reset is False
