"""Seeded playouts with the scripted answerer for 2–5 sides and team games, invariants at every step, to the
Final's winner; replay, JSON round trips, views, resignation and the i18n catalogs."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from i18n import t
from rules.base import IllegalActionError
from tests.rules.tf_helpers import G, drafted, play, playout, replay

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c"), (5, "d"), (7, "team")])
def test_seeded_playouts_reach_the_finals_winner_and_replay(players: int, seed: str) -> None:
    s, log = playout(players, seed)
    out = G.outcome(s)
    assert out is not None and out.reason == "tf.outcome.final"
    assert set(out.winners) == set(s.seats_of(s.champion))
    assert sorted(i for g in out.ranking for i in g) == list(range(players))
    assert len(s.round_winners) == 3 and len(s.final_out) == len(s.ladder) - 1
    assert replay(players, seed, {}, log) == s
    assert G.to_move(s) == frozenset()
    with pytest.raises(IllegalActionError):
        G.apply(s, 0, "ready")


def test_playouts_are_deterministic_per_seed() -> None:
    assert playout(3, "same")[1] == playout(3, "same")[1]
    assert playout(3, "same")[1] != playout(3, "other")[1]


def test_view_shape_and_json_round_trip() -> None:
    s = drafted(3, "view")
    v = G.view(s, 0)
    json.dumps(v)
    assert len(v["cells"]) == 25 and v["cells"][12] == {"cell": "C3", "side": None, "field": None}
    assert all(f["size"] == len(f["cells"]) and len(f["categories"]) == 1 for f in v["fields"])
    assert v["current"] == s.current and v["duel"] is None and v["teams"] == [[0], [1], [2]]
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
    seat = s.seats_of(s.current)[0]
    s = play(s, (seat, G.default_action(s, seat)))
    s = play(s, (s.duel.challenger, "ready"), (s.duel.defender, "ready"))
    d = G.view(s, None)["duel"]
    assert d["started"] and d["letter"] and d["clocks_ms"] == [45000, 45000] and d["running"] == s.duel.challenger
    assert "decks" not in json.dumps(G.view(s, None))


def test_resign_leaves_the_last_side_standing_the_winner() -> None:
    s = drafted(2, "resign")
    s, _ = G.apply(s, 1, "resign")
    out = G.outcome(s)
    assert out.winners == (0,) and out.reason == "tf.outcome.last_standing"


def test_a_resigned_side_skips_its_turns_and_loses_its_duels() -> None:
    s = drafted(3, "resign3")
    s, _ = G.apply(s, s.seats_of(2)[0], "resign")
    for _ in range(400):
        if s.phase != "play" or s.round > 1:
            break
        seat = min(G.to_move(s))
        assert s.seat_side[seat] != 2
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
    assert 2 not in G.ranking(s)


def test_every_message_key_is_in_both_catalogs_with_the_same_placeholders() -> None:
    code = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / "the_floor").glob("*.py"))
    keys = set(re.findall(r"""["'](tf\.[a-z_]+(?:\.[a-z_]+)*)["']""", code))
    keys |= {f"tf.answer.{x}" for x in ("repeat", "wrong_letter", "rejected")}
    cats = {loc: json.loads((ROOT / "data" / "i18n" / loc / "the_floor.json").read_text(encoding="utf-8"))
            for loc in ("en", "pl")}
    assert sorted(keys - set(cats["en"])) == [] and set(cats["en"]) == set(cats["pl"])

    def names(text: str) -> set[str]:
        return {n for _, n, _, _ in string.Formatter().parse(text) if n}

    for k in cats["en"]:
        assert names(cats["en"][k]) == names(cats["pl"][k]), k
    assert t("tf.not_your_turn", "pl") != t("tf.not_your_turn", "en")


def test_letter_decks_are_the_contents_23_letters() -> None:
    from rules.the_floor import content
    from rules.the_floor.options import LETTERS

    for lang in ("en", "pl"):
        assert list(LETTERS[lang]) == content.letters(lang) and len(LETTERS[lang]) == 23


def test_playout_with_the_real_answer_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.the_floor import TheFloor
    from rules.the_floor.answers import check
    from tests.rules import tf_helpers

    real = TheFloor(content=tf_helpers.FakeContent(), checker=check)
    monkeypatch.setattr(tf_helpers, "G", real)
    s, log = tf_helpers.playout(2, "real")
    assert real.outcome(s) is not None
    assert any(" answer " in f" {a} " for _, a in log)


def test_resignations_in_the_final_rank_every_seat_once() -> None:
    from dataclasses import replace

    s = drafted(3, "fin")
    s = G._next_round(replace(s, round=3, final_cards=("flowers", "cats", "rivers")), [])[0]
    while s.pending:
        seat = s.seats_of(s.pending[0].side)[0]
        s = play(s, (seat, G.default_action(s, seat)))
    low, mid, top = s.ladder
    s = play(s, (low, "ready"), (mid, "ready"), (low, "timeout"))  # the lowest is out
    s = play(s, (mid, "resign"), (top, "resign"))
    out = G.outcome(s)
    assert out.winners == (low,)
    assert sorted(i for g in out.ranking for i in g) == [0, 1, 2]


@pytest.mark.parametrize("players,judging", [(2, "trust"), (3, "vote"), (4, "host"), (6, "trust"), (9, "vote")])
def test_random_playouts_with_unknown_answers_disputes_and_resignations(players: int, judging: str) -> None:
    import random

    from rules.base import RulesError
    from tests.rules.tf_helpers import check_invariants

    r = random.Random(f"{players}{judging}")
    options = {"judging": judging, "clock": 20}
    s = G.new(players, options, judging)
    log: list[tuple[int, str]] = []
    for step in range(20000):
        if step % 3 == 0:
            check_invariants(s)
        if s.phase == "over":
            break
        movers = sorted(G.to_move(s))
        seat = movers[int(r.random() * len(movers))]
        d, x = s.duel, r.random()
        running = d is not None and d.started and not d.judging
        if x < 0.002:
            seat, action = int(r.random() * players), "resign"
        elif running and x < 0.15:
            action = f"answer {int(r.random() * 3000)} {d.letter}zzz{step}"
        elif running and x < 0.25:
            action = f"dispute {int(r.random() * 3000)}"
        else:
            action = G.bot_action(s, seat)
        try:
            s, _ = G.apply(s, seat, action)
        except RulesError:
            continue
        log.append((seat, action))
    assert s.phase == "over"
    assert replay(players, judging, options, log) == s
    assert sorted(i for g in G.outcome(s).ranking for i in g) == list(range(players))
