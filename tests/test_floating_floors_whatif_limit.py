"""Floating Floors' "what if" runs in a render worker (`cogs.floating_floors.whatif_of`) under a time limit: a preview
that runs on (a rules bug; previews take milliseconds) must not keep that worker, which draws every game's images,
for ever. It answers that the preview could not be worked out, and the same worker draws on."""

from __future__ import annotations

import importlib
from types import ModuleType

from i18n import t
from render.pool import RenderPool
from rules.base import Msg
from tests.rules.ff_helpers import position

NAMES = ["Ann", "Bo"]
ACTION = "place wt e2"  # a plain placement on open land, worked out and drawn in a few milliseconds


def cog() -> ModuleType:
    """The cog's module as it is now: other tests load and reload the extension, and a worker is sent the function
    by its module's name (pickle refuses one that is no longer the module's)."""
    return importlib.import_module("cogs.floating_floors")


async def test_a_preview_over_its_limit_in_a_worker_says_so_and_the_worker_draws_on() -> None:
    state = position(at={0: "b2"}, hands={0: ("ws", "wt", "wh")})
    slow = t(Msg("ffui.whatif_slow"), "en")
    pool = RenderPool(1)  # a real worker process, as the bot starts with RENDER_WORKERS=1
    try:
        (pid,) = pool.worker_pids() or [None]
        whatif_of = cog().whatif_of
        text, png = await pool.draw(whatif_of, state, 0, ACTION, "en", NAMES, 1e-6)  # the alarm rings at once
        assert (text, png) == (slow, None)
        text, png = await pool.draw(whatif_of, state, 0, ACTION, "en", NAMES)
        assert text != slow and png, "the next preview is worked out and drawn"
        assert pool.replaced == 0 and pool.worker_pids() == [pid], "the same worker: stopped, not killed"
    finally:
        pool.shutdown()


def test_a_preview_in_time_is_the_preview_and_the_limit_leaves_room_for_a_slow_machine() -> None:
    state = position(at={0: "b2"}, hands={0: ("ws", "wt", "wh")})
    text, png = cog().whatif_of(state, 0, ACTION, "en", NAMES)
    assert png and "e2" in text
    assert cog().WHATIF_SECONDS >= 5
