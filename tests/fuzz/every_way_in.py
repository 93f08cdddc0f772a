"""The fuzz profile across every way in: generated inputs with escape and control
characters in every text field, each checked for an internal error, a raw control
character on a stream bound for a terminal, its time and the memory it took.

Run from the repository root, niced (``--jobs 2`` splits the inputs over two
processes; the same ``--inputs``, ``--seed`` and ``--jobs`` give the same inputs)::

    nice python tests/fuzz/every_way_in.py --inputs 1000000 --seed 1 --jobs 2 --json out.json
    python tests/fuzz/every_way_in.py --replay 1:12345       # one case again, its output shown

**Channels.** Each case is drawn from a seeded generator of its own (``seed:index``),
so any case can be replayed alone.

- ``api``: :func:`dicecli.parse`, ``roll``, ``odds`` and ``reroll``, with dice files,
  tables and a character's values in the environment some of the time; a refusal's
  text (:meth:`~dicecli.errors.DiceError.show`) is checked as a terminal would get it.
- ``cli``: the entry point, :func:`dicecli.entry.main` with an argument list, its
  streams captured (stdout a terminal or not): rolls, ``odds``, ``help TOPIC``,
  ``table``, ``games``, options with hostile values, ``--dice-file``,
  ``--character``, ``--set``, ``--setting``.
- ``pipe``: the same entry point with several lines on stdin (each line an input).
- ``repl``: ``dicecli repl`` reading a script of lines (each line an input): the REPL's
  line handler and its rendering, ``let``, ``load``, ``table``, ``help`` ...
- ``files``: dice files, table files and character files with hostile names, symbols,
  entries and descriptions, under file names with control characters, read by
  ``--dice-file``, ``table`` and ``--character`` and by the REPL's ``load``.
- ``process``: a sampled few cases (``--process-every``) through a real process: a
  pipe, a one-shot roll in a pseudo-terminal, the interactive REPL in a
  pseudo-terminal. Each carries several inputs.

**What counts as a raw control character** (:func:`raw_controls`): in text written to
stdout or stderr, any C0 control but newline and tab (ESC and so every CSI, OSC and
other escape sequence, BEL, CR, NUL ...), DEL, any C1 control (U+0080 to U+009F, the
8-bit CSI U+009B included), a bidirectional control (U+202A to U+202E, U+2066 to
U+2069) or a lone surrogate. One exception, on a stream that is a terminal: the
colour sequences the renderer writes itself, ``ESC [`` digits and ``;`` then ``m``,
are taken out first; a colour sequence with the parameter 1337, which only the
generated payloads use, still counts. In a pseudo-terminal the REPL's line editor
draws with escape sequences of its own, so there only the payloads' own sequences
count (:data:`PAYLOAD_MARKS`).

**Figures.** An internal error is an exit status of 70, "internal error" on stderr, a
traceback, or an exception other than a documented :class:`~dicecli.errors.DiceError`
from the API. Every case's wall time and CPU time (:func:`time.process_time`; the
machine may be loaded, so the CPU time is the measure) are recorded, and for a pipe or
REPL script of several lines the longest CPU time between two writes of output too,
which is at least its slowest answer's: an answer over 1 s is flagged, shown with its
user and system CPU time, the machine's memory stall meanwhile and the case's time
replayed alone in a fresh process (a machine short of memory charges its reclaim to
the process that allocates, as system time, so a trivial answer can take seconds of
CPU; the replay tells that from a slow answer, and the flag stays). Memory: the
process's peak (``ru_maxrss``, and the children's), and the peak of sampled cases
under :mod:`tracemalloc`. The exit status is 1 when any internal error, raw control
character, answer over 1 s of CPU or peak over 500 MB was found.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ in (
    "__main__",
    "__mp_main__",
):  # run as a script: import its neighbours as the tests do
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.harness import VALID_LINES, any_input, mutated, token_soup

# --- payloads ---------------------------------------------------------------------------

PAYLOADS = (
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1bc",  # reset the terminal
    "\x1b]0;pwned\x07",  # OSC: set the window title, ended by BEL
    "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink, ended by ST
    "\x1b[1337m",  # a colour sequence no renderer writes
    "\x1b[6n",  # ask the terminal for the cursor (it answers on stdin)
    "\x1bP+q\x1b\\",  # DCS
    "\x9b2J",  # the 8-bit CSI
    "\x9d0;x\x9c",  # the 8-bit OSC and ST
    "\x85",  # NEL
    "\x7f",  # DEL
    "\x00",
    "\x07",
    "\x08\x08",
    "\r",
    "\x0b\x0c",
    "\x1c\x1d\x1e\x1f",
    "\u202e",  # right-to-left override
    "\u2066\u2069",  # isolates
    "\u200b",  # zero width space (a format character)
    "\ud800",  # a lone surrogate
    "\udcff",  # a byte that was not UTF-8, as the command line keeps it
    "\ue000",  # private use
    "\u2028",
    "\t",
    "\n",
)
"""Escape and control characters to put in text fields."""

PAYLOAD_MARKS = ("\x1b[2J", "\x1bc", "\x1b]", "\x1b[1337m", "\x1b[6n", "\x1bP", "\x9b", "\x9d")
"""What counts as the payloads' own sequences reaching a pseudo-terminal, where the line
editor's drawing escapes are allowed."""

WORDS = ("goblin", "Fire", "a", "STR", "attack", "x1", "é", "∑", "名前", "", "1", "-", "#")


