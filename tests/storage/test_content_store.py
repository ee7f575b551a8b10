"""ContentStore contract: a server's own The Floor categories and answers, keyed by the folded answer."""

from __future__ import annotations

import pytest

from storage import DuplicateNameError, Store
from tests.storage.rows import NOW


async def test_a_server_category_round_trips_and_its_name_is_unique_per_language(store: Store) -> None:
    number = await store.add_floor_category(10, "en", "Birds", ["easy"], ["robin", "crow"], 1, NOW)
    cid = f"server_{number}"
    assert await store.floor_categories(10, "en") == [
        {"id": cid, "name": "Birds", "flags": ["easy"], "answers": ["robin", "crow"]}]
    assert (await store.floor_category(10, cid))[0] == "en"
    with pytest.raises(DuplicateNameError):
        await store.add_floor_category(10, "en", "Birds", [], ["owl"], 1, NOW)
    await store.add_floor_category(10, "pl", "Birds", [], ["sowa"], 1, NOW)
    assert await store.floor_categories(11, "en") == []


async def test_an_answer_is_added_once_by_its_key_and_removed_with_its_category(store: Store) -> None:
    number = await store.add_floor_category(10, "en", "Birds", [], ["robin"], 1, NOW)
    cid = f"server_{number}"
    assert await store.add_floor_answer(10, "en", cid, "Owl", 1, NOW, key="owl") is True
    assert await store.add_floor_answer(10, "en", cid, "OWL", 1, NOW, key="owl") is False
    assert await store.floor_answers(10, "en") == {cid: ["Owl"]}
    assert await store.remove_floor_answer(10, "en", cid, "whatever", key="owl") is True
    await store.add_floor_answer(10, "en", cid, "Hawk", 1, NOW, key="hawk")
    assert await store.remove_floor_category(10, cid) is True
    assert await store.floor_answers(10, "en") == {}
    assert await store.remove_floor_category(10, cid) is False
