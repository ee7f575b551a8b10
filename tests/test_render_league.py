"""Tournament images (render/league/): the standings table and the elimination bracket, from plain data."""

from __future__ import annotations

import math
import unicodedata
from typing import Any

import pytest
from PIL import Image

from render import league as lg
from tests.pngs import png_image

MB = 1 << 20
MAX_H = 4096  # what Discord shows well
HOSTILE = [
    "W" * 300,  # very long
    "Wolfeschlegelsteinhausenbergerdorff Brzęczyszczykiewicz the Magnificent of Łódź",
    "שלום עולם",  # RTL
    "مرحبا بالعالم",
    "😀🎲👑",  # nothing a face draws: the fallback label
    "Ana 🇵🇱👨‍👩‍👧",
    "Z̷̢̛̛̛̛a̶̢̛̛l̴̢̛̛g̵̢̛̛̛ơ̸̢̛ ̷t̵e̵x̷t" + "\u0301" * 50,  # zalgo
    "",
    "   ",
    "\u202eevil\u202c name",  # bidi override
    "@everyone <@123> **bold**",
    None,
    12345,
]




def standings(n: int, **row: Any) -> dict[str, Any]:
    rows = []
    for i in range(n):
        pts = (n - i) / 2
        rows.append({"rank": i + 1, "name": f"Player {i + 1}", "points": pts, "tiebreaks": [i * 1.5, i, i / 4],
                     "record": f"{i % 4}–{i % 3}–{i % 2}", "dropped": False, "highlight": False,
                     "provisional": False, **row})
    return {"title": "Spring Swiss Open", "subtitle": "Swiss · Night of the 27 Ninja · after round 3 of 5",
            "columns": ["Bh-1", "Bh", "SB"], "rows": rows, "footer": "Tie-breaks: Buchholz cut-1, Buchholz, SB."}


def match(label: str, a: Any = None, b: Any = None, winner: int | None = None, seeds: Any = (None, None),
          bye: bool = False) -> dict[str, Any]:
    return {"label": label, "players": [a, b], "seeds": list(seeds), "winner": winner, "bye": bye}


def single_elim(players: int, decided_rounds: int = 1) -> dict[str, Any]:
    rounds = []
    entrants: list[tuple[str | None, int | None]] = [(f"Player {i + 1}", i + 1) for i in range(players)]
    r = 0
    while len(entrants) > 1:
        matches, nxt = [], []
        for k in range(0, len(entrants), 2):
            (a, sa), (b, sb) = entrants[k], entrants[k + 1]
            w = k // 2 % 2 if r < decided_rounds else None
            matches.append(match(f"R{r + 1}-{k // 2 + 1}", a, b, w, (sa, sb)))
            nxt.append(entrants[k + w] if w is not None else (None, None))
        rounds.append({"title": f"Round {r + 1}", "matches": matches})
        entrants, r = nxt, r + 1
    return {"title": f"{players}-player knockout", "sections": [{"title": "Main bracket", "rounds": rounds}]}


def double_elim(players: int) -> dict[str, Any]:
    wb = single_elim(players)["sections"][0]["rounds"]
    lb, count, r = [], players // 4, 1
    while count >= 1:
        for _ in range(2):
            lb.append({"title": f"Round {r}", "matches": [match(f"L{r}-{k + 1}") for k in range(count)]})
            r += 1
        count //= 2
    gf = [{"title": "Final", "matches": [match("GF")]}, {"title": "Reset", "matches": [match("GF2")]}]
    return {"title": "Double elimination", "sections": [{"title": "Winners bracket", "rounds": wb},
                                                        {"title": "Losers bracket", "rounds": lb},
                                                        {"title": "Grand final", "rounds": gf}]}


def colours_in(img: Image.Image, box: tuple[float, float, float, float]) -> set[tuple[int, int, int]]:
    region = img.convert("RGB").crop(tuple(round(v) for v in box))
    return {c for _, c in region.getcolors(1 << 20) or []}


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 4) -> bool:
    """Colours equal up to the palette remap (Pillow looks colours up in 6 bits a channel)."""
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def has(colours: set[tuple[int, int, int]], colour: tuple[int, int, int]) -> bool:
    return any(near(c, colour) for c in colours)


def brightest(img: Image.Image, box: tuple[float, float, float, float]) -> tuple[int, int, int]:
    return max(colours_in(img, box), key=sum)