def hostile(rng: random.Random) -> str:
    """A text field's value: a word with one or more payloads in it."""
    pieces = [rng.choice(WORDS)]
    for _ in range(rng.randint(1, 3)):
        pieces.insert(rng.randint(0, len(pieces)), rng.choice(PAYLOADS))
    return "".join(pieces)


def as_bytes(text: str) -> bytes:
    """``text`` as the bytes a process is given: a lone surrogate that stands for no
    byte (``\\ud800``) as the byte 0xfe."""
    text = re.sub("[\ud800-\udc7f\udd00-\udfff]", "\udcfe", text)
    return text.encode("utf-8", "surrogateescape")


def safe_name(rng: random.Random) -> str:
    """A hostile text without ``/`` or NUL, for a file name."""
    text = hostile(rng).replace("/", "_").replace("\x00", "0").replace("\ud800", "\udcfe")
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape") or "x"


# --- what counts as raw -------------------------------------------------------------------

RAW = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Raw control characters (newline is taken out before this is used)."""
COLOURS = re.compile(r"\x1b\[(?![0-9;]*(?<![0-9])1337(?![0-9]))[0-9;]*m")
"""The renderer's own colour sequences."""


def raw_controls(text: str, terminal: bool) -> list[str]:
    """The raw control characters in ``text`` (written to a terminal when
    ``terminal``), each with a little context, ``repr``-spelt."""
    if terminal:
        text = COLOURS.sub("", text)
    text = text.replace("\n", " ")
    return [repr(text[max(0, m.start() - 20) : m.end() + 20]) for m in RAW.finditer(text)]


def payload_marks(text: str) -> list[str]:
    """The payloads' own sequences in ``text`` (see :data:`PAYLOAD_MARKS`)."""
    found = []
    for mark in PAYLOAD_MARKS:
        where = text.find(mark)
        if where >= 0:
            found.append(repr(text[max(0, where - 20) : where + 20]))
    return found


