"""Floating World's immutable state, a mutable working copy (`Work`) the rules edit, and the JSON form.

Coordinates are ``(x, y)`` with y growing north; the Gateless Gate is at (0, 0). Demon tokens have stable ids
(``oni1``…``gaki4``): a token not on the map is in the supply. The decks are stored in draw order (hidden: the
view shows only their sizes). ``counter`` numbers the next random stream (`rules.rng`): each roll, shuffle or
spawn placement takes one, so the seed + the action log replay exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules import rng
from rules import validate as v
from rules.floating_world.content import DREAM_BY_ID, DREAM_IDS, GATE_CARD, LAND_BY_ID, LAND_IDS, STATS
from rules.floating_world.dice import Roll, Stat, parse, roll
from rules.floating_world.notation import DEMON_TYPES, Coord
from rules.floating_world.options import normalize

GATE: Coord = (0, 0)
START_STAT = Stat(2)  # immutable, so one shared default is safe
NO_STRENGTH = Stat(0)
DIRS: tuple[Coord, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W: every tie is broken in this order
TOKENS = 4
DEMON_STATS: dict[str, dict[str, Stat]] = {
    "oni": {"body": Stat(3), "mind": Stat(1), "spirit": Stat(2)},
    "tengu": {"body": Stat(2), "mind": Stat(3), "spirit": Stat(1)},
    "gaki": {"body": Stat(1), "mind": Stat(2), "spirit": Stat(3)},
}
HIGHEST = {t: max(STATS, key=lambda k, t=t: DEMON_STATS[t][k].value) for t in DEMON_TYPES}
DEMON_IDS = tuple(f"{t}{i}" for t in DEMON_TYPES for i in range(1, TOKENS + 1))
PHASES = ("dream", "haunt", "over")
WON = "fw.outcome.sealed"
GATE_DESTROYED = "fw.outcome.gate_destroyed"
ALL_DEAD = "fw.outcome.all_dead"
ALL_LEFT = "fw.outcome.all_left"
REASONS = (WON, GATE_DESTROYED, ALL_DEAD, ALL_LEFT)


def neighbours(c: Coord) -> list[Coord]:
    return [(c[0] + dx, c[1] + dy) for dx, dy in DIRS]


@dataclass(frozen=True)
class Options:
    difficulty: str = "normal"
    spawn_divisor: int = 4
    land_defence: int = 10
    extra_wounds: int = 0
    boost: bool = False
    quick_start: bool = False
    vengeful: bool = False
    scoring: bool = False
    final_fox: bool = False
    demon_strength: int = 0  # Demon Strength steps at the start (the hard preset's head start)
    auto_nightmare: bool = True  # the Nightmare's choices made for the players (solo's default; game.normalize)

    def to_dict(self) -> dict[str, Any]:
        on = {True: "on", False: "off"}
        return {"difficulty": self.difficulty, "spawn_divisor": self.spawn_divisor,
                "land_defence": self.land_defence, "extra_wounds": self.extra_wounds,
                "demon_strength": self.demon_strength, "boost": on[self.boost],
                "quick_start": on[self.quick_start], "vengeful": on[self.vengeful], "scoring": on[self.scoring],
                "final_fox": on[self.final_fox], "auto_nightmare": on[self.auto_nightmare]}


@dataclass(frozen=True)
class Land:
    x: int
    y: int
    card: str
    village: int | None = None  # the owner's seat

    @property
    def at(self) -> Coord:
        return (self.x, self.y)


@dataclass(frozen=True)
class Demon:
    id: str
    type: str
    x: int
    y: int

    @property
    def at(self) -> Coord:
        return (self.x, self.y)


@dataclass(frozen=True)
class Kitsune:
    seat: int
    pos: Coord | None = GATE
    body: Stat = START_STAT
    mind: Stat = START_STAT
    spirit: Stat = START_STAT
    wounds: int = 0
    praise: int = 6
    items: tuple[str, ...] = ()  # sorted card ids (duplicates impossible: one copy of each card)
    legends: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    alive: bool = True
    resigned: bool = False
    moved: bool = False
    used: tuple[str, ...] = ()  # action types taken this turn, in order
    legend_reroll_used: bool = False

    def stat(self, name: str) -> Stat:
        return getattr(self, name)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.items + self.legends + self.upgrades

    def effects(self, kind: str) -> list[Any]:
        return [DREAM_BY_ID[c] for c in self.cards if DREAM_BY_ID[c].kind == kind]

    @property
    def on_map(self) -> bool:
        return self.alive and not self.resigned


@dataclass(frozen=True)
class State:
    players: int
    seed: str
    options: Options
    lands: tuple[Land, ...]  # sorted by (x, y)
    demons: tuple[Demon, ...]  # on the map, sorted by id
    kitsune: tuple[Kitsune, ...]
    land_deck: tuple[str, ...]
    land_discard: tuple[str, ...]
    dream_deck: tuple[str, ...]
    dream_discard: tuple[str, ...]
    strength: Stat = NO_STRENGTH
    phase: str = "dream"
    current: int = 0
    turn: int = 1  # player turns begun (the first is 1)
    actions: int = 0  # actions applied
    harvest: tuple[str, ...] | None = None  # the current player's drawn, unresolved Dream cards
    last_roll: dict[str, Any] | None = None
    nightmare: dict[str, Any] | None = None  # {"turn": n, "steps": [...]}, the last Nightmare phase
    counter: int = 0
    reason: str = ""
    sealer: int | None = None
    spawned: bool = False  # a haunting player has spawned this turn
    haunted: bool = False  # a haunting player has moved demons this turn
    pending: dict[str, Any] | None = None  # a Nightmare paused for a player's decision (nightmare.Night)

    def land_map(self) -> dict[Coord, Land]:
        return {land.at: land for land in self.lands}

    def demons_at(self, c: Coord) -> list[Demon]:
        return [d for d in self.demons if d.at == c]

    def kitsune_at(self, c: Coord) -> list[int]:
        return [k.seat for k in self.kitsune if k.on_map and k.pos == c]


@dataclass
class Work:
    """A mutable copy of a `State` for one action: the rules edit it, then `freeze` it back."""

    s: State
    lands: dict[Coord, Land] = field(default_factory=dict)
    demons: dict[str, Demon] = field(default_factory=dict)
    kit: list[Kitsune] = field(default_factory=list)
    land_deck: list[str] = field(default_factory=list)
    land_discard: list[str] = field(default_factory=list)
    dream_deck: list[str] = field(default_factory=list)
    dream_discard: list[str] = field(default_factory=list)
    counter: int = 0

    @staticmethod
    def of(s: State) -> Work:
        return Work(s, s.land_map(), {d.id: d for d in s.demons}, list(s.kitsune), list(s.land_deck),
                    list(s.land_discard), list(s.dream_deck), list(s.dream_discard), s.counter)

    def freeze(self, **changes: Any) -> State:
        return replace(self.s, lands=tuple(self.lands[c] for c in sorted(self.lands)),
                       demons=tuple(self.demons[i] for i in sorted(self.demons)), kitsune=tuple(self.kit),
                       land_deck=tuple(self.land_deck), land_discard=tuple(self.land_discard),
                       dream_deck=tuple(self.dream_deck), dream_discard=tuple(self.dream_discard),
                       counter=self.counter, **changes)

    def next_stream(self) -> int:
        self.counter += 1
        return self.counter - 1

    def roll(self, dice: int, plus: int) -> Roll:
        return roll(self.s.seed, self.next_stream(), dice, plus)

    def pick(self, n: int) -> int:
        return rng.below(rng.stream(self.s.seed, self.next_stream()), n)

    def set_kit(self, seat: int, **changes: Any) -> Kitsune:
        self.kit[seat] = replace(self.kit[seat], **changes)
        return self.kit[seat]

    def draw_land(self) -> str:
        """The Land deck never runs out: its discards are reshuffled, and when every card is on the map the
        names repeat (a freshly shuffled full set): Lands are cosmetic, the map must be able to grow."""
        if not self.land_deck:
            pool = self.land_discard or list(LAND_IDS)
            self.land_deck = rng.shuffled(self.s.seed, self.next_stream(), sorted(pool))
            self.land_discard = []
        return self.land_deck.pop(0)

    def draw_dreams(self, n: int) -> list[str]:
        """Up to n Dream cards; the discards are reshuffled when the deck is empty (cards held stay held)."""
        out: list[str] = []
        while len(out) < n:
            if not self.dream_deck:
                if not self.dream_discard:
                    break
                self.dream_deck = rng.shuffled(self.s.seed, self.next_stream(), sorted(self.dream_discard))
                self.dream_discard = []
            out.append(self.dream_deck.pop(0))
        return out

    def on_map(self) -> list[Kitsune]:
        return [k for k in self.kit if k.on_map]


def max_wounds(s: State, k: Kitsune) -> int:
    """Death at Wounds ≥ Body dice (3.5) plus the extra_wounds option and max_wounds legends."""
    return k.body.dice + s.options.extra_wounds + sum(d.get("amount") for d in k.effects("max_wounds"))


# --- JSON ---------------------------------------------------------------------------------------------------

def _stat_json(x: Stat) -> str:
    return x.text


def kitsune_json(k: Kitsune) -> dict[str, Any]:
    return {"seat": k.seat, "pos": None if k.pos is None else list(k.pos), "body": k.body.text,
            "mind": k.mind.text, "spirit": k.spirit.text, "wounds": k.wounds, "praise": k.praise,
            "items": list(k.items), "legends": list(k.legends), "upgrades": list(k.upgrades), "alive": k.alive,
            "resigned": k.resigned, "moved": k.moved, "used": list(k.used),
            "legend_reroll_used": k.legend_reroll_used}


def to_json(s: State) -> dict[str, Any]:
    return {
        "version": 1, "players": s.players, "seed": s.seed, "options": s.options.to_dict(),
        "lands": [[land.x, land.y, land.card, land.village] for land in s.lands],
        "demons": [[d.id, d.x, d.y] for d in s.demons], "kitsune": [kitsune_json(k) for k in s.kitsune],
        "land_deck": list(s.land_deck), "land_discard": list(s.land_discard), "dream_deck": list(s.dream_deck),
        "dream_discard": list(s.dream_discard), "strength": s.strength.modifier, "phase": s.phase,
        "current": s.current, "turn": s.turn, "actions": s.actions,
        "harvest": None if s.harvest is None else list(s.harvest), "last_roll": s.last_roll,
        "nightmare": s.nightmare, "counter": s.counter, "reason": s.reason, "sealer": s.sealer,
        "spawned": s.spawned, "haunted": s.haunted,
        **({} if s.pending is None else {"pending": s.pending}),  # absent when idle: older states look the same
    }


STATE_KEYS = (
    "version", "players", "seed", "options", "lands", "demons", "kitsune", "land_deck", "land_discard",
    "dream_deck", "dream_discard", "strength", "phase", "current", "turn", "actions", "harvest", "last_roll",
    "nightmare", "counter", "reason", "sealer", "spawned", "haunted")
KIT_KEYS = ("seat", "pos", "body", "mind", "spirit", "wounds", "praise", "items", "legends", "upgrades", "alive",
            "resigned", "moved", "used", "legend_reroll_used")
BIG = 1_000_000  # a coordinate: the map is bounded by its cards. Counters use v.MAX_COUNTER (play never
# bounds them: timeouts alone can go on), so a stored bound is never tighter than play


def from_json(d: dict[str, Any]) -> State:
    """Read a state written by `to_json`; raises `StateError` naming the damaged field."""
    with v.guard("floating_world"):
        return _from_json(d)


def _stat(raw: Any, where: v.Where) -> Stat:
    v.as_str(raw, where, 12)
    try:
        return parse(raw)
    except ValueError:
        v.fail(where, f"not a stat: {v.show(raw)}")


def _coord(raw: Any, where: v.Where) -> Coord:
    x, y = v.as_ints(raw, where, -BIG, BIG, 2)
    return (x, y)


def _kitsune(raw: Any, where: v.Where, n: int) -> Kitsune:
    v.as_dict(raw, where, KIT_KEYS)
    stats = {k: _stat(raw[k], v.at(where, k)) for k in STATS}
    return Kitsune(
        seat=v.require_int(raw, "seat", 0, n - 1, where), pos=v.as_optional(raw["pos"], v.at(where, "pos"), _coord),
        wounds=v.require_int(raw, "wounds", 0, 99, where), praise=v.require_int(raw, "praise", 0, v.MAX_COUNTER, where),
        items=tuple(v.as_strs(raw["items"], v.at(where, "items"), choices=DREAM_IDS)),
        legends=tuple(v.as_strs(raw["legends"], v.at(where, "legends"), choices=DREAM_IDS)),
        upgrades=tuple(v.as_strs(raw["upgrades"], v.at(where, "upgrades"), choices=DREAM_IDS)),
        alive=v.require_bool(raw, "alive", where), resigned=v.require_bool(raw, "resigned", where),
        moved=v.require_bool(raw, "moved", where), used=tuple(v.as_strs(raw["used"], v.at(where, "used"))),
        legend_reroll_used=v.require_bool(raw, "legend_reroll_used", where), **stats)


def _options(raw: Any) -> Options:
    v.as_dict(raw, "options", extra_ok=True)
    try:
        return options_of(normalize(1, raw))
    except Exception as e:  # an OptionsError: the stored options are damaged
        v.fail("options", str(e))


def options_of(d: dict[str, Any]) -> Options:
    on = {"on": True, "off": False}
    return Options(d["difficulty"], d["spawn_divisor"], d["land_defence"], d["extra_wounds"], on[d["boost"]],
                   on[d["quick_start"]], on[d["vengeful"]], on[d["scoring"]], on[d["final_fox"]],
                   d["demon_strength"], on[d["auto_nightmare"]])


def _from_json(d: dict[str, Any]) -> State:
    v.as_dict(d, "", (*STATE_KEYS, "pending") if isinstance(d, dict) and "pending" in d else STATE_KEYS)
    v.require(d["version"] == 1, "version", f"unknown version {v.show(d['version'])}")
    n = v.require_int(d, "players", 1, 4)
    lands = []
    for i, raw in enumerate(v.require_list(d, "lands", max_len=10_000)):
        v.as_list(raw, ("lands", i), length=4)
        land_card = v.as_str(raw[2], ("lands", i, 2), choices=(*LAND_BY_ID,))
        village = v.as_optional(raw[3], ("lands", i, 3), v.as_int, 0, n - 1)
        lands.append(Land(v.as_int(raw[0], ("lands", i, 0), -BIG, BIG), v.as_int(raw[1], ("lands", i, 1), -BIG, BIG),
                          land_card, village))
    demons = []
    for i, raw in enumerate(v.require_list(d, "demons", max_len=len(DEMON_IDS))):
        v.as_list(raw, ("demons", i), length=3)
        did = v.as_str(raw[0], ("demons", i, 0), choices=DEMON_IDS)
        demons.append(Demon(did, did[:-1], v.as_int(raw[1], ("demons", i, 1), -BIG, BIG),
                            v.as_int(raw[2], ("demons", i, 2), -BIG, BIG)))
    kit = tuple(_kitsune(k, ("kitsune", i), n) for i, k in enumerate(v.require_list(d, "kitsune", length=n)))
    harvest = v.as_optional(d["harvest"], "harvest", lambda x, w: v.as_strs(x, w, choices=DREAM_IDS))
    s = State(
        players=n, seed=v.require_str(d, "seed"), options=_options(d["options"]), lands=tuple(lands),
        demons=tuple(demons), kitsune=kit,
        land_deck=tuple(v.as_strs(d["land_deck"], "land_deck", choices=LAND_IDS)),
        land_discard=tuple(v.as_strs(d["land_discard"], "land_discard", choices=LAND_IDS)),
        dream_deck=tuple(v.as_strs(d["dream_deck"], "dream_deck", choices=DREAM_IDS)),
        dream_discard=tuple(v.as_strs(d["dream_discard"], "dream_discard", choices=DREAM_IDS)),
        strength=_stat(d["strength"], "strength"), phase=v.require_str(d, "phase", choices=PHASES),
        current=v.require_int(d, "current", 0, n - 1), turn=v.require_int(d, "turn", 1, v.MAX_COUNTER),
        actions=v.require_int(d, "actions", 0, v.MAX_COUNTER), harvest=None if harvest is None else tuple(harvest),
        last_roll=v.as_optional(d["last_roll"], "last_roll", v.as_dict, (), True),
        nightmare=v.as_optional(d["nightmare"], "nightmare", v.as_dict, ("turn", "steps")),
        counter=v.require_int(d, "counter", 0, v.MAX_COUNTER),
        reason=v.require_str(d, "reason", choices=("", *REASONS)),
        sealer=v.as_optional(d["sealer"], "sealer", v.as_int, 0, n - 1),
        spawned=v.require_bool(d, "spawned"), haunted=v.require_bool(d, "haunted"),
        pending=_pending(d.get("pending"), n),
    )
    _check(s)
    return s


PENDING_KEYS = ("current", "ask", "todo", "in_order", "flee", "stage", "dice", "spawn", "decision", "seat",
                "choices")


def _pending(raw: Any, n: int) -> dict[str, Any] | None:
    """A paused Nightmare (`nightmare.Night` plus the decision), checked so that resuming cannot crash."""
    if raw is None:
        return None
    w = "pending"
    flee = "fleeing" in raw if isinstance(raw, dict) else False
    absent = ("absent",) if isinstance(raw, dict) and "absent" in raw else ()  # seats timed out (since issue 23)
    v.as_dict(raw, w, (*PENDING_KEYS, *absent, "fleeing", "from") if flee else (*PENDING_KEYS, *absent))
    v.require_int(raw, "current", 0, n - 1, w)
    v.require_int(raw, "seat", 0, n - 1, w)
    # A flee is its Kitsune's owner's (6.2); one saved when every decision was the current player's says so.
    deciders = {raw["current"], raw.get("fleeing")} if flee else {raw["current"]}
    v.require(raw["seat"] in deciders, w, "decided by another player")
    if absent:
        v.as_ints(raw["absent"], v.at(w, "absent"), 0, n - 1)
    v.require_bool(raw, "ask", w)
    v.require_bool(raw, "in_order", w)
    v.as_strs(raw["todo"], v.at(w, "todo"), choices=DEMON_IDS)
    v.as_ints(raw["flee"], v.at(w, "flee"), 0, n - 1)
    v.require_str(raw, "stage", w, choices=("attack", "roll", "spawn"))
    v.as_ints(raw["dice"], v.at(w, "dice"), 1, 6)
    v.require_str(raw, "decision", w, choices=("resolve", "flee", "spawn"))
    v.require(len(v.as_strs(raw["choices"], v.at(w, "choices"), max_len=40)) > 1, w, "fewer than two choices")
    if raw["spawn"] is not None:
        v.as_dict(raw["spawn"], v.at(w, "spawn"), ("type", "type_die"))
        v.as_str(raw["spawn"]["type"], v.at(w, "spawn", "type"), choices=DEMON_TYPES)
        v.as_int(raw["spawn"]["type_die"], v.at(w, "spawn", "type_die"), 1, 6)
    v.require((raw["spawn"] is not None) == (raw["decision"] == "spawn"), w, "a spawn decision without its demon")
    v.require(flee == (raw["decision"] == "flee"), w, "a flee decision without its Kitsune")
    if flee:
        v.require_int(raw, "fleeing", 0, n - 1, w)
        _coord(raw["from"], v.at(w, "from"))
        v.require(raw["flee"][:1] == [raw["fleeing"]], w, "the fleeing Kitsune is not the next to flee")
    return raw


def _check(s: State) -> None:
    """What the rules keep true, checked where a damaged value would stall or mislead the game."""
    cells = [land.at for land in s.lands]
    v.distinct(cells, "lands")
    v.require(s.phase == "over" or GATE in cells, "lands", "a running game without the Gateless Gate")
    v.require(sum(land.card == GATE_CARD for land in s.lands) <= 1, "lands", "two Gates")
    v.ascending(cells, "lands")
    v.require(all(d.at in set(cells) for d in s.demons), "demons", "a demon off the map")
    fleeing = set(s.pending["flee"]) if s.pending else set()  # still on a destroyed Land (6.2)
    for k in s.kitsune:
        v.require(k.seat == s.kitsune.index(k), "kitsune", "seats out of order")
        v.require((k.pos is not None) == k.on_map, ("kitsune", k.seat, "pos"), "on the map exactly when playing")
        v.require(k.pos is None or k.pos in set(cells) or k.seat in fleeing, ("kitsune", k.seat, "pos"),
                  "on no Land")
    cards = [c for k in s.kitsune for c in k.cards] + list(s.dream_deck) + list(s.dream_discard) + list(
        s.harvest or ())
    v.require(len(cards) == len(set(cards)), "dream_deck", "a Dream card is in two places")
    v.require((s.phase == "over") == (s.reason != ""), "reason", "a reason is given exactly when the game is over")
    v.require(s.harvest is None or s.phase == "dream", "harvest", "a harvest outside a Dream phase")
    v.require(s.pending is None or (s.phase == "dream" and s.harvest is None), "pending",
              "a Nightmare decision outside a living player's turn")


# --- building states (new games, tests, positions) ----------------------------------------------------------

def build(players: int = 1, *, seed: str = "test", options: Options | None = None,
          lands: dict[Coord, int | None] | None = None, demons: dict[str, Coord] | None = None,
          kitsune: list[Kitsune] | None = None, **changes: Any) -> State:
    """A state from a hand-drawn map: ``lands`` maps each cell to its Village owner (or None); the Gate is always
    added; Land cards are dealt in a fixed order. Used by `FloatingWorld.new` and by the tests."""
    cells = dict(lands or {})
    cells.setdefault(GATE, None)
    names = iter(LAND_IDS * 10)
    built = [Land(c[0], c[1], GATE_CARD if c == GATE else next(names), owner) for c, owner in sorted(cells.items())]
    used = {land.card for land in built}
    ds = [Demon(i, i[:-1], c[0], c[1]) for i, c in sorted((demons or {}).items())]
    kit = tuple(kitsune) if kitsune is not None else tuple(Kitsune(i) for i in range(players))
    return State(players=players, seed=seed, options=options or Options(), lands=tuple(built), demons=tuple(ds),
                 kitsune=kit, land_deck=tuple(c for c in LAND_IDS if c not in used), land_discard=(),
                 dream_deck=tuple(c for c in DREAM_IDS if all(c not in k.cards for k in kit)), dream_discard=(),
                 **changes)
