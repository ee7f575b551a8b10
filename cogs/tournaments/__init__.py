"""``/tournament``: the Discord surface of the tournament director (engine/tournaments.py).

- Organising (``create`` needs Manage Server; ``start``, ``pause``, ``resume``, ``repair``, ``award``,
  ``disqualify``, ``cancel`` and ``export`` need the organiser or Manage Server, re-checked on every call).
- Entering (``join``, ``leave``, ``checkin``, and the announcement's buttons, whose custom_id carries the tournament
  id and which re-check the tournament and the user on every click). Without an id a command means the one open
  tournament of this channel (or of the server, when there is only one).
- Showing (``standings``, ``bracket``, ``pairings``, ``list``): public.

The director gets its surface here: ``channels`` makes a thread per table in the tournament's channel, and a
listener posts each round's pairings (with mentions that respect quiet hours), the standings after a round, the
final standings and the cancellation. A game's first status message and turn ping are posted in its thread when
its round is announced, as ``/play`` does at Start.

Decisions: the announcement's message id is kept as the server setting ``tour_msg:<id>`` (the tournament row has no
column for it, and league/ stays free of Discord); a table whose thread cannot be made (no permission, the channel
gone) gets a made-up negative channel id, so that the rest of the round is created, and the tournament channel is
told: the organiser can award that table, or the round's deadline adjudicates it.

The package: cog (the commands), posts (the director's surface: what each event posts), view (embeds, buttons,
pairings and standings text, pure), options (the commands' choices and localised parameter names).
"""

from __future__ import annotations

from cogs.tournaments.cog import Tournaments
from cogs.utils.app import App

__all__ = ["Tournaments", "setup"]


async def setup(bot: App) -> None:
    await bot.add_cog(Tournaments(bot))
