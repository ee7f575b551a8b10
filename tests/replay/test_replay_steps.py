"""Replays (engine/replays.py): steps rebuilt from the log, public views only while a game's secrets are secret,
records that load back and replay identically, and the lobby's ``reveal`` option."""

from __future__ import annotations

from typing import Any

import pytest

from engine import policies as pol
from engine.log import digest, rules_tag
from engine.replays import CHECKPOINT, Replay, ReplayCache, ReplayError, Source, load_record, private_action
from rules import GAMES

HIDDEN_GAMES = ("flying_blades", "floor_plan", "the_floor")  # views differ by seat (DESIGN.md: hands, sheets)
SEEDS = ("replay-a", "replay-b")


def playout(game: str, players: int, seed: str, cap: int = 120) -> tuple[Source, Any]:
    """A bot game (at most ``cap`` actions) as a replay source, with its final state."""
    rules = GAMES[game]
    options = rules.normalize_options(players, {})
    s, actions = rules.new(players, options, seed), []
    while rules.outcome(s) is None and len(actions) < cap:
        seat = min(rules.to_move(s))
        action = rules.bot_action(s, seat)
        s, _ = rules.apply(s, seat, action)
        actions.append((seat, action))
    return Source(game, players, options, seed, [f"Player{i}" for i in range(players)], actions), s


def private_items(rules: Any, state: Any, players: int) -> list[tuple[str, str]]:
    """(key, text) of every item a seat's view has that the public view does not show (a hand, a sheet's
    secret), as text not found anywhere in the public view."""
    public = rules.view(state, None)
    everyone = repr(public)
    out = []
    for seat in range(players):
        for key, value in rules.view(state, seat).items():
            text = repr(value)
            if key != "viewer" and public.get(key) != value and len(text) > 6 and text not in everyone:
                out.append((key, text))
    return out


