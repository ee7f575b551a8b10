"""A bot process SIGKILLed (a crash, an OOM kill, ``kill -9``) takes its render workers and their forkserver with it
(`render.pool`). Found by the two-process end-to-end test (issue 26): each kill left the forkserver and its workers
running, adopted by init, ~115 MB each, for ever: the workers hold each other's queue pipes and the forkserver's
"alive" pipe open, so nothing ends them; restarts under a supervisor that does not kill the whole process group
piled them up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WAIT = 20.0  # seconds a process may take to go; far more than it needs

# The bot's part: a pool of two workers, warmed (both drew), its pids printed, then it waits to be killed.
OWNER = """
import multiprocessing.forkserver as fs, sys, time
from render import pool
p = pool.start(2)
for _ in range(4):
    pool.current()._executor.submit(pool._ready).result(timeout=60)
print(fs._forkserver._forkserver_pid, *p.worker_pids(), flush=True)
time.sleep(600)
"""


def gone(pid: int) -> bool:
    """Exited (a zombie waiting for its parent to reap it counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone before the open, or between the open and the read
        return True


def wait_gone(pids: list[int]) -> list[int]:
    """The pids still running after WAIT seconds (none, at once, when all are gone)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and not all(gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not gone(p)]


def test_render_workers_and_their_forkserver_exit_when_the_bot_process_is_sigkilled() -> None:
    owner = subprocess.Popen([sys.executable, "-c", OWNER], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert owner.stdout is not None
        server, *workers = (int(p) for p in owner.stdout.readline().split())
        assert len(workers) == 2 and not any(gone(p) for p in (server, *workers))
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        left = wait_gone([*workers, server])
    finally:
        owner.kill()
        owner.wait()
    for pid in left:  # don't leave them behind for the next test either
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes of the killed bot's render pool still running: {left}"
