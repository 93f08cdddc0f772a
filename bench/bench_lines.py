"""Piped lines where the work is real: new lines, JSON, game lines, ``--times``.

    python bench/bench_lines.py [--lines 20000] [--times 100000] [--baseline OTHER/bin/dicecli]

Each row pipes lines into a ``dicecli`` process (the whole process: start-up included)
and is a ratio against a reference measured in the same run, all rows interleaved over
the rounds, the best round kept (see ``bench_throughput.py`` for why):

- **new lines**: 20,000 distinct ``NdS+k`` lines, so that no line is parsed twice,
  against the ``d20`` library rolling the same lines in-process (target >= 2x);
- **--json**: the plain mix of ``corpus.txt`` (the lines d20 reads) with ``--json``,
  against d20 in-process on the same lines (target >= 2x);
- **game lines**: a mix of Alkemy, Warhammer and AGE lines, against d20 in-process on
  the plain mix (target >= 1x);
- **--times**: ``dicecli --times N 2d6`` against piping the same N lines of ``2d6``:
  time (target <= 1.1x) and the peak memory of each process (target <= 30 MiB).

``--baseline`` adds the same rows for another dicecli (an earlier version installed in
another environment). d20 comes from ``bench/requirements.txt``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import time
from collections.abc import Callable, Sequence
from functools import partial

from bench_startup import compile_package
from bench_throughput import DICECLI, cycle, d20_parsable, d20_rate

GAME_LINES = [
    "alkemy 8 vs 15",
    "alkemy 8 vs 15 +1bonus",
    "alkemy Mind 8 vs 15 yellow +1bonus",
    "wfb ld 8",
    "wfb artillery",
    "wfb scatter 2D6",
    "wfb break 8 lost by 3",
    "age 3 vs 13",
    "age 3 +focus vs hard",
    "age 2 vs age 3",
]

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))


def distinct_lines(count: int) -> list[str]:
    """``count`` different ``NdS+k`` lines, the same ones every run."""
    rng = random.Random(20)
    lines: dict[str, None] = {}
    while len(lines) < count:
        sides = rng.choice((4, 6, 8, 10, 12, 20, 100))
        lines[f"{rng.randint(1, 20)}d{sides}+{rng.randint(0, 999)}"] = None
    return list(lines)


def piped(dicecli: str, lines: Sequence[str], *options: str) -> tuple[float, int]:
    """Seconds and peak memory (KiB) of ``dicecli OPTIONS < lines``."""
    return run([dicecli, *options], "\n".join(lines) + "\n")


def run(command: list[str], stdin: str = "") -> tuple[float, int]:
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None
    process.stdin.write(stdin.encode())
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command} exited {process.returncode}")
    return seconds, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--times", type=int, default=100_000)
    parser.add_argument("--baseline", help="another dicecli executable, measured alike")
    arguments = parser.parse_args()
    count, times = arguments.lines, arguments.times
    compile_package()
    plain = d20_parsable()
    if not plain:
        raise SystemExit("the d20 reference is missing: pip install -r bench/requirements.txt")
    new = distinct_lines(count)
    mix = cycle(plain, count)
    games = cycle(GAME_LINES, count)
    twos = ["2d6"] * times
    programs = {"dicecli": DICECLI}
    if arguments.baseline:
        programs["baseline"] = arguments.baseline

    measures: dict[str, Callable[[], tuple[float, int]]] = {
        "d20 in-process, new lines": lambda: (d20_seconds(new), 0),
        "d20 in-process, plain mix": lambda: (d20_seconds(mix), 0),
    }
    for name, program in programs.items():
        measures |= {
            f"{name}: new lines": partial(piped, program, new),
            f"{name}: --json, plain mix": partial(piped, program, mix, "--json"),
            f"{name}: game lines": partial(piped, program, games),
            f"{name}: piped {times:,} x 2d6": partial(piped, program, twos),
            f"{name}: --times {times:,} 2d6": partial(run, [program, "--times", str(times), "2d6"]),
        }
    best: dict[str, tuple[float, int]] = {}
    for _ in range(ROUNDS):
        for row, measure in measures.items():
            seconds, memory = measure()
            previous = best.get(row)
            best[row] = (min(seconds, previous[0]) if previous else seconds, memory)
    report(best, programs, count, times)


def d20_seconds(lines: list[str]) -> float:
    return len(lines) / d20_rate(len(lines), lines)


def report(
    best: dict[str, tuple[float, int]], programs: dict[str, str], count: int, times: int
) -> None:
    new_ref = best["d20 in-process, new lines"][0]
    mix_ref = best["d20 in-process, plain mix"][0]
    print(f"{count:,} lines a row (--times: {times:,}); best of {ROUNDS} interleaved rounds")
    print(f"d20 in-process: new lines {count / new_ref:,.0f}/s, plain mix {count / mix_ref:,.0f}/s")
    print(f"{'row':40}{'lines/s':>12}{'ratio':>10}{'peak MiB':>10}  target")
    for name in programs:
        rows = (
            (f"{name}: new lines", new_ref, ">= 2x d20"),
            (f"{name}: --json, plain mix", mix_ref, ">= 2x d20"),
            (f"{name}: game lines", mix_ref, ">= 1x d20 (plain mix)"),
        )
        for row, reference, target in rows:
            seconds, memory = best[row]
            ratio = reference / seconds
            print(f"{row:40}{count / seconds:12,.0f}{ratio:9.2f}x{memory / 1024:10.1f}  {target}")
        seconds_piped, memory_piped = best[f"{name}: piped {times:,} x 2d6"]
        seconds_times, memory_times = best[f"{name}: --times {times:,} 2d6"]
        print(
            f"{f'{name}: piped {times:,} x 2d6':40}{times / seconds_piped:12,.0f}"
            f"{'':10}{memory_piped / 1024:10.1f}"
        )
        print(
            f"{f'{name}: --times {times:,} 2d6':40}{times / seconds_times:12,.0f}"
            f"{seconds_times / seconds_piped:9.2f}x{memory_times / 1024:10.1f}"
            "  <= 1.1x the time of piping; <= 30 MiB"
        )


if __name__ == "__main__":
    main()
