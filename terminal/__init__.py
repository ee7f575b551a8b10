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
