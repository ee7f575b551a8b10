"""Issue 10: the answer checker accepts what a fair judge would and nothing else (rules/the_floor/answers.py).

People: a name must identify the person (bare first names, shared surnames, epithets, regnal numbers); typos:
a real word is never corrected into another, singular and plural are one answer; titles: the article and
number titles. Against the real Polish and English content."""

from __future__ import annotations

from typing import Any

import pytest

from rules.the_floor import content, wordlist
from rules.the_floor.answers import (
    ACCEPTED,
    REPEAT,
    UNKNOWN,
    WRONG_LETTER,
    check,
    number_forms,
    regnal,
    spell_leading_number,
    spelled,
    surnames,
)


def verdict(text: str, letter: str, cid: str, lang: str = "en", given: tuple[str, ...] = ()) -> tuple[str, str]:
    v = check(text, content.category(lang, cid), letter, list(given), lang)
    return v.status, v.canonical


def duel(answers: list[tuple[str, str]], cid: str, lang: str = "en") -> list[tuple[str, str]]:
    """Play answers in order as the game does: the canonical form of each accepted/unknown one is given."""
    given: list[str] = []
    out = []
    for text, letter in answers:
        v = check(text, content.category(lang, cid), letter, list(given), lang)
        out.append((v.status, v.canonical))
        if v.status in (ACCEPTED, UNKNOWN):
            given.append(v.canonical)
    return out


# --- people: the answer must identify the person -------------------------------------------------------------------


def test_bare_first_name_is_not_accepted_and_goes_to_the_players() -> None:
    assert verdict("James", "J", "presidents") == (UNKNOWN, "James")
    assert verdict("Albert", "A", "scientists") == (UNKNOWN, "Albert")
    assert verdict("Henry", "H", "monarchs") == (UNKNOWN, "Henry")


def test_james_three_times_scores_no_president() -> None:
    # Before: James Madison, James Monroe, James K. Polk. Now the players judge "James" once; typed again, a repeat.
    assert duel([("James", "J"), ("James", "J"), ("James", "J")], "presidents") == [
        (UNKNOWN, "James"), (REPEAT, "James"), (REPEAT, "James")]


def test_first_name_still_counts_for_the_letter_of_a_full_name() -> None:
    assert verdict("James Madison", "J", "presidents") == (ACCEPTED, "James Madison")
    assert verdict("James Madison", "M", "presidents") == (ACCEPTED, "James Madison")


def test_surname_alone_identifies_the_person() -> None:
    assert verdict("Lincoln", "L", "presidents") == (ACCEPTED, "Abraham Lincoln")
    assert verdict("Einstein", "E", "scientists") == (ACCEPTED, "Albert Einstein")
    assert verdict("Kopernik", "K", "naukowcy", "pl") == (ACCEPTED, "Mikołaj Kopernik")


def test_full_name_without_middle_names_is_accepted() -> None:
    assert verdict("Franklin Roosevelt", "F", "presidents") == (ACCEPTED, "Franklin D. Roosevelt")
    assert verdict("Quincy Adams", "Q", "presidents") == (ACCEPTED, "John Quincy Adams")


def test_single_word_entry_is_a_name_known_alone() -> None:
    assert verdict("Madonna", "M", "singers") == (ACCEPTED, "Madonna")
    assert verdict("Beatles", "B", "singers") == (ACCEPTED, "The Beatles")


def test_shared_surname_roosevelt_scores_once() -> None:
    assert duel([("Roosevelt", "R"), ("Roosevelt", "R")], "presidents") == [
        (ACCEPTED, "Roosevelt"), (REPEAT, "Roosevelt")]


def test_shared_surname_bush_scores_once() -> None:
    assert duel([("Bush", "B"), ("Bush", "B")], "presidents") == [(ACCEPTED, "Bush"), (REPEAT, "Bush")]


