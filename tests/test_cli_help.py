"""`--help` tells a new user what they can type (issue 21, "The first hour, again"): every game's options with
their values and defaults, read from the rules themselves; the tournament formats; and the README says the same."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import click
import pytest

import cli
import terminal
from league.settings import FORMATS
from rules import GAMES
from rules.base import FloorboardError
from rules.options import option_keys

README = Path(__file__).resolve().parent.parent / "README.md"
OPTION_LINE = re.compile(r"^  (\S+)\s+(.+) \(default: (.+)\)$")


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.invoke(list(argv)) == 0
    return capsys.readouterr().out


def help_options(capsys: pytest.CaptureFixture[str], game: str) -> dict[str, tuple[str, str]]:
    """{option: (values, default)} as `./floorboard play GAME --help` prints them."""
    out = help_text(capsys, "play", game, "--help")
    listing = out[out.index("Options of "):].splitlines()[1:]
    return {m[1]: (m[2], m[3]) for m in map(OPTION_LINE.match, listing) if m}


def readme_section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{title}\n")
    return text[start:text.index("\n#", start + 1)]


def typed(rules: object, players: int, key: str, value: str) -> bool:
    """Whether the rules accept ``key=value`` as the terminal reads it from ``--option``."""
    try:
        rules.normalize_options(players, {**terminal.TERMINAL_PRESET.get(rules.id, {}),  # type: ignore[attr-defined]
                                          key: terminal.option_value(value)})
    except FloorboardError:
        return False
    return True


# --- play --help and play GAME --help -----------------------------------------------------------------------


def test_play_help_lists_the_games_and_how_to_see_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys, "play", "--help")
    assert "./floorboard play GAME --help" in out
    for game, rules in GAMES.items():
        assert re.search(rf"^  {game}\s+{re.escape(rules.name)}, {rules.min_players}–{rules.max_players} players$",
                         out, re.MULTILINE), game


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_game_help_lists_every_option_the_rules_accept(capsys: pytest.CaptureFixture[str], game: str) -> None:
    rules = GAMES[game]
    listed = help_options(capsys, game)
    # The rules' own list of options, and every option they fill in at the smallest and the largest table.
    known = set(option_keys(rules, rules.min_players))
    for players in (rules.min_players, rules.max_players):
        known |= set(rules.normalize_options(players, {}))
    assert known and sorted(known - set(listed)) == []
    assert "?" not in {values for values, _ in listed.values()}, listed  # every option says what it takes


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_game_help_shows_only_values_and_defaults_the_rules_accept(
        capsys: pytest.CaptureFixture[str], game: str) -> None:
    rules = GAMES[game]
    players = rules.max_players
    for key, (values, default) in help_options(capsys, game).items():
        if re.fullmatch(r"[\w-]+", default) and default not in ("none", "not"):
            assert typed(rules, players, key, default), (key, default)
        for value in values.split(", "):
            ends = value.split("–") if re.fullmatch(r"\d+–\d+", value) else [value]
            for end in ends if re.fullmatch(r"[\w]+", ends[0]) and " " not in value else []:
                assert typed(rules, players, key, end), (key, end)
        assert not typed(rules, players, key, "\u0000bogus"), key


def test_a_wrong_option_names_the_help_that_lists_the_options(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert terminal.main(["floating_world", "--option", "difficulty=brutal", "--out", str(tmp_path)]) == 2
    assert "`./floorboard play floating_world --help` lists the options." in capsys.readouterr().err


def test_play_game_help_is_in_polish_with_lang_pl(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys, "play", "floating_world", "--lang", "pl", "--help")
    assert "Opcje gry Floating World" in out and "difficulty" in out and "domyślnie: normal" in out


def test_the_readme_lists_each_games_options_as_play_game_help_does(capsys: pytest.CaptureFixture[str]) -> None:
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| (.+?) \| (.+?) \|$", readme_section("### Game options"),
                      re.MULTILINE)
    readme: dict[str, dict[str, tuple[str, str]]] = {}
    for game, key, values, default in rows:
        readme.setdefault(game, {})[key] = (values, default)
    assert readme == {game: help_options(capsys, game) for game in GAMES}


# --- tournament simulate --help -------------------------------------------------------------------------------


def simulate_command() -> click.Command:
    group = cli.cli.commands["tournament"]
    assert isinstance(group, click.Group)
    return group.commands["simulate"]


def format_choices() -> list[str]:
    option = next(p for p in simulate_command().params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    return list(option.type.choices)


def test_tournament_formats_offered_are_the_leagues_formats() -> None:
    assert format_choices() == list(FORMATS)


def test_the_readme_names_every_tournament_format_that_simulate_help_offers() -> None:
    text = README.read_text(encoding="utf-8")
    line = text[text.index("\nFormats"):text.index("\n\n", text.index("\nFormats"))]
    named = set(re.findall(r"`([a-z][a-z-]*)`", line))
    assert named == set(format_choices())


def all_commands(command: click.Command, path: str = "") -> list[tuple[str, click.Command]]:
    found = [(path or "cli", command)]
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            found += all_commands(sub, f"{path} {name}".strip())
    return found


def test_every_option_of_every_command_has_help_text() -> None:
    commands = [*all_commands(cli.cli), ("play", terminal.play)]
    missing = [(name, p.name) for name, command in commands for p in command.params
               if isinstance(p, click.Option) and not p.help]
    assert missing == []


# --- any typed value gets an answer, never a traceback -------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_typed_with_any_value_is_taken_or_explained_never_a_traceback(game: str) -> None:
    rules = GAMES[game]
    for key in option_keys(rules, rules.min_players):
        for value in ("5", "0", "-1", "abc", "1,2", "", "true", "none", "99999999999999999999999"):
            with contextlib.suppress(click.BadParameter):  # refused with a reason: fine; anything else fails
                terminal.checked_settings(game, rules.min_players, 0, (f"{key}={value}",), out=Path("out"), db=None,
                                          lang="en", seed=None)


def test_a_single_floating_floors_challenge_is_taken_as_a_number() -> None:
    settings = terminal.checked_settings("floating_floors", 2, 1, ("challenges=5",), out=Path("out"), db=None,
                                         lang="en", seed=None)
    assert GAMES["floating_floors"].normalize_options(2, settings.options)["challenges"] == "5"
