"""The read-only web site (issue 28): tournaments, games, players and leaderboards of servers that opted in,
served from the bot's database opened read-only. Only cli and bot import this package."""

from __future__ import annotations

from web.app import make_app, serve, start

__all__ = ["make_app", "serve", "start"]