def test_shared_surname_adams_after_one_adams_is_a_repeat_not_the_other() -> None:
    # Issue 21: "Adams" may mean the Adams already given, so it never scores again; the other is named by name.
    assert verdict("Adams", "A", "presidents", given=("John Adams",)) == (REPEAT, "Adams")
    assert verdict("Quincy Adams", "Q", "presidents", given=("John Adams",)) == (ACCEPTED, "John Quincy Adams")
    assert verdict("Adams", "A", "presidents", given=("John Adams", "John Quincy Adams")) == (REPEAT, "Adams")


def test_shared_surname_then_full_names_count_each_person_once() -> None:
    assert duel([("Roosevelt", "R"), ("Franklin D. Roosevelt", "F"), ("Theodore Roosevelt", "T"),
                 ("Roosevelt", "R")], "presidents") == [
        (ACCEPTED, "Roosevelt"), (ACCEPTED, "Franklin D. Roosevelt"), (REPEAT, "Theodore Roosevelt"),
        (REPEAT, "Roosevelt")]


def test_same_person_named_twice_is_a_repeat() -> None:
    assert verdict("Lincoln", "L", "presidents", given=("Abraham Lincoln",)) == (REPEAT, "Abraham Lincoln")
    assert verdict("Abraham Lincoln", "A", "presidents", given=("Abraham Lincoln",))[0] == REPEAT


def test_polish_epithets_wielki_and_stary_are_not_names() -> None:
    assert verdict("Wielki", "W", "krolowie_polski", "pl") == (UNKNOWN, "Wielki")
    assert verdict("Stary", "S", "krolowie_polski", "pl") == (UNKNOWN, "Stary")
    assert verdict("Kazimierz Wielki", "K", "krolowie_polski", "pl") == (ACCEPTED, "Kazimierz Wielki")
    assert verdict("Kazimierz Wielki", "W", "krolowie_polski", "pl") == (ACCEPTED, "Kazimierz Wielki")


def test_distinctive_polish_epithets_identify_the_king() -> None:
    assert verdict("Chrobry", "C", "krolowie_polski", "pl") == (ACCEPTED, "Bolesław Chrobry")
    assert verdict("Łokietek", "Ł", "krolowie_polski", "pl") == (ACCEPTED, "Władysław Łokietek")


def test_english_epithet_after_the_is_not_a_name() -> None:
    assert verdict("Great", "G", "monarchs") == (UNKNOWN, "Great")
    assert verdict("Alfred the Great", "A", "monarchs") == (ACCEPTED, "Alfred the Great")
    assert verdict("Alfred the Great", "T", "monarchs")[0] == WRONG_LETTER  # "the" is no name for the letter


def test_queen_as_a_title_is_not_a_name() -> None:
    assert verdict("Queen", "Q", "monarchs") == (UNKNOWN, "Queen")
    assert verdict("Victoria", "V", "monarchs") == (ACCEPTED, "Queen Victoria")
    assert verdict("Queen", "Q", "singers") == (ACCEPTED, "Queen")  # the band is listed as such


def test_brothers_is_not_a_name_but_the_family_name_is() -> None:
    assert verdict("Brothers", "B", "directors") == (UNKNOWN, "Brothers")
    assert verdict("Coen", "C", "directors") == (ACCEPTED, "Coen brothers")
    assert surnames(["wright", "brothers"]) == ["wright"]


@pytest.mark.parametrize("typed", ["Henry VIII", "Henry 8", "henry viii", "Henry 8th", "Henry the Eighth"])
def test_henry_8_matches_only_henry_viii(typed: str) -> None:
    assert verdict(typed, "H", "monarchs") == (ACCEPTED, "Henry VIII")


