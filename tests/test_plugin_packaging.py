"""The example plug-ins publish as docs/plugins.md says: each builds an sdist that
carries its licence and its tests, declares the dicecli it runs on, and whose tests
pass from the unpacked sdist on their own (the last marked slow: it runs the plug-in's
whole suite)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tarfile
from email.parser import Parser
from pathlib import Path

import pytest

from dicecli.game import API_VERSION, OLDEST_API_VERSION

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("savage-worlds", "pbta")


def _sdist(example: str, out: Path) -> Path:
    """The sdist of ``examples/EXAMPLE``, built offline with the setuptools here."""
    code = "import sys, setuptools.build_meta as b\nprint(b.build_sdist(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", code, str(out)],
        cwd=ROOT / "examples" / example,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module", params=EXAMPLES)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _sdist(str(request.param), tmp_path_factory.mktemp("sdist"))


def test_the_sdist_carries_the_licence_and_the_tests(built: Path) -> None:
    with tarfile.open(built) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        metadata = archive.extractfile(f"{built.name.removesuffix('.tar.gz')}/PKG-INFO")
        assert metadata is not None
        info = Parser().parsestr(metadata.read().decode())
    assert "LICENSE" in names
    assert any(name.startswith("tests/test_") for name in names)
    assert not any("__pycache__" in name for name in names)
    assert info["License-Expression"] == "MIT"
    assert info["Name"].startswith("dicecli-")  # the naming docs/plugins.md asks for
    assert "dicecli>=0.1" in (info.get_all("Requires-Dist") or [])


def test_the_examples_declare_an_api_version_this_dicecli_runs() -> None:
    sys.path[:0] = [str(ROOT / "examples" / "savage-worlds"), str(ROOT / "examples" / "pbta")]
    try:
        games = [importlib.import_module(name).GAME for name in ("savage_worlds", "pbta_game")]
    finally:
        del sys.path[:2]
        for name in [name for name in sys.modules if name.startswith(("savage_worlds", "pbta_"))]:
            del sys.modules[name]  # other tests find the plug-ins installed, or not at all
    for game in games:
        assert OLDEST_API_VERSION <= game.api_version <= API_VERSION


def test_the_publishing_guide_names_the_version_floor_and_both_installers() -> None:
    guide = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    assert '"dicecli>=0.1"' in guide
    assert "pipx inject dicecli" in guide
    assert "uv tool install dicecli --with" in guide
    assert f"API version {API_VERSION}" in guide


@pytest.mark.slow
def test_the_sdist_s_own_tests_pass_unpacked(built: Path, tmp_path: Path) -> None:
    with tarfile.open(built) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.10.12 and later
            archive.extractall(tmp_path, filter="data")
        else:
            archive.extractall(tmp_path)  # our own archive, just built
    unpacked = tmp_path / built.name.removesuffix(".tar.gz")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=unpacked,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
