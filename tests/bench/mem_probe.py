"""What the memory soak (`tests.bench.bench_memory`) asks a process about itself: its RSS, its filled caches, and
glibc's ``malloc_trim``. A light module (standard library only at import): a render worker imports it to answer
a probe, and must not grow by the engine or storage for it."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CacheRow = tuple[str, int, int, int, int | None]  # name, hits, misses, held, bound


def rss_kb(pid: int | str = "self") -> int:
    """A process's resident set size in KiB (Linux ``/proc``); 0 if it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def rss_by_mapping(pid: int | str = "self") -> dict[str, int]:
    """RSS KiB by kind of mapping (``/proc/PID/smaps``): ``heap`` (glibc's brk heap), ``anon`` (anonymous maps:
    pymalloc's arenas, large allocations, other malloc arenas), ``files`` (libraries, SQLite's files), ``other``."""
    out = {"heap": 0, "anon": 0, "files": 0, "other": 0}
    kind = "other"
    try:
        lines = Path(f"/proc/{pid}/smaps").read_text().splitlines()
    except (FileNotFoundError, ProcessLookupError):
        return out
    for line in lines:
        head = line.split(maxsplit=5)
        if head and "-" in head[0] and len(head) >= 5:  # a mapping's header line
            name = head[5] if len(head) > 5 else ""
            kind = "heap" if name == "[heap]" else "anon" if not name else "files" if name.startswith("/") else "other"
        elif line.startswith("Rss:"):
            out[kind] += int(line.split()[1])
    return out


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


def sqlite_memory_kb() -> int:
    """SQLite's own heap in this process (``sqlite3_memory_used()`` of the library ``_sqlite3`` links: its page
    caches, schemas and statements, on whichever thread): -1 where that library cannot be found."""
    import _sqlite3

    try:
        lib = ctypes.CDLL(_sqlite3.__file__)
        used = lib.sqlite3_memory_used
    except (OSError, AttributeError):
        return -1
    used.restype = ctypes.c_int64
    return int(used()) // 1024


def malloc_trim() -> bool:
    """glibc's ``malloc_trim(0)``: free heap pages back to the system (False where there is no glibc)."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))


def pymalloc_stats(path: Path) -> dict[str, int]:
    """Write pymalloc's ``sys._debugmallocstats()`` (which prints to the C stderr) to ``path``; returns its summary
    in bytes: ``arenas`` (allocated now, 1 MiB each on 64-bit Linux), ``used`` (in allocated blocks: live small
    Python objects) and ``free`` (in available blocks), so arenas held by few live blocks show as
    ``arenas`` far above ``used``."""
    sys.stderr.flush()
    saved = os.dup(2)
    with path.open("w") as out:
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    keys = {"# arenas allocated current": "arenas", "# bytes in allocated blocks": "used",
            "# bytes in available blocks": "free"}
    out_: dict[str, int] = {}
    for line in path.read_text().splitlines():
        head, _, value = line.partition("=")
        if head.strip() in keys:
            out_[keys[head.strip()]] = int(value.strip().replace(",", ""))
    out_["arenas"] = out_.get("arenas", 0) << 20
    return out_


PROJECT_MODULES = ("render", "rules", "i18n", "cogs", "engine", "league")


def project_caches(prefixes: tuple[str, ...] = PROJECT_MODULES) -> Iterator[tuple[str, str, Any]]:
    """(module, attribute, cached function) of every ``functools`` cache held by a loaded module whose name starts
    with one of ``prefixes``; a cache imported into several modules comes once per module."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefixes):
            continue
        for attr, obj in list(vars(module).items()):
            if callable(getattr(obj, "cache_info", None)):
                yield name, attr, obj


def cache_infos() -> list[CacheRow]:
    """(name, hits, misses, size, bound) of every filled ``functools`` cache in the project's loaded modules, the
    paletted kit's per-palette text tiles included: what the soak's RSS is made of, and how often each cache helps."""
    out, seen = [], set()
    for name, attr, obj in project_caches():
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        got = obj.cache_info()
        if got.currsize:
            out.append((f"{name}.{attr}", got.hits, got.misses, got.currsize, got.maxsize))
        if attr == "paletted" and got.currsize:
            for kind, tiles in obj().tile_info().items():  # cached: the palette the renders drew with
                out.append((f"{name}.paletted() {kind}", *tiles))
    out += [(name, 0, 0, len(held), bound) for name, held, bound in _other_caches() if held]
    return sorted(out, key=lambda row: -row[3])


def _other_caches() -> list[tuple[str, Any, int | None]]:
    """The caches that are not ``functools`` ones, (name, the dict, bound), of the modules loaded: the engine's
    views (each entry holds a game's state) and The Floor's answer indexes (hits and misses are not counted)."""
    out: list[tuple[str, Any, int | None]] = []
    tables = sys.modules.get("engine.tables")
    if tables is not None:
        out.append(("engine.tables.VIEWS", tables.VIEWS.entries, tables.VIEWS.size))
    answers = sys.modules.get("rules.the_floor.answers")
    if answers is not None:
        out.append(("rules.the_floor.answers._INDEX_CACHE", answers._INDEX_CACHE, answers._INDEX_CACHE_SIZE))
    for module, name, bound in FF_CACHES:  # Floating Floors' previews and legal lists, kept by card contents
        loaded = sys.modules.get(module)
        if loaded is not None:
            out.append((f"{module}.{name}", getattr(loaded, name), getattr(loaded, bound)))
    return out


FF_CACHES = (("rules.floating_floors.quick", "_ANSWERS", "_ANSWERS_SIZE"),
             ("rules.floating_floors.quick", "_TOKENS", "_TOKENS_SIZE"),
             ("rules.floating_floors.quick", "_POSITIONS", "_POSITIONS_SIZE"),
             ("rules.floating_floors.quick", "_PIECES", "_POSITIONS_SIZE"),
             ("rules.floating_floors.quick", "_GAMES", "_POSITIONS_SIZE"),
             ("rules.floating_floors.legal", "_PLACEMENTS", "_PLACEMENTS_SIZE"),
             ("rules.floating_floors.legal", "_STEPS", "_STEPS_SIZE"),
             ("rules.floating_floors.work", "_INDEX", "_INDEX_SIZE"))


def clear_caches() -> int:
    """Empty every ``functools`` cache of the project's loaded modules (the paletted kits' text tiles too) and
    `_other_caches`: what stays after this, a full GC pass and ``malloc_trim`` is what no cache holds. Returns the
    entries dropped."""
    dropped = 0
    for _, attr, obj in project_caches():
        if not hasattr(obj, "cache_clear"):
            continue
        if attr == "paletted" and obj.cache_info().currsize:
            kit = obj()
            for tiles in (kit._labels, kit._numbers):  # the kit's own text tiles
                dropped += tiles.cache_info().currsize
                tiles.cache_clear()
        dropped += obj.cache_info().currsize
        obj.cache_clear()
    for _, held, _ in _other_caches():
        dropped += len(held)
        held.clear()
    return dropped


def probe(trim: bool, hold: float = 0.2, clear: bool = False) -> tuple[int, int, int, list[CacheRow]]:
    """A render worker's (pid, RSS KiB after a full GC pass, the same after ``malloc_trim`` when ``trim``, its
    caches). It holds its worker ``hold`` seconds so that the pool's other workers take the other probes sent with
    it. ``clear``: every cache emptied first (`clear_caches`)."""
    if clear:
        clear_caches()
    gc.collect()
    untrimmed = rss_kb()
    if trim:
        malloc_trim()
    time.sleep(hold)
    return os.getpid(), untrimmed, rss_kb(), cache_infos()
