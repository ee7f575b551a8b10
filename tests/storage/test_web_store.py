"""WebStore contract (issue 28): each published object keeps one random slug; the web process opens the database
read-only and cannot write through it."""

from __future__ import annotations

import pytest

from storage import StorageError, Store, open_read_only, open_store
from tests.storage.rows import NOW


async def test_an_objects_first_slug_stays_when_another_is_proposed(store: Store) -> None:
    first = await store.add_web_slugs([(("game", 10, 7), "aaaaaaaaaaaaaaaa"), (("guild", 10, 10), "gggg")], NOW)
    assert first == {("game", 10, 7): "aaaaaaaaaaaaaaaa", ("guild", 10, 10): "gggg"}
    again = await store.add_web_slugs([(("game", 10, 7), "bbbbbbbbbbbbbbbb")], NOW)
    assert again == {("game", 10, 7): "aaaaaaaaaaaaaaaa"}
    assert await store.web_target("aaaaaaaaaaaaaaaa") == ("game", 10, 7)
    assert await store.web_target("bbbbbbbbbbbbbbbb") is None


async def test_slugs_are_listed_per_server_and_kind(store: Store) -> None:
    await store.add_web_slugs([(("game", 10, 1), "s1"), (("game", 10, 2), "s2"), (("game", 11, 3), "s3"),
                               (("tournament", 10, 1), "t1")], NOW)
    assert await store.web_slugs("game", 10, [1, 2, 3, 4]) == {1: "s1", 2: "s2"}
    assert await store.web_slugs("game", 10, []) == {}


async def test_the_read_only_store_reads_slugs_and_refuses_writes(store_url: str) -> None:
    writer = await open_store(store_url)
    try:
        await writer.add_web_slugs([(("game", 10, 7), "slug-one")], NOW)
        await writer.set_setting(10, "web", True)
    finally:
        await writer.close()
    reader = await open_read_only(store_url)
    try:
        assert await reader.web_target("slug-one") == ("game", 10, 7)
        assert await reader.get_setting(10, "web") is True
        with pytest.raises(Exception):  # noqa: B017 - sqlite3's and asyncpg's read-only errors differ
            await reader.set_setting(10, "web", False)
    finally:
        await reader.close()


async def test_the_read_only_store_refuses_a_missing_sqlite_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StorageError):
        await open_read_only(f"sqlite:///{tmp_path / 'none.sqlite3'}")
    assert not (tmp_path / "none.sqlite3").exists()