@pytest.mark.parametrize("game", HIDDEN_GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_running_games_replay_shows_only_the_public_view_at_every_step(game: str, seed: str) -> None:
    """DESIGN.md: "`view(s, seat)` strips what that seat may not see" — a running game's replay shows each
    step's public view (seat None), never a seat's, and says a secret choice only as a secret choice."""
    source, _ = playout(game, 2, seed, cap=40)
    rules = GAMES[game]
    replay = Replay(rules, source)
    secrets_seen = 0
    for k in range(len(replay)):
        step = replay.step(k, "en")
        state = replay.state(k)
        assert step.view == rules.view(state, None)
        shown = repr(step.view) + step.caption
        for key, text in private_items(rules, state, 2):
            assert text not in shown, f"step {k}: a seat's {key} shows in the replay"
        if k and private_action(game, source.options, replay.state(k - 1), step.action or ""):
            secrets_seen += 1
            assert step.action.split(" ", 1)[-1] not in step.caption and "in secret" in step.caption
        assert seed not in step.caption and seed not in repr(step.view)
    assert game == "the_floor" or secrets_seen, "the playout made no secret choice to hide"


def test_a_finished_games_replay_spells_out_secret_choices_when_revealed() -> None:
    source, _ = playout("flying_blades", 2, "replay-a")
    shown = Replay(GAMES["flying_blades"], Source(**{**source.__dict__, "revealed": True}))
    keep = next(k for k in range(1, len(shown)) if (shown.actions[k - 1][1]).startswith("keep"))
    assert shown.step(keep, "en").caption.startswith("Player") and "keep" in shown.step(keep, "en").caption


def test_a_step_is_the_state_the_log_replays_to_from_any_checkpoint() -> None:
    source, final = playout("floating_floors", 2, "replay-a")
    replay = Replay(GAMES["floating_floors"], source)
    assert len(replay) > 2 * CHECKPOINT
    assert digest(replay.rules, replay.state(len(replay) - 1)) == digest(replay.rules, final)
    k = 2 * CHECKPOINT + 3  # from the checkpoint at 2 * CHECKPOINT, kept by the walk to the end above
    from_start = GAMES["floating_floors"].new(source.players, source.options, source.seed)
    for seat, action in source.actions[:k]:
        from_start, _ = GAMES["floating_floors"].apply(from_start, seat, action)
    assert digest(replay.rules, replay.state(k)) == digest(replay.rules, from_start)
    assert len(replay._states) <= len(replay) // CHECKPOINT + 1  # checkpoints only, never every state


def test_the_replay_cache_keeps_a_few_games_not_every_game() -> None:
    cache, built = ReplayCache(size=2), []
    for table in (1, 2, 3, 1):
        cache.get((table, 5), lambda table=table: built.append(table) or table)  # type: ignore[func-returns-value]
    assert built == [1, 2, 3, 1] and len(cache.entries) == 2


def record_text(source: Source, final: Any, *, seed: bool = True, tag: str | None = None) -> str:
    rules = GAMES[source.game]
    options = str(source.options).replace('"', "'")
    header = {"Game": source.game, "Table": "7", **({"Seed": source.seed} if seed else {}),
              "Players": str(source.players), "Options": options, "Seat0": "Ann", "Seat1": "Bob (bot)",
              "Status": "finished", "Rules": tag or rules_tag(rules, final), "Final": digest(rules, final)}
    return "\n".join([*(f'[{k} "{v}"]' for k, v in header.items()), "",
                      *(f"{s} {a}" for s, a in source.actions)]) + "\n"


def test_a_record_file_replays_to_the_same_final_state() -> None:
    source, final = playout("flying_blades", 2, "replay-a")
    replay = load_record(record_text(source, final), GAMES)
    assert digest(replay.rules, replay.final()) == digest(replay.rules, final)
    assert replay.source.names == ["Ann", "Bob"] and replay.source.revealed


def test_a_record_made_by_other_rules_is_refused() -> None:
    source, final = playout("flying_blades", 2, "replay-a")
    with pytest.raises(ReplayError) as err:
        load_record(record_text(source, final, tag="flying_blades/2"), GAMES)
    assert err.value.key == "replay.err.other_rules"
    tampered = record_text(source, final).replace(f"\n{source.actions[-1][0]} {source.actions[-1][1]}\n", "\n")
    with pytest.raises(ReplayError) as err:
        load_record(tampered, GAMES)
    assert err.value.key == "replay.err.other_rules"


def test_a_record_without_its_seed_is_refused() -> None:
    source, final = playout("flying_blades", 2, "replay-a", cap=6)
    with pytest.raises(ReplayError) as err:
        load_record(record_text(source, final, seed=False), GAMES)
    assert err.value.key == "replay.err.no_seed"


def test_reveal_is_a_lobby_option_yes_by_default_and_no_keeps_the_public_view() -> None:
    rules = GAMES["flying_blades"]
    assert pol.parse_settings(rules, {}).reveal is True
    assert pol.parse_settings(rules, {"reveal": "no"}).reveal is False
    with pytest.raises(pol.PlaySettingsError):
        pol.parse_settings(rules, {"reveal": "maybe"})
    assert pol.split_options({"reveal": "no", "cards": "open"}) == ({"cards": "open"}, {"reveal": "no"})


def test_a_table_stored_before_reveal_existed_loads_as_revealed() -> None:
    old = {"on_timeout": "skip", "forfeit_after": 3, "days": 0, "bank_days": 0, "bonus_hours": 0, "cap_days": 0,
           "undo": "own", "rated": True}
    assert pol.PlaySettings.from_json(old).reveal is True
    assert pol.PlaySettings.from_json({**old, "reveal": False}).reveal is False


def test_a_record_written_before_the_rules_and_final_lines_still_loads() -> None:
    source, final = playout("flying_blades", 2, "replay-a", cap=8)
    old = "\n".join(line for line in record_text(source, final).splitlines()
                    if not line.startswith(("[Rules", "[Final")))
    replay = load_record(old, GAMES)
    assert digest(replay.rules, replay.final()) == digest(replay.rules, final)


def test_a_records_options_with_quotes_and_apostrophes_load_back_exactly() -> None:
    """A server's own The Floor content is a game option: its names may hold ' " and \\ (and newlines)."""
    import orjson

    from engine.log import header_value
    from engine.replays import _options

    options = {"content": {"categories": [{"name": "Children's \"classics\" \\ A\nB"}]}, "clock": 30}
    text = orjson.dumps(options, option=orjson.OPT_SORT_KEYS).decode()
    assert _options(header_value("Options", text)) == options
    assert _options("{'cards':'open','clock':30}") == {"cards": "open", "clock": 30}  # a record written before
