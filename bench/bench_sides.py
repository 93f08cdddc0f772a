"""Dice of any size: piped lines whose dice have freely varying sides, against lines of
the usual sides, in the same run.

    python bench/bench_sides.py [--lines 20000] [--big 5000] [--baseline OTHER/bin/dicecli]

Each row pipes lines into a ``dicecli --seed 1`` process and is timed by the CPU time
of that process (user + system: what a busy machine does not stretch, unlike the wall
clock) less that of a process piped one line (its start-up: the rows have different
numbers of lines, and a start-up counted in would weigh more on a line of the shorter
run), a line, against the **standard sides** row of the same program, measured in the
same rounds (all rows interleaved, the best round kept; ``BENCH_ROUNDS``, default 3):

- **standard sides**: ``--lines`` distinct ``NdS+k`` lines, S one of d4 to d100 (the
  new lines of ``bench_lines.py``);
- **random sides**: as many distinct ``NdS+k`` lines, S anything from 2 to 1,000
  (``17d743+12``);
- **1dS**: ``--big`` lines ``1dS``, S from 2 up to 10,000 in even steps.

Targets: random sides and 1dS (per line) at most 1.2x the standard sides' time, and
the peak memory of every process at most 50 MiB. ``--baseline`` adds the same rows for
another dicecli (an earlier version installed in another environment).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
from collections.abc import Callable, Sequence
from functools import partial

from bench_lines import distinct_lines
from bench_startup import compile_package
from bench_throughput import DICECLI

from dicecli.notation.dice import USUAL_SIDES

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def random_sides_lines(count: int) -> list[str]:
    """``count`` different ``NdS+k`` lines, S from 2 to 1,000, the same ones every run."""
    rng = random.Random(25)
    lines: dict[str, None] = {}
    while len(lines) < count:
        lines[f"{rng.randint(1, 20)}d{rng.randint(2, 1000)}+{rng.randint(0, 999)}"] = None
    return list(lines)


SIZE_RANGES = ((5, 99), (101, 1_000), (1_001, 10_000))
"""Ranges of sides for :func:`sized_lines`, a decade each: whether a line's cost grows
with its dice's sides, apart from whether its dice are the usual ones."""

SHARED_SIDES = USUAL_SIDES | {3}
"""The sizes dicecli builds and shares (and the D3 of rule N4): left out of
:func:`sized_lines`, whose dice all have computed faces."""


def sized_lines(low: int, high: int, count: int) -> list[str]:
    """``count`` different ``NdS+k`` lines, S from ``low`` to ``high`` but never a usual
    size (every die one of computed faces), the same ones every run."""
    rng = random.Random(25)
    lines: dict[str, None] = {}
    while len(lines) < count:
        sides = rng.randint(low, high)
        if sides not in SHARED_SIDES:
            lines[f"{rng.randint(1, 20)}d{sides}+{rng.randint(0, 999)}"] = None
    return list(lines)


def big_die_lines(count: int) -> list[str]:
    """``count`` lines ``1dS``, S from 2 to 10,000 in even steps."""
    step = max(1, 9_998 // max(count - 1, 1))
    return [f"1d{2 + index * step}" for index in range(count)]


def piped_cpu(dicecli: str, lines: Sequence[str], *options: str) -> tuple[float, int]:
    """CPU seconds and peak memory (KiB) of ``dicecli OPTIONS < lines``."""
    process = subprocess.Popen(
        [dicecli, *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{dicecli} exited {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--big", type=int, default=5_000)
    parser.add_argument("--baseline", help="another dicecli executable, measured alike")
    arguments = parser.parse_args()
    compile_package()
    line_sets = {
        "standard sides": distinct_lines(arguments.lines),
        "random sides": random_sides_lines(arguments.lines),
        "1dS": big_die_lines(arguments.big),
    }
    programs = {"dicecli": DICECLI}
    if arguments.baseline:
        programs["baseline"] = arguments.baseline
    one_line = line_sets["standard sides"][:1]
    measures: dict[tuple[str, str], Callable[[], tuple[float, int]]] = {
        (name, kind): partial(piped_cpu, program, lines, "--seed", "1")
        for name, program in programs.items()
        for kind, lines in {**line_sets, "one line": one_line}.items()
    }
    best: dict[tuple[str, str], tuple[float, int]] = {}
    for _ in range(ROUNDS):
        for row, measure in measures.items():
            seconds, memory = measure()
            least, most = best.get(row, (seconds, memory))
            best[row] = (min(seconds, least), max(memory, most))
    print(
        f"least CPU time of {ROUNDS} interleaved rounds, most memory; time per line "
        "(less a run of one line) against standard sides"
    )
    print(f"{'row':32}{'lines':>8}{'CPU s':>9}{'µs/line':>10}{'ratio':>9}{'peak MiB':>10}")
    for name in programs:
        start_up = best[(name, "one line")][0]
        standard_seconds = best[(name, "standard sides")][0]
        standard_per_line = (standard_seconds - start_up) / (len(line_sets["standard sides"]) - 1)
        for kind, lines in line_sets.items():
            seconds, memory = best[(name, kind)]
            per_line = (seconds - start_up) / (len(lines) - 1)
            print(
                f"{f'{name}: {kind}':32}{len(lines):8,}{seconds:9.2f}{per_line * 1e6:10.1f}"
                f"{per_line / standard_per_line:8.2f}x{memory / 1024:10.1f}"
            )
    print("targets: <= 1.2x standard sides, <= 50 MiB")


if __name__ == "__main__":
    main()
