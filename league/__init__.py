"""Pure tournament and rating logic: formats, pairing through libraries, standings, tie-breaks, ratings.

Nothing here knows Discord, storage or the clock; the engine and the cogs drive it (see DESIGN.md).
"""
