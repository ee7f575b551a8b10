"""The young generation is collected between moves, once a move is posted (`cogs.utils.posting.collect_young`),
so that the cyclic GC does not run inside a later move all at once."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from cogs.utils import posting
from tests.discord_harness import Harness


class Cycle:
    def __init__(self) -> None:
        self.me = self


def _collections(record: list[int]) -> Any:
    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            record.append(info["generation"])
    return callback


def test_a_collection_between_moves_frees_the_cycles_the_move_left() -> None:
    assert gc.isenabled()
    cycle = Cycle()
    gone = weakref.ref(cycle)
    del cycle  # only the collector can free it now
    assert gone() is not None
    posting.collect_young()
    assert gone() is None
    assert gc.get_count()[0] < 50  # the young generation was emptied, not left to grow


def test_the_middle_generation_is_collected_every_tenth_young_collection() -> None:
    record: list[int] = []
    gc.collect()  # the counts start from nothing
    gc.callbacks.append(callback := _collections(record))
    try:
        for _ in range(posting.YOUNG_COLLECTIONS_PER_MIDDLE + 1):
            posting.collect_young()
    finally:
        gc.callbacks.remove(callback)
    assert record[:posting.YOUNG_COLLECTIONS_PER_MIDDLE] == [0] * posting.YOUNG_COLLECTIONS_PER_MIDDLE
    assert record[posting.YOUNG_COLLECTIONS_PER_MIDDLE] == 1  # never a full collection: that walks everything


def test_nothing_is_collected_while_the_collector_is_off() -> None:
    record: list[int] = []
    gc.callbacks.append(callback := _collections(record))
    gc.disable()
    try:
        posting.collect_young()
    finally:
        gc.enable()
        gc.callbacks.remove(callback)
    assert record == []


async def test_a_move_is_posted_before_the_young_generation_is_collected(harness: Harness,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await h.slash("play", "alice", game="floating_floors", options="chakra=middle")  # straight to the Jutsu
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:bot:", "alice")
    await h.click(lobby, ":lobby:start:", "alice")
    posted_then: list[int] = []
    monkeypatch.setattr(posting, "collect_young", lambda: posted_then.append(len(h.sent)))
    board = h.with_button("floating_floors:hand:")
    take = [label for label in board.labels() if label.startswith("Take ")]
    assert take, board.labels()
    before = len(h.sent)
    await h.click(board, take[0])
    assert posted_then, "the move's post did not end with a collection"
    assert posted_then[-1] > before and posted_then[-1] == len(h.sent)  # after the move's messages, not before
