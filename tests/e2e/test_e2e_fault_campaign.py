"""The fault campaign of the benchmark (tests/bench/bench_faults.py) in five rounds, one per fault kind: a SIGKILL, a
429 on a message post, a 500/502 on a post or webhook call, a 429 on an interaction callback, a dropped gateway
socket; each after 1–3 clean moves, the bot started afresh every round on the same database. Nothing may be lost,
doubled or left unanswered; an interaction cut by the SIGKILL (never answered) is allowed: Discord shows it as failed
and the player tries again.

The kill round kills at the one moment the campaign found a move lost (by chance, once, with a kill right after a
click): once Discord has the move's acknowledgement and before the bot has saved it. The double applies the callback
and holds its answer, so the moment is hit every run; the test fails until the bot no longer loses such a move."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.bench_faults import AT_ACK, KINDS, run_campaign

pytestmark = pytest.mark.e2e


async def test_one_round_of_each_fault_loses_doubles_and_ignores_nothing(tmp_path: Path) -> None:
    result = await run_campaign(rounds=len(KINDS), workdir=tmp_path, kill_variants=(AT_ACK,))
    report = result.markdown() + "\n\n" + "\n".join(result.log)
    assert len(result.tallies) == len(KINDS) and all(t.tried == 1 for t in result.tallies.values()), report
    total = result.total()
    assert total.doubled == total.unanswered == total.stuck == 0, report
    assert total.lost == 0, report
