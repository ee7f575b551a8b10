"""Settings from the environment and `.env` (pydantic-settings). Nothing else reads ``os.environ``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# A render worker holds its own fonts and tile caches (tens of MB): past 4 the memory buys nothing a community
# bot needs (4 workers draw ~100 boards a second).
MAX_DEFAULT_RENDER_WORKERS = 4


def default_render_workers() -> int:
    """One render worker per core, at most `MAX_DEFAULT_RENDER_WORKERS` (2 on a 2-core machine): the event loop
    mostly waits on I/O, so the cores are the renderers'."""
    return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_RENDER_WORKERS))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("floorboard.db")
    # PostgreSQL instead of the SQLite file (several bot processes sharing one database): postgresql://user@host/db.
    database_url: str | None = None
    dev_guild_id: int | None = None
    # How move images are sent: webp (lossless, a third of PNG's bytes) or png (about a tenth of WebP's CPU).
    image_format: Literal["webp", "png"] = "webp"
    # Worker processes that draw the images (render.pool): off the event loop, which Pillow would hold for much
    # of a draw. 0 = a thread per image (as tests and the terminal do). Unset: one per core, at most 4.
    render_workers: int = Field(default_factory=default_render_workers, ge=0, le=32)
    log_level: str = "INFO"
    command_prefix: str = "!"
    default_locale: str = "en"
    lobby_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    reminder_fraction: float = Field(default=0.5, gt=0, lt=1)
    tick_seconds: float = Field(default=5.0, gt=0)
    # Several processes: a scheduler pass's claim on its due deadlines lasts this long, so the deadlines a process
    # claimed and did not fire before it was killed wait this long for its restart (docs/operations.md).
    deadline_lease_seconds: float = Field(default=60.0, ge=1, le=3600)
    # A game's status message is edited at most once per this many seconds (changes in between are coalesced).
    status_seconds: float = Field(default=10.0, ge=0)
    # Reaching Discord at start: a network failure is retried this many attempts in all, waiting
    # CONNECT_RETRY_SECONDS, then twice as long each time (at most 30 s) — 2, 4, 8, 16, 30 s by default.
    connect_attempts: int = Field(default=6, ge=1, le=100)
    connect_retry_seconds: float = Field(default=2.0, ge=0, le=300)
    # Test-only: a local Discord double (tests/e2e) instead of discord.com. The REST base with its version
    # (http://127.0.0.1:PORT/api/v10) and the gateway's websocket URL (ws://127.0.0.1:PORT/gateway).
    discord_api_url: str | None = None
    discord_gateway_url: str | None = None
    # Several bot processes (docs/operations.md): the total number of gateway shards, and the ones this process
    # holds ("0-3" or "0,2"; unset with SHARD_COUNT set: all of them). Both unset: one process, discord.py's choice.
    shard_count: int | None = Field(default=None, ge=1, le=65536)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # Slash commands are synced by one process only; unset: the process that holds shard 0 (or the only one).
    sync_commands: bool | None = None
    # The read-only web site (./floorboard web, docs/web.md): its public address, e.g. https://boards.example.org.
    # Set: tournament posts and finished games of servers that turned /web on carry a link to their page.
    web_base_url: str | None = None
    # Set: the bot serves the web site itself on this port (WEB_HOST, loopback by default), in its own event
    # loop, instead of (or beside) a separate `./floorboard web`.
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_host: str = "127.0.0.1"

    @field_validator("discord_token", "dev_guild_id", "discord_api_url", "discord_gateway_url", "database_url",
                     "web_base_url", "web_port",
                     "shard_count", "shard_ids", "sync_commands", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        # .env.example ships `DEV_GUILD_ID=`: an empty optional setting means "not set", not "not an integer".
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("render_workers", mode="before")
    @classmethod
    def _empty_is_default(cls, v: object) -> object:
        return default_render_workers() if isinstance(v, str) and not v.strip() else v

    @field_validator("database_url")
    @classmethod
    def _database_scheme(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("postgresql://", "postgres://", "sqlite:///")):
            raise ValueError("DATABASE_URL must start with postgresql:// (or sqlite:///); leave it empty for the"
                             " SQLite file DATABASE_PATH")
        return v

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ranges(cls, v: object) -> object:
        if isinstance(v, str):  # empty (as .env.example ships it): unset
            return parse_shard_ids(v) if v.strip() else None
        return v

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards of every process)")
        if self.shard_ids is not None and self.shard_count is not None:
            outside = [i for i in self.shard_ids if i >= self.shard_count]
            if outside:
                raise ValueError(f"SHARD_IDS {outside[0]} is outside SHARD_COUNT={self.shard_count}"
                                 f" (shards are 0 to {self.shard_count - 1})")
        return self

    @property
    def sharded(self) -> bool:
        """SHARD_COUNT or SHARD_IDS set: the bot is an AutoShardedBot holding exactly `shard_list`."""
        return self.shard_count is not None

    @property
    def shard_list(self) -> tuple[int, ...] | None:
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    @property
    def syncs_commands(self) -> bool:
        """SYNC_COMMANDS, or by default: the process holding shard 0 syncs (one process: it does)."""
        if self.sync_commands is not None:
            return self.sync_commands
        shards = self.shard_list
        return shards is None or 0 in shards

    @property
    def store_url(self) -> str | Path:
        """What the store opens: DATABASE_URL when set, else the SQLite file DATABASE_PATH."""
        return self.database_url or self.database_path

    @field_validator("log_level")
    @classmethod
    def _upper(cls, v: str) -> str:
        v = v.upper()
        if v not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return v


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2"`` or ``"0-1,4"`` → the sorted shard ids; ValueError in one line for anything else."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, sep, high = part.partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ValueError(f"SHARD_IDS {text!r}: write shard numbers and ranges, e.g. 0-3 or 0,2")
        first, last = int(low), int(high) if sep else int(low)
        if last < first:
            raise ValueError(f"SHARD_IDS {part!r}: a range goes from the lower number to the higher, e.g. 0-3")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def load_settings(**overrides: object) -> Settings:
    return Settings(**overrides)  # type: ignore[arg-type]
