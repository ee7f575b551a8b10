"""Discord misbehaving mid-game: 429s with retry_after (per route and global), a 500 on a channel message post
and a 502 on an interaction webhook call, a 429 on an interaction callback, and the gateway socket dropped twice.
Every move lands once, every reply arrives once, and the bot reconnects and RESUMEs by itself."""

from __future__ import annotations

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import Table

pytestmark = pytest.mark.e2e


async def test_rate_limits_server_errors_and_a_dropped_gateway(table: Table, double: DiscordDouble) -> None:
    await table.open()
    await table.move("typed", before=lambda: double.fail_next(429, retry_after=0.3))
    # /move answers privately first, posts the board, then removes its placeholder: a 502 on that webhook call.
    await table.move("slash", before=lambda: (double.fail_next(502, route="delete_webhook_message"),
                                              double.fail_next(429, retry_after=0.2, is_global=True)))
    await table.move("prefix", before=lambda: double.fail_next(500))
    await table.move("button", before=lambda: double.fail_next(429, route="callback", retry_after=0.3))
    assert [status for status, _ in double.faults_served] == [429, 429, 502, 500, 429] and not double.faults

    # The socket dies with no close frame; alice's next message and click happen while the bot is away.
    await table.move("typed", before=double.drop_gateway)
    await table.move("button", before=double.drop_gateway)
    assert double.drops == 2 and len(double.resumes) == 2 and len(double.identifies) == 1, "RESUMEd, not re-IDENTIFYed"
    assert all(r["path"] == "/resume" and r["missed"] >= 1 for r in double.resumes), double.resumes
    live = double.live
    assert live is not None and live.path == "/resume"
    await table.bot.wait(lambda: live.heartbeats >= 1, "heartbeats on the resumed connection")

    await table.play()
    actions = table.check_actions()  # every move exactly once
    table.check_boards(actions)  # every board posted exactly once despite the retries
    await table.check_result()
    assert len(table.status_messages()) == 1
    assert all(len(i.callbacks) == 1 for i in double.interactions.values())
    assert double.problems() == []
    log = table.bot.log()
    assert "We are being rate limited" in log and "successfully RESUMED" in log
    assert table.bot.errors() == []
