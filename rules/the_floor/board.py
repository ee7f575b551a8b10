"""The 5×5 Floor: cell names, the starting layouts of the rulebook, fields (connected same-side areas)."""

from __future__ import annotations

from rules.base import InvalidActionError

SIZE = 5
FILES = "ABCDE"
CENTRE = 12  # C3
EMPTY = -1
# Rows top (row 5) to bottom (row 1), one letter per layout side, '.' = the empty centre.
LAYOUTS = {
    2: ("ABABA", "BABAB", "AB.BA", "BABAB", "ABABA"),
    3: ("ABCAB", "BCABC", "CA.CA", "ABCAB", "BCABC"),
    4: ("ABCDA", "BCDAB", "CD.BA", "DCACB", "ADBDC"),
    5: ("ACEBD", "BDACE", "CEBDA", "DACEB", "EBDAC"),
}


def index(col: int, row: int) -> int:
    """Cell index of column 0..4 (A..E) and row 0..4 (1..5)."""
    return row * SIZE + col


def name(cell: int) -> str:
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int:
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345":
        raise InvalidActionError("tf.parse.cell", cell=text)
    return index(FILES.index(t[0]), int(t[1]) - 1)


def neighbours(cell: int) -> list[int]:
    c, r = cell % SIZE, cell // SIZE
    out = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE:
            out.append(index(c + dc, r + dr))
    return sorted(out)


def layout(sides: int, order: list[int]) -> tuple[int, ...]:
    """The starting board: cell -> side (EMPTY for the centre with 2–4 sides); layout letter k is side order[k]."""
    board = [EMPTY] * (SIZE * SIZE)
    rows = LAYOUTS[sides]
    for top, line in enumerate(rows):
        row = SIZE - 1 - top
        for col, ch in enumerate(line):
            if ch != ".":
                board[index(col, row)] = order["ABCDE".index(ch)]
    return tuple(board)


def fields(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every field (maximal orthogonally connected group of one side's cells), sorted cells, by first cell."""
    seen: set[int] = set()
    out = []
    for start in range(len(board)):
        if board[start] == EMPTY or start in seen:
            continue
        side, stack, group = board[start], [start], []
        seen.add(start)
        while stack:
            c = stack.pop()
            group.append(c)
            for n in neighbours(c):
                if n not in seen and board[n] == side:
                    seen.add(n)
                    stack.append(n)
        out.append(tuple(sorted(group)))
    return out


def field_of(board: tuple[int, ...], cell: int) -> tuple[int, ...]:
    for f in fields(board):
        if cell in f:
            return f
    return ()
