"""The guides and examples that ship with dicecli (:mod:`dicecli.bundled`): ``dicecli
help GUIDE``, ``dicecli examples``, an example named where a file is asked for, and no
message that sends the user to a file an installed dicecli does not have."""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path

import pytest
from processes import run_in_process

from dicecli import bundled

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dicecli"


def test_every_guide_and_example_of_the_repository_is_found() -> None:
    assert set(bundled.guides()) == {path.stem for path in (ROOT / "docs").glob("*.md")}
    assert set(bundled.examples()) == {path.stem for path in (ROOT / "examples").glob("*.toml")}


def test_each_example_says_what_it_is_and_how_to_try_it() -> None:
    for example in bundled.examples().values():
        assert example.about
        assert "docs/" not in example.about
        assert example.try_line.startswith("dicecli "), example.name
        assert "help" not in example.try_line.split()[:2]


def test_a_piped_guide_is_its_markdown_as_written() -> None:
    done = run_in_process("help", "grammar")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "docs" / "grammar.md").read_text(encoding="utf-8")


def test_a_topic_with_examples_is_followed_by_its_game_s_guide() -> None:
    done = run_in_process("help", "wfb")
    assert done.returncode == 0, done.stderr
    examples, _, guide = done.stdout.partition("\n# Warhammer Fantasy Battle\n")
    assert examples.startswith("Warhammer")
    assert "wfb ld 8" in examples
    assert guide, "the guide follows the examples"


def test_help_with_no_topic_lists_the_guides_too() -> None:
    done = run_in_process("help")
    assert f"Guides: {', '.join(bundled.guides())} (dicecli help GUIDE)." in done.stdout


def test_an_unknown_topic_is_one_error_with_a_caret_listing_the_topics() -> None:
    done = run_in_process("help", "gramar\x1b[31m")
    assert done.returncode == 2
    first, line, caret = done.stderr.splitlines()
    assert first.startswith("error: no help on 'gramar\\x1b[31m': did you mean 'grammar'? ")
    assert "dice, games, grammar" in first
    assert "\x1b" not in done.stderr
    assert line == "  dicecli help gramar\\x1b[31m"
    assert caret.index("^") == line.index("gramar")


def test_a_guide_at_a_terminal_is_set_by_rich_and_paged_when_long() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "help", "tables"],
        env={**os.environ, "TERM": "xterm", "PAGER": "cat -n", "NO_COLOR": ""},
        encoding="utf-8",
        dimensions=(30, 90),
        timeout=30,
    )
    child.expect(pexpect.EOF)
    shown = child.before
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", shown)
    assert "\x1b[1m" in shown  # bold headings: rich's Markdown
    assert "# Roll tables" not in plain  # a heading is set, not written as Markdown
    assert re.search(r"^\s+[1-3]\t.*Roll tables", plain, re.MULTILINE)  # through $PAGER (cat -n)


def test_a_guide_at_a_terminal_with_no_colour_is_its_markdown() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "help", "limits"],
        env={**os.environ, "TERM": "xterm", "PAGER": "cat", "NO_COLOR": "1"},
        encoding="utf-8",
        dimensions=(30, 90),
        timeout=30,
    )
    child.expect(pexpect.EOF)
    assert "\x1b[" not in child.before
    assert child.before.replace("\r\n", "\n").startswith("# Limits\n")


def test_examples_lists_each_with_a_line_to_try() -> None:
    done = run_in_process("examples")
    assert done.returncode == 0
    for example in bundled.examples().values():
        assert f"  {example.name} " in done.stdout
        assert example.try_line in done.stdout


def test_an_example_s_path_for_copying_it() -> None:
    done = run_in_process("examples", "--path", "tables")
    shown = Path(done.stdout.strip())
    # The process may import dicecli from another copy than this one (an unpacked sdist
    # beside its installed wheel): the same example, wherever it lies.
    assert shown.name == "tables.toml"
    assert shown.read_bytes() == bundled.examples()["tables"].path.read_bytes()
    wrong = run_in_process("examples", "--path", "tabels")
    assert wrong.returncode == 2
    assert wrong.stderr.splitlines()[0].startswith("error: no example 'tabels': examples: ")
    assert wrong.stderr.splitlines()[2].index("^") == wrong.stderr.splitlines()[1].index("tabels")


@pytest.mark.parametrize(
    "named", ["genesys-dice", "genesys-dice.toml", "examples/genesys-dice.toml"]
)
def test_an_example_is_found_by_name_where_no_such_file_is(named: str, tmp_path: Path) -> None:
    done = run_in_process("--dice-file", named, "--given", "success", "1dAbility", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "-\t1dAbility\t[success] => success; 1 success\n"  # issue 28: net first


def test_a_file_of_the_same_name_here_wins_over_the_example(tmp_path: Path) -> None:
    (tmp_path / "tables").write_text(
        '[encounters]\nroll = "1d1"\n[encounters.entries]\n1 = "mine"\n'
    )
    done = run_in_process("table", "tables", "encounters", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1\ttable tables encounters\t[1] => 1: mine\n"


def test_the_readme_s_table_line_works_from_anywhere(tmp_path: Path) -> None:
    done = run_in_process(
        "table", "examples/tables.toml", "encounters", "--given", "3,4", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout
        == "7\ttable examples/tables.toml encounters\t[3, 4] => 7: Nothing but birdsong\n"
    )


def test_a_character_example_by_name(tmp_path: Path) -> None:
    done = run_in_process("--character", "character", "STR + Ld", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("11\tSTR + Ld\t")  # STR = 3, Ld = 8 in the example


def test_a_path_that_names_no_example_is_left_as_it_is(tmp_path: Path) -> None:
    for given in ("nope", "examples/nope.toml", "other/genesys-dice.toml"):
        assert bundled.example_or_path(given) == Path(given)


def _user_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are no docstring: text a user may see."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in documentation
    ]


def test_no_message_sends_the_user_to_a_file_of_the_repository() -> None:
    """An installed dicecli has no docs/ folder: its messages name ``dicecli help X``."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {text[:80]!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, text in _user_strings(path)
        if re.search(r"docs/\w+\.md|\b\w+\.md\b", text)
    ]
    assert found == []
