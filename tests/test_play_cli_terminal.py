"""The terminal mode through its command line (issue 9): arguments, saved games side by side, images, what is
said about a move (never a hidden choice) and help that fits the game, with examples legal in the position."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import pytest

import terminal
from render.kit import image_ext
from rules import GAMES
from storage import SqliteStore as Store


def keyboard(lines: list[str]) -> Callable[[str], str]:
    """Types the given lines, then closes (EOF), as a person who walks away."""
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def run(tmp_path: Path, *argv: str, typed: list[str] | None = None) -> int:
    return terminal.main([*argv, "--out", str(tmp_path)], keyboard(typed or []))


def running(db: Path) -> list[Any]:
    """The running games in the terminal's database, as rows (oldest first)."""

    async def read() -> list[Any]:
        store = await Store.open(db)
        try:
            return [await store.load_game(i) for i in await store.game_ids(("active",))]
        finally:
            await store.close()

    return asyncio.run(read())


def saved_state(db: Path, game: str) -> Any:
    row = [r for r in running(db) if r.game == game][-1]
    return GAMES[game].from_json(row.state)


def actions_of(db: Path, game_id: int) -> list[Any]:
    async def read() -> list[Any]:
        store = await Store.open(db)
        try:
            return await store.actions(game_id)
        finally:
            await store.close()

    return asyncio.run(read())


def examples(out: str) -> list[str]:
    """The moves listed under each "For example:" line."""
    found, taking = [], False
    for line in out.splitlines():
        if line == "For example:":
            taking = True
        elif taking and line.startswith("  "):
            found.append(line.strip())
        else:
            taking = False
    return found


# --- 1. the command line -------------------------------------------------------------------------------------


def test_play_is_a_click_command_named_play() -> None:
    assert isinstance(terminal.play, click.Command) and terminal.play.name == "play"


def test_help_shows_every_option_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert terminal.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: ./floorboard play")
    for option in ("--players", "--bots", "--option", "--save", "--new", "--list", "--lang"):
        assert option in out


@pytest.mark.parametrize(("argv", "reason"), [
    (["flying_blades", "--players", "7"], "Night of the 27 Ninja is for 2–5 players, not 7."),
    (["flying_blades", "--option", "cards=bogus"],
     "--option: The cards option cannot be 'bogus'; choose one of: hidden, open, none."),
    (["the_floor", "--option", "clock"], "--option: expects KEY=VALUE, got 'clock'."),
    (["the_floor", "--option", "colour=red"], "Unknown option 'colour'"),
    (["flying_blades", "--players", "3", "--bots", "4"], "must be between 0 and --players (3), not 4."),
    (["chess"], "'chess' is not one of 'floating_floors', 'floating_world', 'floor_plan', 'flying_blades', "
                "'the_floor'"),
    ([], "Name a game to play"),
])
def test_a_bad_command_line_prints_usage_and_the_reason_and_opens_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], reason: str) -> None:
    assert run(tmp_path, *argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("Usage: ./floorboard play") and reason in err
    assert "Traceback" not in err
    assert not (tmp_path / "play.db").exists()


def test_a_bad_player_count_is_explained_in_polish_with_lang_pl(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "the_floor", "--players", "1", "--lang", "pl") == 2
    assert "The Floor: od 2 do 10 graczy, nie 1." in capsys.readouterr().err


# --- 2. saved games side by side ---------------------------------------------------------------------------


def test_games_of_different_kinds_in_one_out_folder_are_kept_and_each_command_resumes_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "3", "--bots", "2", "--no-images", typed=["quit"]) == 0
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--no-images", typed=["quit"]) == 0
    capsys.readouterr()
    assert run(tmp_path, "flying_blades", "--players", "3", "--bots", "2", "--no-images", typed=["quit"]) == 0
    out = capsys.readouterr().out
    assert "Resuming Night of the 27 Ninja, table 1, 2 moves in (saved as “flying_blades”)" in out
    assert "`--new` starts another" in out
    assert sorted(r.game for r in running(tmp_path / "play.db")) == ["floor_plan", "flying_blades"]


