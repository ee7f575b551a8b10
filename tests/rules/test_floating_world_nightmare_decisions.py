"""The Nightmare's decisions belong to the players (issue 23): rulebook 6.1 "Handle them in any order", 6.2 "may
move for free to an adjacent Land", 6.4.3 "Place a matching colored token ... on any Land that has an empty
border and no Kitsune". Hand-built maps, scripted dice (the ``dice`` fixture)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError, StateError
from rules.floating_world import nightmare as nm
from rules.floating_world import notation as nt
from rules.floating_world.game import FloatingWorld, normalize
from rules.floating_world.state import GATE, Kitsune, Options, State, build

G = FloatingWorld()
ASK = Options(auto_nightmare=False)


def two(lands: dict, demons: dict | None = None, kit: list[Kitsune] | None = None, options: Options = ASK) -> State:
    return build(2, lands=lands, demons=demons or {}, kitsune=kit or [Kitsune(0), Kitsune(1)], options=options)


def cut_off_map(village: int | None = None) -> State:
    """1,0 holds an Oni; 2,0 (seat 1's Kitsune, 1 Wound) hangs from it alone; 0,1 - 1,1 stay linked."""
    lands = {(1, 0): None, (2, 0): None, (0, 1): None, (1, 1): village}
    return two(lands, {"oni1": (1, 0)}, [Kitsune(0), Kitsune(1, pos=(2, 0), wounds=1)])


def test_rule_6_2_move_for_free_a_cut_off_kitsune_is_never_wounded(dice: list) -> None:
    """6.2: "Any Kitsune who are somehow on a destroyed Land may move for free to an adjacent Land." The issue's
    case: Lands 1,0-3,0, a Kitsune at 3,0 with 1 Wound, an Oni shreds 1,0: it used to die and the game was lost."""
    s = build(1, lands=dict.fromkeys([(1, 0), (2, 0), (3, 0)]), demons={"oni1": (1, 0)},
              kitsune=[Kitsune(0, pos=(3, 0), wounds=1)])
    dice += [[6, 6, 6], [5]]  # the Oni's Body 18 > 10 shreds 1,0; one spawn die, no demon
    s2, _ = G.apply(s, 0, "end")
    k = s2.kitsune[0]
    assert s2.phase == "dream" and k.alive and k.pos == GATE and k.wounds == 1
    moved = [x for x in s2.nightmare["steps"] if x["kind"] == "kitsune_moved"]
    assert moved == [{"kind": "kitsune_moved", "seat": 0, "from": [3, 0], "to": [0, 0], "wound": False}]


def test_rule_6_1_demons_in_any_order_the_current_player_chooses(dice: list) -> None:
    """6.1: "Demons attack! Handle them in any order." """
    s = two({(1, 0): None, (0, 1): None}, {"oni1": (1, 0), "tengu1": (0, 1)})
    s1, events = G.apply(s, 0, "end")
    assert s1.pending is not None and G.to_move(s1) == {0}
    assert G.legal_actions(s1, 0) == ["resolve all", "resolve oni@1,0", "resolve tengu@0,1"]
    assert G.legal_actions(s1, 1) == []
    assert events[-1].data["pending"]["decision"] == "resolve"
    with pytest.raises(NotYourTurnError):
        G.apply(s1, 1, "resolve oni@1,0")
    with pytest.raises(IllegalActionError):
        G.apply(s1, 0, "end")  # the decision first
    dice += [[1, 1, 1], [1, 1, 1], [5]]  # the Tengu fails, then the Oni (no choice left), one spawn die
    s2, events = G.apply(s1, 0, "resolve tengu@0,1")
    attacks = [x["demon"] for x in s2.nightmare["steps"] if x["kind"] == "attack_land"]
    assert attacks == ["tengu1", "oni1"] and s2.pending is None and s2.current == 1
    assert [e.kind for e in events][:2] == ["decide", "nightmare"]


def test_rule_6_2_the_fleeing_kitsunes_owner_chooses_where_it_goes(dice: list) -> None:
    """6.2: "Any Kitsune who are somehow on a destroyed Land may move for free to an adjacent Land." The Kitsune
    is the one that "may move", so its owner decides, not the player running the Nightmare; with no adjacent Land
    left (6.3, cut off) the nearest Lands still linked to the Gate, or the Gate."""
    dice += [[6, 6, 6]]  # the Oni shreds 1,0; 2,0 (seat 1's Kitsune) is cut off
    s1, _ = G.apply(cut_off_map(), 0, "end")
    assert s1.pending is not None and s1.pending["decision"] == "flee" and s1.pending["seat"] == 1
    assert G.to_move(s1) == {1} and s1.current == 0  # the clock and the bots follow the owner
    assert G.legal_actions(s1, 1) == ["flee 0,0", "flee 1,1"] and G.legal_actions(s1, 0) == []
    assert G.view(s1, None)["pending"] == {"decision": "flee", "seat": 1, "choices": ["flee 0,0", "flee 1,1"],
                                           "fleeing": 1, "at": [2, 0]}
    assert G.from_json(G.to_json(s1)) == s1  # a paused Nightmare is stored and read back
    dice += [[5]]
    s2, events = G.apply(s1, 1, "flee 1,1")
    assert s2.kitsune[1].pos == (1, 1) and s2.kitsune[1].wounds == 1 and s2.pending is None and s2.current == 1
    assert (events[0].kind, events[0].seat) == ("decide", 1)


def test_rule_6_2_another_player_is_refused_the_fleeing_kitsunes_choice(dice: list) -> None:
    """6.2 "may move for free": the choice is the fleeing Kitsune's owner's; the current player (or anyone
    else) is told whose choice it is and nothing changes."""
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(), 0, "end")
    for text in ("flee 1,1", "end", "timeout"):
        with pytest.raises(NotYourTurnError) as refused:
            G.apply(s1, 0, text)
        assert refused.value.msg.key == "fw.err.not_your_choice" and refused.value.msg.params == {"player": 2}
    with pytest.raises(NotYourTurnError):
        G.bot_action(s1, 0)


