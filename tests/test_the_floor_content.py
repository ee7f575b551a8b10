"""The Floor's shipped quiz content: enough rich, playable categories per language, generated from the sources."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rules.the_floor.answers import ACCEPTED, check, normalize
from rules.the_floor.content import FLAGS, LANGS, validate_category

DATA = Path(__file__).resolve().parent.parent / "data" / "the_floor"
# The rulebook's decks: 23 letters, A–Z without Q, V, X (Polish) and without Q, X, Z (English).
RULEBOOK_DECKS = {"pl": "ABCDEFGHIJKLMNOPRSTUWYZ", "en": "ABCDEFGHIJKLMNOPRSTUVWY"}
# A kids game with 5 sides deals 6 cards each, 2 Final setup cards, plus draws and refills: 6 * 5 + 2 + 13.
MIN_KIDS_CATEGORIES = 45
MIN_CATEGORIES = 120
RICH = 40


def load(lang: str) -> list[dict[str, Any]]:
    return json.loads((DATA / lang / "categories.json").read_text(encoding="utf-8"))["categories"]


def first_letter(answer: str, lang: str, flags: Sequence[str]) -> str:
    """The letter an answer is played on: its first character after normalization (after the article for titles)."""
    return normalize(answer, lang, flags)[0].upper()


@pytest.fixture(scope="module", params=LANGS)
def lang(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def cats(lang: str) -> list[dict[str, Any]]:
    return load(lang)


def test_each_language_ships_at_least_120_categories(cats: list[dict[str, Any]]) -> None:
    assert len(cats) >= MIN_CATEGORIES


def test_every_category_passes_validation(cats: list[dict[str, Any]], lang: str) -> None:
    for cat in cats:
        validate_category(cat, lang)


def test_category_ids_are_unique(cats: list[dict[str, Any]]) -> None:
    ids = [c["id"] for c in cats]
    assert len(ids) == len(set(ids))


def test_enough_kids_categories_for_a_five_side_kids_game(cats: list[dict[str, Any]]) -> None:
    assert sum("kids" in c["flags"] for c in cats) >= MIN_KIDS_CATEGORIES


def test_category_names_fit_the_board_in_30_characters(cats: list[dict[str, Any]]) -> None:
    too_long = [c["name"] for c in cats if len(c["name"]) > 30]
    assert not too_long


def test_median_category_has_40_answers_and_at_most_a_tenth_have_fewer(cats: list[dict[str, Any]]) -> None:
    sizes = [len(c["answers"]) for c in cats]
    assert statistics.median(sizes) >= RICH
    small = [c["id"] for c in cats if len(c["answers"]) < RICH]
    assert len(small) <= len(cats) // 10, small


def test_each_category_covers_at_least_8_letters_of_the_deck(cats: list[dict[str, Any]], lang: str) -> None:
    deck = set(RULEBOOK_DECKS[lang])
    for cat in cats:
        letters = {first_letter(a, lang, cat["flags"]) for a in cat["answers"]} & deck
        assert len(letters) >= 8, (cat["id"], sorted(letters))


def test_every_flag_is_used_by_some_category(cats: list[dict[str, Any]]) -> None:
    used = {f for c in cats for f in c["flags"]}
    assert used == set(FLAGS)


def test_letter_decks_are_the_rulebooks() -> None:
    decks = json.loads((DATA / "letters.json").read_text(encoding="utf-8"))
    assert {lang: "".join(deck) for lang, deck in decks.items()} == RULEBOOK_DECKS


def test_generated_files_are_up_to_date_and_the_generator_warns_of_nothing(
    lang: str, cats: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.the_floor_content import build, letter_decks

    assert build(lang) == cats
    assert not capsys.readouterr().err  # no duplicate answers dropped
    assert json.loads((DATA / "letters.json").read_text(encoding="utf-8")) == letter_decks()


def test_every_listed_answer_and_variant_is_accepted_on_its_own_letter(cats: list[dict[str, Any]], lang: str) -> None:
    failures = []
    for cat in cats:
        for answer in cat["answers"]:
            for form in (answer, *cat.get("variants", {}).get(answer, ())):
                verdict = check(form, cat, first_letter(form, lang, cat["flags"]), [], lang)
                if verdict.status != ACCEPTED or verdict.canonical != answer:
                    failures.append((cat["id"], form, verdict))
    assert not failures, failures[:20]