def test_list_names_every_saved_game_with_its_save_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "3", "--bots", "2", "--no-images", typed=["quit"]) == 0
    assert run(tmp_path, "the_floor", "--players", "2", "--bots", "1", "--no-images", typed=["quit"]) == 0
    capsys.readouterr()
    assert run(tmp_path, "--list") == 0
    out = capsys.readouterr().out
    listed = r"^  flying_blades +Night of the 27 Ninja, table 1: 2 moves; Player 1, ⚙ Bot 1, ⚙ Bot 2;"
    assert re.search(listed, out, re.M)
    assert re.search(r"^  the_floor +The Floor, table 2: ", out, re.M)


def test_new_starts_another_game_and_keeps_the_saved_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("flying_blades", "--players", "2", "--bots", "1", "--no-images")
    assert run(tmp_path, *args, typed=["quit"]) == 0
    assert run(tmp_path, *args, "--new", typed=["quit"]) == 0
    out = capsys.readouterr().out
    assert "Game #2: Night of the 27 Ninja, saved as “flying_blades-2”" in out
    assert "Your other saved game of this kind is kept" in out
    assert "--save flying_blades-2" in out
    assert [r.id for r in running(tmp_path / "play.db")] == [1, 2]


def test_new_with_the_name_of_a_running_save_is_refused_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--save", "duel", "--players", "2", "--bots", "1", "--no-images",
               typed=["quit"]) == 0
    assert run(tmp_path, "flying_blades", "--save", "duel", "--new") == 2
    assert "The save “duel” already holds a running game" in capsys.readouterr().err
    assert run(tmp_path, "floor_plan", "--save", "duel") == 2
    assert "holds a game of Night of the 27 Ninja" in capsys.readouterr().err
    assert [r.id for r in running(tmp_path / "play.db")] == [1]


def test_a_bot_only_game_plays_to_the_end_beside_a_saved_human_game(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "3", "--bots", "2", "--no-images", typed=["quit"]) == 0
    (before,) = running(tmp_path / "play.db")
    assert run(tmp_path, "flying_blades", "--players", "3", "--bots", "3", "--seed", "side", "--no-images") == 0
    assert "Game over" in capsys.readouterr().out
    (after,) = running(tmp_path / "play.db")
    assert (after.id, after.moves, after.version) == (before.id, before.moves, before.version)


# --- 3. images -----------------------------------------------------------------------------------------------


def test_floor_plan_writes_the_round_summary_and_every_sheet_after_each_round(tmp_path: Path) -> None:
    assert run(tmp_path, "floor_plan", "--players", "2", "--bots", "2", "--seed", "img") == 0
    record = next(tmp_path.glob("floor_plan-*.txt")).read_text()
    rounds = sorted(tmp_path.glob("floor_plan-1-round??.webp"))
    assert len(rounds) >= 5
    for summary in rounds:
        sheets = [summary.with_name(summary.stem + f"-sheet{n}.webp") for n in (1, 2)]
        assert all(image_ext(p.read_bytes()) == "webp" for p in (summary, *sheets))
    assert "[Status \"finished\"]" in record


def images_and_moves(tmp_path: Path, game: str) -> tuple[list[Path], int]:
    assert run(tmp_path, game, "--players", "2", "--bots", "2", "--seed", "img") == 0
    pngs = sorted(tmp_path.glob(f"{game}-1-*.webp"))
    assert all(image_ext(p.read_bytes()) == "webp" for p in pngs)
    return pngs, len(next(tmp_path.glob(f"{game}-*.txt")).read_text().split("\n\n", 1)[1].splitlines())


def test_night_of_the_27_ninja_writes_the_board_after_every_move_but_a_hidden_card_choice(tmp_path: Path) -> None:
    pngs, moves = images_and_moves(tmp_path, "flying_blades")
    assert len(pngs) == 1 + moves - 1  # the start, then every move but the first keep (the other still chooses)


def test_the_floor_writes_the_board_when_it_changes_not_after_every_answer(tmp_path: Path) -> None:
    pngs, moves = images_and_moves(tmp_path, "the_floor")
    assert 3 <= len(pngs) < moves // 2


# --- 4. secrets and noise ------------------------------------------------------------------------------------


def test_a_bots_hidden_card_choice_is_said_without_the_cards(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "2", "--bots", "1", "--seed", "sec", "--no-images",
               typed=["quit"]) == 0
    out = capsys.readouterr().out
    (row,) = running(tmp_path / "play.db")
    (kept,) = [a.action for a in actions_of(tmp_path / "play.db", row.id) if a.seat == 1]
    assert kept.startswith("keep ")
    assert "⚙ Bot 1 chose their cards." in out
    assert not re.search(r"^⚙ Bot 1.*\b(keep|vanish|shuriken|double|triple|dragon|circle|bomb)\b", out, re.M)
    mine = set(examples(out))  # the human's own suggestions, from their hand, are the only keeps shown
    assert mine and kept not in "\n".join(line for line in out.splitlines() if line.strip() not in mine)


