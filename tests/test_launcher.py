"""``./floorboard`` and ``bash .ci/run`` share one .venv (tools/venv.sh): it is created once, and a requirements
file is installed only when it (or one it includes) changed. Run on copies of the scripts in a temporary folder,
with a fake interpreter that records its calls, so no network and no real pip are needed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("floorboard", ".ci/run", "tools/venv.sh")

# A stand-in for python3 and everything in .venv/bin: logs its name and arguments; `-m venv DIR` makes
# DIR/bin/python and DIR/bin/ruff (copies of itself); `-m pip` fails when FAIL_PIP is set.
FAKE_PYTHON = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "$CALLS"
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; cp "$0" "$3/bin/ruff"; fi
if [ "$1 $2" = "-m pip" ] && [ -n "${FAIL_PIP:-}" ]; then exit 1; fi
exit 0
"""


class Checkout:
    """A copy of the launcher, CI script and venv script with fake requirements files."""

    def __init__(self, root: Path) -> None:
        self.root, self.calls = root, root / "calls.log"
        for name in SCRIPTS:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, root / name)
        (root / "requirements.txt").write_text("discord.py==2.7.1\n")
        (root / "requirements-dev.txt").write_text("-r requirements.txt\npytest==9.2.0\n")
        fake = root / "bin" / "python3"
        fake.parent.mkdir()
        fake.write_text(FAKE_PYTHON)
        fake.chmod(0o755)
        self.env = {"PATH": os.environ["PATH"], "PYTHON": str(fake), "CALLS": str(self.calls)}

    def run(self, *argv: str, fail_pip: bool = False) -> list[str]:
        """Run a script (bash, as the README does); returns the fake interpreter's calls it made."""
        before = self.log()
        env = {**self.env, **({"FAIL_PIP": "1"} if fail_pip else {})}
        done = subprocess.run(["bash", *argv], cwd=self.root, env=env, capture_output=True, text=True, timeout=60)
        self.returncode = done.returncode
        assert fail_pip or done.returncode == 0, done.stderr
        return self.log()[len(before):]

    def log(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture
def checkout(tmp_path: Path) -> Checkout:
    return Checkout(tmp_path)


def installs(calls: list[str]) -> list[str]:
    return [c.split(" -r ")[1] for c in calls if " -m pip install " in c]


def venvs(calls: list[str]) -> int:
    return sum(" -m venv " in c for c in calls)


def test_ci_then_the_launcher_builds_and_installs_once(checkout: Checkout) -> None:
    ci = checkout.run(".ci/run")
    assert venvs(ci) == 1 and installs(ci) == ["requirements-dev.txt"]
    assert "ruff check ." in ci and any(c.startswith("python -m pytest") for c in ci)
    assert checkout.run("floorboard", "--help") == ["python bot.py --help"]
    assert checkout.run(".ci/run") == ["ruff check .", "python -m pytest -q -p no:cacheprovider -n auto"]


def test_the_launcher_first_then_ci_installs_only_what_is_missing(checkout: Checkout) -> None:
    first = checkout.run("floorboard")
    assert venvs(first) == 1 and installs(first) == ["requirements.txt"] and first[-1] == "python bot.py"
    ci = checkout.run(".ci/run")
    assert venvs(ci) == 0 and installs(ci) == ["requirements-dev.txt"]
    assert checkout.run("floorboard", "play", "flying_blades", "--bots", "2") == [
        "python bot.py play flying_blades --bots 2"]


def test_a_changed_requirements_file_is_installed_once_for_both(checkout: Checkout) -> None:
    checkout.run(".ci/run")
    (checkout.root / "requirements.txt").write_text("discord.py==2.7.1\nclick==8.5.1\n")
    assert installs(checkout.run("floorboard")) == ["requirements.txt"]
    assert installs(checkout.run(".ci/run")) == []  # the dev pins are as installed; the runtime ones are new
    (checkout.root / "requirements-dev.txt").write_text("-r requirements.txt\npytest==9.2.1\n")
    assert installs(checkout.run("floorboard")) == []
    assert installs(checkout.run(".ci/run")) == ["requirements-dev.txt"]


def test_a_failed_install_is_tried_again_next_time(checkout: Checkout) -> None:
    calls = checkout.run("floorboard", fail_pip=True)
    assert checkout.returncode != 0 and installs(calls) == ["requirements.txt"]
    assert not any(c.startswith("python bot.py") for c in calls)  # the bot does not start on a broken venv
    again = checkout.run("floorboard")
    assert venvs(again) == 0 and installs(again) == ["requirements.txt"]
    assert checkout.run("floorboard") == ["python bot.py"]
