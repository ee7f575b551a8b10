"""Floating Floors (2–4 ninjas balancing floorboards on Jutsu): pure rules.

``components.py`` loads and validates the fan-made box (terrain, floorboards, ninjas, Bansen, Jutsu, dice, physics);
``statics.py`` is the deterministic balance model that replaces the players' hands.
"""
