"""Settings from the environment and `.env` (pydantic-settings). Nothing else reads ``os.environ``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("floorboard.db")
    # PostgreSQL instead of the SQLite file (several bot processes sharing one database): postgresql://user@host/db.
    database_url: str | None = None
    dev_guild_id: int | None = None
    # How move images are sent: webp (lossless, a third of PNG's bytes) or png (about a tenth of WebP's CPU).
    image_format: Literal["webp", "png"] = "webp"
    log_level: str = "INFO"
    command_prefix: str = "!"
    default_locale: str = "en"
    lobby_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    reminder_fraction: float = Field(default=0.5, gt=0, lt=1)
    tick_seconds: float = Field(default=5.0, gt=0)
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

    @field_validator("discord_token", "dev_guild_id", "discord_api_url", "discord_gateway_url", "database_url",
                     mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        # .env.example ships `DEV_GUILD_ID=`: an empty optional setting means "not set", not "not an integer".
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("database_url")
    @classmethod
    def _database_scheme(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("postgresql://", "postgres://", "sqlite:///")):
            raise ValueError("DATABASE_URL must start with postgresql:// (or sqlite:///); leave it empty for the"
                             " SQLite file DATABASE_PATH")
        return v

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


def load_settings(**overrides: object) -> Settings:
    return Settings(**overrides)  # type: ignore[arg-type]
