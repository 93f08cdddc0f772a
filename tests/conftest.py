"""Test-wide isolation from the developer's own files."""

from __future__ import annotations

import itertools
import os

import property_counts
import pytest
from hypothesis import settings

# dicecli raises the recursion limit when its limits module loads; loading it here,
# before any test, spares Hypothesis a limit changed under it (and its warning).
import dicecli.limits  # noqa: F401

# CI runs the same examples every time (no flaky failures from a new random draw);
# developers get fresh examples on each run, which is how new bugs are found.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        help="also run the tests marked slow, and every property at its full example "
        "count (CI runs this; see tests/property_counts.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Fix this run's example counts before the test modules are imported: the quick
    run's for the README's command, the full ones under ``--runslow``."""
    property_counts.full = bool(config.getoption("--runslow"))
    # Properties without a count of their own: Hypothesis's default of 100 when full.
    # No deadline: speed is measured by bench/, not by timed tests, and on a busy
    # machine an example's first call (cold caches) can take seconds.
    default_count = property_counts.examples(100)
    settings.register_profile(
        "dicecli", settings.default, max_examples=default_count, deadline=None
    )
    settings.load_profile("dicecli")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` (pyproject.toml's addopts) starts: one per processor
    this process may use, for a run of the whole suite (pytest-xdist's own count, with
    psutil installed, is of physical cores: one on a machine of two hyperthreads); none,
    one process, for a run of named files or tests, or on one processor, where starting
    workers would cost more than they save."""
    if hasattr(os, "sched_getaffinity"):
        processors = len(os.sched_getaffinity(0))
    else:  # macOS, Windows
        processors = os.cpu_count() or 1
    return 0 if config.option.file_or_dir or processors < 2 else processors


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests marked slow, unless ``--runslow`` or a ``-m`` expression
    (such as ``-m slow``) chooses."""
    if property_counts.full or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


_USER_DIRS = itertools.count()
"""Numbers the tests' user folders (``mktemp`` looks through every folder made so far,
a cost that grows with each test)."""


@pytest.fixture(autouse=True)
def _isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A developer's ~/.config/dicecli/alkemy-dice.toml or REPL history must not change
    what the tests see: point the user directories at empty temporary ones, a new
    folder for each test. Nor must a colour variable that colours piped output
    (docs/output.md, "Colour")."""
    home = tmp_path_factory.getbasetemp() / f"user-folders-of-test-{next(_USER_DIRS)}"
    home.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    for forcing in ("FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR"):  # colour in a pipe
        monkeypatch.delenv(forcing, raising=False)


@pytest.fixture(autouse=True)
def _rich_styles_rendered_afresh() -> None:
    """rich keeps the codes a style was first rendered with on the style itself
    (``Style.render``: ``self._ansi or ...``), whatever colour system asks next, and
    shares parsed and combined styles between consoles through caches. One process
    has one colour system; the tests render for several (a TERM=xterm run, then a
    true-colour snapshot), so each test starts with rich's style caches empty."""
    from rich.style import Style

    Style.parse.__func__.cache_clear()  # type: ignore[attr-defined]
    Style.normalize.__func__.cache_clear()  # type: ignore[attr-defined]
    Style._add.cache_clear()