def test_a_regnal_number_is_never_a_typo_of_another() -> None:
    assert verdict("Henry XI", "H", "monarchs")[0] == UNKNOWN  # not Henry II (one edit away)
    assert verdict("Henry", "H", "monarchs")[0] == UNKNOWN  # not Henry I (one letter away)
    assert verdict("Henry VIII", "H", "monarchs", given=("Henry 8",))[0] == REPEAT
    assert regnal("henry the eighth") == regnal("henry 8") == "henry viii"
    assert regnal("zygmunt 3 waza") == "zygmunt iii waza" and regnal("agent 47") == "agent 47"


def test_polish_regnal_number_typed_in_digits() -> None:
    assert verdict("Zygmunt 3 Waza", "Z", "krolowie_polski", "pl") == (ACCEPTED, "Zygmunt III Waza")
    assert verdict("Mieszko 1", "M", "krolowie_polski", "pl") == (ACCEPTED, "Mieszko I")


def test_names_with_digits_are_not_regnal_numbers() -> None:
    assert verdict("BB-8", "B", "star_wars") == (ACCEPTED, "BB-8")
    assert verdict("Agent 47", "A", "video_game_characters") == (ACCEPTED, "Agent 47")


# --- typos: a real word is not a typo of another -------------------------------------------------------------------


@pytest.mark.parametrize("lang,cid,typed,letter", [
    ("en", "animals", "beer", "B"),  # bear
    ("en", "buildings", "horse", "H"),  # house, if listed: a common word is never corrected
    ("pl", "zwierzeta", "kod", "K"),  # kot
])
def test_a_common_word_is_never_typo_corrected(lang: str, cid: str, typed: str, letter: str) -> None:
    status, canonical = verdict(typed, letter, cid, lang)
    assert status == UNKNOWN and canonical == typed


def test_house_is_not_horse_and_beer_is_not_bear() -> None:
    cat = {"id": "t", "name": "t", "flags": [], "answers": ["house", "bear"]}
    assert check("horse", cat, "H", [], "en").status == UNKNOWN
    assert check("beer", cat, "B", [], "en").status == UNKNOWN
    assert check("hosue", cat, "H", [], "en").canonical == "house"  # a real typo still is one
    assert check("beear", cat, "B", [], "en").canonical == "bear"


def test_common_words_are_folded_before_lookup() -> None:
    assert wordlist.is_common("roza", "pl") and wordlist.is_common("lodz", "pl")  # róża, Łódź
    assert not wordlist.is_common("frnace", "en") and not wordlist.is_common("warszwa", "pl")
    assert wordlist.is_common("ice cream", "en") and not wordlist.is_common("ice craem", "en")


def test_singular_and_plural_are_one_answer_in_english() -> None:
    assert verdict("tulips", "T", "flowers") == (ACCEPTED, "tulip")
    assert verdict("horses", "H", "animals") == (ACCEPTED, "horse")
    assert verdict("tulips", "T", "flowers", given=("tulip",)) == (REPEAT, "tulip")
    assert verdict("tulip", "T", "flowers", given=("tulips",)) == (REPEAT, "tulip")


def test_singular_and_plural_are_one_answer_in_polish() -> None:
    assert verdict("koty", "K", "zwierzeta", "pl") == (ACCEPTED, "kot")
    assert verdict("róże", "R", "kwiaty", "pl") == (ACCEPTED, "róża")
    assert verdict("kot", "K", "zwierzeta", "pl", given=("koty",)) == (REPEAT, "kot")


def test_plural_rules() -> None:
    assert "berry" in number_forms("berries", "en") and "wolf" in number_forms("wolves", "en")
    assert "mouse" in number_forms("mice", "en") and "dog" in number_forms("dogs", "en")
    assert "roza" in number_forms("roze", "pl") and "kwiatek" in number_forms("kwiatki", "pl")
    assert number_forms("hot dogs", "en")[0] == "hot dog"


def test_people_and_titles_are_not_pluralized() -> None:
    # A title or a name in the singular/plural is another title or name: the players judge it (and "friend",
    # "einsteins" are common words, so no typo correction either).
    assert verdict("Friend", "F", "tv_series") == (UNKNOWN, "Friend")
    assert verdict("Einsteins", "E", "scientists") == (UNKNOWN, "Einsteins")
    assert verdict("Friends", "F", "tv_series") == (ACCEPTED, "Friends")


