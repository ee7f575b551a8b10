"""Shared drawing helpers for every game's board image.

How images are made (see /work/shared/notes/perf-baselines.md): a game draws in RGB onto a cached
background, pasting cached pre-rendered anti-aliased sprites (`disc_sprite`, `mark_sprite`) and cached text
tiles (`paste_text`: rasterising text is the slow part of drawing), then remaps the whole image once onto a
fixed, hand-built palette (`Palette`, `to_palette`: ~1.5 ms, no dithering) and encodes the 'P' image with
`encode_image` (WebP lossless: a third of the PNG's bytes; name the file with `image_name`). Everything is
deterministic: the same view gives the same bytes. Caches are per process; the first image of a process
costs ~60 ms more.

Fonts: Lato from the ``font-lato`` package (it has the Polish letters; Pillow's default face does not). Text
a face lacks (emoji, CJK, some scripts in player names) falls back to DejaVu Sans where the system or
``data/fonts/`` has it, and is otherwise dropped character by character: never a crash, never a row of boxes.
`display_name` turns a name that has nothing drawable left into a fallback label.
"""

from __future__ import annotations

from render.kit.colours import (
    OKABE_ITO,
    PIECE_COLOURS,
    RGB,
    Palette,
    blend,
    hex_rgb,
    mark_ink,
    piece_outline,
    shade,
    to_palette,
)
from render.kit.fonts import (
    ELLIPSIS,
    PROJECT_FONT_DIR,
    TEXT_LIMIT,
    WEIGHTS,
    Canvas,
    cap_height,
    clean_text,
    display_name,
    draw_text,
    fit_text,
    font,
    font_chain,
    font_file,
    font_runs,
    has_glyph,
    lato_path,
    paste_text,
    text_sprite,
    text_width,
)
from render.kit.marks import (
    DIE_SPOTS,
    MARK_SHAPES,
    PIECE_MARKS,
    SUPERSAMPLE,
    disc_sprite,
    draw_mark,
    mark_sprite,
    number_sprite,
    sprite_colours,
)
from render.kit.png import (
    PNG_COMPRESS_LEVEL,
    WEBP_LOSSLESS,
    encode_image,
    encode_png,
    encode_webp,
    image_ext,
    image_format,
    image_name,
    use_format,
)
from render.kit.read import (
    fixed_word,
    read_int,
)

__all__ = [
    "DIE_SPOTS",
    "ELLIPSIS",
    "MARK_SHAPES",
    "OKABE_ITO",
    "PIECE_COLOURS",
    "PIECE_MARKS",
    "PNG_COMPRESS_LEVEL",
    "PROJECT_FONT_DIR",
    "RGB",
    "SUPERSAMPLE",
    "TEXT_LIMIT",
    "WEBP_LOSSLESS",
    "WEIGHTS",
    "Canvas",
    "Palette",
    "blend",
    "cap_height",
    "clean_text",
    "disc_sprite",
    "display_name",
    "draw_mark",
    "draw_text",
    "encode_image",
    "encode_png",
    "encode_webp",
    "fit_text",
    "fixed_word",
    "font",
    "font_chain",
    "font_file",
    "font_runs",
    "has_glyph",
    "hex_rgb",
    "image_ext",
    "image_format",
    "image_name",
    "lato_path",
    "mark_ink",
    "mark_sprite",
    "number_sprite",
    "paste_text",
    "piece_outline",
    "read_int",
    "shade",
    "sprite_colours",
    "text_sprite",
    "text_width",
    "to_palette",
    "use_format",
]
