"""CPU time of piped corpus runs against a baseline dicecli, paired round by round.

    python bench/bench_cpu.py --baseline OTHER/bin/dicecli [--lines 100000] [--rounds 15]

Two rows, each the ratio of this dicecli to the baseline:

- **whole process**: ``dicecli --seed 1 < corpus`` over ``--lines`` lines of
  ``corpus.txt`` in turn, as ``bench_throughput.py`` pipes it, start-up included;
- **steady**: the cost of a line once the caches and tables are full, the CPU time of
  twice as many lines less that of ``--lines``, per line.

Why CPU time, and why paired: ``bench_throughput.py`` keeps the best wall-clock rate of
five rounds, which on this shared machine swings by 30% between runs, and callgrind
(``bench_instructions.py``) counts instructions, not the cache misses a long run pays
for what it keeps. CPU time (user plus system, from ``wait4``) leaves out the time the
process waits for the processor; each round runs both versions back to back, in
alternating order, so that load hits them alike. The ratio of a round is this
version's time over the baseline's, and the report gives the median of those ratios
beside the ratio of the best times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess

from bench_throughput import CORPUS, DICECLI, cycle


def cpu_seconds(command: list[str], stdin: bytes) -> float:
    """User plus system time of ``command`` fed ``stdin``, its output thrown away."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command} failed")
    return usage.ru_utime + usage.ru_stime


def measure(dicecli: str, once: bytes, twice: bytes, lines: int) -> tuple[float, float]:
    """The whole process's CPU seconds for ``once``, and a steady line's in µs."""
    command = [dicecli, "--seed", "1"]
    whole = cpu_seconds(command, once)
    double = cpu_seconds(command, twice)
    return whole, (double - whole) / lines * 1e6


def report(name: str, unit: str, ours: list[float], theirs: list[float]) -> None:
    ratios = [mine / other for mine, other in zip(ours, theirs, strict=True)]
    print(
        f"{name:16}{min(ours):10.3f}{statistics.median(ours):10.3f}"
        f"{min(theirs):10.3f}{statistics.median(theirs):10.3f}"
        f"{statistics.median(ratios):10.3f}{min(ours) / min(theirs):10.3f}  {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="another dicecli executable")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=15)
    arguments = parser.parse_args()
    lines = arguments.lines
    once = ("\n".join(cycle(CORPUS, lines)) + "\n").encode()
    twice = ("\n".join(cycle(CORPUS, 2 * lines)) + "\n").encode()
    versions = {"ours": DICECLI, "baseline": arguments.baseline}
    whole: dict[str, list[float]] = {name: [] for name in versions}
    steady: dict[str, list[float]] = {name: [] for name in versions}
    for round_number in range(arguments.rounds):
        order = list(versions) if round_number % 2 == 0 else list(versions)[::-1]
        for name in order:
            seconds, per_line = measure(versions[name], once, twice, lines)
            whole[name].append(seconds)
            steady[name].append(per_line)
    print(f"{lines:,} corpus lines, {arguments.rounds} rounds; CPU time (user + system)")
    header = ("", "ours best", "median", "base best", "median", "ratio med", "of bests")
    print(f"{header[0]:16}" + "".join(f"{column:>10}" for column in header[1:]))
    report("whole process", "s", whole["ours"], whole["baseline"])
    report("steady line", "µs", steady["ours"], steady["baseline"])


if __name__ == "__main__":
    main()
