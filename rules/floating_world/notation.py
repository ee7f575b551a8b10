"""Floating World's action notation: parsed into `Action` values with one canonical text.

Canonical forms (lowercase; parsing ignores case and extra spaces, ``x, y`` may have spaces)::

    move 1,0                      land 0,-1                  village            heal         end
    takeover mind [boost]         attack oni@1,0 mind [boost]                    seal [boost]
    attack 2 spirit [item] [boost]   (another Kitsune on your Land; players are numbered from 1 = seat + 1)
    harvest      buy lucky_coin      keep none                trade lucky_coin to 2
    haunt oni [oni1>1,0 oni3>0,2]    spawn gaki 2,0           (a dead player's turn with the vengeful option)
    resolve oni@1,0    resolve all    flee 2,0    spawn 2,1   (the Nightmare's decisions, 6.1 / 6.2 / 6.4.3)
    resign                                                    (any seat, any time)
    timeout                                                   (the engine's alone: the turn deadline passed)

Polish words are accepted for every verb and stat (``ruch 1,0``, ``atak oni umysł``, ``kup lucky_coin``,
``koniec``), with or without diacritics; the canonical text stays English, so records and replays read the same
in every language.

Players are numbered from 1 in the notation because that is how the table names them ("Player 2"); the view's
``seat`` fields are 0-based like every other game's. ``attack oni mind`` without a Land is accepted and completed
to your own Land by `FloatingWorld.notation` (demons are attacked on your Land only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.base import InvalidActionError
from rules.floating_world.content import DREAM_BY_ID, STATS

Coord = tuple[int, int]
DEMON_TYPES = ("oni", "tengu", "gaki")
ENGINE_VERBS = ("timeout",)
ROLL_VERBS = ("takeover", "attack", "seal")
_COORD = re.compile(r"^(-?\d{1,3}),(-?\d{1,3})$")
_DEMON_AT = re.compile(r"^(oni|tengu|gaki)(?:@(-?\d{1,3},-?\d{1,3}))?$")
_HAUNT_MOVE = re.compile(r"^((?:oni|tengu|gaki)[1-4])>(-?\d{1,3},-?\d{1,3})$")
USAGE = {
    "move": "move x,y", "land": "land x,y", "takeover": "takeover body|mind|spirit",
    "attack": "attack oni@x,y mind  |  attack <player> body", "buy": "buy <card id>", "keep": "keep none",
    "trade": "trade <item> to <player>", "haunt": "haunt oni [oni1>x,y ...]", "spawn": "spawn oni x,y  |  spawn x,y",
    "resolve": "resolve oni@x,y  |  resolve all", "flee": "flee x,y",
}


# Polish (folded: no diacritics) -> the canonical word
ALIASES = {
    "ruch": "move", "idz": "move", "kraina": "land", "lad": "land", "wioska": "village", "wies": "village",
    "przejmij": "takeover", "przejecie": "takeover", "atak": "attack", "atakuj": "attack", "zbieraj": "harvest",
    "zniwa": "harvest", "kup": "buy", "zostaw": "keep", "nic": "none", "lecz": "heal", "wylecz": "heal",
    "pieczec": "seal", "zapieczetuj": "seal", "wymien": "trade", "daj": "trade", "do": "to", "koniec": "end",
    "nawiedz": "haunt", "przywolaj": "spawn", "poddaj": "resign", "cialo": "body", "umysl": "mind",
    "duch": "spirit", "wzmocnienie": "boost", "wzmocnij": "boost", "rozstrzygnij": "resolve", "uciekaj": "flee",
    "ucieknij": "flee", "wszystkie": "all", "wszystko": "all",
}
_FOLD = str.maketrans("ąćęłńóśźż", "acelnoszz")


def _canonical(word: str) -> str:
    return ALIASES.get(word.translate(_FOLD), word)


@dataclass(frozen=True)
class Action:
    verb: str
    at: Coord | None = None  # move / land / demon's Land / spawn Land
    stat: str | None = None
    target: str | None = None  # a demon type, or a card id
    seat: int | None = None  # 0-based target seat
    item: str | None = None
    boost: bool = False
    moves: tuple[tuple[str, Coord], ...] = ()  # haunt: (demon id, Land)

    @property
    def kind(self) -> str:
        """The action type counted by "at most one of each type" (5.3)."""
        if self.verb == "attack":
            return "attack_kitsune" if self.seat is not None else "attack_demon"
        if self.verb in ("buy", "keep"):
            return "harvest"
        return self.verb


def is_decision(a: Action) -> bool:
    """An answer to a paused Nightmare (``resolve``, ``flee``, ``spawn x,y``), not a Dream or haunt action."""
    return a.verb in ("resolve", "flee") or (a.verb == "spawn" and a.target is None)


def xy(c: Coord) -> str:
    return f"{c[0]},{c[1]}"


def text(a: Action) -> str:
    boost = " boost" if a.boost else ""
    v = a.verb
    if v in ("move", "land"):
        return f"{v} {xy(a.at)}" if a.at else v
    if v == "takeover" or v == "seal":
        return f"{v}{' ' + a.stat if a.stat else ''}{boost}"
    if v == "attack" and a.seat is not None:
        return f"attack {a.seat + 1} {a.stat}{' ' + a.item if a.item else ''}{boost}"
    if v == "attack":
        where = f"@{xy(a.at)}" if a.at else ""
        return f"attack {a.target}{where} {a.stat}{boost}"
    if v == "buy":
        return f"buy {a.target}"
    if v == "keep":
        return "keep none"
    if v == "trade":
        return f"trade {a.item} to {a.seat + 1}"
    if v == "haunt":
        return " ".join(["haunt", a.target or "", *(f"{d}>{xy(c)}" for d, c in a.moves)]).strip()
    if v == "spawn":
        return f"spawn {a.target} {xy(a.at)}" if a.target else f"spawn {xy(a.at)}"
    if v == "resolve":
        return f"resolve {a.target}@{xy(a.at)}" if a.at else "resolve all"
    if v == "flee":
        return f"flee {xy(a.at)}"
    return v


def parse(raw: str) -> Action:
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidActionError("fw.err.empty")
    norm = re.sub(r"\s*,\s*", ",", raw.strip().lower())
    words = [_canonical(w) for w in norm.split()]
    verb, rest = words[0], words[1:]
    simple = {"village", "heal", "end", "harvest", "timeout", "resign"}
    if verb in simple:
        _no_more(verb, rest)
        return Action(verb)
    handler = _PARSERS.get(verb)
    if handler is None:
        raise InvalidActionError("fw.err.unknown_verb", verb=verb)
    return handler(verb, rest)


def _no_more(verb: str, rest: list[str]) -> None:
    if rest:
        raise InvalidActionError("fw.err.extra_words", verb=verb, extra=" ".join(rest))


def coord(word: str, verb: str) -> Coord:
    m = _COORD.match(word)
    if not m:
        raise InvalidActionError("fw.err.bad_coord", word=word, usage=USAGE.get(verb, verb))
    return int(m.group(1)), int(m.group(2))


def _need(rest: list[str], n: int, verb: str, what: str) -> None:
    if len(rest) < n:
        raise InvalidActionError("fw.err.missing", what=what, usage=USAGE.get(verb, verb))


def _stat(word: str, verb: str) -> str:
    if word not in STATS:
        raise InvalidActionError("fw.err.bad_stat", word=word, usage=USAGE.get(verb, verb))
    return word


def _boost(rest: list[str]) -> tuple[list[str], bool]:
    if rest and rest[-1] == "boost":
        return rest[:-1], True
    return rest, False


def _p_coord(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "x,y")
    _no_more(verb, rest[1:])
    return Action(verb, at=coord(rest[0], verb))


def _p_takeover(verb: str, rest: list[str]) -> Action:
    rest, boost = _boost(rest)
    _need(rest, 1, verb, "stat")
    _no_more(verb, rest[1:])
    return Action(verb, stat=_stat(rest[0], verb), boost=boost)


def _p_seal(verb: str, rest: list[str]) -> Action:
    rest, boost = _boost(rest)
    if rest == ["mind"]:
        rest = []
    _no_more(verb, rest)
    return Action(verb, boost=boost)


def _player(word: str, verb: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 4:
        raise InvalidActionError("fw.err.bad_player", word=word, usage=USAGE.get(verb, verb))
    return int(word) - 1


def _card(word: str, verb: str) -> str:
    if word not in DREAM_BY_ID:
        raise InvalidActionError("fw.err.unknown_card", card=word)
    return word


def _p_attack(verb: str, rest: list[str]) -> Action:
    rest, boost = _boost(rest)
    _need(rest, 2, verb, "target and stat")
    stat = _stat(rest[1], verb)
    m = _DEMON_AT.match(rest[0])
    if m:
        _no_more(verb, rest[2:])
        at = coord(m.group(2), verb) if m.group(2) else None
        return Action(verb, at=at, stat=stat, target=m.group(1), boost=boost)
    seat = _player(rest[0], verb)
    _no_more(verb, rest[3:])
    item = _card(rest[2], verb) if len(rest) > 2 else None
    return Action(verb, stat=stat, seat=seat, item=item, boost=boost)


def _p_buy(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "card")
    _no_more(verb, rest[1:])
    return Action(verb, target=_card(rest[0], verb))


def _p_keep(verb: str, rest: list[str]) -> Action:
    if rest != ["none"]:
        raise InvalidActionError("fw.err.missing", what="none", usage=USAGE["keep"])
    return Action(verb)


def _p_trade(verb: str, rest: list[str]) -> Action:
    if len(rest) == 2:
        rest = [rest[0], "to", rest[1]]
    _need(rest, 3, verb, "item and player")
    _no_more(verb, rest[3:])
    if rest[1] != "to":
        raise InvalidActionError("fw.err.missing", what="to", usage=USAGE["trade"])
    return Action(verb, item=_card(rest[0], verb), seat=_player(rest[2], verb))


def _demon_type(word: str, verb: str) -> str:
    if word not in DEMON_TYPES:
        raise InvalidActionError("fw.err.bad_demon_type", word=word, usage=USAGE.get(verb, verb))
    return word


def _p_haunt(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "demon type")
    kind = _demon_type(rest[0], verb)
    moves: list[tuple[str, Coord]] = []
    for word in rest[1:]:
        m = _HAUNT_MOVE.match(word)
        if not m or not m.group(1).startswith(kind):
            raise InvalidActionError("fw.err.bad_haunt_move", word=word, usage=USAGE["haunt"])
        moves.append((m.group(1), coord(m.group(2), verb)))
    ids = [d for d, _ in moves]
    if len(ids) != len(set(ids)):
        raise InvalidActionError("fw.err.bad_haunt_move", word=" ".join(rest[1:]), usage=USAGE["haunt"])
    return Action(verb, target=kind, moves=tuple(sorted(moves)))


def _p_spawn(verb: str, rest: list[str]) -> Action:
    if len(rest) == 1:  # the Nightmare's spawn: the demon's type is already rolled (6.4.3)
        return Action(verb, at=coord(rest[0], verb))
    _need(rest, 2, verb, "demon type and x,y")
    _no_more(verb, rest[2:])
    return Action(verb, target=_demon_type(rest[0], verb), at=coord(rest[1], verb))


def _p_resolve(verb: str, rest: list[str]) -> Action:
    _need(rest, 1, verb, "demon")
    _no_more(verb, rest[1:])
    if rest[0] == "all":
        return Action(verb)
    m = _DEMON_AT.match(rest[0])
    if not m or not m.group(2):
        raise InvalidActionError("fw.err.bad_demon_type", word=rest[0], usage=USAGE["resolve"])
    return Action(verb, target=m.group(1), at=coord(m.group(2), verb))


_PARSERS = {
    "move": _p_coord, "land": _p_coord, "takeover": _p_takeover, "seal": _p_seal, "attack": _p_attack,
    "buy": _p_buy, "keep": _p_keep, "trade": _p_trade, "haunt": _p_haunt, "spawn": _p_spawn,
    "resolve": _p_resolve, "flee": _p_coord,
}
