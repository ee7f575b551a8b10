"""Board images and captions, drawn from a game's *view* (never a raw state): pure, no engine, storage or surface.

`render.registry` gives each game id its renderer; `render.kit` holds the shared drawing (fonts, colours, marks,
PNG encoding, defensive view readers); each game has a module or a package of its own.
"""
