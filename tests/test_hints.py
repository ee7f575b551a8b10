"""Hints for attempted moves (`cogs.utils.hints`) and the games' verb aliases: which typed lines are chat and
which are attempted moves, what the hint says, and that every alias table is sound data."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from cogs import floor_plan as fp
from cogs import flying_blades as fb
from cogs.utils import hints
from engine import SeatInfo, Table
from i18n import t
from rules.base import RulesError
from rules.floor_plan import FloorPlan
from rules.floor_plan import notation as fp_notation
from rules.flying_blades import notation as fb_notation
from rules.flying_blades.cards import CARD_IDS

# Chat a seated player may type in a game's thread: never a reply.
CHAT = ["gg", "nice move!", "attack is the best defence", "brb 5 min", "c u at 8", "lol",
        "https://example.com/board/a1", "🙂", "👍 🔥", "dobry ruch", "ale atak!", "pass the salt",
        "good luck everyone!", "bob", "a1", "i3 is nice", "start now?", "room for one more", "skip it", "ok",
        "kto ma ruch?", "atak jest najlepszą obroną", "<@730000000000000002> your turn", "@everyone c3"]
# Attempted moves that are not moves, and the verb the hint suggests (None: no verb to suggest).
FB_ATTEMPTS = [("atack a1 a2", "attack"), ("attak c3 c4", "attack"), ("atakk c3 c4", "attack"),
               ("shurikn c3 c7", "shuriken"), ("bomm e5 e8", "bomb"), ("passs", "pass"), ("c3 c4", None),
               ("jump c3 c4", None), ("C3 C5", None), ("smook e5 z e4", "dragon")]
FP_ATTEMPTS = [("strat G5 6x3", "start"), ("rom C3 4x3 K@D4", "room"), ("skp", "skip"),
               ("featurs 3:C3,D3,E3", "features"), ("pokuj C3 4x3 K@D4", "room"), ("C3 4x3 K@D4", None)]


def fb_hint(text: str, locale: str = "en") -> str | None:
    return hints.near_miss(text, fb.TYPED_VERBS, locale, aliases=fb.VERB_ALIAS, examples=["attack c3 c4", "pass"],
                           game="flying_blades", arg=fb.is_argument, alone=("pass",))


def fp_hint(text: str, locale: str = "en") -> str | None:
    return hints.near_miss(text, fp.TYPED_VERBS, locale, aliases=fp.VERB_ALIAS, examples=["start G5 6x3"],
                           game="floor_plan", private=True, arg=fp.is_argument, alone=("skip",))


@pytest.mark.parametrize("line", CHAT)
def test_chat_gets_no_hint_in_either_game(line: str) -> None:
    assert fb_hint(line) is None and fp_hint(line) is None


@pytest.mark.parametrize(("line", "guess"), FB_ATTEMPTS)
def test_an_attempted_flying_blades_move_gets_a_hint_with_the_verb_it_meant(line: str, guess: str | None) -> None:
    hint = fb_hint(line)
    assert hint is not None and "Moves now: `attack c3 c4`, `pass`" in hint and "/help flying_blades" in hint
    assert (f"Did you mean `{guess}`?" in hint) == (guess is not None), hint


@pytest.mark.parametrize(("line", "guess"), FP_ATTEMPTS)
def test_an_attempted_floor_plan_move_gets_a_hint_to_use_slash_move(line: str, guess: str | None) -> None:
    hint = fp_hint(line)
    assert hint is not None and "use /move" in hint and "`start G5 6x3`" in hint, hint
    assert (f"Did you mean `{guess}`?" in hint) == (guess is not None), hint


def test_the_hint_reads_as_one_line_with_the_typed_word_in_a_code_span() -> None:
    assert fb_hint("atack a1 a2") == ("`atack` is not a move. Did you mean `attack`? Moves now: `attack c3 c4`, "
                                      "`pass` — or /help flying_blades")
    assert fb_hint("c3 c4") == "A move starts with its verb. Moves now: `attack c3 c4`, `pass` — or /help flying_blades"
    assert fb_hint("atack a1 a2", "pl") == ("`atack` to nie ruch. Czy chodziło o `attack`? Możliwe ruchy: "
                                            "`attack c3 c4`, `pass` — albo /pomoc flying_blades")


def test_only_a_plain_word_is_ever_quoted_back() -> None:
    """The reply quotes the typed verb in a code span: markdown, mentions and backticks never get there."""
    for line in ("at`ack a1 a2", "@everyone c3 c4", "**bold** c3 c4", "<@730000000000000002> c3 c4",
                 "||atack|| a1 a2", "a" * 30 + " c3 c4"):
        assert fb_hint(line) is None and fp_hint(line) is None, line


def test_a_real_verb_or_alias_is_never_a_near_miss() -> None:
    for line in ("attack c3 c4", "atak c3 c4", "pass", "pas", "Atakuj c3 c4", "keep none"):
        assert fb_hint(line) is None, line


def test_words_are_compared_without_case_or_accents() -> None:
    assert hints.fold("Pomiń") == "pomin" and hints.fold("ZGŁOŚ") == "zglos" and hints.fold("Krąg") == "krag"
    assert hints.resolve("POMIN", fp.TYPED_VERBS, fp.VERB_ALIAS) == "skip"
    assert hints.resolve("podwojne", fb.TYPED_VERBS, fb.VERB_ALIAS) == "double"


def test_a_typo_is_at_most_one_edit_in_a_short_verb_and_two_in_a_long_one() -> None:
    assert hints.closest("bmb", fb.TYPED_VERBS) == "bomb"
    assert hints.closest("boom", fb.TYPED_VERBS) is None  # two edits from a four-letter verb
    assert hints.closest("shurkn", fb.TYPED_VERBS) == "shuriken"
    assert hints.closest("sh", fb.TYPED_VERBS) is None  # too short to read as a typo


@pytest.mark.parametrize(("typed", "canonical"), [
    ("Atak C3 c4", "attack c3 c4"), ("atakuj c3 c4", "attack c3 c4"), ("pas", "pass"), ("Pasuję", "pass"),
    ("znikanie c3 h8", "vanish c3 h8"), ("zniknięcie c3 h8", "vanish c3 h8"), ("podwójny c3 c5", "double c3 c5"),
    ("potrójny c3 c6", "triple c3 c6"), ("smok e5 z e4", "dragon e5 from e4"),
    ("Podwójny Smok e5 z e4", "dragon e5 from e4"), ("okrężne e5", "circle e5"), ("krąg e5", "circle e5"),
    ("bomba e5 e8", "bomb e5 e8"), ("zachowaj nic", "keep none"), ("zostaw bomba, shuriken", "keep bomb,shuriken"),
    ("zachowaj podwójne kopnięcie, kopnięcie okrężne", "keep double,circle"),
    ("zachowaj Podwójny Smok", "keep dragon"), ("attack c3 c4", "attack c3 c4"),
])
def test_polish_flying_blades_moves_map_to_the_english_notation(typed: str, canonical: str) -> None:
    assert fb.canonical_text(typed) == canonical


@pytest.mark.parametrize(("typed", "canonical"), [
    ("start G5 6x3", "start G5 6x3"), ("pokój startowy G5 6x3", "start G5 6x3"),
    ("Pokój C3 4x3 K@D4 dzika 3=6", "room C3 4x3 K@D4 wild 3=6"), ("cechy 3:C3,D3,E3", "features 3:C3,D3,E3"),
    ("elementy 3:C3 4:F5", "features 3:C3 4:F5"), ("drzwi C3,D5", "doors C3,D5"),
    ("zgłoś hosts.1", "claim hosts.1"), ("zaliczam hosts.1 note=3", "claim hosts.1 note=3"),
    ("pomiń", "skip"), ("pas", "skip"), ("elementy 2:C2,C3; zgłoś hosts.1", "features 2:C2,C3; claim hosts.1"),
    ("room C3 4x3 K@D4 dżoker 3=6", "room C3 4x3 K@D4 wild 3=6"),
])
def test_polish_floor_plan_moves_map_to_the_english_notation(typed: str, canonical: str) -> None:
    assert fp.canonical_text(typed) == canonical
    assert fp_notation.text(fp_notation.parse(fp.canonical_text(typed))) == fp_notation.text(
        fp_notation.parse(canonical))


def check_table(aliases: dict[str, str], verbs: tuple[str, ...], targets: set[str]) -> None:
    folded: dict[str, str] = {}
    for alias, target in aliases.items():
        key = hints.fold(alias)
        assert target in targets, (alias, target)
        assert key not in verbs, f"{alias!r} is itself a verb"
        assert folded.setdefault(key, target) == target, f"{alias!r} means two things"
        assert key == " ".join(key.split()) and len(key.split()) <= hints.MAX_PHRASE, alias


@pytest.mark.parametrize(("module", "verbs"), [(fb, fb_notation.VERBS), (fp, fp_notation.VERBS)])
def test_every_alias_names_a_real_verb_and_collides_with_none(module: Any, verbs: tuple[str, ...]) -> None:
    for locale, table in module.ALIASES.items():
        check_table(table, verbs, set(module.TYPED_VERBS))
        check_table(module.WORD_ALIASES[locale], verbs, {"from", "wild"})
        assert not {hints.fold(a) for a in table} & {hints.fold(a) for a in module.WORD_ALIASES[locale]}
    check_table(module.VERB_ALIAS, verbs, set(module.TYPED_VERBS))  # the languages merged: still one meaning


def test_every_flying_blades_card_alias_names_a_card() -> None:
    for table in fb.CARD_ALIASES.values():
        check_table(table, (), {*CARD_IDS, "none"})


def test_the_polish_ui_words_are_accepted_as_verbs() -> None:
    """The words the Polish buttons and /help show for a move are what Polish players type."""
    named = {"attack": "fbui.help.attack_name", "pass": "fbui.button.pass"}
    for verb, key in named.items():
        assert hints.resolve(t(key, "pl"), fb.TYPED_VERBS, fb.VERB_ALIAS) == verb, key
    for card in fb_notation.CARD_VERBS:
        name = t(f"fb.card.{card}", "pl")
        assert fb.canonical_text(f"{name} c3 c4").split()[0] == card, name
        assert fb.canonical_text(f"zachowaj {name}") == f"keep {card}", name
    for verb in ("start", "room", "features", "claim", "skip"):
        name = t(f"fpui.help.{verb}_name", "pl")
        assert fp.canonical_text(f"{name} X").split()[0] == verb, name
    assert fp.canonical_text(t("fpui.help.doors_name", "pl").split(maxsplit=1)[1] + " C3").startswith("doors")


def fp_table(seed: str, players: int = 1) -> Table:
    rules = FloorPlan()
    seats = [SeatInfo(730000000000000001 + i, f"P{i}") for i in range(players)]
    now = datetime.now(UTC)
    return Table(id=1, game="floor_plan", rules=rules, guild_id=None, channel_id=1, host_id=seats[0].user_id or 0,
                 status="active", options={}, seed=seed, seats=seats, version=1, moves=0,
                 state=rules.new(players, {}, seed), meta={}, outcome=None, created_at=now, updated_at=now)


@pytest.mark.parametrize("seed", [f"seed-{i}" for i in range(24)])
def test_the_start_example_is_legal_for_every_setup_roll(seed: str) -> None:
    table = fp_table(seed)
    example = fp.start_example(table)
    assert example is not None
    table.rules.apply(table.state, 0, example)  # raises when the rules refuse it


def test_the_seeds_above_cover_every_die_of_the_setup_roll() -> None:
    rolls = {fp_table(f"seed-{i}").state.roll[1] for i in range(24)}
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_the_notation_example_of_start_is_a_legal_start_on_a_three() -> None:
    table = fp_table(next(f"seed-{i}" for i in range(24) if fp_table(f"seed-{i}").state.roll[1] == 3))
    table.rules.apply(table.state, 0, fp_notation.USAGE["start"])
    with pytest.raises(RulesError):
        table.rules.apply(table.state, 0, "start C5 6x3")  # the old example: I7 is outside it


# --- one hint mechanism for Discord and the terminal (issue 21) ----------------------------------------------


def test_the_discord_hints_are_the_shared_terminal_safe_mechanism() -> None:
    import hints as shared

    assert hints.closest is shared.closest and hints.translate is shared.translate and hints.fold is shared.fold
    discord_hint = hints.near_miss("atack a1 a2", ["attack", "pass"], "en", examples=["attack c3 c4"])
    plain_hint = shared.near_miss("atack a1 a2", ["attack", "pass"], "en", examples=["attack c3 c4"])
    assert discord_hint == plain_hint == "`atack` is not a move. Did you mean `attack`? Moves now: `attack c3 c4`"


def test_the_shared_hints_and_the_terminal_load_no_discord_and_no_cog() -> None:
    import subprocess
    import sys

    code = ("import sys, hints, terminal; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('cogs', 'discord')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent)).stdout
    assert out.strip() == "[]"


def test_a_typed_word_is_quoted_back_without_control_characters_or_a_closing_backtick() -> None:
    import hints as shared

    assert shared.plain_quote("at\x1b[31mack`") == "at[31mack\u02cb"
    assert len(shared.plain_quote("x" * 500)) == shared.QUOTED