def test_rule_6_2_a_timeout_of_the_owner_takes_the_automatic_place_and_the_night_goes_on(dice: list) -> None:
    """6.2 "may move for free": an owner who lets the clock run out moves nowhere of their choosing (absence is
    not a move): the timeout is recorded as theirs and the Kitsune takes the automatic place (the Gate here);
    the current player's own decisions later in the same Nightmare (6.4.3, a spawn's Land) are still asked."""
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(), 0, "end")
    dice += [[1], [1]]  # one spawn die: a demon; type die 1: an Oni
    s2, events = G.apply(s1, 1, "timeout")
    assert (events[0].kind, events[0].seat) == ("timeout", 1)
    moved = [x for x in s2.nightmare["steps"] if x["kind"] == "kitsune_moved"]
    assert moved == [{"kind": "kitsune_moved", "seat": 1, "from": [2, 0], "to": [0, 0], "wound": False}]
    assert s2.pending is not None and s2.pending["decision"] == "spawn" and G.to_move(s2) == {0}
    assert s2.pending["absent"] == [1] and G.from_json(G.to_json(s2)) == s2
    s3, _ = G.apply(s2, 0, "spawn 1,1")
    assert ("oni2", (1, 1)) in [(d.id, d.at) for d in s3.demons] and s3.current == 1  # oni1 walked to the Gate


def test_rule_6_2_the_owner_is_asked_even_when_the_current_player_timed_out(dice: list) -> None:
    """6.2: the choice depends on the fleeing Kitsune's owner being able to answer, not on the current player:
    a turn that runs out still lets a partner choose where their Kitsune goes."""
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(), 0, "timeout")
    assert s1.pending is not None and s1.pending["decision"] == "flee" and G.to_move(s1) == {1}
    assert s1.pending["absent"] == [0]


def test_rule_6_2_a_flee_saved_when_the_current_player_decided_is_answered_by_the_owner(dice: list) -> None:
    """A game saved before 6.2's choice went to the owner stored the current player as the decider (and no
    ``absent``): it loads, and the fleeing Kitsune's owner answers it."""
    dice += [[6, 6, 6]]
    d = G.to_json(G.apply(cut_off_map(), 0, "end")[0])
    d["pending"]["seat"] = 0
    old = G.from_json(d)
    assert G.to_move(old) == {1} and G.view(old, None)["pending"]["seat"] == 1
    with pytest.raises(NotYourTurnError):
        G.apply(old, 0, "flee 1,1")
    dice += [[5]]
    s2, _ = G.apply(old, 1, "flee 1,1")
    assert s2.kitsune[1].pos == (1, 1) and s2.pending is None


