"""A tiny game for engine tests: the engine is generic, so its tests should not depend on one real game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.base import Event, IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError, Outcome


@dataclass(frozen=True)
class NimState:
    players: int
    pile: int
    turn: int
    last: int | None = None
    resigned: tuple[int, ...] = ()


class Nim:
    """Take 1–3 from one pile; who takes the last wins. ``resign`` ends it for the others."""

    id: ClassVar[str] = "nim"
    name: ClassVar[str] = "Nim"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset({"timeout"})  # (Nim's timeout is its default, take 1)

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"pile", "turn_minutes"}
        if unknown:
            raise OptionsError("engine.unknown_game", game=",".join(sorted(unknown)), games="pile")
        if not self.min_players <= players <= self.max_players:
            raise OptionsError("engine.lobby_not_enough", min=self.min_players, count=players)
        return {"pile": int(options.get("pile", 10)), "turn_minutes": int(options.get("turn_minutes", 0))}

    def new(self, players: int, options: dict[str, Any], seed: str) -> NimState:
        opts = self.normalize_options(players, options)
        return NimState(players=players, pile=opts["pile"], turn=0)

    def to_move(self, s: NimState) -> frozenset[int]:
        return frozenset() if self.outcome(s) else frozenset({s.turn})

    def legal_actions(self, s: NimState, seat: int) -> list[str]:
        if seat not in self.to_move(s):
            return []
        return [f"take {k}" for k in range(1, min(3, s.pile) + 1)]

    def apply(self, s: NimState, seat: int, action: str) -> tuple[NimState, list[Event]]:
        if action == "resign":
            return replace(s, resigned=(*s.resigned, seat)), [Event("resign", seat)]
        if seat not in self.to_move(s):
            raise NotYourTurnError("engine.not_seated")
        verb, _, arg = action.partition(" ")
        if verb != "take" or not arg.isdigit():
            raise InvalidActionError("engine.stale")
        k = int(arg)
        if not 1 <= k <= min(3, s.pile):
            raise IllegalActionError("engine.stale")
        return replace(s, pile=s.pile - k, turn=(s.turn + 1) % s.players, last=seat), [Event("take", seat, {"k": k})]

    def outcome(self, s: NimState) -> Outcome | None:
        if s.resigned:
            alive = tuple(i for i in range(s.players) if i not in s.resigned)
            return Outcome(alive, (alive, tuple(s.resigned)), tuple(0.0 for _ in range(s.players)), "outcome.resign")
        if s.pile == 0 and s.last is not None:
            others = tuple(i for i in range(s.players) if i != s.last)
            scores = tuple(1.0 if i == s.last else 0.0 for i in range(s.players))
            return Outcome((s.last,), ((s.last,), others), scores, "outcome.last_take")
        return None

    def view(self, s: NimState, seat: int | None) -> dict[str, Any]:
        return {"game": "nim", "pile": s.pile, "turn": s.turn, "viewer": seat}

    def to_json(self, s: NimState) -> dict[str, Any]:
        return {"players": s.players, "pile": s.pile, "turn": s.turn, "last": s.last, "resigned": list(s.resigned)}

    def from_json(self, d: dict[str, Any]) -> NimState:
        return NimState(d["players"], d["pile"], d["turn"], d["last"], tuple(d["resigned"]))

    def notation(self, s: NimState, action: str) -> str:
        return " ".join(action.lower().split())

    def bot_action(self, s: NimState, seat: int) -> str:
        return f"take {max(1, min(3, s.pile % 4 or 1))}"

    def default_action(self, s: NimState, seat: int) -> str:
        return "take 1"
