"""Text from the command line and from files never drives the terminal: every field a
user or a file fills, sent with escape sequences, comes out of the real command line
and the REPL with no raw control character (docs/limits.md, "Control characters").

Each field is driven with each payload through :func:`dicecli.__main__.main` in
process, its standard streams replaced: a stream that says it is a terminal (the rich
renderer), ``--plain`` and ``--json``. A real pseudo-terminal run of the REPL checks
``load`` at the prompt too."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dicecli.__main__ import main
from dicecli.escape import clipped, escaped, escaped_lines, json_escaped

PAYLOADS = {
    "csi": "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "osc": "\x1b]0;pwned\x07",  # set the window title
    "reset": "\x1bc",  # reset the terminal
    "bel": "\x07",
    "c1-csi": "\x9b31m",  # the 8-bit CSI
    "del": "\x7f",
    "bidi": "\u202e",  # right-to-left override: reorders what the line seems to say
    # rich's markup: read as markup, a style (then not shown as written) or an error
    # (a closing tag with none open)
    "markup": "[blink red]pay[/][/]",
}

ALL = "".join(PAYLOADS.values())
"""Every payload at once: the plain and JSON writers, and the REPL's plain output, are
driven with it (the rich renderer, the likeliest to let one through, with each)."""

SGR = re.compile(r"\x1b\[[0-9;]*m")
"""The colour and style sequences the rich renderer writes itself."""


def raw_controls(text: str, structure: str = "\n") -> list[str]:
    """The unprintable characters of ``text`` other than the output's own ``structure``
    (newlines; tabs between the fields of plain output), once the renderer's own style
    sequences are taken out."""
    return [c for c in SGR.sub("", text) if c not in structure and not c.isprintable()]


class TerminalOut(io.StringIO):
    """An output stream that says it is a terminal: the rich renderer writes to it."""

    def isatty(self) -> bool:
        return True


def run(
    args: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = "", terminal: bool = True
) -> str:
    """``dicecli ARGS`` in process: what it wrote to stdout and stderr together."""
    out = TerminalOut() if terminal else io.StringIO()
    err = TerminalOut() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    main(args)
    return out.getvalue() + err.getvalue()


def toml_text(payload: str) -> str:
    """``payload`` as the inside of a TOML basic string (its controls as escapes)."""
    return "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in payload)


def table_file(tmp_path: Path, payload: str) -> Path:
    shown = toml_text(payload)
    path = tmp_path / "tables.toml"
    path.write_text(
        f'[enc]\nroll = "d2"\n[enc.entries]\n"1" = "goblins {shown}"\n"2" = "wolves {shown}"\n'
        f'[loot]\n[loot.entries]\n"coins{shown}" = {{ weight = 2, text = "gold {shown}" }}\n',
        encoding="utf-8",
    )
    return path


def dice_file(tmp_path: Path, payload: str) -> Path:
    shown = toml_text(payload)
    path = tmp_path / "dice.toml"
    path.write_text(f'[Sym]\nfaces = ["hit{shown}", "miss{shown}", 1]\n', encoding="utf-8")
    return path


def character_file(tmp_path: Path, payload: str) -> Path:
    path = tmp_path / "hero.toml"
    path.write_text(
        f'name = "Bob{toml_text(payload)}"\n[stats]\nSTR = 3\n[rolls]\nhit = "d20+STR"\n',
        encoding="utf-8",
    )
    return path


Field = Callable[[Path, str], tuple[list[str], str]]
"""A field of the command line or of a file: its arguments and stdin, given a folder for
files and the payload."""

FIELDS: dict[str, Field] = {
    "comment": lambda tmp, p: ([f"2d6 # {p}"], ""),
    "label": lambda tmp, p: ([f"2d6[{p}]"], ""),
    "piped comment": lambda tmp, p: ([], f"2d6 # {p}\n"),
    "times comment": lambda tmp, p: (["--times", "3", f"2d6 # {p}"], ""),
    "odds comment": lambda tmp, p: (["odds", f"2d6 # {p}"], ""),
    "odds label": lambda tmp, p: (["odds", f"2d6[{p}] + 1"], ""),
    "help topic": lambda tmp, p: (["help", p], ""),
    "bad roll": lambda tmp, p: ([f"2d6 + {p}"], ""),
    "unknown name": lambda tmp, p: ([f"2d6 + x{p}"], ""),
    "unknown command": lambda tmp, p: ([f"x{p}", "2d6"], ""),
    "bad option": lambda tmp, p: ([f"--x{p}", "2d6"], ""),
    "set value": lambda tmp, p: (["--set", f"x={p}", "d6"], ""),
    "table entry": lambda tmp, p: (["table", str(table_file(tmp, p)), "enc", "--times", "3"], ""),
    "weighted entry": lambda tmp, p: (["table", str(table_file(tmp, p)), "loot"], ""),
    "table odds": lambda tmp, p: (["table", str(table_file(tmp, p)), "enc", "--odds"], ""),
    "weighted odds": lambda tmp, p: (["odds", "table", str(table_file(tmp, p)), "loot"], ""),
    "unknown table": lambda tmp, p: (["table", str(table_file(tmp, p)), f"x{p}"], ""),
    "dice symbol": lambda tmp, p: (["--dice-file", str(dice_file(tmp, p)), "12dSym"], ""),
    "dice odds": lambda tmp, p: (["odds", "--dice-file", str(dice_file(tmp, p)), "2dSym"], ""),
    "dice times": lambda tmp, p: (
        ["--dice-file", str(dice_file(tmp, p)), "--times", "4", "3dSym"],
        "",
    ),
}

MODES = {"terminal": [], "plain": ["--plain"], "json": ["--json"]}
RUNS = [
    *(("terminal", field, payload) for field in FIELDS for payload in PAYLOADS),
    *(
        (mode, field, "all")
        for mode in ("plain", "json")
        for field in FIELDS
        if field != "help topic"  # help has no output modes
    ),
]


def shown_in(mode: str, payload: str) -> tuple[str, ...]:
    """How ``payload`` may be seen in the output: escaped as text, as JSON escapes, or
    (a usage error of the typer app with ``--json``) escaped as text, then in JSON."""
    return (
        escaped(payload),
        json_escaped(json.dumps(payload, ensure_ascii=False))[1:-1],
        json_escaped(json.dumps(escaped(payload), ensure_ascii=False))[1:-1],
    )


@pytest.mark.parametrize(("mode", "field", "payload_name"), RUNS)
def test_no_raw_control_character_reaches_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, field: str, payload_name: str
) -> None:
    payload = PAYLOADS.get(payload_name, ALL)
    args, stdin = FIELDS[field](tmp_path, payload)
    output = run([*MODES[mode], *args] if args else MODES[mode], monkeypatch, stdin)
    assert raw_controls(output, "\n\t" if mode == "plain" else "\n") == [], output
    # It was shown, escaped: the field reached the output.
    assert any(spelling in output for spelling in shown_in(mode, payload)), output


REPL_LINES = {
    "comment": "2d6 # {p}",
    "let label": "let y = d6[{p}]\ny",
    "vars": "let z = 2d6[{p}]\nvars",
    "history": "2d6[{p}]\nhistory",
    "reroll": "2d6[{p}]\nreroll",
    "odds": "odds 2d6 # {p}",
    "help topic": "help {p}",
    "unknown word": "x{p}",
    "load character": "load {character}\nvars",
    "load dice": "load {dice}\n2dSym\nodds 2dSym",
    "table": "table {table} enc\ntable {table} loot\nagain",
    "save": "2d6 # {p}\nsave {tmp}/x{p}.jsonl",
}


REPL_RUNS = [
    *(("terminal", lines, payload) for lines in REPL_LINES for payload in PAYLOADS),
    *(("pipe", lines, "all") for lines in REPL_LINES),
]


@pytest.mark.parametrize(("output_to", "lines", "payload_name"), REPL_RUNS)
def test_no_raw_control_character_reaches_the_repl_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_to: str, lines: str, payload_name: str
) -> None:
    payload = PAYLOADS.get(payload_name, ALL)
    terminal = output_to == "terminal"
    script = REPL_LINES[lines].format(
        p=payload,
        tmp=tmp_path,
        character=character_file(tmp_path, payload),
        dice=dice_file(tmp_path, payload),
        table=table_file(tmp_path, payload),
    )
    output = run(["repl"], monkeypatch, script + "\n", terminal)
    assert raw_controls(output, "\n" if terminal else "\n\t") == [], output
    assert escaped(payload) in output, output


def test_a_saved_session_holds_the_text_as_typed_in_json_escapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(["repl"], monkeypatch, f"2d6 # \x1b]0;x\x07\u202e\x9b\nsave {tmp_path}/s.jsonl\n")
    text = (tmp_path / "s.jsonl").read_text(encoding="utf-8")
    assert raw_controls(text) == []
    assert json.loads(text)["comment"] == "\x1b]0;x\x07\u202e\x9b"


def test_load_at_an_interactive_prompt_shows_the_name_escaped(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    if sys.platform == "win32":
        pytest.skip("needs a POSIX pseudo-terminal")
    payload = "".join(text for name, text in PAYLOADS.items() if name != "markup")
    hero = character_file(tmp_path, payload)  # (one line at 200 columns, the path too)
    environ = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", "repl"],
        env={**environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"},
        encoding="utf-8",
        dimensions=(24, 200),
        timeout=30,
    )
    prompt = "\x1b[?2004h"  # prompt_toolkit turns on bracketed paste at each prompt
    child.expect_exact(prompt)
    child.sendline(f"load {hero}")
    child.expect_exact("loaded Bob")
    child.expect_exact(prompt)
    shown = str(child.before)
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    # The prompt draws with ESC [ ... sequences of its own; nothing of the payload is raw.
    assert escaped(payload) in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", shown)
    for raw in ("\x07", "\x9b", "\x7f", "\u202e", "\x1bc", "\x1b]", "\x1b[2J"):
        assert raw not in shown


@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=PAYLOADS.keys())
def test_escaped_text_is_one_printable_line(payload: str) -> None:
    text = f"a\n{payload}\tb\r"
    assert escaped(text).isprintable()
    assert escaped(escaped(text)) == escaped(text)  # escaping twice changes nothing
    assert escaped_lines(text).split("\n") == [escaped("a"), escaped(f"{payload}\tb\r")]
    encoded = json_escaped(json.dumps(text, ensure_ascii=False))
    assert encoded.isprintable()
    assert json.loads(encoded) == text


def test_escapes_are_spelt_as_python_spells_them() -> None:
    assert escaped("\x1b[2J") == "\\x1b[2J"
    assert escaped("\x9b\x7f\u202e\U000e0001") == "\\x9b\\x7f\\u202e\\U000e0001"
    assert escaped("caf\u00e9 ⚔ 🎲") == "caf\u00e9 ⚔ 🎲"  # printable text is left alone
    assert json_escaped('"\U000e0001\x9b"') == '"\\udb40\\udc01\\u009b"'


def test_clipped_text_is_escaped_and_cut_in_the_middle() -> None:
    text = "\x1b" + "x" * 1000 + "end"
    shown = clipped(text, 50)
    assert len(shown) == 50
    assert shown.startswith("\\x1b")
    assert shown.endswith("end")
    assert "…" in shown
    assert clipped("short") == "short"


class _BrokenPoint:
    """An entry point whose plug-in fails on import with a hostile message."""

    name = "evil\x1b]0;x\x07"
    value = "evil_game:GAME"

    def load(self) -> object:
        raise RuntimeError("\x1b[2J\x1b]0;pwned\x07" + "x" * 100_000)


def test_a_plugins_warning_is_escaped_and_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.metadata

    from dicecli.systems import registry

    monkeypatch.setattr(registry, "_plugins_declared", lambda: True)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [_BrokenPoint()])
    assert registry._load_plugins(()) == []
    warning = capsys.readouterr().err
    assert warning.startswith(
        "warning: dicecli game plug-in evil\\x1b]0;x\\x07 (evil_game:GAME, from an unknown "
        "distribution ?) left out: "
    )
    assert "\\x1b[2J" in warning
    assert raw_controls(warning) == []
    assert len(warning) <= 420
