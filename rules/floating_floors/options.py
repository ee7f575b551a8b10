"""Floating Floors' options: their names, allowed values and checks, and the `Options` a state carries.

Below the state (its loader reads stored options through `options_of`) and the facade (`normalize`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.base import OptionsError

CHAKRA = ("choose", "middle")
SHAKY = ("off", "claims", "all")
TENSION = ("exact", "bands")  # previews give the margin, or only a band (safe / shaky / falls) with its risk
OPTION_KEYS = ("shaky", "challenges", "master", "master_dice", "master_steps", "master_order", "overlay", "chakra",
               "tension")
DEFAULT_TENSION = "bands"  # a new game's (measured in docs/floating_floors.md, tools/ff_tension_sim.py)
LEGACY_TENSION = "exact"  # absent from the options: how games made before the option played (they replay exactly)


@dataclass(frozen=True)
class Options:
    shaky: str = "off"  # "shaky hands": off, for claims only (Challenge 2), for everything (Challenge 8)
    challenges: tuple[int, ...] = ()
    master: int | None = None  # the Master's seat (Master vs Apprentice), if any
    master_dice: int = 2
    master_steps: bool = True  # at most 4 steps a turn
    master_order: bool = True  # Bansen in number order
    overlay: bool = True  # the image's physics overlay
    chakra: str = "choose"  # each player picks their Chakra's alcove on their side, or it goes in the middle
    tension: str = "exact"  # "bands": only a band is shown, and a shaky check may fall (see statics.band)

    def has(self, challenge: int) -> bool:
        return challenge in self.challenges

    @property
    def shaky_claims(self) -> bool:
        return self.shaky != "off" or self.has(2) or self.has(8) or self.tension == "bands"

    @property
    def shaky_all(self) -> bool:
        return self.shaky == "all" or self.has(8) or self.tension == "bands"

    def to_dict(self) -> dict[str, Any]:
        on = {True: "on", False: "off"}
        return {"shaky": self.shaky, "challenges": ",".join(map(str, self.challenges)) or "none",
                "master": "none" if self.master is None else str(self.master + 1), "master_dice": self.master_dice,
                "master_steps": on[self.master_steps], "master_order": on[self.master_order],
                "overlay": on[self.overlay], "chakra": self.chakra, "tension": self.tension}


def _switch(options: dict[str, Any], key: str, default: bool) -> bool:
    raw = options.get(key, "on" if default else "off")
    value = {True: True, False: False, "on": True, "off": False}.get(raw) if isinstance(raw, bool | str) else None
    if value is None:
        raise OptionsError("ff.options.switch", option=key, value=repr(raw)[:20])
    return value


def _challenges(raw: Any) -> tuple[int, ...]:
    if raw in (None, "", "none", ()):
        return ()
    if isinstance(raw, str) and raw.startswith("campaign"):
        upto = raw.removeprefix("campaign").strip(":= ")
        if upto.isdigit() and 1 <= int(upto) <= 8:
            return tuple(range(1, int(upto) + 1))
    # One challenge typed alone arrives as a number (`challenges=5`), a list from a lobby as a list.
    parts = [p.strip() for p in raw.split(",")] if isinstance(raw, str) else \
        list(raw) if isinstance(raw, list | tuple) else [raw]
    if not parts or not all(str(p).isdigit() and 1 <= int(p) <= 8 for p in parts):
        raise OptionsError("ff.options.challenges", value=repr(raw)[:30])
    return tuple(sorted({int(p) for p in parts}))


def options_of(players: int, options: dict[str, Any]) -> Options:
    options = dict(options or {})
    for key in sorted(set(options) - set(OPTION_KEYS)):
        raise OptionsError("ff.options.unknown", option=key[:30], known=", ".join(OPTION_KEYS))
    shaky = options.get("shaky", "off")
    if shaky not in SHAKY:
        raise OptionsError("ff.options.shaky", value=repr(shaky)[:20], allowed=", ".join(SHAKY))
    master_raw = options.get("master", "none")
    master = None
    if master_raw not in (None, "none", "off"):
        if not str(master_raw).isdigit() or not 1 <= int(master_raw) <= players:
            raise OptionsError("ff.options.master", value=repr(master_raw)[:20], players=players)
        master = int(master_raw) - 1
    chakra = options.get("chakra", "choose")
    if chakra not in CHAKRA:
        raise OptionsError("ff.options.chakra", value=repr(chakra)[:20], allowed=", ".join(CHAKRA))
    tension = options.get("tension", LEGACY_TENSION)
    if tension not in TENSION:
        raise OptionsError("ff.options.tension", value=repr(tension)[:20], allowed=", ".join(TENSION))
    dice = options.get("master_dice", 2)
    if not str(dice).isdigit() or not 1 <= int(dice) <= 3:
        raise OptionsError("ff.options.master_dice", value=repr(dice)[:20])
    return Options(shaky=shaky, challenges=_challenges(options.get("challenges")), master=master,
                   master_dice=int(dice), master_steps=_switch(options, "master_steps", True),
                   master_order=_switch(options, "master_order", True), overlay=_switch(options, "overlay", True),
                   chakra=chakra, tension=tension)


def normalize(players: Any, options: Any) -> dict[str, Any]:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise OptionsError("ff.options.players", count=players, min=2, max=4)
    return options_of(players, options or {}).to_dict()
