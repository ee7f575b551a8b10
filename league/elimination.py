"""Fixed single- and double-elimination brackets: standard seeding, byes to the top seeds, no re-seeding.

Every match knows at creation where its winner (and, in double elimination, its loser) goes, so an upset never
reshuffles the bracket: seed 8 beating seed 1 meets the winner of 4 v 5. A `Bracket` is an immutable value; `record`,
`forfeit` and `withdraw` return a new one, and every automatic step (a bye, a walkover against a withdrawn player, a
losers-bracket slot nobody will ever reach) is resolved at once, so the bracket never waits on a match nobody plays.

Match ids: "W2-3" is winners round 2 match 3, "L4-1" losers round 4 match 1, "GF1" the grand final, "GF2" its reset.
A single-elimination final is the last winners round ("W3-1" for 8 players); "P3" its third-place match (the two
semi-final losers, played beside the final), when the organiser wants one.

Schedule (`Match.play_round`, the tournament round a match belongs to), with k winners rounds (2**k = bracket size):
- single elimination: winners round r is tournament round r.
- double elimination: W1 -> 1, Wr -> 2r - 2 (r >= 2), Lj -> j + 1, GF1 -> 2k, GF2 -> 2k + 1.
  So tournament round 2 holds W2 and L1, round 3 the drop-in round L2 (W2's losers), round 4 W3 and L3, and so on:
  the losers of Wr play their next match (L(2r-2), round 2r - 1) right after it. Every feed goes to a strictly later
  tournament round, so a player has at most one match per tournament round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

Kind = Literal["single", "double"]
Target = tuple[str, int]  # (match id, slot index) a player is sent to

PLAYED = "played"  # a game decided it
FORFEIT = "forfeit"  # a no-show, or a walkover against a withdrawn player: a loss for them, a win for the other
BYE = "bye"  # one player and no possible opponent: they advance, nobody lost
VOID = "void"  # nobody advances (both sides empty or withdrawn, or a grand-final reset that is not needed)
THIRD = "P3"  # the third-place match's id

# Why a match's winner advanced, as the export says it.
WON = "won"  # won the match's game (or its deciding game after draws: see Match.draws)
HIGHER_SEED = "higher_seed"  # every game drawn: the higher seed went through (the organiser's draw rule, or the cap)
REASONS = (WON, HIGHER_SEED, FORFEIT, BYE, VOID)
_OLD_REASON = {PLAYED: WON, FORFEIT: FORFEIT, BYE: BYE, VOID: VOID}  # stored before reasons were kept


class BracketError(ValueError):
    """A bracket cannot be built, or cannot accept a result or a withdrawal."""


@dataclass(frozen=True)
class Match:
    id: str
    round: int  # round inside its own bracket: W2-1 and L2-1 are both round 2; GF1 is 1, GF2 is 2
    slots: tuple[str | None, str | None]  # None: not known yet, or never filled (a bye)
    winner: str | None = None
    result: str | None = None  # None while open, else PLAYED, FORFEIT, BYE or VOID
    win_to: Target | None = None
    lose_to: Target | None = None
    play_round: int = 1  # tournament round in the fixed schedule (module docstring)
    label: str = ""  # display text: "Semi-final 2", "Losers round 3, match 1", "Grand final reset"
    reason: str = ""  # why the winner advanced: a REASONS key ("" while open)
    draws: int = 0  # drawn games before it was decided (each replayed with seats swapped, or settled by seed)

    @property
    def decided(self) -> bool:
        return self.result is not None

    @property
    def ready(self) -> bool:
        # An open match with two players always has two active ones: a withdrawn player's match resolves at once.
        return self.result is None and None not in self.slots

    @property
    def losers(self) -> tuple[str, ...]:
        if not self.decided:
            return ()
        return tuple(p for p in self.slots if p is not None and p != self.winner)

    @property
    def stage(self) -> tuple[str, int]:
        """Title key of the display round: ("winners", r), ("losers", j) or ("final", 1 | 2)."""
        if self.id.startswith("GF"):
            return ("final", self.round)
        if self.id == THIRD:
            return ("third", 1)
        return ("winners" if self.id.startswith("W") else "losers", self.round)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "slots": list(self.slots), "winner": self.winner,
                "result": self.result, "win_to": None if self.win_to is None else list(self.win_to),
                "lose_to": None if self.lose_to is None else list(self.lose_to), "play_round": self.play_round,
                "label": self.label, "reason": self.reason, "draws": self.draws}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Match:
        a, b = d["slots"]
        return cls(str(d["id"]), int(d["round"]), (_opt(a), _opt(b)), _opt(d.get("winner")), _opt(d.get("result")),
                   _target(d.get("win_to")), _target(d.get("lose_to")), int(d["play_round"]), str(d.get("label", "")),
                   str(d.get("reason") or _OLD_REASON.get(d.get("result"), "")), int(d.get("draws", 0)))


@dataclass(frozen=True)
class Bracket:
    kind: Kind
    seeds: tuple[str, ...]  # best first
    matches: tuple[Match, ...]  # creation order, which is also a topological order of the feeds
    grand_final_reset: bool = False
    withdrawn: tuple[str, ...] = ()

    # -- queries -------------------------------------------------------------------------------------------------

    def match(self, match_id: str) -> Match:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise BracketError(f"no match {match_id!r} in this bracket")

    def ready(self) -> list[Match]:
        """Matches with both players known and no result: every one can be played now."""
        return [m for m in self.matches if m.ready]

    def current_round_number(self) -> int:
        """The earliest tournament round holding a ready match; once finished, the last round that had a game."""
        ready = self.ready()
        if ready:
            return min(m.play_round for m in ready)
        return max((m.play_round for m in self.matches if m.result in (PLAYED, FORFEIT)), default=1)

    def due(self) -> list[Match]:
        """The ready matches of the current tournament round (the fixed schedule; `ready` may run ahead of it)."""
        now = self.current_round_number()
        return [m for m in self.ready() if m.play_round == now]

    @property
    def finished(self) -> bool:
        return all(m.decided for m in self.matches)

    @property
    def champion(self) -> str | None:
        if not self.finished:
            return None
        finals = [m for m in self.matches if m.win_to is None and m.id != THIRD
                  and (m.stage[0] == "final" or self.kind == "single")]
        played = [m for m in finals if any(p is not None for p in m.slots)]  # an unneeded reset stays empty
        return played[-1].winner if played else None

    def eliminated(self) -> list[tuple[str, ...]]:
        """Players out so far, grouped by the tournament round of their last loss, latest (best) first."""
        alive = {p for m in self.matches if not m.decided for p in m.slots if p is not None}
        champion = self.champion
        out: dict[str, int] = {}
        for m in self.matches:
            for p in m.losers:
                out[p] = max(out.get(p, 0), m.play_round)
        tier: dict[str, int] = {}  # the third-place match splits the semi-final losers: its winner 3rd, loser 4th
        third = next((m for m in self.matches if m.id == THIRD and m.winner is not None), None)
        if third is not None:
            out[third.winner] = third.play_round
            tier.update({third.winner: 1, **{p: 2 for p in third.losers}})
        rank = {p: i for i, p in enumerate(self.seeds)}
        gone = sorted((p for p in out if p not in alive and p != champion),
                      key=lambda p: (-out[p], tier.get(p, 0), rank[p]))
        groups: list[tuple[str, ...]] = []
        for p in gone:
            if groups and (out[groups[-1][0]], tier.get(groups[-1][0], 0)) == (out[p], tier.get(p, 0)):
                groups[-1] += (p,)
            else:
                groups.append((p,))
        return groups

    def placements(self) -> list[tuple[str, ...]]:
        """Final ranking groups, best first: champion, runner-up, then players tied by the round they went out."""
        if not self.finished:
            raise BracketError("the bracket is not finished; use eliminated() for the players out so far")
        champion = self.champion
        return ([(champion,)] if champion is not None else []) + self.eliminated()

    def rounds(self) -> list[list[Match]]:
        """Matches grouped for display: winners rounds, then losers rounds, then the finals (key: `Match.stage`)."""
        order = {"winners": 0, "losers": 1, "final": 2, "third": 3}
        groups: dict[tuple[str, int], list[Match]] = {}
        for m in self.matches:
            groups.setdefault(m.stage, []).append(m)
        return [groups[key] for key in sorted(groups, key=lambda s: (order[s[0]], s[1]))]

    # -- changes -------------------------------------------------------------------------------------------------

    def record(self, match_id: str, winner: str, *, reason: str = WON, draws: int = 0) -> Bracket:
        if reason not in (WON, HIGHER_SEED):
            raise BracketError(f"a played match is won or settled by seed, not {reason!r}")
        return self._decide(match_id, winner, PLAYED, reason=reason, draws=draws)

    def higher_seed(self, match_id: str) -> str:
        """The better-seeded player of a ready match (who goes through when its games are all drawn)."""
        order = {p: i for i, p in enumerate(self.seeds)}
        return min((p for p in self.match(match_id).slots if p is not None), key=lambda p: order.get(p, len(order)))

    def forfeit(self, match_id: str, loser: str) -> Bracket:
        """The loser did not play this match (a no-show); unlike `withdraw`, they stay in the tournament."""
        m = self.match(match_id)
        if loser not in m.slots:
            raise BracketError(f"{loser!r} does not play in match {match_id}")
        other = m.slots[1] if m.slots[0] == loser else m.slots[0]
        if other is None:
            raise BracketError(f"match {match_id} is not ready: its other player is not known yet")
        return self._decide(match_id, other, FORFEIT)

    def withdraw(self, player_id: str) -> Bracket:
        """The player forfeits their pending match and all later ones, and never drops into the losers bracket."""
        if player_id not in self.seeds:
            raise BracketError(f"{player_id!r} is not in this bracket")
        still_in = any(player_id in m.slots for m in self.matches if not m.decided)
        if player_id in self.withdrawn or not still_in:
            return self
        return replace(self, withdrawn=(*self.withdrawn, player_id))._resolved()

    def _decide(self, match_id: str, winner: str, result: str, *, reason: str = "", draws: int = 0) -> Bracket:
        m = self.match(match_id)
        if m.decided:
            raise BracketError(f"match {match_id} is already decided")
        if not m.ready:
            raise BracketError(f"match {match_id} is not ready: a player is not known yet")
        if winner not in m.slots:
            raise BracketError(f"{winner!r} does not play in match {match_id}")
        matches = {x.id: x for x in self.matches}
        _close(matches, match_id, winner, result, self.withdrawn)
        matches[match_id] = replace(matches[match_id], reason=reason or _OLD_REASON[result], draws=draws)
        return self._settled(matches)

    def _resolved(self) -> Bracket:
        return self._settled({m.id: m for m in self.matches})

    def _settled(self, matches: dict[str, Match]) -> Bracket:
        """Resolve every match that needs no game (byes, walkovers, dead slots, an unneeded reset)."""
        feeders = {t: m.id for m in matches.values() for t in (m.win_to, m.lose_to) if t is not None}
        # Creation order is topological, so one pass sees each match after everything that feeds it.
        for mid in list(matches):
            m = matches[mid]
            if m.decided:
                continue
            if mid == "GF2" and not _fill_reset(matches):
                continue
            m = matches[mid]
            if any(m.slots[s] is None and not matches[feeders[(mid, s)]].decided
                   for s in (0, 1) if (mid, s) in feeders):
                continue  # a slot may still be filled
            players = [p for p in m.slots if p is not None]
            active = [p for p in players if p not in self.withdrawn]
            if len(active) == 2:
                continue  # ready: a game decides it
            result = VOID if not active else (FORFEIT if len(players) == 2 else BYE)
            _close(matches, mid, active[0] if active else None, result, self.withdrawn)
        return replace(self, matches=tuple(matches.values()))

    # -- JSON ----------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seeds": list(self.seeds), "grand_final_reset": self.grand_final_reset,
                "withdrawn": list(self.withdrawn), "matches": [m.to_json() for m in self.matches]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Bracket:
        kind = d["kind"]
        if kind not in ("single", "double"):
            raise BracketError(f"unknown bracket kind {kind!r}")
        return cls(kind, tuple(str(s) for s in d["seeds"]), tuple(Match.from_json(m) for m in d["matches"]),
                   bool(d.get("grand_final_reset", False)), tuple(str(p) for p in d.get("withdrawn", ())))


# -- building ------------------------------------------------------------------------------------------------------


def single_elimination(seeds: Sequence[str], *, third_place: bool = False) -> Bracket:
    """``third_place``: the semi-final losers play for 3rd beside the final (from 3 players: a bracket of 4)."""
    players = _checked(seeds)
    k = _rounds_for(len(players))
    matches = _winners_bracket(players, k, double=False)
    if third_place and k >= 2:
        matches = [replace(m, lose_to=(THIRD, (int(m.id.split("-")[1]) - 1) % 2)) if m.round == k - 1 else m
                   for m in matches]
        matches.append(Match(THIRD, 1, (None, None), play_round=k, label="Third-place match"))
    return Bracket("single", players, tuple(matches))._resolved()


def double_elimination(seeds: Sequence[str], grand_final_reset: bool = True) -> Bracket:
    players = _checked(seeds)
    k = _rounds_for(len(players))
    matches = [replace(m, lose_to=_drop_target(m.round, int(m.id.split("-")[1]), k))
               for m in _winners_bracket(players, k, double=True)]
    matches += _losers_bracket(k)
    matches.append(Match("GF1", 1, (None, None), play_round=2 * k, label="Grand final"))
    if grand_final_reset:
        matches.append(Match("GF2", 2, (None, None), play_round=2 * k + 1, label="Grand final reset"))
    return Bracket("double", players, tuple(matches), grand_final_reset)._resolved()


def seed_order(size: int) -> list[int]:
    """Standard seed positions for a power-of-two bracket: 8 -> [1, 8, 4, 5, 2, 7, 3, 6] (1 and 2 only meet last)."""
    order = [1]
    while len(order) < size:
        order = [s for x in order for s in (x, 2 * len(order) + 1 - x)]
    return order


def _winners_bracket(players: tuple[str, ...], k: int, *, double: bool) -> list[Match]:
    order = seed_order(2**k)
    # Seeds past the field are byes; standard order puts them against the top seeds.
    first = [players[s - 1] if s <= len(players) else None for s in order]
    out: list[Match] = []
    for r in range(1, k + 1):
        for i in range(1, 2 ** (k - r) + 1):
            slots = (first[2 * i - 2], first[2 * i - 1]) if r == 1 else (None, None)
            if r < k:
                win_to: Target | None = (f"W{r + 1}-{(i + 1) // 2}", (i - 1) % 2)
            else:
                win_to = ("GF1", 0) if double else None
            play_round = (1 if r == 1 else 2 * r - 2) if double else r
            label = _winners_label(r, i, k, double)
            out.append(Match(f"W{r}-{i}", r, slots, win_to=win_to, play_round=play_round, label=label))
    return out


def _drop_target(r: int, i: int, k: int) -> Target:
    """Where the loser of winners match Wr-i goes."""
    if k == 1:
        return ("GF1", 1)
    if r == 1:
        return (f"L1-{(i + 1) // 2}", (i - 1) % 2)
    # Wr's losers meet the survivors of L(2r-3). Reversing the order every other round sends a dropper to the
    # half of the losers bracket they did not come through, which avoids the immediate rematches.
    count = 2 ** (k - r)
    return (f"L{2 * r - 2}-{count + 1 - i if r % 2 == 0 else i}", 1)


def _losers_bracket(k: int) -> list[Match]:
    last = 2 * k - 2
    out: list[Match] = []
    for j in range(1, last + 1):
        for i in range(1, 2 ** (k - 1 - (j + 1) // 2) + 1):
            if j == last:
                win_to: Target = ("GF1", 1)
            elif j % 2 == 1:
                win_to = (f"L{j + 1}-{i}", 0)  # the next round takes Wr's losers into slot 1: same match count
            else:
                win_to = (f"L{j + 1}-{(i + 1) // 2}", (i - 1) % 2)
            label = "Losers final" if j == last else f"Losers round {j}, match {i}"
            out.append(Match(f"L{j}-{i}", j, (None, None), win_to=win_to, play_round=j + 1, label=label))
    return out


def _winners_label(r: int, i: int, k: int, double: bool) -> str:
    if double:
        return "Winners final" if r == k else f"Winners round {r}, match {i}"
    names = {0: "Final", 1: f"Semi-final {i}", 2: f"Quarter-final {i}"}
    return names.get(k - r, f"Round {r}, match {i}")


def _rounds_for(n: int) -> int:
    return max(1, (n - 1).bit_length())


def _checked(seeds: Iterable[str]) -> tuple[str, ...]:
    players = tuple(seeds)
    if len(players) < 2:
        raise BracketError("an elimination bracket needs at least 2 players")
    if len(set(players)) != len(players):
        raise BracketError("a player is seeded twice")
    if not all(isinstance(p, str) and p for p in players):
        raise BracketError("player ids must be non-empty strings")
    return players


# -- resolution ----------------------------------------------------------------------------------------------------


def _close(matches: dict[str, Match], mid: str, winner: str | None, result: str, withdrawn: tuple[str, ...]) -> None:
    m = replace(matches[mid], winner=winner, result=result, reason=_OLD_REASON[result])
    matches[mid] = m
    if winner is not None and m.win_to is not None:
        _place(matches, m.win_to, winner)
    if m.lose_to is not None:
        for p in m.losers:
            if p not in withdrawn:  # a withdrawn player's loss ends their tournament
                _place(matches, m.lose_to, p)


def _place(matches: dict[str, Match], target: Target, player: str) -> None:
    mid, slot = target
    m = matches[mid]
    slots = (player, m.slots[1]) if slot == 0 else (m.slots[0], player)
    matches[mid] = replace(m, slots=slots)


def _fill_reset(matches: dict[str, Match]) -> bool:
    """Seat GF2 once GF1 is decided; False while GF1 is open or when no reset is needed (GF2 is voided then)."""
    gf1 = matches["GF1"]
    if not gf1.decided:
        return False
    # Only a win by the losers-bracket champion (slot 1) gives the winners-bracket champion their first loss.
    if gf1.result in (PLAYED, FORFEIT) and gf1.winner is not None and gf1.winner == gf1.slots[1]:
        matches["GF2"] = replace(matches["GF2"], slots=gf1.slots)
        return True
    matches["GF2"] = replace(matches["GF2"], result=VOID, reason=VOID)
    return False


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)


def _target(value: Any) -> Target | None:
    return None if value is None else (str(value[0]), int(value[1]))
