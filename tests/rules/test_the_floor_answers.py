"""The Floor's answer checker (rules/the_floor/answers.py), one test per matching rule, against the real Polish
and English content; properties with hypothesis (fold, check never raising, every listed answer accepted)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.the_floor import content
from rules.the_floor.answers import (
    ACCEPTED,
    REJECTED,
    REPEAT,
    UNKNOWN,
    WRONG_LETTER,
    check,
    distance,
    fold,
    max_typos,
    normalize,
)
from rules.the_floor.options import LETTERS


def cat(lang: str, cid: str) -> dict[str, Any]:
    return content.category(lang, cid)


def verdict(text: str, letter: str, cid: str, lang: str = "en", given: tuple[str, ...] = (),
            extra: tuple[str, ...] = ()) -> tuple[str, str]:
    v = check(text, cat(lang, cid), letter, list(given), lang, extra_answers=list(extra))
    return v.status, v.canonical


def accepted(canonical: str) -> tuple[str, str]:
    return ACCEPTED, canonical


# --- normalization ---------------------------------------------------------------------------------------------


def test_case_insensitive() -> None:
    for typed in ("france", "FRANCE", "fRaNcE"):
        assert verdict(typed, "F", "countries") == accepted("France")
    assert verdict("France", "f", "countries") == accepted("France")  # the letter too


def test_accent_insensitive_including_polish_letters() -> None:
    assert fold("Łódź") == fold("lodz") == "lodz"
    assert fold("ĄĆĘŁŃÓŚŹŻ ąćęłńóśźż") == "acelnoszz acelnoszz"
    assert fold("Straße Æthelred Øresund") == "strasse aethelred oresund"
    for typed in ("lodz", "LODZ", "Łódź", "lódz"):
        assert verdict(typed, "L", "miasta_polski", "pl") == accepted("Łódź")
    assert verdict("lodz", "Ł", "miasta_polski", "pl") == accepted("Łódź")  # a letter card with a diacritic
    assert verdict("zolw", "Z", "zwierzeta", "pl") == accepted("żółw")
    assert verdict("Zabka", "Ż", "sieci_sklepow", "pl") == accepted("Żabka")
    assert verdict("wisla", "W", "rzeki", "pl") == accepted("Wisła")
    assert verdict("Pele", "P", "footballers") == accepted("Pelé")


def test_spacing_and_punctuation_are_ignored() -> None:
    for typed in ("  New   Zealand ", "new-zealand", "New Zealand!", "NewZealand", "new_zealand"):
        assert verdict(typed, "N", "countries") == accepted("New Zealand"), typed
    assert verdict("U.S.A.", "U", "countries") == accepted("United States")
    assert verdict("spiderman", "S", "superheroes") == accepted("Spider-Man")
    assert verdict("hotdog", "H", "fast_food") == accepted("hot dog")
    assert verdict("Alzheimers", "A", "illnesses") == accepted("Alzheimer's")  # an apostrophe is no letter
    assert fold("  Łódź-Kaliska!! ") == "lodz kaliska" and fold("R&B") == "r and b"


# --- titles and people -------------------------------------------------------------------------------------------


def test_titles_leading_article_is_optional_and_counts_for_either_letter() -> None:
    # The rulebook: "The Lord of the Rings" counts for T or L.
    assert verdict("The Lord of the Rings", "T", "films") == accepted("The Lord of the Rings")
    assert verdict("The Lord of the Rings", "L", "films") == accepted("The Lord of the Rings")
    assert verdict("Lord of the Rings", "L", "films") == accepted("The Lord of the Rings")
    assert verdict("Godfather", "G", "films") == accepted("The Godfather")
    assert verdict("the simpsons", "T", "tv_series") == accepted("The Simpsons")


def test_titles_without_the_article_do_not_count_for_its_letter() -> None:
    assert verdict("Lord of the Rings", "T", "films") == (WRONG_LETTER, "The Lord of the Rings")


def test_titles_an_added_article_counts_for_the_letter_only_if_the_title_has_it() -> None:
    assert verdict("The Avatar", "T", "films") == (WRONG_LETTER, "Avatar")
    assert verdict("The Avatar", "A", "films") == accepted("Avatar")
    assert verdict("A Titanic", "A", "films") == (WRONG_LETTER, "Titanic")


def test_titles_english_article_optional_in_polish_games_too() -> None:
    assert verdict("Crown", "C", "seriale", "pl") == accepted("The Crown")
    assert verdict("The Crown", "T", "seriale", "pl") == accepted("The Crown")
    assert verdict("Sims", "S", "gry_komputerowe", "pl") == accepted("The Sims")
    assert normalize("The Crown", "pl", ["titles"]) == "crown" and normalize("The Crown", "pl") == "the crown"


def test_article_is_not_dropped_outside_titles() -> None:
    assert normalize("The Beatles", "en") == "the beatles"
    assert verdict("Hobbit", "T", "books") == (WRONG_LETTER, "The Hobbit")


def test_people_answer_may_start_with_the_first_name_or_the_surname() -> None:
    assert verdict("Albert Einstein", "A", "scientists") == accepted("Albert Einstein")
    assert verdict("Albert Einstein", "E", "scientists") == accepted("Albert Einstein")
    assert verdict("Robert Lewandowski", "L", "pilkarze", "pl") == accepted("Robert Lewandowski")
    assert verdict("Leonardo da Vinci", "V", "painters") == accepted("Leonardo da Vinci")


def test_people_surname_alone_is_accepted() -> None:
    assert verdict("Einstein", "E", "scientists") == accepted("Albert Einstein")
    assert verdict("Lewandowski", "L", "pilkarze", "pl") == accepted("Robert Lewandowski")
    assert verdict("Szczesny", "S", "pilkarze", "pl") == accepted("Wojciech Szczęsny")
    assert verdict("da Vinci", "D", "painters") == accepted("Leonardo da Vinci")
    assert verdict("Beatles", "B", "singers") == accepted("The Beatles")


def test_people_surname_alone_must_itself_start_with_the_letter() -> None:
    assert verdict("Einstein", "A", "scientists") == (WRONG_LETTER, "Albert Einstein")


def test_people_name_parts_are_not_fuzzy_across_the_first_letter() -> None:
    assert verdict("Ajnsztajn", "A", "scientists")[0] == UNKNOWN


# --- typos ---------------------------------------------------------------------------------------------------------


def test_typo_tolerance_is_none_up_to_3_letters_1_up_to_7_then_2() -> None:
    assert [max_typos(n) for n in (1, 3, 4, 7, 8, 20)] == [0, 0, 1, 1, 2, 2]


def test_one_typo_accepted_for_4_to_7_letters() -> None:
    for typed in ("Frnace", "Fance", "Frence", "Frannce"):  # swap, deletion, substitution, insertion
        assert verdict(typed, "F", "countries") == accepted("France"), typed
    assert verdict("Chda", "C", "countries") == accepted("Chad")  # 4 letters
    assert verdict("Frnc", "F", "countries")[0] == UNKNOWN  # 2 edits for 6 letters


def test_two_typos_accepted_from_8_letters() -> None:
    assert verdict("Arjentyna", "A", "countries") == accepted("Argentina")
    assert verdict("Wszawa", "W", "miasta_polski", "pl")[0] == UNKNOWN  # Warszawa: 2 edits, but typed has 6
    assert verdict("Warszwa", "W", "miasta_polski", "pl") == accepted("Warszawa")
    assert verdict("Arjentyne", "A", "countries")[0] == UNKNOWN  # 3 edits


def test_no_typo_tolerated_for_three_letters_or_fewer() -> None:
    assert verdict("bee", "B", "insects") == accepted("bee")
    assert verdict("bea", "B", "insects")[0] == UNKNOWN
    assert verdict("Chd", "C", "countries")[0] == UNKNOWN  # a 3-letter answer is not a typo of "Chad"


def test_typo_tolerance_follows_the_shorter_of_the_typed_and_listed_forms() -> None:
    # 8 typed letters would allow 2 edits, but "France" has 6: only 1.
    assert verdict("Francexx", "F", "countries")[0] == UNKNOWN
    assert verdict("Francex", "F", "countries") == accepted("France")


def test_typo_never_across_a_different_first_letter() -> None:
    assert verdict("Kuba", "K", "countries")[0] == UNKNOWN  # not "Cuba"
    assert verdict("Grance", "G", "countries")[0] == UNKNOWN  # not "France"
    assert distance("kuba", "cuba", 2) == 1  # one edit away, but in another first letter's bucket


def test_distance_is_optimal_string_alignment_with_a_cutoff() -> None:
    assert distance("france", "frnace", 2) == 1  # adjacent transposition is one edit
    assert distance("abc", "ca", 5) == 3  # OSA, not unrestricted Damerau (which gives 2)
    assert distance("kitten", "sitting", 5) == 3
    assert distance("kitten", "sitting", 1) == 2  # above the limit: limit + 1


# --- repeats, letters, rejection, unknown --------------------------------------------------------------------------


def test_repeat_in_the_same_duel_is_refused() -> None:
    assert verdict("France", "F", "countries", given=("France",)) == (REPEAT, "France")
    assert verdict("FRANCE", "F", "countries", given=("France",)) == (REPEAT, "France")


def test_repeat_also_as_a_variant_typo_or_part_of_an_earlier_answer() -> None:
    assert verdict("USA", "U", "countries", given=("United States",)) == (REPEAT, "United States")
    assert verdict("United States", "U", "countries", given=("USA",)) == (REPEAT, "United States")
    assert verdict("Frnace", "F", "countries", given=("France",)) == (REPEAT, "France")
    assert verdict("Einstein", "E", "scientists", given=("Albert Einstein",)) == (REPEAT, "Albert Einstein")
    assert verdict("Godfather", "G", "films", given=("The Godfather",)) == (REPEAT, "The Godfather")
    assert verdict("hot-dog", "H", "fast_food", given=("hot dog",)) == (REPEAT, "hot dog")
    assert verdict("Lodz", "L", "miasta_polski", "pl", given=("Łódź",)) == (REPEAT, "Łódź")


def test_repeat_of_an_answer_judged_earlier_is_refused() -> None:
    assert verdict("Fredonia", "F", "countries", given=("Fredonia",)) == (REPEAT, "Fredonia")
    assert verdict("fredonia!", "F", "countries", given=("Fredonia",))[0] == REPEAT


def test_other_answers_are_not_repeats() -> None:
    assert verdict("Finland", "F", "countries", given=("France", "Fiji")) == accepted("Finland")


def test_wrong_letter_is_refused() -> None:
    assert verdict("Germany", "F", "countries") == (WRONG_LETTER, "Germany")
    assert verdict("Cyprus", "K", "countries") == (WRONG_LETTER, "Cyprus")
    assert verdict("Fredonia", "G", "countries") == (WRONG_LETTER, "Fredonia")


@pytest.mark.parametrize("text", ["", "   ", "!!!", "123", "-- ...", "🙂🙂", "Ф" * 4, "F" * 101])
def test_empty_and_garbage_are_rejected(text: str) -> None:
    assert verdict(text, "F", "countries")[0] == REJECTED


def test_unknown_answer_starting_with_the_letter_goes_to_the_players() -> None:
    assert verdict("  Fredonia   Republic ", "F", "countries") == (UNKNOWN, "Fredonia Republic")


def test_variants_are_accepted_with_the_canonical_form() -> None:
    assert verdict("USA", "U", "countries") == accepted("United States")
    assert verdict("America", "A", "countries") == accepted("United States")
    assert verdict("Czechia", "C", "countries") == accepted("Czech Republic")
    assert verdict("Kuba", "K", "imiona_meskie", "pl") == accepted("Jakub")
    assert verdict("Ola", "O", "imiona_zenskie", "pl") == accepted("Aleksandra")
    assert verdict("Stany", "S", "countries", "pl") == accepted("Stany Zjednoczone")


def test_server_extra_answers_are_accepted() -> None:
    assert verdict("Wakanda", "W", "countries")[0] == UNKNOWN
    assert verdict("wakanda", "W", "countries", extra=("Wakanda",)) == accepted("Wakanda")
    assert verdict("Wakandaa", "W", "countries", extra=("Wakanda",)) == accepted("Wakanda")  # typos too
    assert verdict("Wakanda", "W", "countries", given=("Wakanda",), extra=("Wakanda",)) == (REPEAT, "Wakanda")
    assert verdict("France", "F", "countries", extra=("Wakanda",)) == accepted("France")  # the list still counts


# --- the real content, both languages ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang,cid,typed,letter,canonical", [
    ("pl", "miasta_polski", "krakow", "K", "Kraków"),
    ("pl", "kwiaty", "roza", "R", "róża"),
    ("pl", "naukowcy", "Kopernik", "K", "Mikołaj Kopernik"),
    ("pl", "pisarze_polscy", "Mickiewicz", "M", "Adam Mickiewicz"),
    ("pl", "ksiazki", "Pan Tadeusz", "P", "Pan Tadeusz"),
    ("pl", "potrawy", "schabowy", "S", "kotlet schabowy"),
    ("en", "flowers", "tulip", "T", "tulip"),
    ("en", "music_genres", "R & B", "R", "rhythm and blues"),
    ("en", "composers", "Mozart", "M", "Wolfgang Amadeus Mozart"),
    ("en", "animals", "hippo", "H", "hippopotamus"),
])
def test_polish_and_english_categories_from_the_real_content(lang: str, cid: str, typed: str, letter: str,
                                                            canonical: str) -> None:
    assert verdict(typed, letter, cid, lang) == accepted(canonical)


def _forms(lang: str) -> list[tuple[dict[str, Any], str, str]]:
    """(category, typed form, canonical answer) for every listed answer and variant that starts with a letter."""
    out = []
    for category in content.categories(lang):
        for answer in category["answers"]:
            for form in (answer, *category.get("variants", {}).get(answer, ())):
                if fold(form)[:1].isalpha():
                    out.append((category, form, answer))
    return out


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_listed_answer_and_variant_is_accepted_with_its_own_first_letter(lang: str) -> None:
    bad = []
    for category, form, answer in _forms(lang):
        v = check(form, category, fold(form)[0].upper(), [], lang)
        if (v.status, v.canonical) != (ACCEPTED, answer):
            bad.append((category["id"], form, v))
        elif check(form, category, fold(form)[0].upper(), [answer], lang).status != REPEAT:
            bad.append((category["id"], form, "not a repeat of itself"))
    assert not bad, bad[:10]


# --- properties ----------------------------------------------------------------------------------------------------

FORMS = {lang: _forms(lang) for lang in ("en", "pl")}
CATEGORIES = {lang: content.categories(lang) for lang in ("en", "pl")}


@given(st.text(max_size=60))
def test_fold_is_idempotent_and_plain_ascii(text: str) -> None:
    folded = fold(text)
    assert fold(folded) == folded
    assert set(folded) <= set("abcdefghijklmnopqrstuvwxyz0123456789 ")
    assert folded == folded.strip() and "  " not in folded
    assert normalize(folded, "en", ["titles"]) == normalize(text, "en", ["titles"])


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(st.sampled_from(("en", "pl")), st.data(), st.text(max_size=120),
       st.lists(st.text(max_size=20), max_size=4), st.lists(st.text(max_size=20), max_size=3))
def test_check_never_raises_on_arbitrary_text(lang: str, data: st.DataObject, text: str, given_: list[str],
                                              extra: list[str]) -> None:
    category = data.draw(st.sampled_from(CATEGORIES[lang]))
    letter = data.draw(st.sampled_from(LETTERS[lang]))
    v = check(text, category, letter, given_, lang, extra_answers=extra)
    assert v.status in (ACCEPTED, UNKNOWN, WRONG_LETTER, REPEAT, REJECTED)
    assert isinstance(v.canonical, str)
    if v.status == ACCEPTED:
        assert v.canonical in category["answers"] or v.canonical in extra


@given(st.sampled_from(("en", "pl")), st.data())
def test_any_listed_answer_is_accepted_with_its_own_first_letter_however_cased_or_spaced(
        lang: str, data: st.DataObject) -> None:
    category, form, answer = data.draw(st.sampled_from(FORMS[lang]))
    typed = data.draw(st.sampled_from([form, form.upper(), form.lower(), f"  {form}  ", form.replace(" ", "  ")]))
    v = check(typed, category, fold(form)[0].upper(), [], lang)
    assert (v.status, v.canonical) == (ACCEPTED, answer)


@given(st.sampled_from(FORMS["en"]), st.integers(min_value=1, max_value=30))
def test_one_substituted_inner_letter_in_a_long_answer_is_still_accepted(item: tuple[Any, str, str], at: int) -> None:
    category, form, _ = item
    key = fold(form).replace(" ", "")
    if len(key) < 8 or "people" in category.get("flags", ()) or "titles" in category.get("flags", ()):
        return
    i = 1 + at % (len(key) - 1)
    typo = key[:i] + ("q" if key[i] != "q" else "j") + key[i + 1:]
    v = check(typo, category, key[0].upper(), [], "en")
    assert v.status == ACCEPTED  # possibly a closer neighbour than `answer`, but never unknown
