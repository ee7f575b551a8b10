"""Settings as a newcomer writes them: the shipped .env.example with only the token filled in loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_env_example_with_only_a_token_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "LOG_LEVEL", "DISCORD_API_URL",
                 "DISCORD_GATEWAY_URL"):
        monkeypatch.delenv(name, raising=False)
    text = (ROOT / ".env.example").read_text(encoding="utf-8").replace("DISCORD_TOKEN=", "DISCORD_TOKEN=abc.def", 1)
    env = tmp_path / ".env"
    env.write_text(text, encoding="utf-8")
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "abc.def"
    assert settings.dev_guild_id is None and settings.discord_api_url is None


def test_an_empty_token_means_no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=\nDEV_GUILD_ID=  \n", encoding="utf-8")
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.discord_token is None and settings.dev_guild_id is None


def test_database_url_selects_postgresql_and_unset_keeps_the_sqlite_file(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text("DATABASE_PATH=data/fb.db\nDATABASE_URL=\n", encoding="utf-8")
    assert Settings(_env_file=env).store_url == Path("data/fb.db")  # type: ignore[call-arg]
    env.write_text("DATABASE_URL=postgresql://fb@db:5432/fb\n", encoding="utf-8")
    assert Settings(_env_file=env).store_url == "postgresql://fb@db:5432/fb"  # type: ignore[call-arg]


def test_a_database_url_of_an_unknown_scheme_is_refused_at_start(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    env = tmp_path / ".env"
    env.write_text("DATABASE_URL=mysql://fb@db/fb\n", encoding="utf-8")
    with pytest.raises(ValueError, match="DATABASE_URL must start with postgresql://"):
        Settings(_env_file=env)  # type: ignore[call-arg]


def test_image_format_is_webp_unless_set_and_only_webp_or_png(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IMAGE_FORMAT", raising=False)
    assert Settings().image_format == "webp"
    monkeypatch.setenv("IMAGE_FORMAT", "png")
    assert Settings().image_format == "png"
    monkeypatch.setenv("IMAGE_FORMAT", "gif")
    with pytest.raises(ValueError):
        Settings()
