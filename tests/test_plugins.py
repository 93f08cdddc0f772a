"""Game plug-ins for real: packages installed into a temporary environment, found by
dicecli through the ``dicecli.games`` entry point, driven through ``python -m dicecli``.

Two temporary environments share the development environment's packages (dicecli, its
dependencies, pip, setuptools) through a ``.pth`` file, and have their own
site-packages for what is installed into them:

- ``clean``: the example game ``examples/savage-worlds`` (the ``sw`` keyword) alone;
- ``broken``: the same game, a plug-in whose module raises on import, and one whose
  keyword clashes with Warhammer's ``wfb``.

``--system-site-packages`` would not do: from inside a virtual environment it shares
the *base* interpreter's packages, not this environment's. The packages are installed
offline, not editable (the entry-point metadata is the installed one), from copies, so
that no build files are left in the source tree. See :func:`_install` for the recipe.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import dicecli

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "savage-worlds"
TIMEOUT = 120
"""Seconds any one subprocess may take (an install, the example's own tests)."""


@dataclass(frozen=True)
class Env:
    """A temporary environment: its python, and a scratch folder."""

    python: Path
    scratch: Path

    def run(
        self, *args: str, stdin: str | None = None, check: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """Run this environment's python with ``args``, outside the source tree, with
        ``stdin`` as its standard input (empty when None)."""
        environ = {
            **os.environ,
            "NO_COLOR": "1",
            "TERM": "dumb",
            "COLUMNS": "200",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        environ.pop("PYTHONPATH", None)
        done = subprocess.run(
            [str(self.python), *args],
            input="" if stdin is None else stdin,
            capture_output=True,
            text=True,
            cwd=self.scratch,
            env=environ,
            timeout=TIMEOUT,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"{args} exited {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
            )
        return done

    def dicecli(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return self.run("-m", "dicecli", *args, stdin=stdin)


def _make_env(folder: Path) -> Env:
    """A virtual environment without pip of its own, seeing this environment's packages
    after its own (a ``.pth`` file calling :func:`site.addsitedir`, which also runs their
    ``.pth`` files: an editable dicecli works too)."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")],
        check=True,
        timeout=TIMEOUT,
    )
    bin_dir = "Scripts" if os.name == "nt" else "bin"
    python = folder / "venv" / bin_dir / ("python.exe" if os.name == "nt" else "python")
    scratch = folder / "scratch"
    scratch.mkdir()
    env = Env(python, scratch)
    purelib = env.run(
        "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", check=True
    ).stdout.strip()
    shared = [
        path
        for path in (*site.getsitepackages(), site.getusersitepackages())
        if path in sys.path and os.path.isdir(path)
    ]
    lines = [f"import site; site.addsitedir({path!r})" for path in shared]
    Path(purelib, "_dicecli_dev_environment.pth").write_text("\n".join(lines) + "\n")
    found = env.run("-c", "import dicecli; print(dicecli.__file__)", check=True).stdout.strip()
    assert Path(found).resolve() == Path(dicecli.__file__).resolve(), "another dicecli is seen"
    return env


def _can_build_wheels(env: Env) -> bool:
    """Whether setuptools can build a wheel here without downloading anything: it needs
    its own ``bdist_wheel`` (setuptools 70.1 on) or the ``wheel`` package."""
    probe = (
        "import importlib.util as u, sys; "
        "sys.exit(0 if u.find_spec('wheel') or u.find_spec('setuptools.command.bdist_wheel') "
        "else 1)"
    )
    return env.run("-c", probe).returncode == 0


def _install(env: Env, source: Path, work: Path) -> None:
    """Install the project in ``source`` into ``env``, offline, not editable.

    The recipe: ``pip install --no-deps --no-build-isolation --no-index``, building with
    the setuptools already installed. An environment whose setuptools cannot build
    wheels offline (older than 70.1, without the ``wheel`` package: a fresh Python 3.11
    venv) installs with setuptools itself instead (``setup.py install`` for a
    pyproject-only project, ``--single-version-externally-managed``): the same files
    and the same ``entry_points.txt``, in an ``.egg-info`` folder. Either way the
    project is built from a copy, so no build files are left in ``source``.
    """
    if env.run("-c", "import setuptools").returncode != 0:
        pytest.skip("setuptools is not installed here: nothing can build a package offline")
    copy = work / source.name
    shutil.copytree(
        source,
        copy,
        ignore=shutil.ignore_patterns(
            "build", "*.egg-info", "__pycache__", ".*_cache", "tests", ".venv"
        ),
    )
    if _can_build_wheels(env):
        command = ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
        env.run(*command, "--no-index", str(copy), check=True)
    else:
        record = work / f"{source.name}-installed.txt"
        setup = "from setuptools import setup; setup()"
        install = ["install", "--single-version-externally-managed", "--record", str(record)]
        done = subprocess.run(
            [str(env.python), "-c", setup, *install],
            cwd=copy,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def _package(folder: Path, name: str, module: str, code: str, entry: str) -> Path:
    """A one-module project declaring the entry point ``entry`` in ``dicecli.games``."""
    project = folder / name
    (project / module).mkdir(parents=True)
    (project / module / "__init__.py").write_text(textwrap.dedent(code))
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""\
            [build-system]
            requires = ["setuptools>=61"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "{name}"
            version = "0.1.0"

            [project.entry-points."dicecli.games"]
            {entry}

            [tool.setuptools]
            packages = ["{module}"]
            """
        )
    )
    return project


BROKEN_ON_IMPORT = """\
raise RuntimeError("this plug-in is broken on purpose")
"""

CLASHING = """\
from dicecli.game import Game


def rules():
    raise AssertionError("no line of this game is read")


GAME = Game(api_version=1, name="clashing", keywords=("wfb",), example="wfb 1", rules=rules)
"""


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Env:
    """An environment with the example game installed."""
    folder = tmp_path_factory.mktemp("clean")
    env = _make_env(folder)
    _install(env, EXAMPLE, folder)
    return env


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Env:
    """An environment with the example game and two broken plug-ins."""
    folder = tmp_path_factory.mktemp("broken")
    env = _make_env(folder)
    _install(env, EXAMPLE, folder)
    sources = folder / "sources"
    broken_game = _package(
        sources, "broken-game", "broken_game", BROKEN_ON_IMPORT, 'broken = "broken_game:GAME"'
    )
    clashing_game = _package(
        sources, "clashing-game", "clashing_game", CLASHING, 'clashing = "clashing_game:GAME"'
    )
    _install(env, broken_game, folder)
    _install(env, clashing_game, folder)
    return env


def _lines(text: str) -> list[str]:
    return text.splitlines()


# -- the example game, installed --------------------------------------------------


def test_a_seeded_roll_shows_both_dice_chains(clean: Env) -> None:
    done = clean.dicecli("--seed", "3", "sw d8 vs 4")
    assert done.stderr == ""
    [line] = _lines(done.stdout)
    total, typed, detail = line.split("\t")
    assert typed == "sw d8 vs 4"
    assert detail.startswith("d8 [")
    assert " wild [" in detail
    assert "~" in detail  # the chain that does not count
    shown, verdict = detail.split(" => ")
    assert shown.endswith(" vs 4")
    faces = [face for dice in re.findall(r"\[([^\]]*)\]", shown) for face in dice.split(", ")]
    kept = [int(face.rstrip("!")) for face in faces if not face.startswith("~")]
    assert int(total) == sum(kept)  # the chain that counts, aces added
    assert verdict in ("failure", "critical failure") or verdict.startswith("success")
    assert done.returncode == (0 if verdict.startswith("success") else 1)
    assert clean.dicecli("--seed", "3", "sw d8 vs 4").stdout == done.stdout  # reproducible


def test_given_dice_and_the_exit_status(clean: Env) -> None:
    done = clean.dicecli("--given", "8,3,2", "sw d8 vs 4")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "11\tsw d8 vs 4\td8 [8!, 3] wild [~2~] vs 4 => success with 1 raise\n"
    failed = clean.dicecli("--given", "1,1", "savage d6+3")
    assert failed.returncode == 1
    assert failed.stdout.rstrip().endswith("=> critical failure")


def test_json_names_the_wild_die_and_its_marks(clean: Env) -> None:
    done = clean.dicecli("--json", "--given", "2,6,6,3", "sw d4+1 vs 6")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [(d["die"], d["value"], d["kept"]) for d in result["dice"]] == [
        ("d4", 2, False),
        ("wild", 6, True),
        ("wild", 6, True),
        ("wild", 3, True),
    ]
    assert result["dice"][0]["marks"] == ["dropped"]
    assert result["dice"][1]["marks"] == ["wild", "exploded"]
    assert result["dice"][2]["marks"] == ["wild", "explosion", "exploded"]
    assert result["outcome"] == {
        "verdict": "success with 2 raises",
        "passed": True,
        "success": True,
        "raises": 2,
        "target": 6,
        "margin": 10,
        "critical_failure": False,
        "wild_card": True,
    }


def test_odds(clean: Env) -> None:
    done = clean.dicecli("odds", "sw d8")
    assert (done.returncode, done.stderr) == (0, "")
    lines = _lines(done.stdout)
    assert lines[0].startswith("odds\tsw d8\tto a precision of")
    assert "success\t13/16\t81.25%" in lines
    assert "critical_failure\t1/48\t2.08%" in lines
    assert any(line.startswith("raises_at_least_3\t") for line in lines)
    assert any(line.startswith("note\tsuccess, raises, critical failure") for line in lines)


def test_help_lists_the_game(clean: Env) -> None:
    done = clean.dicecli("--help")
    assert (done.returncode, done.stderr) == (0, "")
    assert "sw d8 vs 4" in done.stdout


def test_the_repl_knows_the_game(clean: Env) -> None:
    done = clean.dicecli("repl", "--seed", "1", stdin="help sw\nsw d6\nsw extra d4 vs 2\n")
    assert (done.returncode, done.stderr) == (0, "")
    out = done.stdout
    assert "Savage Worlds (sw or savage)" in out
    assert "sw extra d6" in out  # an example of the help topic
    rolled = [line.split("\t")[1] for line in _lines(out) if line.count("\t") >= 2]
    assert rolled == ["sw d6", "sw extra d4 vs 2"], out
    completion = (
        "import json; "
        "from dicecli.repl.completion import completions; "
        "from dicecli.repl.state import ReplState; "
        "from dicecli.rolling.sources import RandomSource, Roller; "
        "state = ReplState(Roller(RandomSource(1))); "
        "print(json.dumps([completions(state, w) for w in ('sa', 'sw ex', 'sw d8 v', 'help s')]))"
    )
    first, after_sw, after_die, topics = json.loads(clean.run("-c", completion, check=True).stdout)
    assert "savage" in first
    assert after_sw == ["extra"]
    assert "vs" in after_die
    assert "sw" in topics


@pytest.mark.slow
def test_the_packages_own_tests_pass_installed(clean: Env, tmp_path: Path) -> None:
    """The example's tests, against the installed package (not the source tree)."""
    tests = tmp_path / "tests"
    shutil.copytree(EXAMPLE / "tests", tests, ignore=shutil.ignore_patterns("__pycache__"))
    done = clean.run("-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(tests))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skipped" not in done.stdout  # the installed-only test ran too
    where = clean.run("-c", "import savage_worlds; print(savage_worlds.__file__)", check=True)
    assert EXAMPLE not in Path(where.stdout.strip()).parents


# -- broken plug-ins --------------------------------------------------------------

WARNINGS = (
    "warning: dicecli game plug-in broken (broken_game:GAME, from broken-game 0.1.0) left "
    "out: it could not be loaded (RuntimeError: this plug-in is broken on purpose)",
    "warning: dicecli game plug-in clashing (clashing_game:GAME, from clashing-game 0.1.0) "
    "left out: its keyword 'wfb' belongs to another game",
)


def _warned_once(stderr: str) -> None:
    """Each broken plug-in named in one warning line, and nothing else said."""
    assert sorted(_lines(stderr)) == sorted(WARNINGS)


def _warned_at_most_once(stderr: str) -> None:
    """Nothing said but those warnings, each at most once (a line of a built-in game may
    or may not need the plug-ins looked for)."""
    lines = _lines(stderr)
    assert len(lines) == len(set(lines))
    assert set(lines) <= set(WARNINGS)


def test_broken_plugins_are_named_once_and_the_others_roll(broken: Env) -> None:
    done = broken.dicecli("--seed", "1", stdin="sw d6\nwfb ld 8\n2d6+5\nsavage extra d8\n")
    _warned_once(done.stderr)
    inputs = [line.split("\t")[1] for line in _lines(done.stdout)]
    assert inputs == ["sw d6", "wfb ld 8", "2d6+5", "savage extra d8"]


def test_broken_plugins_leave_help_and_the_repl_working(broken: Env) -> None:
    help_ = broken.dicecli("--help")
    assert help_.returncode == 0
    _warned_once(help_.stderr)
    assert "sw d8 vs 4" in help_.stdout
    assert "wfb ld 8" in help_.stdout
    assert "wfb 1" not in help_.stdout  # the clashing game's example
    repl = broken.dicecli("repl", "--seed", "1", stdin="wfb ld 8\nsw d6\nhelp wfb\n")
    assert repl.returncode == 0
    _warned_once(repl.stderr)
    assert "Leadership" in repl.stdout
    assert "\tsw d6\t" in repl.stdout


@pytest.mark.parametrize("line", ["wfb ld 8", "age 3 vs 10", "alkemy 8 vs 15", "wfb 2d6"])
def test_built_in_games_still_roll(broken: Env, line: str) -> None:
    for options in ((), ("--seed", "2")):
        done = broken.dicecli(*options, line)
        _warned_at_most_once(done.stderr)
        assert done.returncode in (0, 1), done.stderr
        assert done.stdout.split("\t")[1] == line


@pytest.mark.parametrize("line", ["2d6+5", "d20", "4d6kh3"])
def test_plain_rolls_do_not_look_for_plugins(broken: Env, line: str) -> None:
    done = broken.dicecli(line)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.split("\t")[1] == line
    with_option = broken.dicecli("--seed", "2", line)  # the CLI with options reads every game
    _warned_at_most_once(with_option.stderr)
    assert with_option.stdout.split("\t")[1] == line


@pytest.mark.parametrize("which", ["clean", "broken"])
def test_a_plain_roll_imports_no_game(which: str, request: pytest.FixtureRequest) -> None:
    env: Env = request.getfixturevalue(which)
    code = (
        "import json, sys; from dicecli.__main__ import main; status = main(['2d6+5']); "
        "print(json.dumps([status, sorted(m for m in sys.modules if m.startswith(("
        "'savage_worlds', 'broken_game', 'clashing_game', 'importlib.metadata', "
        "'dicecli.systems.')))]))"
    )
    done = env.run("-c", code)
    assert done.stderr == ""
    roll, imported = _lines(done.stdout)
    assert roll.split("\t")[1] == "2d6+5"
    status, modules = json.loads(imported)
    assert status == 0
    # no game, no plug-in, no declaration, no entry-point look-up (the registry may be)
    assert set(modules) <= {"dicecli.systems.registry"}, modules
