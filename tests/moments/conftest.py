"""The Discord harness fixtures of tests/cogs, for the summary's Discord tests."""

from __future__ import annotations

from tests.cogs.conftest import error_log, harness, images_as_png  # noqa: F401 -- fixtures, used by name
