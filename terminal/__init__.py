"""Terminal play, without Discord: ``./floorboard play flying_blades --players 3 --bots 2``.

The same engine, storage and renderer as the bot: moves are typed in the game's notation, the text board is
printed after every move and the images the bot would post are written to ``--out``. Humans share the keyboard
(hot seat); with as many bots as players the game plays itself to the end and exits 0.

Saved games live side by side in one database (``OUT/play.db``): each is a *save* with a name, and each save is
its own "channel" for the engine (one open game per channel). A command resumes the saved game it names: the one
saved under ``--save NAME``, or else the latest running game started with the same game, seats, options and seed.
``--new`` starts another beside it (never ends one); ``--list`` shows them all.

Rooms: settings (the checked command line), command (click, `main`), saves, app (the game loop), captions (what
each move says, per game), help (`help`, `legal`, typed moves).
"""

from __future__ import annotations

from terminal.app import TerminalGame, run
from terminal.captions import Hidden, fb_caption, fp_caption, fp_words
from terminal.command import main, play
from terminal.help import LIST_ALL, typed_text
from terminal.settings import EXIT_ERROR, TERMINAL_PRESET, Settings, checked_settings, option_value

__all__ = ["EXIT_ERROR", "LIST_ALL", "TERMINAL_PRESET", "Hidden", "Settings", "TerminalGame", "checked_settings",
           "fb_caption", "fp_caption", "fp_words", "main", "option_value", "play", "run", "typed_text"]