# --- files --------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: every control character as a ``\\u`` escape
    (a lone surrogate, which TOML cannot hold, as U+FFFD)."""
    out = []
    for character in text:
        code = ord(character)
        if 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd")
        elif (
            character in '"\\' or code < 0x20 or 0x7F <= code <= 0x9F or not character.isprintable()
        ):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def dice_file(rng: random.Random) -> tuple[str, str]:
    """A dice file (docs/dice.md) with hostile symbols and descriptions, and a die
    name to roll (often one it defines)."""
    symbol = hostile(rng) if rng.random() < 0.7 else "star"
    other = hostile(rng) if rng.random() < 0.5 else "hit"
    name = rng.choice(("Mix", "Sym", "Boost", hostile(rng)))
    faces = rng.choice(
        (
            f"[{toml_string(symbol)}, {toml_string(other)}, {toml_string('')}]",
            f"[1, 2, {{value = 3, symbol = {toml_string(symbol)}}}, "
            f"{{value = 4, symbols = [{toml_string(symbol)}, {toml_string(other)}]}}]",
            "[2, 3, 3, 4, 4, 5]",
            f"[{toml_string(symbol + '+' + other)}, {toml_string(symbol)}]",
        )
    )
    lines = [f"[{toml_string(name)}]", f"faces = {faces}"]
    if rng.random() < 0.5:
        lines.append(f"description = {toml_string(hostile(rng))}")
    if rng.random() < 0.3:
        lines.insert(0, f"cancel = [[{toml_string(symbol)}, {toml_string(other)}]]")
    if rng.random() < 0.1:  # a raw control character: TOML refuses it
        lines.append(f'description = "{hostile(rng)}"')
    return "\n".join(lines) + "\n", name


def table_file(rng: random.Random) -> tuple[str, str]:
    """A table file (docs/tables.md) with hostile entries, names and descriptions, and
    a table name to draw from."""
    name = rng.choice(("loot", hostile(rng)))
    entry = hostile(rng)
    inline = rng.choice(("", " [[d6]]", " [[table: loot]]", " [[2d6 # " + hostile(rng) + "]]"))
    lines = [f"[{toml_string(name)}]"]
    if rng.random() < 0.5:
        lines.append(f"description = {toml_string(hostile(rng))}")
    if rng.random() < 0.5:
        lines += [
            'roll = "d4"',
            f"[{toml_string(name)}.entries]",
            f'"1-2" = {toml_string(entry + inline)}',
            f'"3" = {toml_string(hostile(rng))}',
            f'"4" = {toml_string("ok")}',
        ]
    else:
        lines += [
            f"[{toml_string(name)}.entries]",
            f"{toml_string(hostile(rng))} = {{ weight = {rng.randint(1, 5)}, "
            f"text = {toml_string(entry + inline)} }}",
            f"{toml_string(hostile(rng))} = {toml_string(hostile(rng))}",
        ]
    if name != "loot" and rng.random() < 0.3:
        lines += ["[loot]", "[loot.entries]", f"a = {toml_string(hostile(rng))}"]
    return "\n".join(lines) + "\n", name


def character_file(rng: random.Random) -> tuple[str, str]:
    """A character file (docs/repl.md) with a hostile name, stats and rolls, and a
    line that uses it."""
    stat = rng.choice(("STR", hostile(rng)))
    saved = rng.choice(("attack", hostile(rng)))
    lines = [
        f"name = {toml_string(hostile(rng))}",
        "[stats]",
        f"{toml_string(stat)} = {rng.randint(-3, 5)}",
        "[rolls]",
        f"{toml_string(saved)} = {toml_string('1d20+STR # ' + hostile(rng))}",
    ]
    use = rng.choice((saved, f"2d6+{stat}", f"age {stat}+1 vs 11", "attack"))
    return "\n".join(lines) + "\n", use


# --- cases ---------------------------------------------------------------------------------


@dataclass
class Case:
    """One generated case: its channel, the inputs it carries and what to run."""

    channel: str
    inputs: int
    run: Callable[[], Outcome]
    describe: str


@dataclass
class Outcome:
    """What a case did."""

    internal: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    status: int | None = None
    machine: str = ""
    """How the machine spent the case's time (:func:`machine_time`), and for a slow
    answer its time when replayed alone: shown with a slow case, to tell a slow answer
    from a machine short of memory."""
    longest_answer: float | None = None
    """The CPU seconds of the longest stretch without output in a case of several lines
    (each line's answer or refusal is written before the next line is read), so at
    least the time of its slowest answer; None where the case is one answer."""

    def slowest_answer(self, cpu: float) -> float:
        """The CPU seconds of the case's slowest answer, ``cpu`` being the whole case's."""
        return cpu if self.longest_answer is None else self.longest_answer


class Capture(io.StringIO):
    """A captured standard stream that is a terminal or not; the CPU time of each write
    (:attr:`writes`), which tells how long each answer of a script took."""

    def __init__(self, terminal: bool, text: str = "") -> None:
        super().__init__(text)
        self.terminal = terminal
        self.writes: list[float] = []

    def write(self, text: str) -> int:
        self.writes.append(time.process_time())
        return super().write(text)

    def isatty(self) -> bool:
        return self.terminal

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


INTERNAL = re.compile(r"internal error|Traceback \(most recent")


def as_received(text: str, argument: bool) -> str:
    """``text`` as a process receives it, an argument (``argument``: no NUL) or stdin:
    its bytes decoded as Python decodes them (a byte that is not UTF-8 as a lone
    surrogate from U+DC80 to U+DCFF, the only ones a process is given)."""
    data = as_bytes(text)
    return (data.replace(b"\x00", b"") if argument else data).decode("utf-8", "surrogateescape")


def run_main(argv: list[str], stdin: str = "", terminal: bool = False) -> Outcome:
    """:func:`dicecli.entry.main` on ``argv`` with captured streams (stdout and stderr
    terminals when ``terminal``; stdin never, so no prompt is opened), each text as a
    process would receive it (:func:`as_received`)."""
    try:
        from dicecli.entry import main
    except ImportError:  # an older dicecli (a differential run): its entry point
        from dicecli.__main__ import main

    argv = [as_received(arg, argument=True) for arg in argv]
    stdin = as_received(stdin, argument=False)
    out, err = Capture(terminal), Capture(terminal)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = Capture(False, stdin), out, err
    began = time.process_time()
    try:
        status = main(argv)
    except SystemExit as exit:  # main gives every ending a status; this would be a bug
        status = -1
        err.write(f"internal error: SystemExit({exit.code!r}) escaped main\n")
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    marks = sorted([began, *out.writes, *err.writes, time.process_time()])
    outcome = judge(status, out.getvalue(), err.getvalue(), terminal)
    outcome.longest_answer = max(later - earlier for earlier, later in itertools.pairwise(marks))
    return outcome


THIS_FILE = os.path.abspath(__file__)
"""This script, found again from a worker's own working directory."""


def memory_stall() -> float | None:
    """The seconds some task of the machine has stalled waiting for memory since boot
    (Linux's pressure figures, ``/proc/pressure/memory``), or None where unknown. A
    machine short of memory charges reclaiming it to the process that allocates, as
    system CPU time: a trivial answer can then take seconds of CPU."""
    try:
        with open("/proc/pressure/memory", encoding="ascii") as pressure:
            some = pressure.readline()
    except OSError:
        return None
    total = some.rpartition("total=")[2]
    return int(total) / 1e6 if total.strip().isdigit() else None


def machine_time(before: Any, stall_before: float | None) -> str:
    """The user and system CPU seconds since the usage ``before``, and the machine's
    memory stall since ``stall_before``."""
    after, stall = resource.getrusage(resource.RUSAGE_SELF), memory_stall()
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    shown = f"user {user:.2f} s, system {system:.2f} s"
    if stall is not None and stall_before is not None:
        shown += f", machine's memory stall {stall - stall_before:.2f} s"
    return shown


SLOW_ANSWER = 1.0
"""The CPU seconds past which an in-process case's answer is flagged."""


def slow_answer(case: Case, outcome: Outcome, cpu: float) -> bool:
    """Whether an in-process case gave an answer past :data:`SLOW_ANSWER`."""
    return case.channel != "process" and outcome.slowest_answer(cpu) > SLOW_ANSWER


def replayed_answer(seed: int, index: int) -> str:
    """The slowest answer of case ``seed:index`` run again in a fresh process
    (:func:`replay`), as text: whether a slow answer is the input's or the moment's."""
    try:
        done = subprocess.run(
            [sys.executable, THIS_FILE, "--replay", f"{seed}:{index}"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "over 120 s"
    found = re.search(r"^slowest answer ([0-9.]+) s", done.stdout, re.MULTILINE)
    return f"{found.group(1)} s" if found else f"no figure (status {done.returncode})"


def judge(status: int | None, out: str, err: str, terminal: bool) -> Outcome:
    outcome = Outcome(status=status)
    found = INTERNAL.search(err)
    if status == 70 or status == -1 or found:
        where = found.start() if found else len(err)
        outcome.internal.append(f"status {status}: {err[max(0, where - 150) : where + 250]!r}")
    outcome.raw += raw_controls(out, terminal)
    outcome.raw += raw_controls(err, terminal)
    return outcome


def api_case(rng: random.Random, files: Files) -> tuple[Callable[[], Outcome], str]:
    import dicecli
    from dicecli.errors import DiceError

    area = rng.choice(("parse", "roll", "odds", "reroll", "odds_of_rolls"))
    text = line(rng)
    env = files.environment(rng) if rng.random() < 0.3 else None

    def run() -> Outcome:
        outcome = Outcome()
        try:
            if area == "parse":
                dicecli.parse(text)
            elif area == "roll":
                dicecli.roll(text, seed=7, environment=env)
            elif area == "odds":
                dicecli.odds(text, environment=env)
            elif area == "odds_of_rolls":
                from dicecli.probability.report import odds_of_rolls

                odds_of_rolls(text, env)
            else:
                dicecli.reroll(dicecli.roll(text, seed=1, environment=env), seed=2)
        except DiceError as error:
            outcome.raw += raw_controls(error.show(), terminal=False)
        except Exception as error:
            outcome.internal.append(f"{type(error).__name__}: {str(error)[:200]}")
        return outcome

    return run, f"{area}({text!r}, files={env is not None})"


def line(rng: random.Random) -> str:
    """A line: a fuzz input, or a valid line with a payload in a comment, a label or
    anywhere."""
    kind = rng.randrange(6)
    if kind == 0:
        return any_input(rng)
    base = rng.choice(VALID_LINES)
    if kind == 1:
        return f"{base} # {hostile(rng)}"
    if kind == 2:
        return f"2d6[{hostile(rng)}] + d4"
    if kind == 3:
        where = rng.randint(0, len(base))
        return base[:where] + hostile(rng) + base[where:]
    if kind == 4:
        return mutated(rng, base) + rng.choice(("", " # " + hostile(rng)))
    return token_soup(rng, 12) + hostile(rng)


OPTION_VALUES = ("--seed", "--given", "--times", "--set", "--setting", "--character", "--dice-file")


def cli_argv(rng: random.Random, files: Files) -> list[str]:
    kind = rng.randrange(12)
    text = line(rng)
    style = rng.choice(([], ["--plain"], ["--json"], []))
    if kind <= 2:
        return [*style, text]
    if kind == 3:
        return ["odds", *style, text]
    if kind == 4:
        return ["help", rng.choice((hostile(rng), "wfb", "notation", "odds", "repl", "AGE"))]
    if kind == 5:
        option = rng.choice(OPTION_VALUES)
        value = rng.choice((hostile(rng), f"{hostile(rng)}={hostile(rng)}", "3", "x=1"))
        return ["roll", option, value, *style, rng.choice(("2d6", text))]
    if kind == 6:
        path, name = files.tables(rng)
        return ["table", *rng.choice(([], ["--odds"], ["--plain"], ["--json"])), path, name]
    if kind == 7:
        path, name = files.dice(rng)
        return [*rng.choice(([], ["odds"])), "--dice-file", path, *style, f"2d{name} # c"]
    if kind == 8:
        path, use = files.character(rng)
        return [*rng.choice(([], ["odds"])), "--character", path, *style, use]
    if kind == 9:
        return [rng.choice(("--" + hostile(rng), "-" + hostile(rng), hostile(rng))), "2d6"]
    if kind == 10:
        return ["table", hostile(rng)]
    return rng.choice((["games"], ["games", "--json"], ["--version"], ["help"], ["odds"]))


REPL_WORDS = ("let", "unlet", "vars", "load", "table", "again", "reroll", "history", "odds", "help")


def repl_line(rng: random.Random, files: Files) -> str:
    kind = rng.randrange(8)
    if kind <= 2:
        return line(rng)
    if kind == 3:
        return f"let {rng.choice((hostile(rng), 'STR'))} = {rng.choice(('2', '1d6', hostile(rng)))}"
    if kind == 4:
        path, _ = files.character(rng)
        return f"load {rng.choice((path, hostile(rng)))}"
    if kind == 5:
        return f"help {rng.choice((hostile(rng), 'repl', 'wfb'))}"
    if kind == 6:
        return f"{rng.choice(REPL_WORDS)} {hostile(rng)}"
    return f"odds {line(rng)}"


class Files:
    """The hostile files of one worker, made on demand in its own folder, under names
    with control characters; each kind is kept to a few dozen, reused."""

    KEEP = 40

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[str, list[tuple[str, str]]] = {"dice": [], "tables": [], "character": []}
        self.count = 0

    def _file(
        self, rng: random.Random, kind: str, maker: Callable[[random.Random], tuple[str, str]]
    ) -> tuple[str, str]:
        made = self.made[kind]
        if len(made) >= self.KEEP and rng.random() < 0.9:
            return rng.choice(made)
        text, use = maker(rng)
        self.count += 1
        name = f"{self.count}-{safe_name(rng)}.toml" if rng.random() < 0.7 else f"{self.count}.toml"
        path = self.folder / name
        self.folder.mkdir(parents=True, exist_ok=True)  # a /tmp cleaner may have been by
        path.write_bytes(as_bytes(text))
        entry = (str(path), use)
        if len(made) >= self.KEEP:
            old = made.pop(rng.randrange(len(made)))
            with contextlib.suppress(OSError):
                Path(old[0]).unlink()
        made.append(entry)
        return entry

    def dice(self, rng: random.Random) -> tuple[str, str]:
        return self._file(rng, "dice", dice_file)

    def tables(self, rng: random.Random) -> tuple[str, str]:
        return self._file(rng, "tables", table_file)

    def character(self, rng: random.Random) -> tuple[str, str]:
        return self._file(rng, "character", character_file)

    def environment(self, rng: random.Random) -> Any:
        """An API environment with a hostile dice file or character values, or None
        when the file is refused (its refusal is the files channel's to check)."""
        from dicecli import Environment
        from dicecli.errors import DiceError

        try:
            if rng.random() < 0.5:
                from dicecli.dicefiles.load import read_book

                return Environment(dice=read_book(Path(self.dice(rng)[0])))
            from dicecli.character import read_character

            return read_character(Path(self.character(rng)[0])).apply(Environment())
        except DiceError:
            return None


def files_case(rng: random.Random, files: Files) -> tuple[Callable[[], Outcome], str]:
    kind = rng.randrange(4)
    terminal = rng.random() < 0.5
    if kind == 0:
        path, name = files.tables(rng)
        argv = ["table", *rng.choice(([], ["--odds"], ["--json"])), path, name]
    elif kind == 1:
        path, name = files.dice(rng)
        modifier = rng.choice(("", "", " kh1", "!", " r1", " * 2", " + d6", ">=3", " + 1dMix"))
        argv = [
            *rng.choice(([], ["odds"])),
            "--dice-file",
            path,
            f"{rng.randint(1, 3)}d{name}{modifier}",
        ]
    elif kind == 2:
        path, use = files.character(rng)
        argv = ["--character", path, use]
    else:
        path, use = files.character(rng)
        script = f"load {path}\nvars\n{use}\nload {files.dice(rng)[0]}\n"
        return (lambda: run_main(["repl"], script, terminal)), f"repl load {script!r}"
    return (lambda: run_main(argv, "", terminal)), f"main({argv!r}, terminal={terminal})"


# --- real processes ------------------------------------------------------------------------

PIPED_LINES = 50
"""Lines one real process reads from a pipe."""
TYPED_LINES = 10
"""Lines typed at one real process's prompt (each waits for the prompt: slower)."""


def process_case(rng: random.Random, files: Files) -> tuple[Callable[[], Outcome], str, int]:
    kind = rng.randrange(3)
    count = PIPED_LINES if kind == 0 else TYPED_LINES
    lines = [repl_line(rng, files).replace("\n", " ") for _ in range(count)]
    if kind == 0:
        data = "\n".join(lines) + "\n"
        return (lambda: piped_process(data)), f"process pipe {data!r}", len(lines)
    if kind == 1:
        argv = cli_argv(rng, files)
        return (lambda: pty_process(argv, None)), f"process pty {argv!r}", 1
    return (lambda: pty_process(["repl"], lines)), f"process pty repl {lines!r}", len(lines)


def process_env() -> dict[str, str]:
    home = os.environ.get("DICECLI_FUZZ_HOME", tempfile.gettempdir())
    return {
        **os.environ,
        "HOME": home,
        "XDG_STATE_HOME": home,
        "XDG_CONFIG_HOME": home,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        # A long help page at a terminal goes through `less`, another program that
        # waits for a key: the case would end at its time limit, not at dicecli's end.
        "PAGER": "",
    }


def piped_process(data: str) -> Outcome:
    done = subprocess.run(
        [sys.executable, "-m", "dicecli", "repl"],
        input=as_bytes(data),
        capture_output=True,
        env=process_env(),
        timeout=120,
    )
    return judge(
        done.returncode,
        done.stdout.decode("utf-8", "surrogateescape"),
        done.stderr.decode("utf-8", "surrogateescape"),
        terminal=False,
    )


PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
"""Bracketed paste: the terminal wraps pasted text in these, and the line editor then
inserts it as text, control characters included, instead of reading it as keys. A line
full of control characters reaches a prompt this way (pasted from a shared file or a
chat); typed, each control would be a key of the line editor (Ctrl-R searches the
history and never submits the line, Ctrl-X starts a key chord, Ctrl-V quotes the next
key, ESC starts an Alt-key) and the harness could no longer tell which prompt it is at."""


def as_pasted(typed: str) -> bytes:
    """A generated line as a terminal sends it when it is pasted at the prompt: CR and
    LF left out (either would end the line early, and the typing would run one prompt
    ahead of the session), and the paste markers themselves left out of its text."""
    data = as_bytes(typed).translate(None, b"\r\n")
    while PASTE_END in data or PASTE_START in data:
        data = data.replace(PASTE_END, b"").replace(PASTE_START, b"")
    return PASTE_START + data + PASTE_END


def prompt(child: Any) -> bytes:
    """Wait until the prompt is drawn (the line editor owns the terminal then: a line
    sent earlier would be echoed by the terminal itself, not by dicecli); what was
    written until then."""
    child.expect_exact(b"\x1b[?2004h")  # bracketed paste on: the prompt begins
    seen: bytes = child.before + child.after
    child.expect_exact(b"dice>")
    time.sleep(0.02)
    return seen + bytes(child.before + child.after)


def pty_process(argv: list[str], lines: list[str] | None) -> Outcome:
    """``dicecli ARGV`` in a pseudo-terminal; with ``lines``, typed at its prompt."""
    import pexpect  # type: ignore[import-untyped, unused-ignore]

    child = pexpect.spawn(
        sys.executable,
        ["-m", "dicecli", *(as_received(arg, argument=True) for arg in argv)],
        env=process_env(),
        dimensions=(40, 200),
        timeout=60,
    )
    seen = b""
    try:
        if lines is not None:
            seen += prompt(child)
            for typed in lines:
                child.send(b"\x15" + as_pasted(typed) + b"\r")  # Ctrl-U: drop a kept line
                seen += prompt(child)
            child.sendcontrol("d")
        child.expect(pexpect.EOF)
        seen += child.before
    except pexpect.TIMEOUT:
        child.close(force=True)
        return Outcome(internal=[f"timed out; last output {seen[-300:]!r}"], status=None)
    child.close()
    text = seen.decode("utf-8", "surrogateescape").replace("\r\n", "\n")
    outcome = Outcome(status=child.exitstatus)
    if child.exitstatus == 70 or INTERNAL.search(text):
        outcome.internal.append(f"status {child.exitstatus}: {text[-300:]!r}")
    if lines is None:
        outcome.raw += raw_controls(text, terminal=True)
    else:
        outcome.raw += payload_marks(text)
    return outcome


# --- the profile ---------------------------------------------------------------------------

CHANNELS = (("api", 60), ("cli", 12), ("pipe", 20), ("repl", 10), ("files", 4))
"""Channels and their shares of the in-process cases. A pipe or REPL case carries 15
lines on average, so these shares give each channel many inputs for its cost (the
command-line framework's parsing, about 10 ms a run, is most of a ``cli`` or ``files``
case's)."""


def make_case(seed: int, index: int, files: Files, process_every: int) -> Case:
    """Case ``index`` of ``seed``: the same case whatever else ran before it."""
    rng = random.Random(f"{seed}:{index}")
    if process_every and rng.randrange(process_every) == 0:
        run, describe, inputs = process_case(rng, files)
        return Case("process", inputs, run, describe)
    channel = rng.choices([c for c, _ in CHANNELS], [w for _, w in CHANNELS])[0]
    if channel == "api":
        run, describe = api_case(rng, files)
        return Case(channel, 1, run, describe)
    if channel == "cli":
        argv = cli_argv(rng, files)
        terminal = rng.random() < 0.5
        return Case(
            channel, 1, lambda: run_main(argv, "", terminal), f"main({argv!r}, terminal={terminal})"
        )
    if channel == "pipe":
        lines = [line(rng) for _ in range(rng.randint(1, 30))]
        style = rng.choice(([], ["--plain"], ["--json"]))
        data = rng.choice(("\n", "\r\n")).join(lines)
        return Case(channel, len(lines), lambda: run_main(style, data), f"pipe {style} {data!r}")
    if channel == "repl":
        lines = [repl_line(rng, files) for _ in range(rng.randint(1, 60))]
        data = "\n".join(lines) + "\n"
        terminal = rng.random() < 0.5
        return Case(
            channel, len(lines), lambda: run_main(["repl"], data, terminal), f"repl {data!r}"
        )
    run, describe = files_case(rng, files)
    return Case(channel, 1, run, describe)


@dataclass
class Figures:
    """The counts of one run (added up over workers)."""

    inputs: Counter[str] = field(default_factory=Counter)
    cases: Counter[str] = field(default_factory=Counter)
    internal: list[str] = field(default_factory=list)
    internal_count: int = 0
    raw: list[str] = field(default_factory=list)
    raw_count: int = 0
    slow_cpu: list[str] = field(default_factory=list)
    slow_wall_count: int = 0
    worst_cpu: tuple[float, str] = (0.0, "")
    """The case of the most CPU time, all its lines together."""
    worst_answer: tuple[float, str] = (0.0, "")
    """The case with the slowest single answer (:attr:`Outcome.longest_answer`)."""
    worst_wall: tuple[float, str] = (0.0, "")
    worst_traced: tuple[int, str] = (0, "")
    peak_rss_kib: int = 0
    children_peak_rss_kib: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    memory_jumps: list[str] = field(default_factory=list)
    """Cases in-process during which the worker's peak resident memory rose by more than
    :data:`MEMORY_JUMP_KIB` (a child process's peak is no guide: a pseudo-terminal's
    child is forked from the worker, and counts the worker's memory until it runs
    dicecli)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "inputs": sum(self.inputs.values()),
            "inputs per channel": dict(sorted(self.inputs.items())),
            "cases per channel": dict(sorted(self.cases.items())),
            "internal errors": self.internal_count,
            "internal error examples": self.internal[:20],
            "raw control characters (cases)": self.raw_count,
            "raw control examples": self.raw[:20],
            "cases with an answer over 1 s of CPU": len(self.slow_cpu),
            "cases with an answer over 1 s of CPU, examples": self.slow_cpu[:20],
            "worst CPU seconds of an answer": {
                "seconds": round(self.worst_answer[0], 3),
                "case": self.worst_answer[1],
            },
            "cases over 1 s of wall time": self.slow_wall_count,
            "worst CPU seconds": {
                "seconds": round(self.worst_cpu[0], 3),
                "case": self.worst_cpu[1],
            },
            "worst wall seconds": {
                "seconds": round(self.worst_wall[0], 3),
                "case": self.worst_wall[1],
            },
            "worst traced peak of a sampled case (bytes)": {
                "bytes": self.worst_traced[0],
                "case": self.worst_traced[1],
            },
            "peak RSS of a worker (KiB)": self.peak_rss_kib,
            "peak RSS of a real process (KiB)": self.children_peak_rss_kib,
            "seconds": round(self.seconds, 1),
            "interrupted": self.interrupted,
            "cases that raised the worker's peak memory by over 50 MiB": self.memory_jumps[:20],
        }

    def failed(self) -> bool:
        peak = max(self.peak_rss_kib, self.children_peak_rss_kib)
        return bool(self.internal_count or self.raw_count or self.slow_cpu or peak > 500 * 1024)


MEMORY_JUMP_KIB = 50 * 1024
"""A rise of the worker's peak memory in one case worth naming the case for."""

MEMORY_EVERY = 500
"""Cases between those run under :mod:`tracemalloc` (it slows each call several times)."""


@contextlib.contextmanager
def worker_folder() -> Iterator[Path]:
    """A folder of the worker's own, its working directory and its user directories."""
    folder = Path(tempfile.mkdtemp(prefix="every-way-in-"))
    old = os.getcwd()
    saved = {
        key: os.environ.get(key)
        for key in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "TERM", "COLUMNS")
    }
    os.environ.update(
        HOME=str(folder),
        XDG_STATE_HOME=str(folder),
        XDG_CONFIG_HOME=str(folder),
        TERM="xterm",
        COLUMNS="100",
    )
    os.environ["DICECLI_FUZZ_HOME"] = str(folder)
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(old)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        os.environ.pop("DICECLI_FUZZ_HOME", None)
        shutil.rmtree(folder, ignore_errors=True)


def warm_up(files: Files) -> None:
    """Run one case of each kind unmeasured: the first of each loads its modules and
    builds its grammar, a cost of the process, not of the input."""
    rng = random.Random("warm-up")
    run_main(["--plain", "2d6"])
    run_main(["odds", "2d6"], "", terminal=True)
    run_main(["repl"], "2d6\nhelp repl\n")
    run_main(["table", *files.tables(rng)])
    run_main(["--dice-file", files.dice(rng)[0], "2d6"])
    run_main(["--plain"], "alkemy 8 vs 15\nwfb ld 8\nage 3 vs 13\nwfb artillery\nx\n")


def run_cases(
    seed: int,
    inputs: int,
    worker: int = 0,
    workers: int = 1,
    process_every: int = 1000,
    progress: bool = False,
    checkpoint: Path | None = None,
) -> Figures:
    """Run cases ``worker``, ``worker + workers`` ... of ``seed`` until they carried
    ``inputs`` inputs; their figures (written to ``checkpoint`` every
    :data:`CHECKPOINT_EVERY` inputs too, so a run stopped hard still leaves them)."""
    figures = Figures()
    started = time.perf_counter()
    index = worker
    done = 0
    next_checkpoint = CHECKPOINT_EVERY
    with worker_folder() as folder:
        files = Files(folder)
        warm_up(files)
        try:
            while done < inputs and not STOP:
                case = make_case(seed, index, files, process_every)
                sampled = index % MEMORY_EVERY == worker
                if sampled:
                    tracemalloc.start()
                usage_before = resource.getrusage(resource.RUSAGE_SELF)
                stall_before = memory_stall()
                wall, cpu = time.perf_counter(), time.process_time()
                outcome = case.run()
                cpu = time.process_time() - cpu
                wall = time.perf_counter() - wall
                outcome.machine = machine_time(usage_before, stall_before)
                peak_before = usage_before.ru_maxrss
                if sampled:
                    peak = tracemalloc.get_traced_memory()[1]
                    tracemalloc.stop()
                    if peak > figures.worst_traced[0]:
                        figures.worst_traced = (peak, f"{seed}:{index}")
                if not sampled and slow_answer(case, outcome, cpu):
                    outcome.machine += f"; replayed alone: {replayed_answer(seed, index)}"
                record(figures, case, outcome, cpu, wall, f"{seed}:{index}", timed=not sampled)
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                if peak > peak_before + MEMORY_JUMP_KIB and len(figures.memory_jumps) < 50:
                    jump = f"[{seed}:{index}] +{(peak - peak_before) // 1024} MiB"
                    figures.memory_jumps.append(f"{jump} {case.describe[:300]}")
                done += case.inputs
                index += workers
                if done >= next_checkpoint:
                    next_checkpoint += CHECKPOINT_EVERY
                    finish(figures, started)
                    if checkpoint is not None:
                        write_state(figures, checkpoint)
                    if progress:
                        print(
                            f"worker {worker}: {done:,} inputs, {figures.seconds:.0f} s",
                            file=sys.stderr,
                            flush=True,
                        )
        except KeyboardInterrupt:
            figures.interrupted = True
    finish(figures, started)
    if checkpoint is not None:
        write_state(figures, checkpoint)
    return figures


CHECKPOINT_EVERY = 10_000
"""Inputs between writes of a worker's figures."""


def finish(figures: Figures, started: float) -> None:
    figures.seconds = time.perf_counter() - started
    figures.peak_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures.children_peak_rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def write_state(figures: Figures, path: Path) -> None:
    """A worker's figures as they are, for :func:`read_state` (written whole, then
    moved into place)."""
    state = {name: getattr(figures, name) for name in Figures.__dataclass_fields__}
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(state, ensure_ascii=True), encoding="utf-8")
    os.replace(partial, path)


def read_state(path: Path) -> Figures:
    state = json.loads(path.read_text(encoding="utf-8"))
    figures = Figures(**state)
    figures.inputs, figures.cases = Counter(state["inputs"]), Counter(state["cases"])
    for name in ("worst_cpu", "worst_answer", "worst_wall", "worst_traced"):
        setattr(figures, name, tuple(state[name]))
    return figures


def record(
    figures: Figures, case: Case, outcome: Outcome, cpu: float, wall: float, where: str, timed: bool
) -> None:
    """Add ``case`` to ``figures``; its time only when ``timed`` (not under
    :mod:`tracemalloc`, which slows every call several times)."""
    figures.inputs[case.channel] += case.inputs
    figures.cases[case.channel] += 1
    shown = f"[{where}] {case.describe[:300]}"
    if outcome.internal:
        figures.internal_count += 1
        if len(figures.internal) < 50:
            figures.internal.append(f"{shown} -> {outcome.internal[0][:300]}")
    if outcome.raw:
        figures.raw_count += 1
        if len(figures.raw) < 50:
            figures.raw.append(f"{shown} -> {outcome.raw[0][:200]}")
    # a real process's time is mostly its start-up, and its own; in-process cases only
    if timed and case.channel != "process":
        answer = outcome.slowest_answer(cpu)
        if answer > SLOW_ANSWER and len(figures.slow_cpu) < 1000:
            figures.slow_cpu.append(
                f"{shown} ({answer:.2f} s CPU for an answer, {cpu:.2f} s all; {outcome.machine})"
            )
        if answer > figures.worst_answer[0]:
            figures.worst_answer = (answer, shown[:300])
        figures.slow_wall_count += wall > 1.0
        if cpu > figures.worst_cpu[0]:
            figures.worst_cpu = (cpu, shown[:300])
        if wall > figures.worst_wall[0]:
            figures.worst_wall = (wall, shown[:300])


def merged(parts: list[Figures]) -> Figures:
    total = Figures()
    for part in parts:
        total.inputs.update(part.inputs)
        total.cases.update(part.cases)
        total.internal += part.internal
        total.internal_count += part.internal_count
        total.raw += part.raw
        total.raw_count += part.raw_count
        total.slow_cpu += part.slow_cpu
        total.slow_wall_count += part.slow_wall_count
        total.worst_cpu = max(total.worst_cpu, part.worst_cpu)
        total.worst_answer = max(total.worst_answer, part.worst_answer)
        total.worst_wall = max(total.worst_wall, part.worst_wall)
        total.worst_traced = max(total.worst_traced, part.worst_traced)
        total.peak_rss_kib = max(total.peak_rss_kib, part.peak_rss_kib)
        total.children_peak_rss_kib = max(total.children_peak_rss_kib, part.children_peak_rss_kib)
        total.seconds = max(total.seconds, part.seconds)
        total.interrupted |= part.interrupted
        total.memory_jumps += part.memory_jumps
    return total


STOP: list[bool] = []
"""Set by SIGTERM: the worker stops after the case it is in (a KeyboardInterrupt would
be taken by dicecli's entry point as that case's Ctrl-C)."""


WORKER_MEMORY_CAP = 3 << 30
"""The address space a worker may take (3 GiB): a case that runs away in memory then
ends in a :class:`MemoryError`, an internal error the figures name, instead of the
kernel killing the worker (and the machine's other work) with every figure unwritten."""


def _worker(arguments: tuple[int, int, int, int, int, Path | None]) -> Figures:
    seed, inputs, worker, workers, process_every, checkpoint = arguments
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_CAP, WORKER_MEMORY_CAP))
    import signal

    signal.signal(signal.SIGTERM, lambda *_: STOP.append(True))  # figures on SIGTERM too
    return run_cases(seed, inputs, worker, workers, process_every, True, checkpoint)


