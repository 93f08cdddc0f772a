"""The library in a loop: ``dicecli.roll(text)`` as documented (no seed, no source)
against ``d20.roll(text)`` on the same lines, in the same run.

    python bench/bench_api.py [--calls 20000] [--baseline OTHER/bin/dicecli]

Rows, each a loop of ``--calls`` calls:

- **repeated**: the lines of ``corpus.txt`` that d20 reads, over and over;
- **check**: ``d20 + 5 >= 15`` and its like (d20 reads the same text);
- **multi-roll**: the rolls of lines such as ``1d20+5; 2d6+3; 1d8+2``, one call each
  (``dicecli.roll`` takes one roll, as ``d20.roll`` does);
- **new lines**: distinct ``NdS+k`` lines, each rolled once.

Each loop is timed by the CPU time of its process (``time.process_time``: a busy
machine stretches it far less than the wall clock) in a fresh worker process per
program and round, d20 in this process; rows interleaved over ``BENCH_ROUNDS``
rounds (default 3), the best kept. Target: dicecli at least 2x d20 on every row.
``--baseline`` adds the rows for another dicecli, run by its own interpreter. d20 comes
from ``bench/requirements.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable

from bench_instructions import interpreter_and_script
from bench_lines import distinct_lines
from bench_throughput import CORPUS, cycle, d20_parsable

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CHECKS = ["d20 + 5 >= 15", "1d20+7 >= 12", "2d6+3 >= 8", "d20 >= 11", "3d6 <= 10"]
MULTI = ["1d20+5; 2d6+3; 1d8+2", "d20; d20; d20", "4d6kh3; 4d6kh3; 4d6kh3"]


def row_lines(calls: int) -> dict[str, list[str]]:
    plain = d20_parsable() or [line for line in CORPUS if "x" not in line]
    parts = [part.strip() for line in MULTI for part in line.split(";")]
    return {
        "repeated": cycle(plain, calls),
        "check": cycle(CHECKS, calls),
        "multi-roll": cycle(parts, calls),
        "new lines": distinct_lines(calls),
    }


WORKER = """
import json, sys, time
import dicecli
roll = dicecli.roll
rows = json.load(sys.stdin)
found = {}
for name, lines in rows.items():
    for text in lines[:50]:
        roll(text)  # imports and first-use work out of the loop
    if name == "new lines":
        lines = [line + "+1" for line in lines]  # not seen by the warm-up
    start = time.process_time()
    for text in lines:
        roll(text)
    found[name] = (time.process_time() - start) / len(lines)
print(json.dumps(found))
"""


def worker(python: str, rows: dict[str, list[str]]) -> dict[str, float]:
    """Seconds a call of ``dicecli.roll`` for each row, in a fresh ``python``."""
    done = subprocess.run(
        [python, "-c", WORKER],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


def d20_row(rows: dict[str, list[str]]) -> dict[str, float]:
    import d20  # type: ignore[import-untyped, import-not-found, unused-ignore]

    found = {}
    for name, lines in rows.items():
        for text in lines[:50]:
            d20.roll(text)
        if name == "new lines":
            lines = [line + "+1" for line in lines]
        start = time.process_time()
        for text in lines:
            d20.roll(text)
        found[name] = (time.process_time() - start) / len(lines)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--baseline", help="another dicecli executable, measured alike")
    arguments = parser.parse_args()
    if d20_parsable() is None:
        raise SystemExit("the d20 reference is missing: pip install -r bench/requirements.txt")
    rows = row_lines(arguments.calls)
    programs: dict[str, Callable[[], dict[str, float]]] = {
        "d20.roll": lambda: d20_row(rows),
        "dicecli.roll": lambda: worker(sys.executable, rows),
    }
    if arguments.baseline:
        python = interpreter_and_script(arguments.baseline)[0]
        programs["baseline dicecli.roll"] = lambda: worker(python, rows)
    best: dict[str, dict[str, float]] = {}
    for _ in range(ROUNDS):
        for program, measure in programs.items():
            for row, seconds in measure().items():
                kept = best.setdefault(program, {})
                kept[row] = min(seconds, kept.get(row, seconds))
    print(f"{arguments.calls:,} calls a row; least CPU time of {ROUNDS} interleaved rounds")
    print(f"{'row':34}" + "".join(f"{row:>20}" for row in rows))
    reference = best["d20.roll"]
    for program, found in best.items():
        print(f"{program + ' µs/call':34}" + "".join(f"{found[r] * 1e6:20.2f}" for r in rows))
        if program != "d20.roll":
            ratios = "".join(f"{reference[r] / found[r]:19.2f}x" for r in rows)
            print(f"{program + ' vs d20 (speed)':34}" + ratios)
    print("target: dicecli.roll >= 2x d20.roll on every row")


if __name__ == "__main__":
    main()
