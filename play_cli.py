"""Terminal play's entry module (``python play_cli.py``, `cli.py`'s lazy ``play``); the code is in `terminal/`.

Re-exports the names the command line and the tests use, so ``play_cli.main`` and ``play_cli.play`` stay.
"""

from __future__ import annotations

import sys

from terminal.app import TerminalGame, run
from terminal.captions import Hidden, fb_caption, fp_caption, fp_words
from terminal.command import main, play
from terminal.help import LIST_ALL, typed_text
from terminal.settings import EXIT_ERROR, TERMINAL_PRESET, Settings, checked_settings, option_value

__all__ = ["EXIT_ERROR", "LIST_ALL", "TERMINAL_PRESET", "Hidden", "Settings", "TerminalGame", "checked_settings",
           "fb_caption", "fp_caption", "fp_words", "main", "option_value", "play", "run", "typed_text"]

if __name__ == "__main__":
    sys.exit(main())
