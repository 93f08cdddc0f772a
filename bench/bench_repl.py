"""The REPL's first prompt, as a ratio to a bare prompt_toolkit ``PromptSession`` measured
in the same run: each is started on a pseudo-terminal, shown its prompt, sent Ctrl-D.

    python bench/bench_repl.py [--runs 15] [--callgrind] [--baseline OTHER/bin/dicecli]

Rows: ``dicecli`` alone at a terminal, ``dicecli repl``, ``dicecli repl --seed 1``, and
the bare session (``PromptSession().prompt("dice> ")``, the floor: the REPL is a
prompt_toolkit session). By default the time from start to the prompt, median of
``--runs`` interleaved runs; with ``--callgrind`` the instructions of the whole run
(start, prompt, Ctrl-D, exit) counted by valgrind, which a busy machine does not
change. ``--baseline`` adds the same rows run by another dicecli. Needs pexpect.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect  # type: ignore[import-untyped, import-not-found, unused-ignore]
from bench_instructions import interpreter_and_script

PYTHON = sys.executable
DICECLI = shutil.which("dicecli", path=str(Path(PYTHON).parent)) or "dicecli"
BARE = (
    "from prompt_toolkit import PromptSession\n"
    "try:\n"
    "    PromptSession().prompt('dice> ')\n"
    "except EOFError:\n"
    "    pass\n"
)
PROMPT = "dice>"


def rows(dicecli: str, prefix: str = "") -> dict[str, list[str]]:
    return {
        f"{prefix}dicecli (at a terminal)": [dicecli],
        f"{prefix}dicecli repl": [dicecli, "repl"],
        f"{prefix}dicecli repl --seed 1": [dicecli, "repl", "--seed", "1"],
    }


def environment(home: str) -> dict[str, str]:
    """A fresh home (no history file), no cursor position requests (no terminal here
    answers them), a plain terminal type."""
    return {**os.environ, "HOME": home, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"}


def to_prompt(command: list[str], home: str) -> float:
    """Seconds from start to the prompt; the session is then sent Ctrl-D."""
    start = time.perf_counter()
    child = pexpect.spawn(
        command[0], command[1:], env=environment(home), timeout=120, dimensions=(24, 100)
    )
    child.expect(PROMPT)
    seconds = time.perf_counter() - start
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    return seconds


def instructions(command: list[str], home: str) -> int:
    """The instructions of the whole run, counted by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        child = pexpect.spawn(
            "valgrind",
            ["--tool=callgrind", f"--callgrind-out-file={out}", *command],
            env={**environment(home), "PYTHONHASHSEED": "0"},
            timeout=600,
            dimensions=(24, 100),
        )
        child.expect(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"callgrind gave no total for {command}")


def compile_package(dicecli: str) -> None:
    """Byte-compile the dicecli that ``dicecli`` runs, as ``pip install`` does: with
    PYTHONDONTWRITEBYTECODE, an editable install would compile every module on every
    start."""
    python = interpreter_and_script(dicecli)[0]
    compile_it = (
        "import compileall, os, dicecli;"
        "compileall.compile_dir(os.path.dirname(dicecli.__file__), quiet=1)"
    )
    subprocess.run([python, "-c", compile_it], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--callgrind", action="store_true", help="count instructions")
    parser.add_argument("--baseline", help="another dicecli executable to measure alike")
    arguments = parser.parse_args()
    commands = {"bare PromptSession": [PYTHON, "-c", BARE], **rows(DICECLI)}
    compile_package(DICECLI)
    if arguments.baseline:
        commands.update(rows(arguments.baseline, "baseline: "))
        compile_package(arguments.baseline)
    measured: dict[str, list[float]] = {name: [] for name in commands}
    runs = 1 if arguments.callgrind else arguments.runs
    with tempfile.TemporaryDirectory() as home:
        for _ in range(runs):
            for name, command in commands.items():
                if arguments.callgrind:
                    measured[name].append(instructions(command, home))
                else:
                    measured[name].append(to_prompt(command, home))
    medians = {name: statistics.median(values) for name, values in measured.items()}
    bare = medians["bare PromptSession"]
    unit = "instructions" if arguments.callgrind else f"ms to the prompt, median of {runs}"
    print(f"REPL first prompt ({unit}), as a ratio to a bare PromptSession")
    for name, value in medians.items():
        shown = f"{value:,.0f}" if arguments.callgrind else f"{value * 1000:.1f}"
        print(f"{name:40} {shown:>16} {value / bare:7.3f}")


if __name__ == "__main__":
    main()
