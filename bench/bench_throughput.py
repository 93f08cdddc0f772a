"""Rolls per second over a corpus, through the public API and through piped stdin.

    python bench/bench_throughput.py [--rolls 100000] [--baseline OTHER/bin/dicecli]

The corpus is ``bench/corpus.txt`` (one expression per line). References in the same
run: the ``d20`` library in-process with its parse cache, on the expressions of the
corpus it can parse (install it in the bench environment: ``bench/requirements.txt``).
Target: piped stdin at least 2.3x d20's in-process rate. ``--baseline`` adds the piped
rows for another dicecli (an earlier version in another environment), measured in the
same rounds.

The package is byte-compiled first (as ``pip install`` does), every measurement runs
once per round with all of them interleaved, and each rate is the best of its rounds.
On a machine this noisy, a deterministic cross-check of a change is the instruction
count per piped line under ``valgrind --tool=callgrind`` (a run of N lines minus a run
of one line, divided by N-1), which is how the piped path was tuned.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench_startup import compile_package

import dicecli
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.rolling.evaluate import roll as roll_parsed
from dicecli.rolling.sources import RandomSource, Roller

HERE = Path(__file__).parent
CORPUS = [line.strip() for line in (HERE / "corpus.txt").read_text().splitlines() if line.strip()]
DICECLI = shutil.which("dicecli", path=str(Path(sys.executable).parent)) or "dicecli"


ROUNDS = 5
"""Every measurement runs once per round, all of them interleaved, and a rate is the
best of its rounds: on a shared machine load comes and goes, and interleaving lets it
hit dicecli and the d20 reference alike."""


def cycle(texts: list[str], count: int) -> list[str]:
    return (texts * (count // len(texts) + 1))[:count]


def api_rate(count: int, corpus: list[str]) -> float:
    """``dicecli.roll(text, source=...)``: parse (cached) + roll, one shared source."""
    source = RandomSource(1)
    texts = cycle(corpus, count)
    start = time.perf_counter()
    for text in texts:
        dicecli.roll(text, source=source)
    return count / (time.perf_counter() - start)


def evaluator_rate(count: int, corpus: list[str]) -> float:
    """The evaluator alone on parsed lines: what a roll costs once parsing is cached."""
    roller = Roller(RandomSource(1))
    parsed = [(dicecli.parse(text), text) for text in corpus]
    lines = (parsed * (count // len(parsed) + 1))[:count]
    start = time.perf_counter()
    for line, text in lines:
        roll_parsed(line, roller, EMPTY_ENVIRONMENT, text)
    return count / (time.perf_counter() - start)


def piped_rate(count: int, corpus: list[str], dicecli: str = DICECLI) -> tuple[float, float]:
    """``dicecli < corpus`` as a user pipes it: rolls per second including start-up,
    and the start-up-free rate (subtracting a one-line run)."""
    lines = "\n".join(cycle(corpus, count)) + "\n"

    def timed(text: str) -> float:
        start = time.perf_counter()
        subprocess.run([dicecli], input=text.encode(), stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    whole = timed(lines)
    empty = min(timed("d6\n") for _ in range(3))
    return count / whole, count / max(whole - empty, 1e-9)


def d20_parsable() -> list[str] | None:
    """The corpus lines d20 can roll; None when d20 is not installed."""
    try:
        import d20  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    usable = []
    for text in CORPUS:
        try:
            d20.roll(text)
            usable.append(text)
        except Exception:
            continue
    return usable


def d20_rate(count: int, corpus: list[str]) -> float:
    import d20  # type: ignore[import-untyped, import-not-found, unused-ignore]

    texts = cycle(corpus, count)
    start = time.perf_counter()
    for text in texts:
        d20.roll(text)
    return count / (time.perf_counter() - start)


IN_PROCESS = {
    "dicecli API (dicecli.roll, parse cached)": api_rate,
    "dicecli evaluator only (parsed lines)": evaluator_rate,
}
PIPED_WHOLE = "dicecli piped stdin, whole process"
PIPED_STEADY = "dicecli piped stdin, minus start-up"
BASELINE_WHOLE = "baseline dicecli piped stdin, whole process"
BASELINE_STEADY = "baseline dicecli piped stdin, minus start-up"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--baseline", help="another dicecli executable, piped alike")
    arguments = parser.parse_args()
    count, baseline = arguments.rolls, arguments.baseline
    compile_package()
    subset = d20_parsable()
    corpora = {"whole corpus": CORPUS, "d20 subset": subset or []}
    best: dict[tuple[str, str], float] = {}

    def keep_best(row: str, corpus: str, rate: float) -> None:
        best[row, corpus] = max(best.get((row, corpus), 0.0), rate)

    for _ in range(ROUNDS):
        if subset:
            keep_best("d20", "d20 subset", d20_rate(count, subset))
        for corpus_name, corpus in corpora.items():
            if not corpus:
                continue
            for row, measure in IN_PROCESS.items():
                keep_best(row, corpus_name, measure(count, corpus))
            whole, steady = piped_rate(count, corpus)
            keep_best(PIPED_WHOLE, corpus_name, whole)
            keep_best(PIPED_STEADY, corpus_name, steady)
            if baseline:
                whole, steady = piped_rate(count, corpus, baseline)
                keep_best(BASELINE_WHOLE, corpus_name, whole)
                keep_best(BASELINE_STEADY, corpus_name, steady)
    report(count, best, len(subset or []))


def report(count: int, best: dict[tuple[str, str], float], subset_size: int) -> None:
    print(f"{count:,} rolls per row, best of {ROUNDS} interleaved rounds; rolls per second")
    print(f"{'':52}{'whole corpus':>14}{'d20 subset':>14}{'x d20':>8}")
    reference = best.get(("d20", "d20 subset"))
    rows = (*IN_PROCESS, PIPED_WHOLE, PIPED_STEADY, BASELINE_WHOLE, BASELINE_STEADY)
    for row in (row for row in rows if (row, "whole corpus") in best):
        part = best.get((row, "d20 subset"))
        part_text = f"{part:14,.0f}" if part is not None else f"{'-':>14}"
        ratio = f"{part / reference:7.2f}x" if part is not None and reference else ""
        print(f"{row:52}{best[row, 'whole corpus']:14,.0f}{part_text}{ratio}")
    if reference is None:
        print("d20 not installed: pip install -r bench/requirements.txt for the reference")
        return
    name = f"d20 in-process, parse cache ({subset_size} of {len(CORPUS)} lines parse)"
    print(f"{name:52}{'-':>14}{reference:14,.0f}{1:7.2f}x")
    target = best[PIPED_WHOLE, "d20 subset"] / reference
    print(f"target: piped stdin >= 2.3x d20 in-process: {target:.2f}x")


if __name__ == "__main__":
    main()
