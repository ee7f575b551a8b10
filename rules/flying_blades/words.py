"""What players type in their language, mapped to the one English notation the log keeps. Pure: Discord's typed
moves and ``/move`` (`cogs.flying_blades`) and the terminal (`terminal`) read typed moves through `canonical_text`.

The buttons and /help say "Atak", "Pas", "Bomba"…, so those words move. Accepted in every game whatever its
language (a player's language is not the server's), matched case- and accent-free. Checked by tests against
`VERBS`, `CARD_IDS` and the Polish catalogs.
"""

from __future__ import annotations

import re

from rules.words import folded, merged, replace_phrases, translate

ALIASES: dict[str, dict[str, str]] = {
    "pl": {
        "atak": "attack", "atakuj": "attack", "atakuję": "attack",
        "pas": "pass", "pasuję": "pass",
        "zniknięcie": "vanish", "znikanie": "vanish", "znikam": "vanish",
        "podwójne kopnięcie": "double", "podwójne": "double", "podwójny": "double",
        "potrójne kopnięcie": "triple", "potrójne": "triple", "potrójny": "triple",
        "podwójny smok": "dragon", "smok": "dragon",
        "kopnięcie okrężne": "circle", "okrężne": "circle", "okrężny": "circle", "krąg": "circle",
        "bomba": "bomb",
        "zachowaj": "keep", "zostaw": "keep", "zatrzymaj": "keep", "zatrzymuję": "keep",
    },
}
WORD_ALIASES: dict[str, dict[str, str]] = {"pl": {"z": "from"}}  # dragon e5 z e4
CARD_ALIASES: dict[str, dict[str, str]] = {  # keep …: the cards' Polish names (fb.card.*) and short forms
    "pl": {
        "zniknięcie": "vanish", "znikanie": "vanish",
        "podwójne kopnięcie": "double", "podwójne": "double", "podwójny": "double",
        "potrójne kopnięcie": "triple", "potrójne": "triple", "potrójny": "triple",
        "podwójny smok": "dragon", "smok": "dragon",
        "kopnięcie okrężne": "circle", "okrężne": "circle", "okrężny": "circle", "krąg": "circle",
        "bomba": "bomb", "nic": "none", "żadnych": "none", "żadne": "none", "brak": "none",
    },
}
VERB_ALIAS, WORD_ALIAS, CARD_ALIAS = merged(ALIASES), merged(WORD_ALIASES), merged(CARD_ALIASES)


def canonical_text(text: str) -> str:
    """Typed text with aliases replaced (``Atak C3 c4`` → ``attack c3 c4``, ``zachowaj bomba, smok`` →
    ``keep bomb,dragon``); the rules' parser then checks it and gives the canonical notation."""
    text = translate(" ".join(text.lower().split()), VERB_ALIAS, WORD_ALIAS)
    verb, _, rest = text.partition(" ")
    if verb != "keep" or not rest:
        return text
    cards = replace_phrases([w for w in re.split(r"[,\s]+", rest) if w], folded(CARD_ALIAS))
    return "keep " + ",".join(cards)
