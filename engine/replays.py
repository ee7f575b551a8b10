"""Replays: a game's log as a sequence of steps (the state after k actions, what may be shown of it, and a caption
in words of who did what), for ``/replay``, ``./floorboard replay`` and the animation.

What may be shown (DESIGN.md, hidden information):
- a running game (or a closed one whose seed is still secret, or whose players chose ``reveal=no``) shows each
  step's *public* view (seat None) and says a secret choice only as "chose in secret";
- a closed game whose record shows the seed (the proof of a fair deal: every hidden card follows from it
  anyway) and whose players left ``reveal=yes`` also spells out the secret choices.

States are rebuilt from the log, never stored per step: a `Replay` keeps a checkpoint every `CHECKPOINT` actions
and replays from the nearest one, and `ReplayCache` keeps a few games' replays (a bounded LRU), never every game's.
A record file (``/record``'s text) loads back through `parse_record`; its ``Rules`` and ``Final`` lines refuse a
record that other rules (or another version of them) would replay differently.
"""

from __future__ import annotations

import ast
import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine import policies as pol
from engine.log import UNDO, digest, rules_tag, standing
from engine.meta import seed_shown
from engine.tables import CLOSED_STATUSES, Table
from i18n import t
from rules.base import Event, Game

CHECKPOINT = 16  # actions between kept states: a step costs at most this many applies
CACHE_GAMES = 8  # games whose replays are kept (the LRU); each holds len/CHECKPOINT states
REVEAL = "reveal"  # the lobby option (engine/policies.py): a finished game's secrets shown in its replay
_HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')
_ESCAPED = re.compile(r"\\(.)")  # PGN's escapes in a header value: \" and \\


class ReplayError(ValueError):
    """A record that cannot be replayed here (unreadable, another game's rules, no seed); ``key`` is i18n."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def private_action(game: str, options: dict[str, Any], before: Any, action: str) -> bool:
    """An action whose text is a secret choice while the game runs (the surfaces' `is_private_action`,
    said once for the engine): Night of the 27 Ninja's hidden draft, The Floor's draft picks, Floor Plan's
    drawings (private until their round closes; a replay never says them in public)."""
    verb = action.split(" ", 1)[0].lower()
    if game == "flying_blades":
        return verb == "keep" and options.get("cards", "hidden") == "hidden"
    if game == "the_floor":
        return verb == "pick" and getattr(before, "phase", None) == "draft"
    if game == "floor_plan":
        return verb not in ("resign", "timeout")
    return False


@dataclass(frozen=True)
class Source:
    """What a replay is built from: a table's header and its log (standing actions, undo rows removed)."""

    game: str
    players: int
    options: dict[str, Any]
    seed: str
    names: list[str]
    actions: list[tuple[int, str]]
    revealed: bool = False  # the secret choices may be spelled out (closed, seed shown, reveal=yes)
    table_id: int = 0


@dataclass(frozen=True)
class Step:
    index: int  # 0: the start; k: after the k-th action
    total: int  # the number of actions
    seat: int | None
    action: str | None
    view: dict[str, Any]  # the public view (seat None): the only view a replay shows
    caption: str
    events: list[Event] = field(default_factory=list)


class Replay:
    """The steps of one game, rebuilt from its log on demand (checkpoints every `CHECKPOINT` actions)."""

    def __init__(self, rules: Game, source: Source, quote: Callable[[str], str] = str) -> None:
        self.rules, self.source = rules, source
        self.quote = quote  # how an action is written into a caption (Discord: a code span, escaped)
        self.actions = standing(source.actions)
        first = rules.new(source.players, source.options, source.seed)
        self._states: dict[int, Any] = {0: first}

    def __len__(self) -> int:
        return len(self.actions) + 1

    def state(self, k: int) -> Any:
        """The state after ``k`` actions, from the nearest checkpoint at or before it."""
        k = max(0, min(k, len(self.actions)))
        base = k - k % CHECKPOINT
        while base not in self._states:
            base -= CHECKPOINT
        state = self._states[base]
        for i in range(base, k):
            state, _ = self._apply(state, i)
            if (i + 1) % CHECKPOINT == 0:
                self._states[i + 1] = state
        return state

    def _apply(self, state: Any, i: int) -> tuple[Any, list[Event]]:
        seat, action = self.actions[i]
        return self.rules.apply(state, seat, action)

    def final(self) -> Any:
        return self.state(len(self.actions))

    def step(self, k: int, locale: str) -> Step:
        k = max(0, min(k, len(self.actions)))
        total = len(self.actions)
        if k == 0:
            state = self.state(0)
            return Step(0, total, None, None, self.rules.view(state, None), t("replay.caption.start", locale))
        before = self.state(k - 1)
        state, events = self._apply(before, k - 1)
        seat, action = self.actions[k - 1]
        caption = self.caption(before, seat, action, locale)
        return Step(k, total, seat, action, self.rules.view(state, None), caption, events)

    def caption(self, before: Any, seat: int, action: str, locale: str) -> str:
        """Who did what, in words; a secret choice of a game still secret only as "chose in secret"."""
        names = self.source.names
        name = names[seat] if 0 <= seat < len(names) else str(seat)
        verb = action.split(" ", 1)[0].lower()
        if verb in ("resign", "pass", "timeout"):
            return t(f"replay.caption.{verb}", locale, name=name)
        if not self.source.revealed and private_action(self.source.game, self.source.options, before, action):
            return t("replay.caption.secret", locale, name=name)
        return t("replay.caption.moved", locale, name=name, action=self.quote(action))

    def states(self) -> Iterator[Any]:
        """Every step's state in order, replayed once from the start (no checkpoint is kept for them)."""
        state = self.state(0)
        yield state
        for i in range(len(self.actions)):
            state, _ = self._apply(state, i)
            yield state

    def views(self) -> list[dict[str, Any]]:
        """Every step's public view in order, replayed once from the start (the animation's frames)."""
        return [self.rules.view(state, None) for state in self.states()]


