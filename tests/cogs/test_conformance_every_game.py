"""One conformance check over `rules.GAMES`: a sixth game gets every surface's check by registering.

The rules contract itself (legal actions, purity, JSON and position round trips, hidden information, bad input)
is tests/rules/test_contract_every_game.py, parametrised from the same registry. Here: the parts around the rules
— the renderer, the Discord surface and the terminal — for every registered game.
"""

from __future__ import annotations

import concurrent.futures
import io
from pathlib import Path

import orjson
import pytest
from PIL import Image

import terminal
from bot import EXTENSIONS
from render.registry import RENDERERS
from rules import GAMES
from tests.discord_harness import Harness

GAME_IDS = sorted(GAMES)
STEPS = 12  # seeded bot moves, enough to leave the opening position in every game


def seeded_positions(game_id: str) -> list[object]:
    """The states of a short seeded all-bot game, each through the JSON round trip the engine stores."""
    rules = GAMES[game_id]
    players = max(rules.min_players, 2) if rules.max_players >= 2 else rules.min_players
    state = rules.new(players, rules.normalize_options(players, getattr(rules, "new_game_options", {})), "conf")
    states = [state]
    for _ in range(STEPS):
        if rules.outcome(state) is not None:
            break
        seat = min(rules.to_move(state))
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat))
        state = rules.from_json(orjson.loads(orjson.dumps(rules.to_json(state))))
        states.append(state)
    return states


@pytest.mark.usefixtures("webp")  # what the bot posts by default
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_a_renderer_that_draws_its_views(game_id: str) -> None:
    rules, entry = GAMES[game_id], RENDERERS[game_id]
    assert entry.game == game_id
    last = seeded_positions(game_id)[-1]
    for seat in (None, *sorted(rules.to_move(last))[:1]):
        view = rules.view(last, seat)
        text = entry.text_board(view, names=None, locale="en")
        assert isinstance(text, str) and text.strip()
        png = entry.board(view, names=None, locale="pl")
        if not entry.has_board:
            assert png is None  # the game posts its own images from its surface (and says so in the registry)
            continue
        image = Image.open(io.BytesIO(png))
        assert image.format == "WEBP" and image.width >= 300 and image.height >= 200
        low, high = image.convert("L").getextrema()
        assert high - low > 40, "a blank board"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_a_discord_surface_loaded_by_the_bot(game_id: str) -> None:
    assert any(ext == f"cogs.{game_id}" for ext in EXTENSIONS), f"cogs.{game_id} is not in bot.EXTENSIONS"


async def test_every_registered_game_gets_its_surface_when_the_bot_starts(harness: Harness) -> None:
    assert sorted(harness.bot.surfaces) == GAME_IDS
    assert not harness.bot.failed_extensions
    for game_id, surface in harness.bot.surfaces.items():
        assert surface.game_id == game_id


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_plays_to_the_end_in_the_terminal_with_bots(game_id: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    rules = GAMES[game_id]
    players = rules.min_players
    argv = [game_id, "--players", str(players), "--bots", str(players), "--seed", "conformance", "--out",
            str(tmp_path), "--no-images"]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the terminal runs its own event loop
        code = pool.submit(terminal.main, argv, lambda prompt: "").result()
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    assert "Game over" in out, out[-2000:]
    assert list(tmp_path.glob(f"{game_id}-*.txt")), "the game's record is saved"
