"""Instructions executed, counted by callgrind: start-up and piped lines, this dicecli
against another, as ratios. The same on a busy machine as on a quiet one.

    python bench/bench_instructions.py --baseline OTHER/bin/dicecli [--lines 2000] [--only piped]

Wall-clock benchmarks (``bench_startup.py``, ``bench_throughput.py``) need a quiet
machine; this one does not: ``valgrind --tool=callgrind`` counts the instructions a
run executes, which vary by well under 1% between runs (the hash seed is fixed; rolls
without ``--seed`` draw from the OS, which changes little). Rows:

- each start-up command of ``bench_startup.py`` (a plain roll, the common options, the
  typer path, a line of each seed game, ``--help``), and the common options' rows as a
  ratio to the plain roll of the same dicecli;
- a piped line: the instructions of ``--lines`` corpus lines piped in, less those of one
  line, divided by ``--lines`` - 1; the corpus is ``bench/corpus.txt``, repeated;
- the same for the corpus's lines made new (each line with a different constant), so
  that no line is seen twice;
- each piped row split in two: **steady**, a line's cost once everything it needs is
  loaded (the second half of the lines, less the first half), and **first uses**, the
  instructions of the first half less one line and less that many steady lines: what
  the lines load or build once (the grammar of record, the notes' patterns, a dice
  term's step). The piped row is their sum spread over the lines, so the split says
  which of the two a change moved. A line of few outcomes keeps the tree of each
  outcome that comes again (``dicecli/rolling/shared_outcomes.py``), which takes a few
  thousand rolls of ``4d6kh3`` to fill: for the cost of a long run, as
  ``bench_throughput.py`` pipes it, use ``--only piped --lines 100000``.

``--only TEXT`` counts only the rows whose name holds TEXT (``--only piped`` for the
piped lines). Ratios above 1 mean this dicecli executes more than the baseline. Needs
valgrind.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_startup import COMMANDS, DICECLI

FAST_OPTION_ROWS = (
    "dicecli --seed 1 2D6+5",
    "dicecli --given 3,4 --json 2d6",
    "dicecli 4d6kh3 -n 6",
)

CORPUS = Path(__file__).with_name("corpus.txt")


def interpreter_and_script(executable: str) -> list[str]:
    """The console script ``executable`` as ``[its python, itself]``: callgrind then
    counts the interpreter that runs it, as the shell would start it."""
    path = Path(shutil.which(executable) or executable)
    first = path.read_bytes().split(b"\n", 1)[0].decode()
    if not first.startswith("#!"):
        raise SystemExit(f"{path} is no script with a #! line")
    return [*first[2:].split(), str(path)]


def instructions(command: list[str], stdin: str | None = None) -> int:
    """The instructions ``command`` executes (callgrind's total)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"callgrind gave no total for {command}")


def rows(executable: str, lines: int, only: str) -> dict[str, float]:
    """Instruction counts of the rows whose name holds ``only``, for one dicecli."""
    base = interpreter_and_script(executable)
    compile_package = (  # as pip install does, so that no run compiles
        "import compileall, os, dicecli;"
        "compileall.compile_dir(os.path.dirname(dicecli.__file__), quiet=1)"
    )
    subprocess.run([base[0], "-c", compile_package], check=True)
    found: dict[str, float] = {}
    for name, command in COMMANDS.items():
        if command[0] == DICECLI and only in name:
            found[name] = instructions([*base, *command[1:]])
    corpus = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]
    repeated = [corpus[i % len(corpus)] for i in range(lines)]
    new = [f"{corpus[i % len(corpus)]}+{i}" for i in range(lines)]
    for name, piped in (("piped line (repeated corpus)", repeated), ("piped new line", new)):
        if only not in name:
            continue
        one = instructions(base, piped[0] + "\n")
        half = instructions(base, "\n".join(piped[: lines // 2]) + "\n")
        many = instructions(base, "\n".join(piped) + "\n")
        found[name] = (many - one) / (lines - 1)
        steady = (many - half) / (lines - lines // 2)
        found[f"{name}: steady"] = steady
        found[f"{name}: first uses"] = half - one - steady * (lines // 2 - 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="another dicecli executable")
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--only", default="", help="count only rows whose name holds this")
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    ours = rows(DICECLI, arguments.lines, arguments.only)
    theirs = rows(arguments.baseline, arguments.lines, arguments.only)
    print(f"instructions (callgrind), this dicecli vs {arguments.baseline}")
    print(f"{'row':44} {'this':>14} {'baseline':>14} {'ratio':>7}")
    for name, count in ours.items():
        print(f"{name:44} {count:14,.0f} {theirs[name]:14,.0f} {count / theirs[name]:7.3f}")
    plain = "dicecli 2D6+5"
    print(f"as a ratio to {plain} of the same dicecli (the fast options: at most 1.1)")
    for name in FAST_OPTION_ROWS:
        if name not in ours or plain not in ours:
            continue
        print(f"{name:44} {ours[name] / ours[plain]:14.3f} {theirs[name] / theirs[plain]:14.3f}")


if __name__ == "__main__":
    main()
