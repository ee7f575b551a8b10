"""The Floor's server content in SQLite (migration 0003): a server's own categories and the answers it added,
kept per server and per language, unique by name and by folded answer; and `cogs.utils.the_floor_content` on a
real database file."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine import floor_content as tfc
from storage import DuplicateNameError, server_category_number
from storage import SqliteStore as Store
from storage.sqlite import _migrations

GUILD_A, GUILD_B = 1001, 1002
NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
BIRDS = ["Sparrow", "Robin", "Blackbird", "Starling", "Magpie", "Crow", "Swallow", "Stork", "Heron", "Owl"]


async def test_migration_0003_upgrades_a_database_made_with_0002(db_path: Path) -> None:
    scripts = dict(_migrations())
    con = sqlite3.connect(db_path)
    con.executescript(f"BEGIN;\n{scripts[1]}\n{scripts[2]}\nPRAGMA user_version=2;\nCOMMIT;")
    con.execute("INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'locale', '\"pl\"')")
    con.execute("INSERT INTO daily_results (day, user_id, started_at)"
                " VALUES ('2026-01-01', 5, '2026-01-01T00:00:00+00:00')")
    con.commit()
    con.close()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() >= 3
        assert await store.get_setting(1, "locale") == "pl"
        assert (await store.daily_attempt("2026-01-01", 5)) is not None
        number = await store.add_floor_category(GUILD_A, "en", "Birds", [], BIRDS, 7, NOW)
        assert await store.floor_categories(GUILD_A, "en") == [
            {"id": f"server_{number}", "name": "Birds", "flags": [], "answers": BIRDS}]
    finally:
        await store.close()


@pytest.mark.sqlite_only(reason="reads sqlite_master")
async def test_migration_0003_on_a_fresh_database(store: Store) -> None:
    assert await store.schema_version() >= 3
    cur = await store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'floor_%'")
    assert {r[0] for r in await cur.fetchall()} == {"floor_categories", "floor_answers"}


async def test_categories_are_added_listed_and_removed_per_guild_and_language(store: Store) -> None:
    a = await store.add_floor_category(GUILD_A, "en", "Birds", ["titles"], BIRDS, 7, NOW)
    b = await store.add_floor_category(GUILD_A, "pl", "Birds", [], BIRDS, 7, NOW)  # same name, other language
    c = await store.add_floor_category(GUILD_B, "en", "Birds", ["K", "people"], BIRDS[:3], None, NOW)
    assert len({a, b, c}) == 3
    assert await store.floor_categories(GUILD_A, "en") == [
        {"id": f"server_{a}", "name": "Birds", "flags": ["titles"], "answers": BIRDS}]
    assert [x["id"] for x in await store.floor_categories(GUILD_A, "pl")] == [f"server_{b}"]
    assert (await store.floor_categories(GUILD_B, "en"))[0]["flags"] == ["K", "people"]
    assert await store.floor_categories(GUILD_B, "pl") == []
    [listed] = await store.floor_categories(GUILD_A, "en")
    assert await store.floor_category(GUILD_A, f"server_{a}") == ("en", listed)
    assert await store.floor_category(GUILD_B, f"server_{a}") is None, "another server's category is not found"

    with pytest.raises(DuplicateNameError):
        await store.add_floor_category(GUILD_A, "en", "Birds", [], BIRDS, 7, NOW)
    assert len(await store.floor_categories(GUILD_A, "en")) == 1, "nothing written by the refused add"

    assert not await store.remove_floor_category(GUILD_B, f"server_{a}"), "not from another server"
    assert not await store.remove_floor_category(GUILD_A, "countries"), "built-in ids are not removable"
    await store.add_floor_answer(GUILD_A, "en", f"server_{a}", "Kestrel", 7, NOW)
    await store.add_floor_answer(GUILD_A, "en", "countries", "Tuvalu", 7, NOW)
    assert await store.remove_floor_category(GUILD_A, f"server_{a}")
    assert not await store.remove_floor_category(GUILD_A, a), "already gone (a bare number works too)"
    assert await store.floor_categories(GUILD_A, "en") == []
    assert await store.floor_answers(GUILD_A, "en") == {"countries": ["Tuvalu"]}, "its added answers went with it"
    assert await store.remove_floor_category(GUILD_A, b)


def test_server_category_ids() -> None:
    assert server_category_number("server_12") == 12
    assert server_category_number(" SERVER_3 ") == 3
    assert server_category_number("12") == 12
    assert server_category_number(12) == 12
    for other in ("countries", "server_", "server_x", "server_-1", "", "server_" + "9" * 30):
        assert server_category_number(other) is None, other


async def test_answers_are_unique_by_folded_key_per_guild_language_and_category(store: Store) -> None:
    assert await store.add_floor_answer(GUILD_A, "pl", "countries", "Łódź Kaliska", 7, NOW)
    assert not await store.add_floor_answer(GUILD_A, "pl", "countries", "lodz-kaliska!", 8, NOW)
    assert not await store.add_floor_answer(GUILD_A, "pl", "countries", "  ŁÓDŹ   KALISKA ", 8, NOW)
    assert await store.add_floor_answer(GUILD_A, "en", "countries", "lodz kaliska", 8, NOW), "other language"
    assert await store.add_floor_answer(GUILD_B, "pl", "countries", "lodz kaliska", 8, NOW), "other server"
    assert await store.add_floor_answer(GUILD_A, "pl", "cities", "Łódź Kaliska", 8, NOW), "other category"
    assert await store.add_floor_answer(GUILD_A, "pl", "countries", "Tuvalu", 8, NOW)
    assert await store.floor_answers(GUILD_A, "pl") == {"cities": ["Łódź Kaliska"],
                                                         "countries": ["Łódź Kaliska", "Tuvalu"]}
    assert await store.floor_answers(GUILD_B, "pl") == {"countries": ["lodz kaliska"]}
    assert await store.floor_answers(GUILD_B, "en") == {}

    assert await store.remove_floor_answer(GUILD_A, "pl", "countries", "LODZ KALISKA")
    assert not await store.remove_floor_answer(GUILD_A, "pl", "countries", "Łódź Kaliska"), "already removed"
    assert await store.floor_answers(GUILD_A, "pl") == {"cities": ["Łódź Kaliska"], "countries": ["Tuvalu"]}
    # A caller may give its own key (the game's normalization: "The Crown" is "Crown" for titles).
    assert await store.add_floor_answer(GUILD_A, "en", "tv_series", "The Crown", 7, NOW, key="crown")
    assert not await store.add_floor_answer(GUILD_A, "en", "tv_series", "Crown", 7, NOW, key="crown")


# --- cogs.utils.the_floor_content ------------------------------------------------------------------------------


def test_parse_answers_splits_trims_and_deduplicates_by_fold() -> None:
    text = " Łódź , lodz;ŁÓDŹ\nKraków;;  Nowy   Sącz ,\n, !!! , Gdańsk"
    assert tfc.parse_answers(text) == ["Łódź", "Kraków", "Nowy Sącz", "Gdańsk"]
    assert tfc.parse_answers("") == []


def test_flags_are_checked_and_the_error_lists_the_allowed_ones() -> None:
    assert tfc.parse_flags("k, PEOPLE titles") == ["K", "people", "titles"]
    assert tfc.parse_flags(["M", "m"]) == ["M"]
    with pytest.raises(tfc.ContentInputError) as raised:
        tfc.parse_flags("K, adults")
    assert raised.value.msg.key == "tfa.unknown_flag"
    assert raised.value.msg.params == {"flag": "adults", "flags": "K, M, kids, people, titles"}


@pytest.mark.parametrize(("name", "answers", "flags", "key"), [
    ("", BIRDS, None, "tfa.name_empty"),
    ("x" * 41, BIRDS, None, "tfa.name_too_long"),
    ("Birds", BIRDS[:9], None, "tfa.too_few_answers"),
    ("Birds", [*BIRDS[:9], "sparrow"], None, "tfa.too_few_answers"),  # a duplicate does not count
    ("Birds", [f"Bird {i}" for i in range(301)], None, "tfa.too_many_answers"),
    ("Birds", [*BIRDS, "y" * 61], None, "tfa.answer_too_long"),
    ("Birds", [*BIRDS, "1984"], None, "tfa.answer_no_letter"),
    ("Birds", BIRDS, "Q", "tfa.unknown_flag"),
    ("Birds", BIRDS, None, None),
])
def test_a_new_category_is_validated(name: str, answers: list[str], flags: str | None, key: str | None) -> None:
    if key is None:
        cat = tfc.build_category(name, ", ".join(answers), flags, "en")
        assert cat == {"id": "server_new", "name": name, "flags": [], "answers": answers}
        return
    with pytest.raises(tfc.ContentInputError) as raised:
        tfc.build_category(name, answers, flags, "en")
    assert raised.value.msg.key == key


def test_titles_drop_answers_equal_but_for_the_article() -> None:
    films = ["The Crown", "Crown", *[f"Film {c}" for c in "ABCDEFGHIJ"]]
    cat = tfc.build_category("  Series   of  the year ", films, "titles", "en")
    assert cat["name"] == "Series of the year" and "Crown" not in cat["answers"] and len(cat["answers"]) == 11


async def test_server_content_gathers_categories_and_answers(store: Store) -> None:
    assert await tfc.server_content(store, GUILD_A, "en") is None
    cat = await tfc.add_category(store, GUILD_A, "en", "Birds", ", ".join(BIRDS), "kids", 7, NOW)
    with pytest.raises(tfc.ContentInputError) as raised:
        await tfc.add_category(store, GUILD_A, "en", " BIRDS ", BIRDS, None, 7, NOW)
    assert raised.value.msg.key == "tfa.duplicate_name" and raised.value.msg.params["id"] == cat["id"]
    assert await tfc.learn_answer(store, GUILD_A, "en", "countries", "Principality of Sealand", 9, NOW)
    assert not await tfc.learn_answer(store, GUILD_A, "en", "countries", "principality of sealand", 9, NOW)
    assert not await tfc.learn_answer(store, GUILD_A, "en", "countries", "France", 9, NOW), "on the built-in list"
    assert not await tfc.learn_answer(store, GUILD_A, "en", "no_such_category", "France", 9, NOW)
    assert not await tfc.learn_answer(store, GUILD_A, "en", cat["id"], "robin", 9, NOW), "on its own list"
    assert await tfc.learn_answer(store, GUILD_A, "en", cat["id"], "Kestrel", 9, NOW)
    content = await tfc.server_content(store, GUILD_A, "en")
    assert content == {
        "categories": [{"id": cat["id"], "name": "Birds", "flags": ["kids"], "answers": BIRDS}],
        "answers": {"countries": ["Principality of Sealand"], cat["id"]: ["Kestrel"]},
    }
    assert await tfc.server_content(store, GUILD_A, "pl") is None
    assert await tfc.server_content(store, GUILD_B, "en") is None
    from rules.the_floor.options import custom_content

    assert custom_content(content) == content, "the game takes it as its content option as it is"


async def test_answers_added_to_a_server_category_use_its_language(store: Store) -> None:
    cat = await tfc.add_category(store, GUILD_A, "pl", "Ptaki", BIRDS, None, 7, NOW)
    result = await tfc.add_answers(store, GUILD_A, "en", cat["id"], ["Wróbel", "Sparrow", "wrobel"], 7, NOW)
    assert result.lang == "pl" and result.added == ["Wróbel"] and result.known == ["Sparrow"]
    assert await store.floor_answers(GUILD_A, "pl") == {cat["id"]: ["Wróbel"]}
    with pytest.raises(tfc.ContentInputError) as raised:
        await tfc.add_answers(store, GUILD_B, "pl", cat["id"], ["Wróbel"], 7, NOW)
    assert raised.value.msg.key == "tfa.unknown_category", "another server's category"