def test_open_cards_are_said_with_their_names_and_prices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "2", "--bots", "2", "--option", "cards=open", "--seed", "op",
               "--no-images") == 0
    keeps = r"^⚙ Bot 1 keeps (no cards|[A-Z][a-z ]+ \(\d\)(, [A-Z][a-z ]+ \(\d\))*)\.$"
    assert re.search(keeps, capsys.readouterr().out, re.M)


def test_the_floor_says_picks_hidden_answers_plainly_and_who_won_each_duel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "the_floor", "--players", "2", "--bots", "2", "--seed", "tf-say", "--no-images") == 0
    out = capsys.readouterr().out
    assert "⚙ Bot 1, ⚙ Bot 2 picked a category each." in out
    assert not re.search(r"\bpick [a-z_]+\b", out)  # no category id of a draft pick
    assert not re.search(r"answer \d+", out)  # no raw answer with its clock reading
    assert re.search(r"^⚙ Bot \d answers «[^»]+»; next letter [A-Z]\.$", out, re.M)
    assert re.search(r"^(⚙ Bot \d's clock ran out: )?⚙ Bot \d wins the duel in «[^»]+»", out, re.M)
    assert re.search(r"^⚙ Bot \d takes \d+ cells? from ⚙ Bot \d: [A-E]\d(, [A-E]\d)*\.$", out, re.M)


def test_floor_plan_drawings_are_shown_only_when_their_round_closes(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "floor_plan", "--players", "2", "--bots", "1", "--seed", "fp-say", "--no-images",
               typed=["quit"]) == 0
    out = capsys.readouterr().out
    assert "⚙ Bot 1 has drawn (shown when the round closes)." in out
    assert "start " not in out.replace("Type a move", "") and "living room" not in out
    assert run(tmp_path, "floor_plan", "--players", "2", "--bots", "2", "--seed", "fp-say", "--no-images") == 0
    out = capsys.readouterr().out
    assert re.search(r"^Round 0 closed:\n  ⚙ Bot 1: living room \d×\d at [A-Q]\d+\n  ⚙ Bot 2: living room", out, re.M)
    assert re.search(r"^  ⚙ Bot \d: .*(Closet|Washroom|Bedroom|Kitchen|Dining|Living) \d×\d at [A-Q]\d+", out, re.M)


# --- 5. help and legal moves that fit the game -------------------------------------------------------------


def test_night_of_the_27_ninja_card_choice_shows_prices_budget_and_a_few_legal_keeps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "2", "--bots", "1", "--seed", "keep", "--no-images",
               typed=["legal", "quit"]) == 0
    out = capsys.readouterr().out
    state = saved_state(tmp_path / "play.db", "flying_blades")
    legal = GAMES["flying_blades"].legal_actions(state, 0)
    assert len(legal) > 50
    assert out.count("Your cards (price): ") == 2  # at the first prompt, and for `legal`
    assert f"Keep cards worth at most 10 in total: {len(legal)} possible choices" in out
    shown = examples(out)
    assert 2 <= len(shown) <= 6 and set(shown) <= set(legal) and "keep none" in shown
    assert sum(1 for line in out.splitlines() if line.startswith("keep ")) == 0  # no dump of every keep


