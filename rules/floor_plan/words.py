"""What players type in their language, mapped to the one English notation the log keeps. Pure: Discord's typed
moves and ``/move`` (`cogs.floor_plan`) and the terminal (`terminal`) read typed moves through `canonical_text`.

The words of the Polish /help and buttons ("Pokój", "Elementy", "Zgłoś życzenie", "Pas", "Dżoker"…), accepted in
every game whatever its language, matched case- and accent-free. Checked by tests against `VERBS` and the Polish
catalogs.
"""

from __future__ import annotations

from rules.words import merged, translate

ALIASES: dict[str, dict[str, str]] = {
    "pl": {
        "pokój startowy": "start", "salon": "start",
        "pokój": "room",
        "elementy": "features", "element": "features", "cechy": "features",
        "drzwi": "doors", "dwoje drzwi": "doors",
        "zgłoś": "claim", "zgłoś życzenie": "claim", "zgłaszam": "claim", "zalicz": "claim", "zaliczam": "claim",
        "pomiń": "skip", "pas": "skip", "pasuję": "skip",
    },
}
WORD_ALIASES: dict[str, dict[str, str]] = {"pl": {"dzika": "wild", "dżoker": "wild", "joker": "wild"}}
VERB_ALIAS, WORD_ALIAS = merged(ALIASES), merged(WORD_ALIASES)


def canonical_text(text: str) -> str:
    """Typed text with aliases replaced step by step (``pokój C3 4x3 K@D4 dzika 3=6; zgłoś hosts.1`` →
    ``room C3 4x3 K@D4 wild 3=6; claim hosts.1``); the rules' parser then checks it."""
    return "; ".join(translate(step, VERB_ALIAS, WORD_ALIAS) for step in " ".join(text.split()).split(";"))
