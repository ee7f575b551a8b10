"""Log lines are coloured only on a terminal (issue 21): a file, a pipe or a container's log gets plain text, even
where discord.py would colour (it colours inside Docker whatever the stream is)."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import discord
import pytest

import bot

ESC = "\x1b"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def in_docker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)


def logged(stream: io.StringIO) -> str:
    logging.getLogger("floorboard.test").warning("a table was marked damaged")
    return stream.getvalue()


@pytest.mark.usefixtures("in_docker")  # the root logger is restored by tests/conftest.py
def test_log_lines_written_to_a_file_have_no_ansi_colour_codes(tmp_path: Path) -> None:
    path = tmp_path / "bot.log"  # `./floorboard 2> bot.log`, or a container's log
    with path.open("w", encoding="utf-8") as stream:
        bot.configure_logging("INFO", stream)
        logging.getLogger("floorboard.test").warning("a table was marked damaged")
    text = path.read_text(encoding="utf-8")
    assert "a table was marked damaged" in text and "WARNING" in text
    assert ESC not in text, repr(text)


@pytest.mark.usefixtures("in_docker")  # the root logger is restored by tests/conftest.py
def test_log_lines_to_a_pipe_have_no_ansi_colour_codes() -> None:
    stream = io.StringIO()
    bot.configure_logging("INFO", stream)
    assert ESC not in logged(stream)


@pytest.mark.usefixtures("in_docker")  # the root logger is restored by tests/conftest.py
def test_log_lines_on_a_terminal_keep_their_colour() -> None:
    stream = Terminal()
    bot.configure_logging("INFO", stream)
    assert ESC in logged(stream)


@pytest.mark.usefixtures("in_docker")  # the root logger is restored by tests/conftest.py
def test_no_color_turns_the_colour_off_even_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    stream = Terminal()
    bot.configure_logging("INFO", stream)
    assert ESC not in logged(stream)