def test_night_of_the_27_ninja_help_lists_card_prices_and_examples_legal_now(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("flying_blades", "--players", "2", "--bots", "1", "--seed", "help", "--option", "cards=none",
            "--no-images")
    assert run(tmp_path, *args, typed=["help", "legal", "quit"]) == 0
    out = capsys.readouterr().out
    assert "Bomb (bomb) 5" in out and "Vanishing (vanish) 1" in out and "at most 10 in total" in out
    legal = GAMES["flying_blades"].legal_actions(saved_state(tmp_path / "play.db", "flying_blades"), 0)
    now = re.findall(r"— now e\.g\. `([^`]+)`", out)
    assert "pass" in now and any(m.startswith("attack ") for m in now)
    assert set(now) <= set(legal)
    if len(legal) > terminal.LIST_ALL:
        assert f"{len(legal)} legal moves; a few of each kind:" in out
        listed = re.findall(r"^  [a-z]+ \(\d+\): (.*)$", out, re.M)
        assert {m for line in listed for m in line.split("; ")} <= set(legal)


def test_floor_plan_legal_shows_the_dice_and_examples_the_rules_accept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = GAMES["floor_plan"]
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--seed", "fp-legal", "--no-images",
               typed=["legal", "quit"]) == 0
    out = capsys.readouterr().out
    state = saved_state(tmp_path / "play.db", "floor_plan")
    assert "Too many to list here" not in out and "Too many placements to list; these are legal now:" in out
    setup = examples(out)
    assert len(setup) >= 2 and all(m.startswith("start ") for m in setup)
    for move in setup:
        rules.apply(state, 0, move)  # raises if the example is not legal
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--seed", "fp-legal", "--no-images",
               typed=[setup[0], "legal", "help", "quit"]) == 0
    out = capsys.readouterr().out
    state = saved_state(tmp_path / "play.db", "floor_plan")
    a, b = state.roll
    assert f"The dice: {a} (" in out and f"), {b} (" in out
    shown = examples(out)
    assert {m.split()[0] for m in shown} >= {"room", "skip"}
    for move in shown + re.findall(r"— now e\.g\. `([^`]+)`", out):
        rules.apply(state, 0, move)


def test_floor_plan_help_has_the_die_to_room_and_feature_table(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--no-images", typed=["help", "quit"]) == 0
    out = capsys.readouterr().out
    for row in ("1  C Closet       1 × tree", "2  W Washroom     2 × door", "3  B Bedroom      3 × window",
                "4  K Kitchen      4 × furnishing", "5  D Dining       5 × deck section",
                "6  L Living       6 × stone"):
        assert f"  {row}" in out


def test_the_floor_legal_names_the_categories_of_a_draft_pick(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "the_floor", "--players", "2", "--bots", "1", "--seed", "tf-legal", "--no-images",
               typed=["legal", "quit"]) == 0
    out = capsys.readouterr().out
    state = saved_state(tmp_path / "play.db", "the_floor")
    for action in GAMES["the_floor"].legal_actions(state, 0):
        name = GAMES["the_floor"].category_name(state, action.split()[1])
        assert f"  {action} — «{name}»" in out


def test_a_resumed_floor_plan_round_still_shows_every_drawing_when_it_closes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("floor_plan", "--players", "2", "--bots", "1", "--seed", "fp-resume", "--no-images")
    assert run(tmp_path, *args, typed=["quit"]) == 0  # the bot drew its start; the human walked away
    start = GAMES["floor_plan"].bot_action(saved_state(tmp_path / "play.db", "floor_plan"), 0)
    capsys.readouterr()
    assert run(tmp_path, *args, typed=[start, "quit"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^Round 0 closed:\n  Player 1: living room \d×\d at [A-Q]\d+\n  ⚙ Bot 1: living room", out, re.M)


@pytest.mark.parametrize("argv", [["flying_blades"], ["--list"]])
def test_a_file_that_is_not_a_database_is_named_with_exit_code_5(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                argv: list[str]) -> None:
    (tmp_path / "play.db").write_text("not a database, but a note to self " * 10)
    assert run(tmp_path, *argv) == 5
    err = capsys.readouterr().err
    assert f"Cannot open the database {tmp_path / 'play.db'}" in err and "Use --db FILE" in err
    assert "Traceback" not in err


def test_floor_plan_legal_lists_the_planners_suggestions_and_a_number_plays_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rules.floor_plan import planner

    rules = GAMES["floor_plan"]
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--seed", "fp-suggest", "--no-images",
               typed=["legal", "quit"]) == 0
    out = capsys.readouterr().out
    state = saved_state(tmp_path / "play.db", "floor_plan")
    suggested = planner.suggest(rules, state, 0, 4)
    assert "Suggested moves (type the number to play one):" in out
    for n, suggestion in enumerate(suggested, start=1):
        assert f"  {n}. {suggestion.text}" in out  # the same suggestions as Discord's buttons
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "0", "--seed", "fp-suggest", "--no-images",
               typed=["2", "quit"]) == 0
    after = saved_state(tmp_path / "play.db", "floor_plan")
    assert after.round == 1 and after.boards[0].sheet == rules.apply(state, 0, suggested[1].text)[0].boards[0].sheet
