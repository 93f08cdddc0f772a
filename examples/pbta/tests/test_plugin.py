"""The distribution installs offline, not editable, and dicecli finds the game.

A fresh venv gets this environment's packages through a ``.pth`` file (dicecli's own
dependencies, pip and setuptools: nothing is downloaded), dicecli itself installed
non-editable from the checkout this example lives in (for its ``dicecli`` command),
and then ``pip install --no-index --no-build-isolation`` of a copy of this distribution.
setuptools must build wheels by itself (70.1 or newer) or have ``wheel`` beside it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from helpers import brute_force

HERE = Path(__file__).resolve().parents[1]  # examples/pbta
CHECKOUT = HERE.parents[1]  # the dicecli checkout, when the example is in one
COPY_IGNORED = shutil.ignore_patterns(
    "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".venv", "tests"
)


@dataclass(frozen=True)
class Venv:
    python: Path
    dicecli: list[str]
    purelib: Path
    root: Path  # the working folder of every command: not this source tree

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
        env |= {"NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        return subprocess.run(
            [*self.dicecli, *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
            timeout=120,
        )


def _pip(python: Path, *args: str, cwd: Path) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _builds_wheels() -> bool:
    """Whether setuptools here builds wheels without isolation: 70.1+ alone, or with wheel."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    if not _builds_wheels():
        pytest.fail("this test needs setuptools>=70.1 (or wheel) here: pip install -U setuptools")
    root = tmp_path_factory.mktemp("pbta-plugin")
    venv.create(root / "venv", with_pip=False)
    bin_dir = root / "venv" / ("Scripts" if sys.platform == "win32" else "bin")
    python = bin_dir / ("python.exe" if sys.platform == "win32" else "python")
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        ).stdout.strip()
    )
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "_pbta_test_base.pth").write_text(
        "".join(f"import site; site.addsitedir({path!r})\n" for path in sorted(here))
    )
    command = [str(python), "-m", "dicecli"]
    if (CHECKOUT / "dicecli" / "game.py").is_file():  # a real `dicecli` command
        source = root / "dicecli-src"
        shutil.copytree(CHECKOUT / "dicecli", source / "dicecli", ignore=COPY_IGNORED)
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(CHECKOUT / name, source / name)
        _pip(python, "--no-deps", str(source), cwd=root)
        command = [str(bin_dir / "dicecli")]
    shutil.copytree(HERE, root / "pbta", ignore=COPY_IGNORED)
    _pip(python, str(root / "pbta"), cwd=root)
    return Venv(python, command, purelib, root)


def test_it_is_installed_not_editable(fresh: Venv) -> None:
    found = subprocess.run(
        [str(fresh.python), "-c", "import pbta_game; print(pbta_game.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=fresh.root,
    ).stdout.strip()
    assert Path(found) == fresh.purelib / "pbta_game" / "__init__.py"
    assert not list(fresh.purelib.glob("__editable__*pbta*"))
    entry_points = next(fresh.purelib.glob("dicecli_pbta-*.dist-info")) / "entry_points.txt"
    assert "pbta = pbta_game:GAME" in entry_points.read_text()


def test_dicecli_rolls_a_move_with_given_dice(fresh: Venv) -> None:
    done = fresh.run("--plain", "--given", "6,4", "pbta +0")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "10\tpbta +0\t[6, 4] + 0 => strong hit\n",
        "",
    )


def test_a_miss_exits_1(fresh: Venv) -> None:
    done = fresh.run("--plain", "--given", "1,2", "pbta -1")
    assert (done.returncode, done.stdout) == (1, "2\tpbta -1\t[1, 2] - 1 => miss\n")


def test_a_seed_reproduces_the_rolls(fresh: Venv) -> None:
    first, again = (fresh.run("--plain", "--seed", "7", "-n", "5", "pbta +1") for _ in range(2))
    assert first.stdout == again.stdout
    assert len(first.stdout.splitlines()) == 5
    assert all("pbta +1\t[" in line for line in first.stdout.splitlines())


def test_dicecli_odds_are_exact(fresh: Venv) -> None:
    done = fresh.run("odds", "--json", "pbta +1")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    chances = {name: Fraction(found[name]["fraction"]) for name in brute_force(1)}
    assert chances == brute_force(1)
    assert found["exact"] is True


def test_dicecli_lists_the_game(fresh: Venv) -> None:
    done = fresh.run("games")
    assert done.returncode == 0, done.stderr
    assert any(
        line.split()[:4] == ["pbta", "pbta", "dicecli-pbta", "0.1.0"]
        for line in done.stdout.splitlines()
    )


def test_typing_the_dice_is_a_user_error_with_a_fix(fresh: Venv) -> None:
    done = fresh.run("pbta 2d6+1")
    assert done.returncode == 2
    assert "did you mean: pbta +1" in done.stderr
