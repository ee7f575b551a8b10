"""The Land and Dream cards, loaded from ``data/floating_world/`` and validated on import.

The rulebook's Land and Dream cards were "available online" and are lost, so ours are fan-made. Lands are
cosmetic (a name). A Dream card is ``{id, name: {en, pl}, type: item|upgrade|legend, cost: 2..6, effect}`` and
its effect is one of this small vocabulary, the only thing the engine understands (``kind`` + parameters):

==================  =======  ===============================================================================
kind                type     meaning
==================  =======  ===============================================================================
stat_bonus          item     ``{stat, pips}``: +pips to that stat in every roll while carried (3 pips = +1D)
reroll              item     a failed contest of yours is rerolled once, then the card is discarded
harvest_praise      item     ``{amount}``: +amount Praise each time you harvest
village_praise      upgrade  ``{amount}``: +amount Praise per Village of yours when collecting (5.1)
heal                upgrade  ``{amount}``: heal +amount Wounds when healing in a Village of yours
land_guard          upgrade  ``{amount}``: a demon attacking a Land with your Village needs +amount
legend_reroll       legend   once per turn, a failed contest of yours is rerolled
contest_die         legend   ``{contest: demon|kitsune|village|seal, dice: 1}``: +1D in that contest
harvest_draw        legend   ``{amount}``: draw +amount Dream cards when harvesting
max_wounds          legend   ``{amount}``: survive +amount more Wounds
==================  =======  ===============================================================================

Contests: ``demon`` is any roll against a demon (your attack or its attack on you), ``kitsune`` a roll against
another Kitsune (either side), ``village`` a take-over, ``seal`` the Spell of Sealing. Rerolls are automatic
(a legend first, since it comes back next turn, then an item): an asynchronous game should not stop to ask, and
rerolling a failure is never worse. Ids never change once shipped (saved games name them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "floating_world"
STATS = ("body", "mind", "spirit")
TYPES = ("item", "upgrade", "legend")
CONTESTS = ("demon", "kitsune", "village", "seal")
ID = re.compile(r"^[a-z][a-z0-9_]{1,39}$")
GATE_CARD = "gate"
# kind -> (card type, {param: allowed values or (lo, hi)})
VOCABULARY: dict[str, tuple[str, dict[str, Any]]] = {
    "stat_bonus": ("item", {"stat": STATS, "pips": (1, 3)}),
    "reroll": ("item", {}),
    "harvest_praise": ("item", {"amount": (1, 3)}),
    "village_praise": ("upgrade", {"amount": (1, 2)}),
    "heal": ("upgrade", {"amount": (1, 2)}),
    "land_guard": ("upgrade", {"amount": (1, 3)}),
    "legend_reroll": ("legend", {}),
    "contest_die": ("legend", {"contest": CONTESTS, "dice": (1, 1)}),
    "harvest_draw": ("legend", {"amount": (1, 2)}),
    "max_wounds": ("legend", {"amount": (1, 1)}),
}


class ContentError(ValueError):
    """A data file breaks the schema (caught by the tests, raised at import)."""


@dataclass(frozen=True)
class Dream:
    id: str
    name: dict[str, str]
    type: str
    cost: int
    kind: str
    params: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True)
class LandCard:
    id: str
    name: dict[str, str]


def _names(raw: Any, where: str) -> dict[str, str]:
    if not isinstance(raw, dict) or set(raw) != {"en", "pl"} or not all(isinstance(v, str) and v for v in
                                                                          raw.values()):
        raise ContentError(f"{where}: name needs non-empty en and pl")
    return dict(raw)


def _effect(raw: Any, card_type: str, where: str) -> tuple[str, dict[str, Any]]:
    if not isinstance(raw, dict) or raw.get("kind") not in VOCABULARY:
        raise ContentError(f"{where}: effect kind must be one of {', '.join(VOCABULARY)}")
    kind = raw["kind"]
    wanted_type, spec = VOCABULARY[kind]
    if card_type != wanted_type:
        raise ContentError(f"{where}: a {kind} effect belongs on a {wanted_type}, not a {card_type}")
    params = {k: v for k, v in raw.items() if k != "kind"}
    if set(params) != set(spec):
        raise ContentError(f"{where}: {kind} takes {sorted(spec)}, not {sorted(params)}")
    for key, allowed in spec.items():
        value = params[key]
        ok = (isinstance(value, int) and not isinstance(value, bool) and allowed[0] <= value <= allowed[1]
              if isinstance(allowed[0], int) else value in allowed)
        if not ok:
            raise ContentError(f"{where}: {kind}.{key}={value!r} is out of range {allowed}")
    return kind, params


def parse_dreams(doc: Any) -> tuple[Dream, ...]:
    if not isinstance(doc, dict) or not isinstance(doc.get("note"), str) or "fan-made" not in doc["note"].lower():
        raise ContentError("dreams.json: a top-level note must say the cards are fan-made")
    out: list[Dream] = []
    for i, raw in enumerate(doc.get("dreams", [])):
        where = f"dreams[{i}]"
        if not isinstance(raw, dict) or set(raw) != {"id", "name", "type", "cost", "effect"}:
            raise ContentError(f"{where}: keys are id, name, type, cost, effect")
        if not isinstance(raw["id"], str) or not ID.match(raw["id"]):
            raise ContentError(f"{where}: bad id {raw['id']!r}")
        if raw["type"] not in TYPES:
            raise ContentError(f"{where}: type must be one of {TYPES}")
        cost = raw["cost"]
        if not isinstance(cost, int) or isinstance(cost, bool) or not 2 <= cost <= 6:
            raise ContentError(f"{where}: cost must be 2..6")
        kind, params = _effect(raw["effect"], raw["type"], where)
        out.append(Dream(raw["id"], _names(raw["name"], where), raw["type"], cost, kind, params))
    _unique([d.id for d in out], "dreams")
    return tuple(out)


def parse_lands(doc: Any) -> tuple[LandCard, ...]:
    if not isinstance(doc, dict) or not isinstance(doc.get("lands"), list):
        raise ContentError("lands.json: needs a lands list")
    out = []
    for i, raw in enumerate(doc["lands"]):
        if not isinstance(raw, dict) or set(raw) != {"id", "name"} or not isinstance(raw["id"], str) \
                or not ID.match(raw["id"]):
            raise ContentError(f"lands[{i}]: needs a good id and a name")
        out.append(LandCard(raw["id"], _names(raw["name"], f"lands[{i}]")))
    _unique([c.id for c in out], "lands")
    if GATE_CARD not in {c.id for c in out}:
        raise ContentError("lands.json: the Gateless Gate (id 'gate') is missing")
    return tuple(out)


def _unique(ids: list[str], where: str) -> None:
    if len(ids) != len(set(ids)):
        raise ContentError(f"{where}: duplicate ids")


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


DREAMS: tuple[Dream, ...] = parse_dreams(_load("dreams.json"))
LANDS: tuple[LandCard, ...] = parse_lands(_load("lands.json"))
DREAM_BY_ID: dict[str, Dream] = {d.id: d for d in DREAMS}
LAND_BY_ID: dict[str, LandCard] = {c.id: c for c in LANDS}
DREAM_IDS: tuple[str, ...] = tuple(sorted(DREAM_BY_ID))
LAND_IDS: tuple[str, ...] = tuple(sorted(c.id for c in LANDS if c.id != GATE_CARD))
