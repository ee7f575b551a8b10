"""The queue's Discord tests use the bot harness of tests/cogs (its fixtures, re-exported here)."""

from __future__ import annotations

from tests.cogs.conftest import error_log, harness, images_as_png

__all__ = ["error_log", "harness", "images_as_png"]