# ------------------------------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    ("value", "locale", "text"),
    [(2.5, "en", "2.5"), (3.0, "en", "3"), (3, "en", "3"), (0, "en", "0"), (-0.0, "en", "0"), (12.75, "en", "12.75"),
     (1 / 3, "en", "0.33"), (2.5, "pl", "2,5"), (-1.5, "en", "-1.5"), ("4.5", "en", "4.5"), (None, "en", "—"),
     (math.nan, "en", "—"), (math.inf, "en", "—"), ("x", "en", "—"), (1234.5, "en", "1234.5")],
)
def test_numbers_drop_trailing_zeros(value: Any, locale: str, text: str) -> None:
    assert lg.number(value, locale) == text


def test_fixed_words_are_localised() -> None:
    assert lg.label("no_results", "en") == "No results yet"
    assert lg.label("no_results", "pl") == "Brak wyników"
    assert lg.label("no_results", "en-US") == "No results yet"
    assert lg.label("more_rows", "de", count=3) == "+ 3 more"  # an unshipped locale falls back to English


# ---------------------------------------------------------------------------------------- standings


@pytest.mark.parametrize("n", [1, 8, 32, 64])
def test_standings_decode_and_fit(n: int) -> None:
    data = lg.standings_image(standings(n))
    img = png_image(data)
    assert img.mode == "P"
    lay = lg.standings_layout(standings(n))
    assert img.size == (lay.width, lay.height)
    assert 900 <= img.width <= 1500 and img.height <= MAX_H
    assert lay.shown == n and lay.more == 0
    assert len(data) < MB


def test_sixty_four_rows_are_one_column_under_a_megabyte() -> None:
    data = lg.standings_image(standings(64, provisional=True))
    img = png_image(data)
    assert len(data) < MB
    assert img.height <= MAX_H
    lay = lg.standings_layout(standings(64))
    assert lay.row_box(63)[3] <= img.height  # the last row is on the image


def test_rows_past_the_cap_are_counted() -> None:
    lay = lg.standings_layout(standings(lg.MAX_ROWS + 7))
    assert lay.shown == lg.MAX_ROWS and lay.more == 7
    png_image(lg.standings_image(standings(lg.MAX_ROWS + 7)))


