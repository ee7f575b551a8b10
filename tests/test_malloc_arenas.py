"""The bot's process keeps its malloc memory in one glibc arena (issue 25, memory): `bot.limit_malloc_arenas`."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parents[1]
GLIBC = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="mallopt(M_ARENA_MAX) is glibc's")
def test_threads_of_a_limited_process_share_the_main_arena() -> None:
    """In a fresh process: threads that allocate at once get arenas of their own (glibc's default), and after
    `limit_malloc_arenas` they share one (``malloc_info`` lists one ``<heap>`` per arena)."""
    script = (
        "import ctypes, ctypes.util, sys, threading\n"
        "sys.path.insert(0, '.'); import bot\n"
        "if sys.argv[1] == 'limit': assert bot.limit_malloc_arenas()\n"
        "libc = ctypes.CDLL(ctypes.util.find_library('c'))\n"
        "libc.malloc.restype = ctypes.c_void_p\n"
        "start = threading.Barrier(4)\n"
        "def work():\n"
        "    start.wait()\n"
        "    for _ in range(2000): libc.free(ctypes.c_void_p(libc.malloc(4096)))\n"
        "threads = [threading.Thread(target=work) for _ in range(4)]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "libc.fflush(None); libc.malloc_info(0, ctypes.c_void_p.in_dll(libc, 'stdout')); libc.fflush(None)\n"
    )
    heaps = {}
    for mode in ("default", "limit"):
        done = subprocess.run([sys.executable, "-c", script, mode], capture_output=True, text=True, check=True,
                              env={"PATH": "/usr/bin:/bin"}, cwd=ROOT)
        heaps[mode] = done.stdout.count("<heap nr=")
    assert heaps["limit"] == 1 < heaps["default"]


def test_the_operators_own_malloc_arena_max_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert bot.limit_malloc_arenas() is False