class ReplayCache:
    """A few games' replays, least recently used dropped first; a game that moved on is a new entry."""

    def __init__(self, size: int = CACHE_GAMES) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, ...], Replay] = OrderedDict()

    def get(self, key: tuple[int, ...], build: Any) -> Replay:
        found = self.entries.get(key)
        if found is None:
            found = self.entries[key] = build()
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        else:
            self.entries.move_to_end(key)
        return found


def revealed(status: str, seed_is_shown: bool, meta: dict[str, Any]) -> bool:
    """May a replay spell out the secret choices? Only once the game is closed, its record shows the seed, and
    its players did not choose ``reveal=no`` at the lobby (a table stored before the option: yes)."""
    return status in CLOSED_STATUSES and seed_is_shown and pol.settings_of(meta).reveal


async def table_source(store: Any, table: Table) -> Source:
    """A stored game's replay source: its header, its log, and whether its secrets may be spelled out. The seed
    is read to rebuild the states but never shown by a replay."""
    rows = await store.actions(table.id)
    shown = table.status in CLOSED_STATUSES and await seed_shown(store, table)
    return Source(table.game, len(table.seats), dict(table.options), table.seed, table.names(),
                  [(a.seat, a.action) for a in rows], revealed(table.status, shown, table.meta), table.id)


# --- record files ---------------------------------------------------------------------------------------


def parse_record(text: str, games: dict[str, Game]) -> tuple[Source, dict[str, str]]:
    """A ``/record`` text back into a `Source` (revealed: a record with a seed is of a closed game), with its
    header. Raises `ReplayError` for a record that is unreadable, of an unknown game, or without its seed."""
    header: dict[str, str] = {}
    actions: list[tuple[int, str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        match = _HEADER.match(line)
        if match:
            header[match[1]] = match[2]
            continue
        seat, _, action = line.partition(" ")
        if not seat.isdigit() or not action:
            raise ReplayError("replay.err.unreadable", line=line[:60])
        actions.append((int(seat), action))
    game = header.get("Game", "")
    if game not in games:
        raise ReplayError("replay.err.unknown_game", game=game[:40])
    if "Seed" not in header:
        raise ReplayError("replay.err.no_seed")
    try:
        players = int(header.get("Players", ""))
    except ValueError:
        raise ReplayError("replay.err.unreadable", line="Players") from None
    names = [re.sub(r" \(bot\)$", "", header.get(f"Seat{i}", str(i))) for i in range(players)]
    source = Source(game, players, _options(header.get("Options", "{}")), header["Seed"], names, actions,
                    revealed=True, table_id=int(header.get("Table", "0") or 0))
    return source, header


def _options(text: str) -> dict[str, Any]:
    """The record's options: JSON with PGN's escapes (``\\"``), or, in a record written before, with its double
    quotes turned into single ones (read back as well as it can be: an apostrophe inside a value is lost)."""
    attempts = [lambda: json.loads(_ESCAPED.sub(r"\1", text))] if '\\"' in text else []
    attempts += [lambda: json.loads(text.replace("'", '"')), lambda: ast.literal_eval(text)]
    for attempt in attempts:
        try:
            value = attempt()
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, dict):
            return value
    raise ReplayError("replay.err.unreadable", line="Options")


def load_record(text: str, games: dict[str, Game]) -> Replay:
    """A record file as a replay, checked: the rules' tag and the final state's fingerprint must be the record's
    (a record made by other rules, or another version of them, is refused rather than replayed differently)."""
    source, header = parse_record(text, games)
    rules = games[source.game]
    try:
        replay = Replay(rules, source)
        final = replay.final()
    except Exception as e:  # any failure of these rules on this log means: the record is of other rules
        raise ReplayError("replay.err.other_rules", game=source.game, reason=str(e)[:80]) from None
    if "Rules" in header and header["Rules"] != rules_tag(rules, final):
        raise ReplayError("replay.err.other_rules", game=source.game, reason=header["Rules"])
    if "Final" in header and header["Final"] != digest(rules, final):
        raise ReplayError("replay.err.other_rules", game=source.game, reason="Final")
    return replay


__all__ = ["CHECKPOINT", "REVEAL", "UNDO", "Replay", "ReplayCache", "ReplayError", "Source", "Step", "digest",
           "load_record", "parse_record", "private_action", "revealed", "rules_tag", "table_source"]