def test_rule_6_2_resigning_owner_or_current_player_during_a_flee(dice: list) -> None:
    """The owner who resigns leaves the map (nothing flees) and the Nightmare runs on; a current player who
    resigns while a partner's flee waits leaves that choice to the partner."""
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(), 0, "end")
    dice += [[5]]
    gone, _ = G.apply(s1, 1, "resign")
    assert gone.pending is None and gone.kitsune[1].resigned and gone.current == 0 and gone.turn == s1.turn + 1
    left, _ = G.apply(s1, 0, "resign")
    assert left.pending == s1.pending and G.to_move(left) == {1}
    dice += [[5]]
    s3, _ = G.apply(left, 1, "flee 1,1")
    assert s3.pending is None and s3.current == 1 and s3.kitsune[1].pos == (1, 1)


def test_rule_6_4_3_spawn_on_any_land_the_current_player_chooses(dice: list) -> None:
    """6.4.3: "Place a matching colored token ... on any Land that has an empty border and no Kitsune." """
    s = two({(1, 0): None, (0, 1): None, (-1, 0): None})
    dice += [[1], [1]]  # one spawn die: a demon; type die 1: an Oni
    s1, _ = G.apply(s, 0, "end")
    assert G.legal_actions(s1, 0) == ["spawn -1,0", "spawn 0,1", "spawn 1,0"]
    assert G.view(s1, 1)["pending"]["type"] == "oni"
    with pytest.raises(IllegalActionError):
        G.apply(s1, 0, "spawn 0,0")  # the Gate holds the Kitsune
    s2, _ = G.apply(s1, 0, "spawn 0,1")
    assert [(d.id, d.at) for d in s2.demons] == [("oni1", (0, 1))] and s2.current == 1


def test_timeout_in_a_decision_takes_todays_automatic_choice() -> None:
    """Absence is not a move: the timeout is logged as ``timeout`` and the rest of the Nightmare runs with the
    automatic choices, exactly as with ``auto_nightmare`` on."""
    s = two({(1, 0): None, (0, 1): None, (-1, 0): None}, {"oni1": (1, 0), "tengu1": (0, 1)})
    asked, _ = G.apply(s, 0, "end")
    assert asked.pending is not None
    timed, events = G.apply(asked, 0, "timeout")
    auto, _ = G.apply(replace(s, options=Options()), 0, "end")
    assert events[0].kind == "timeout" and timed.pending is None
    assert (timed.demons, timed.lands, timed.kitsune, timed.counter) == (auto.demons, auto.lands, auto.kitsune,
                                                                          auto.counter)


def test_auto_nightmare_option_asks_nothing_solo_default_on_table_default_off() -> None:
    """A new game gets ``solo`` (the lobby's and the terminal's default): automatic alone, the table decides."""
    assert normalize(1, {"auto_nightmare": "solo"})["auto_nightmare"] == "on"
    assert normalize(3, {"auto_nightmare": "solo"})["auto_nightmare"] == "off"
    assert normalize(2, {"auto_nightmare": "on"})["auto_nightmare"] == "on"
    assert normalize(1, {"auto_nightmare": "off"})["auto_nightmare"] == "off"
    s = two({(1, 0): None, (0, 1): None}, {"oni1": (1, 0), "tengu1": (0, 1)}, options=Options())
    s2, _ = G.apply(s, 0, "end")
    assert s2.pending is None and s2.current == 1


def test_a_resigning_current_player_leaves_the_rest_automatic() -> None:
    s = two({(1, 0): None, (0, 1): None}, {"oni1": (1, 0), "tengu1": (0, 1)})
    s1, _ = G.apply(s, 0, "end")
    s2, _ = G.apply(s1, 0, "resign")
    assert s2.pending is None and s2.kitsune[0].resigned and s2.current == 1


@pytest.mark.parametrize("text", ["resolve oni@1,0", "resolve all", "flee 2,0", "flee -1,-3", "spawn 2,1",
                                  "spawn gaki 2,0"])