def replay(seed: int, index: int) -> int:
    with worker_folder() as folder:
        case = make_case(seed, index, Files(folder), process_every=1000)
        print(case.channel, case.describe)
        cpu = time.process_time()
        outcome = case.run()
        cpu = time.process_time() - cpu
        print(outcome)
        print(f"slowest answer {outcome.slowest_answer(cpu):.3f} s of CPU")
    return 1 if outcome.internal or outcome.raw else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes to split the inputs over")
    parser.add_argument(
        "--worker", type=int, help="run only this worker's share of --jobs (0, 1 ...), alone"
    )
    parser.add_argument(
        "--process-every", type=int, default=1000, help="one case in this many is a real process"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--replay", help="SEED:INDEX: run one case and show what it did")
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="add up the figures --worker runs wrote (--json)"
    )
    options = parser.parse_args()
    if options.replay:
        seed, index = options.replay.split(":")
        return replay(int(seed), int(index))
    if options.merge:
        figures = merged([read_state(path) for path in options.merge])
    else:
        share = -(-options.inputs // options.jobs)
        tasks = [
            (options.seed, share, w, options.jobs, options.process_every, None)
            for w in range(options.jobs)
        ]
        if options.worker is not None:
            task = tasks[options.worker]
            return 1 if _worker((*task[:5], options.json)).failed() else 0
        if options.jobs == 1:
            parts = [_worker(tasks[0])]
        else:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(options.jobs) as pool:
                parts = pool.map(_worker, tasks)
        figures = merged(parts)
    text = json.dumps(figures.as_dict(), indent=2, ensure_ascii=True)
    print(text)
    if options.json:
        options.json.write_text(text + "\n", encoding="utf-8")
    return 1 if figures.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
