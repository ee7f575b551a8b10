"""Re-export shim: Floating Floors' words live in `render.floating_floors.words`; importers move there."""

from __future__ import annotations

from render.floating_floors.words import (
    KIND_EMOJI,
    NINJA_EMOJI,
    action_lines,
    band_text,
    event_line,
    jutsu,
    jutsu_list,
    margin_text,
    ninja,
    option_description,
    player_line,
    preview_text,
    text_board,
)

__all__ = [
    "KIND_EMOJI",
    "NINJA_EMOJI",
    "action_lines",
    "band_text",
    "event_line",
    "jutsu",
    "jutsu_list",
    "margin_text",
    "ninja",
    "option_description",
    "player_line",
    "preview_text",
    "text_board",
]