def test_decision_notation_round_trips(text: str) -> None:
    assert nt.text(nt.parse(text)) == text
    assert nt.text(nt.parse(text.upper().replace(",", " , "))) == text


def test_decision_notation_polish_and_errors() -> None:
    assert nt.text(nt.parse("rozstrzygnij wszystkie")) == "resolve all"
    assert nt.text(nt.parse("uciekaj 1,1")) == "flee 1,1"
    for bad in ("resolve", "resolve oni", "resolve dragon@1,0", "flee", "flee north", "resolve all now"):
        with pytest.raises(InvalidActionError):
            nt.parse(bad)
    s = two({(1, 0): None})
    with pytest.raises(IllegalActionError):
        G.apply(s, 0, "flee 1,0")  # no decision is waiting


def test_bot_spawns_where_it_hurts_least_resolves_the_gates_threat_first_flees_home(dice: list) -> None:
    s = two({(1, 0): None, (2, 0): None, (0, 1): None})
    dice += [[1], [1]]
    s1, _ = G.apply(s, 0, "end")
    assert G.bot_action(s1, 0) == "spawn 2,0"  # the farthest from the Gate
    s = two({(1, 0): None, (2, 0): None, (0, 1): None}, {"oni1": (2, 0), "tengu1": (0, 1)})
    s1, _ = G.apply(s, 0, "end")
    assert G.bot_action(s1, 0) == "resolve tengu@0,1"  # next to the Gate
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(), 0, "end")
    assert G.bot_action(s1, 1) == "flee 0,0"  # the owner's seat answers (6.2)
    dice += [[6, 6, 6]]
    s1, _ = G.apply(cut_off_map(village=1), 0, "end")
    assert G.bot_action(s1, 1) == "flee 1,1"  # the fleeing Kitsune's own Village


@pytest.mark.parametrize("seed", ["nd0", "nd1", "nd2"])
def test_seeded_playout_with_decisions_runs_to_the_end(seed: str) -> None:
    s = G.new(2, {"auto_nightmare": "solo"}, seed)  # as a new table from the lobby
    asked = 0
    for _ in range(5_000):
        if s.phase == "over":
            break
        seat = next(iter(G.to_move(s)))
        action = G.bot_action(s, seat)
        if s.pending is not None:
            asked += 1
            assert s.pending["seat"] == seat and action in G.legal_actions(s, seat)
            assert seat == (s.pending["fleeing"] if s.pending["decision"] == "flee" else s.current)
        s, _ = G.apply(s, seat, action)
        assert G.from_json(G.to_json(s)) == s
    assert s.phase == "over" and asked > 0


def test_old_saved_state_without_the_new_keys_loads_with_todays_nightmare() -> None:
    d = G.to_json(G.new(3, {}, "old"))
    assert "pending" not in d
    del d["options"]["auto_nightmare"]
    s = G.from_json(d)
    assert s.pending is None and s.options.auto_nightmare  # an old game goes on as it was


def test_damaged_pending_decision_is_refused_on_load() -> None:
    """The order of the demons (6.1) is the current player's: a stored decision naming another seat is damage."""
    s = two({(1, 0): None, (0, 1): None}, {"oni1": (1, 0), "tengu1": (0, 1)})
    d = G.to_json(G.apply(s, 0, "end")[0])
    d["pending"]["seat"] = 1
    with pytest.raises(StateError):
        G.from_json(d)


def test_suggestion_is_always_a_listed_choice(dice: list) -> None:
    dice += [[1], [1]]
    s1, _ = G.apply(two({(1, 0): None, (0, 1): None}), 0, "end")
    assert nm.suggestion(s1) in s1.pending["choices"]


def test_a_game_started_before_auto_nightmare_replays_exactly_from_its_log() -> None:
    """Undo and records replay a game from its stored options, seed and log. Options stored before the option
    existed have no ``auto_nightmare``: the replay must not stop at decisions the game never asked."""
    stored = {k: v for k, v in normalize(2, {}).items() if k != "auto_nightmare"}
    assert normalize(2, stored)["auto_nightmare"] == "on"
    s = G.new(2, stored, "replay-seed")
    for _ in range(40):  # bots' turns, through several Nightmares
        if G.outcome(s) is not None:
            break
        seat = next(iter(G.to_move(s)))
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
        assert s.pending is None
