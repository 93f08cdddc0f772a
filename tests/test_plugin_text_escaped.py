"""A game plug-in's text (its example, help topic, odds example, option help, setting
example) is shown escaped wherever dicecli shows it: ``--help`` and each command's
help, ``dicecli help TOPIC``, the REPL's help and banner (issue 24: a plug-in's help
epilog passed escape sequences to the terminal)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fuzz.every_way_in import raw_controls

MARKUP = "[link=https://evil.example/]pay[/link][/]"
"""rich's markup: a hidden link, and a closing tag that is an error to rich."""
HOSTILE = "\\x1b]0;pwned\\x07\\x9b2J\\u202e" + MARKUP
"""Set the window title, an 8-bit CSI, a right-to-left override (as Python source),
and rich's markup."""
SHOWN = "\\x1b]0;pwned\\x07\\x9b2J\\u202e" + MARKUP
"""How each shows, escaped (the markup as written)."""

GAME = f'''
from __future__ import annotations

from typing import Any

from dicecli.game import CliOption, Game, HelpTopic, Rules, Setting

E = "{HOSTILE}"


def rules() -> Rules[Any]:
    raise RuntimeError("not rolled in these tests")


GAME = Game(
    api_version=1,
    name="evil",
    keywords=("evil",),
    example="evil 3" + E,
    rules=rules,
    odds_example=("evil 4" + E, "what it tells" + E),
    settings=(Setting("evil.mode", "a mode" + E, lambda text: text, "x" + E),),
    options=(CliOption("--evil-mode", "evil.mode", "the mode" + E),),
    help=HelpTopic("Evil" + E, (("evil 3" + E, "rolls" + E),), "footer" + E),
)
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the hostile plug-in as if installed (a ``*.dist-info`` beside
    it, as in tests/test_game_api.py)."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "evil_game").mkdir()
    (folder / "evil_game" / "__init__.py").write_text(textwrap.dedent(GAME), encoding="utf-8")
    info = folder / "evil_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: evil-game\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[dicecli.games]\nevil_game = evil_game:GAME\n", encoding="utf-8"
    )
    return folder


def shown(folder: Path, *args: str, stdin: str = "") -> str:
    environ = {**os.environ, "PYTHONPATH": str(folder), "COLUMNS": "200", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "dicecli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )
    assert "warning" not in done.stderr, done.stderr  # the plug-in was taken in
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["--help"], "evil 3" + SHOWN),  # the app's help and its games epilog
        (["help"], "evil 3" + SHOWN),
        (["roll", "--help"], "the mode" + SHOWN),  # a game's option
        (["odds", "--help"], "the mode" + SHOWN),
        (["table", "--help"], "the mode" + SHOWN),
        (["help", "evil"], "Evil" + SHOWN),  # the plug-in's help topic
        (["help", "odds"], "odds evil 4" + SHOWN),
        (["help", "repl"], "evil 3" + SHOWN),
    ],
)
def test_a_plugins_text_is_escaped_in_help(plugin: Path, args: list[str], where: str) -> None:
    text = shown(plugin, *args)
    assert raw_controls(text, terminal=False) == []
    assert "".join(where.split()) in "".join(text.split())  # however the help wraps it


def test_a_plugins_help_topic_is_escaped_in_the_repl(plugin: Path) -> None:
    text = shown(plugin, "repl", stdin="help evil\nhelp odds\n")
    assert raw_controls(text, terminal=False) == []
    assert "footer" + SHOWN in text


def test_the_repl_banner_escapes_a_plugins_example(plugin: Path) -> None:
    code = "from dicecli.repl.prompt import banner; print(banner())"
    environ = {**os.environ, "PYTHONPATH": str(plugin)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, check=True
    )
    assert raw_controls(done.stdout, terminal=False) == []
    assert "evil 3" + SHOWN in done.stdout


@pytest.mark.parametrize("args", [["--help"], ["roll", "--help"], ["odds", "--help"]])
def test_a_plugins_text_is_no_markup_in_help_at_a_terminal(plugin: Path, args: list[str]) -> None:
    """At a terminal typer's help is rich's, with markup read: a plug-in's example and
    option help are shown as written, never a hidden link nor a markup error."""
    pexpect = pytest.importorskip("pexpect")

    environ = {**os.environ, "PYTHONPATH": str(plugin), "COLUMNS": "200", "PAGER": "cat"}
    child = pexpect.spawn(
        sys.executable, ["-m", "dicecli", *args], env=environ, encoding="utf-8", timeout=60
    )
    child.expect(pexpect.EOF)
    text = child.before or ""
    assert "Traceback" not in text
    assert "\x1b]8;" not in text  # no OSC 8 link
    assert "[link=https://evil.example/]pay" in text
