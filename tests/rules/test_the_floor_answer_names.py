"""Issue 21, The Floor's answers: which parts of a person's name carry the letter, and an ambiguous partial name
after one of the people it may name (rules/the_floor/answers.py). Against the real English and Polish content, and
for every people category of both, so the class is closed and not only the reported instance."""

from __future__ import annotations

from typing import Any

import pytest

from rules.the_floor import content
from rules.the_floor.answers import (
    ACCEPTED,
    REPEAT,
    UNKNOWN,
    WRONG_LETTER,
    check,
    fold,
    index,
    letter_words,
)

LANGS = ("en", "pl")


def verdict(text: str, letter: str, cid: str, lang: str = "en", given: tuple[str, ...] = ()) -> tuple[str, str]:
    v = check(text, content.category(lang, cid), letter, list(given), lang)
    return v.status, v.canonical


def people_categories(lang: str) -> list[dict[str, Any]]:
    return [c for c in content.categories(lang) if "people" in c.get("flags", ())]


# --- the letter: first name, surname, a single name; never an initial -----------------------------------------------


def test_ulysses_s_grant_is_no_s_a_middle_initial_is_not_a_name() -> None:
    assert verdict("Ulysses S. Grant", "S", "presidents") == (WRONG_LETTER, "Ulysses S. Grant")
    assert verdict("ulysses s grant", "S", "presidents")[0] == WRONG_LETTER
    assert verdict("Ulysses S. Grant", "U", "presidents") == (ACCEPTED, "Ulysses S. Grant")
    assert verdict("Ulysses S. Grant", "G", "presidents") == (ACCEPTED, "Ulysses S. Grant")


def test_john_f_kennedy_is_no_f_and_george_w_bush_no_w() -> None:
    assert verdict("John F. Kennedy", "F", "presidents")[0] == WRONG_LETTER
    assert verdict("George W. Bush", "W", "presidents")[0] == WRONG_LETTER
    assert verdict("George H. W. Bush", "H", "presidents")[0] == WRONG_LETTER


@pytest.mark.parametrize("lang", LANGS)
def test_no_listed_persons_initial_carries_the_letter_in_any_people_category(lang: str) -> None:
    checked = 0
    for cat in people_categories(lang):
        for answer in cat["answers"]:
            for form in (answer, *cat.get("variants", {}).get(answer, ())):
                words = fold(form).split()
                names = letter_words(fold(form))
                for word in words[1:]:
                    if len(word) != 1 or not word.isalpha() or any(n.startswith(word) for n in names):
                        continue
                    checked += 1
                    status = check(form, cat, word.upper(), [], lang).status
                    assert status == WRONG_LETTER, (cat["id"], form, word)
    assert lang == "pl" or checked >= 3  # the English lists name people with middle initials (Grant, Kennedy, Bush)


def test_an_initial_starts_no_surname_so_s_grant_names_no_one() -> None:
    # Before: "s grant" and "d roosevelt" were keys of their own ("everything after the first name").
    assert verdict("S. Grant", "S", "presidents")[0] == UNKNOWN
    assert verdict("D. Roosevelt", "D", "presidents")[0] == UNKNOWN
    assert verdict("W. Bush", "W", "presidents")[0] == UNKNOWN
    assert verdict("Grant", "G", "presidents") == (ACCEPTED, "Ulysses S. Grant")


def test_a_suffix_or_a_group_noun_carries_no_letter() -> None:
    cat = {"id": "t", "name": "t", "flags": ["people"], "answers": ["Martin Luther King Jr.", "Coen brothers"]}
    assert check("Martin Luther King Jr.", cat, "J", [], "en").status == WRONG_LETTER
    assert check("Martin Luther King Jr.", cat, "K", [], "en").status == ACCEPTED
    assert check("Coen brothers", cat, "B", [], "en").status == WRONG_LETTER


def test_a_surname_with_its_particle_and_a_full_middle_name_still_carry_the_letter() -> None:
    assert verdict("Leonardo da Vinci", "V", "painters") == (ACCEPTED, "Leonardo da Vinci")
    assert verdict("Leonardo da Vinci", "D", "painters") == (ACCEPTED, "Leonardo da Vinci")  # as "da Vinci" is
    assert verdict("John Quincy Adams", "Q", "presidents") == (ACCEPTED, "John Quincy Adams")  # as "Quincy Adams"


# --- an ambiguous partial name after one of the people it may name is a repeat ---------------------------------------


def test_bare_roosevelt_after_theodore_roosevelt_is_a_repeat_not_franklin() -> None:
    assert verdict("Roosevelt", "R", "presidents", given=("Theodore Roosevelt",)) == (REPEAT, "Roosevelt")
    assert verdict("Roosevelt", "R", "presidents", given=("Franklin D. Roosevelt",)) == (REPEAT, "Roosevelt")
    assert verdict("Franklin Roosevelt", "F", "presidents", given=("Theodore Roosevelt",)) == (
        ACCEPTED, "Franklin D. Roosevelt")


def test_george_bush_after_bush_is_a_repeat_the_ambiguity_already_scored() -> None:
    assert verdict("Bush", "B", "presidents") == (ACCEPTED, "Bush")
    assert verdict("George Bush", "G", "presidents", given=("Bush",))[0] == REPEAT
    assert verdict("Bush", "B", "presidents", given=("George W. Bush",)) == (REPEAT, "Bush")
    assert verdict("George W. Bush", "G", "presidents", given=("Bush",)) == (ACCEPTED, "George W. Bush")


@pytest.mark.parametrize("lang", LANGS)
def test_every_ambiguous_partial_name_after_any_person_it_may_name_is_a_repeat(lang: str) -> None:
    checked = 0
    for cat in people_categories(lang):
        idx = index(cat, lang)
        for key, owners in idx.partial.items():
            if len(owners) < 2 or key in idx.full:
                continue
            typed = idx.display[key]
            letter = fold(typed)[0].upper()
            assert check(typed, cat, letter, [], lang).status == ACCEPTED, (cat["id"], typed)
            for owner in owners:
                checked += 1
                status = check(typed, cat, letter, [owner], lang).status
                assert status == REPEAT, (cat["id"], typed, owner)
    assert checked >= 2