# --- titles: article optional, numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang,cid,typed,letter,canonical", [
    ("en", "films", "The Matrix", "T", "The Matrix"),
    ("en", "films", "The Matrix", "M", "The Matrix"),
    ("en", "films", "Matrix", "M", "The Matrix"),
    ("en", "books", "The Hobbit", "T", "The Hobbit"),
    ("en", "books", "The Hobbit", "H", "The Hobbit"),
    ("pl", "filmy", "The Matrix", "T", "Matrix"),  # the original title has the article
    ("pl", "filmy", "Matrix", "M", "Matrix"),
    ("pl", "ksiazki", "The Hobbit", "T", "Hobbit"),
    ("pl", "ksiazki", "Hobbit", "H", "Hobbit"),
])
def test_title_article_is_optional_in_both_languages(lang: str, cid: str, typed: str, letter: str,
                                                     canonical: str) -> None:
    assert verdict(typed, letter, cid, lang) == (ACCEPTED, canonical)


def test_added_article_still_needs_an_original_with_it() -> None:
    assert verdict("The Avatar", "T", "filmy", "pl") == (WRONG_LETTER, "Avatar")
    assert verdict("Matrix", "T", "filmy", "pl") == (WRONG_LETTER, "Matrix")


def test_number_title_is_answerable_by_its_spoken_letter() -> None:
    # English reads 1984 "nineteen eighty-four": an N; Polish "tysiąc dziewięćset…": a T.
    assert verdict("1984", "N", "books") == (ACCEPTED, "Nineteen Eighty-Four")
    assert verdict("1984", "O", "books")[0] == WRONG_LETTER
    assert verdict("1984", "T", "ksiazki", "pl") == (ACCEPTED, "Rok 1984")
    assert verdict("Rok 1984", "R", "ksiazki", "pl") == (ACCEPTED, "Rok 1984")
    assert verdict("101 Dalmatians", "O", "animated_films") == (ACCEPTED, "One Hundred and One Dalmatians")
    assert verdict("101 dalmatyńczyków", "S", "bajki_tytuly", "pl") == (ACCEPTED, "101 dalmatyńczyków")


def test_unlisted_number_title_goes_to_the_players_and_digits_elsewhere_are_garbage() -> None:
    assert verdict("2012", "T", "films") == (UNKNOWN, "2012")  # "twenty twelve"
    assert verdict("2012", "D", "filmy", "pl") == (UNKNOWN, "2012")  # "dwa tysiące dwanaście"
    assert verdict("123", "O", "countries")[0] == "rejected"


def test_numbers_spelled_out() -> None:
    assert spelled(1984, "en") == "nineteen eighty four" and spelled(1905, "en") == "nineteen oh five"
    assert spelled(2001, "en") == "two thousand and one" and spelled(101, "en") == "one hundred and one"
    assert spelled(1984, "pl") == "tysiac dziewiecset osiemdziesiat cztery"
    assert spelled(2012, "pl") == "dwa tysiace dwanascie" and spelled(5000, "pl") == "piec tysiecy"
    assert spell_leading_number("7 wonders", "en") == "seven wonders"
    assert spell_leading_number("se7en", "en") == "se7en"


def test_every_listed_people_and_title_answer_still_accepted_with_its_letter() -> None:
    bad: list[Any] = []
    for lang in ("en", "pl"):
        for cat in content.categories(lang):
            if not {"people", "titles"} & set(cat.get("flags", ())):
                continue
            for answer in cat["answers"]:
                v = check(answer, cat, answer[0].upper(), [], lang)
                if (v.status, v.canonical) != (ACCEPTED, answer) and answer[0].isalpha():
                    bad.append((lang, cat["id"], answer, v))
    assert not bad, bad[:10]