def test_no_rows_says_so_in_the_locale() -> None:
    empty = {"title": "Cup", "subtitle": "", "columns": ["Bh"], "rows": [], "footer": ""}
    en = png_image(lg.standings_image(empty))
    pl = png_image(lg.standings_image(empty, locale="pl"))
    assert en.size == pl.size
    lay = lg.standings_layout(empty)
    message = (lay.width // 2 - 150, lay.rows_top + 60, lay.width // 2 + 150, lay.rows_top + 110)
    assert lg.DIM in colours_in(en, message)  # the message is drawn
    assert en.convert("RGB").crop(message).tobytes() != pl.convert("RGB").crop(message).tobytes()


def test_a_dropped_row_is_greyed() -> None:
    data = standings(4)
    data["rows"][1]["dropped"] = True
    img = lg.draw_standings(data)
    lay = lg.standings_layout(data)
    # the brightest ink of a row: white-ish text on a kept row, never brighter than the grey on a dropped one
    assert near(brightest(img, lay.name_box(2)), lg.TEXT)
    assert near(brightest(img, lay.name_box(1)), lg.GREY)
    right = lay.columns[0].right  # the points too
    assert near(brightest(img, (right - 40, lay.row_box(1)[1], right, lay.row_box(1)[3])), lg.GREY)
    assert near(brightest(img, (right - 40, lay.row_box(2)[1], right, lay.row_box(2)[3])), lg.TEXT)


def test_rows_alternate_and_the_highlighted_row_stands_out() -> None:
    data = standings(6)
    data["rows"][4]["highlight"] = True
    img = lg.draw_standings(data).convert("RGB")
    lay = lg.standings_layout(data)

    def fill(i: int) -> tuple[int, int, int]:
        left, top, _, _ = lay.row_box(i)
        return img.getpixel((left + 12, top + 3))

    assert near(fill(0), lg.BG) and near(fill(1), lg.STRIPE) and near(fill(2), lg.BG) and near(fill(3), lg.STRIPE)
    assert fill(0) != fill(1)
    assert near(fill(4), lg.HILITE)
    left, top, _, _ = lay.row_box(4)
    assert near(img.getpixel((left + 2, top + 3)), lg.ACCENT)  # the bar: not told by the fill alone
    assert has(colours_in(img, lay.name_box(4)), lg.WHITE)


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_and_titles_do_not_break_standings(name: Any) -> None:
    data = standings(3)
    data["rows"][1]["name"] = name
    data["title"] = name
    data["subtitle"] = name
    data["footer"] = name
    data["rows"][1]["record"] = name
    img = png_image(lg.standings_image(data))
    assert img.width == lg.standings_layout(data).width <= 1500


def test_a_long_name_is_cut_to_its_column() -> None:
    data = standings(3)
    data["rows"][1]["name"] = "W" * 300
    img = lg.draw_standings(data)
    lay = lg.standings_layout(data)
    _, top, _, bottom = lay.row_box(1)
    first_col = lay.columns[0].right - 60  # the points are right-aligned, "1" is narrow
    between = (lay.name_right + 1, top + 2, first_col, bottom - 2)
    assert len(colours_in(img, between)) == 1  # nothing spilled past the name column: the row's fill only
    assert has(colours_in(img, lay.name_box(1)), lg.TEXT)


def test_names_are_cleaned() -> None:
    assert lg.tame("Z̷̢̛a̶l̴g̵o̸") == "Zalgo"  # marks Lato lacks go, they would be boxes
    assert lg.tame("Zażółć gęślą") == "Zażółć gęślą"
    assert lg.tame("e\u0301") == "é"  # NFC first: a precomposed letter stays
    zalgo = lg._name(HOSTILE[6], "fallback", "Bold")
    assert zalgo.startswith("Zalg")  # ơ is DejaVu's (Lato lacks it), which has the marks: at most 3 are kept
    assert sum(1 for c in zalgo if unicodedata.combining(c)) <= 3
    assert lg._name("😀🎲👑", "Player 2", "Bold") == "Player 2"
    assert lg._name(None, "Player 2", "Bold") == "Player 2"


def test_malformed_standings_do_not_crash() -> None:
    for data in ({}, {"rows": None}, {"rows": [None, 3, {}]}, {"rows": [{"tiebreaks": [1]}], "columns": ["a", "b"]},
                 {"rows": [{"rank": "x", "points": "nan", "tiebreaks": "oops"}], "columns": "Bh"}):
        png_image(lg.standings_image(data))  # type: ignore[arg-type]


def test_many_tie_break_columns_widen_the_image() -> None:
    data = standings(4)
    data["columns"] = [f"Tie-break number {i}" for i in range(8)]
    for row in data["rows"]:
        row["tiebreaks"] = [123.25] * 8
    lay = lg.standings_layout(data)
    assert lay.width > lg.ST_WIDTH and lay.width <= lg.ST_MAX_WIDTH
    png_image(lg.standings_image(data))


def test_standings_are_deterministic() -> None:
    data = standings(20, provisional=True)
    data["rows"][3]["dropped"] = True
    assert lg.standings_image(data) == lg.standings_image(data)
    assert lg.standings_image(data, locale="pl") != lg.standings_image(data)


# ------------------------------------------------------------------------------------------ bracket


@pytest.mark.parametrize("players", [2, 4, 8, 16, 32, 64])
def test_single_elimination_decodes_and_fits(players: int) -> None:
    data = lg.bracket_image(single_elim(players))
    img = png_image(data)
    lay = lg.bracket_layout(single_elim(players))
    assert img.mode == "P"
    assert img.size == (lay.width, lay.height)
    assert img.height <= MAX_H and img.width <= 2000
    assert len(data) < MB
    assert len(lay.boxes[0]) == max(1, int(math.log2(players)))


def test_sixty_four_players_shrink_to_the_readable_minimum_not_below() -> None:
    lay = lg.bracket_layout(single_elim(64))
    assert lay.metrics.size >= 16 and lay.metrics.slot >= 26
    assert len(lay.boxes[0][0]) == 32
    small = lg.bracket_layout(single_elim(4))
    assert small.metrics.size > lay.metrics.size  # a small field gets the roomy boxes


@pytest.mark.parametrize("players", [4, 16, 64])
def test_double_elimination_stacks_three_sections(players: int) -> None:
    data = lg.bracket_image(double_elim(players))
    img = png_image(data)
    assert len(data) < MB
    lay = lg.bracket_layout(double_elim(players))
    assert len(lay.sections) == 3
    tops = [s.top for s in lay.sections]
    assert tops == sorted(tops)
    for a, b in zip(lay.sections, lay.sections[1:], strict=False):
        assert a.top + a.height <= b.top
    assert img.height <= MAX_H


def test_winner_and_loser_slots_differ() -> None:
    data = single_elim(4)
    img = lg.draw_bracket(data).convert("RGB")
    lay = lg.bracket_layout(data)
    box = lay.match(0, 0, 0)  # winner 0
    seed_w = lay.metrics.seed_w

    def fill(k: int) -> tuple[int, int, int]:
        return img.getpixel((box.x + seed_w + 4, round(box.slot_cy(k))))

    assert near(fill(0), lg.WIN) and near(fill(1), lg.LOSE)
    assert sum(abs(a - b) for a, b in zip(fill(0), fill(1), strict=True)) > 100  # far apart, in lightness too
    assert near(brightest(img, box.slot_box(0)), lg.WHITE)  # white bold name and the check mark
    assert near(brightest(img, box.slot_box(1)), lg.GREY)  # the loser's name dimmed
    other = lay.match(0, 0, 1)  # winner 1
    assert near(img.getpixel((other.x + seed_w + 4, round(other.slot_cy(1)))), lg.WIN)
    final = lay.match(0, 1, 0)  # undecided
    assert near(img.getpixel((final.x + seed_w + 4, round(final.slot_cy(0)))), lg.OPEN)


def test_byes_and_empty_slots() -> None:
    data = {"title": "Byes", "sections": [{"title": "Main", "rounds": [
        {"title": "Round 1", "matches": [match("1", "Alice", None, bye=True, seeds=(1, None)),
                                         match("2", "Bob", "Cleo", seeds=(4, 5))]},
        {"title": "Final", "matches": [match("F", "Alice", None)]}]}]}
    img = lg.draw_bracket(data).convert("RGB")
    lay = lg.bracket_layout(data)
    bye = lay.match(0, 0, 0)
    x = bye.x + lay.metrics.seed_w + 4
    assert near(img.getpixel((x, round(bye.slot_cy(0)))), lg.WIN)  # a bye's lone player goes through
    assert near(img.getpixel((x, round(bye.slot_cy(1)))), lg.BYE)
    final = lay.match(0, 1, 0)
    assert near(img.getpixel((x + final.x - bye.x, round(final.slot_cy(1)))), lg.OPEN)
    assert has(colours_in(img, final.slot_box(1)), lg.DIM)  # the "—" of a slot to be decided


def test_connectors_join_halving_rounds_only() -> None:
    data = double_elim(8)
    img = lg.draw_bracket(data).convert("RGB")
    lay = lg.bracket_layout(data)
    m = lay.metrics
    # winners round 1 (2 matches) -> round 2 (1 match): an elbow in the gap
    a, parent = lay.match(0, 0, 0), lay.match(0, 1, 0)
    xm = a.x + a.width + m.gap_x // 2
    joint = colours_in(img, (xm - 1, a.top + a.slot, xm + 2, parent.slot_cy(0)))
    assert has(joint, lg.LINE) or has(joint, lg.ADV)
    # losers round 1 -> round 2 have as many matches: aligned, no connector
    l1, l2 = lay.match(1, 0, 0), lay.match(1, 1, 0)
    assert l1.top == l2.top
    gap = (l1.x + l1.width + 2, l1.top, l2.x - 2, l1.top + 2 * l1.slot)
    assert len(colours_in(img, gap)) == 1 and has(colours_in(img, gap), lg.BG)


def test_decided_paths_are_drawn_brighter() -> None:
    data = single_elim(4, decided_rounds=1)
    img = lg.draw_bracket(data).convert("RGB")
    lay = lg.bracket_layout(data)
    a = lay.match(0, 0, 0)
    y = round(a.top + a.slot)
    assert near(img.getpixel((a.x + a.width + 6, y)), lg.ADV)
    undecided = single_elim(4, decided_rounds=0)
    img = lg.draw_bracket(undecided).convert("RGB")
    assert near(img.getpixel((a.x + a.width + 6, y)), lg.LINE)


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_do_not_break_the_bracket(name: Any) -> None:
    data = single_elim(8)
    data["title"] = name
    data["sections"][0]["title"] = name
    data["sections"][0]["rounds"][0]["title"] = name
    first = data["sections"][0]["rounds"][0]["matches"][0]
    first["players"] = [name, name]
    first["label"] = name
    img = lg.draw_bracket(data)
    lay = lg.bracket_layout(data)
    assert img.size == (lay.width, lay.height)
    box = lay.match(0, 0, 0)
    # the names stay in their box: the gap to the connector's joint is untouched but for the connector
    right = box.x + box.width
    beside = colours_in(img, (right + 1, box.top, right + lay.metrics.gap_x // 2 - 2, box.top + box.slot - 2))
    assert len(beside) == 1 and has(beside, lg.BG)


def test_malformed_brackets_do_not_crash() -> None:
    for data in ({}, {"sections": None}, {"sections": [None]}, {"sections": [{"rounds": [None, {"matches": None}]}]},
                 {"sections": [{"rounds": [{"matches": [{"players": "ab", "winner": 7, "seeds": ["x", 3]}]}]}]},
                 {"sections": [{"title": "Empty", "rounds": []}]}):
        img = png_image(lg.bracket_image(data))  # type: ignore[arg-type]
        assert img.width >= 700


def test_brackets_are_deterministic() -> None:
    data = double_elim(16)
    assert lg.bracket_image(data) == lg.bracket_image(data)
    assert lg.bracket_image(data, locale="pl") == lg.bracket_image(data, locale="pl")
