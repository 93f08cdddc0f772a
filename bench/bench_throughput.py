"""Rolls per second over a corpus, through the public API and through piped stdin.

    python bench/bench_throughput.py [--rolls 100000]

The corpus is ``bench/corpus.txt`` (one expression per line). References in the same
run: the ``d20`` library in-process with its parse cache, on the expressions of the
corpus it can parse (install it in the bench environment: ``bench/requirements.txt``).
Target: piped stdin at least 2x d20's in-process rate.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import dicecli
from dicecli.dice import RandomSource, Roller
from dicecli.environment import EMPTY_ENVIRONMENT
from dicecli.evaluate import roll as roll_parsed

HERE = Path(__file__).parent
CORPUS = [line.strip() for line in (HERE / "corpus.txt").read_text().splitlines() if line.strip()]
DICECLI = shutil.which("dicecli", path=str(Path(sys.executable).parent)) or "dicecli"


REPEATS = 3
"""Each rate is the best of this many passes: on a shared machine the best pass is the
one least disturbed by others."""


def best_rate(measure: Callable[[int, list[str]], float], count: int, corpus: list[str]) -> float:
    return max(measure(count, corpus) for _ in range(REPEATS))


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


def piped_rate(count: int, corpus: list[str]) -> tuple[float, float]:
    """``dicecli < corpus`` as a user pipes it: rolls per second including start-up,
    and the start-up-free rate (subtracting a one-line run)."""
    lines = "\n".join(cycle(corpus, count)) + "\n"

    def timed(text: str) -> float:
        start = time.perf_counter()
        subprocess.run([DICECLI], input=text.encode(), stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - start

    whole = min(timed(lines) for _ in range(REPEATS))
    empty = min(timed("d6\n") for _ in range(5))
    return count / whole, count / max(whole - empty, 1e-9)


def d20_parsable() -> list[str] | None:
    """The corpus lines d20 can roll; None when d20 is not installed."""
    try:
        import d20  # type: ignore[import-not-found]
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
    import d20

    texts = cycle(corpus, count)
    start = time.perf_counter()
    for text in texts:
        d20.roll(text)
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000)
    count = parser.parse_args().rolls
    print(f"{count:,} rolls per row; rolls per second")
    print(f"{'':52}{'whole corpus':>14}{'d20 subset':>14}{'x d20':>8}")
    subset = d20_parsable()
    reference = best_rate(d20_rate, count, subset) if subset else None
    rows: list[tuple[str, float, float | None]] = []
    for name, measure in (
        ("dicecli API (dicecli.roll, parse cached)", api_rate),
        ("dicecli evaluator only (parsed lines)", evaluator_rate),
    ):
        full = best_rate(measure, count, CORPUS)
        rows.append((name, full, best_rate(measure, count, subset) if subset else None))
    whole, steady = piped_rate(count, CORPUS)
    if subset:
        whole_subset, steady_subset = piped_rate(count, subset)
    rows.append(("dicecli piped stdin, whole process", whole, whole_subset if subset else None))
    rows.append(("dicecli piped stdin, minus start-up", steady, steady_subset if subset else None))
    for name, full, part in rows:
        part_text = f"{part:14,.0f}" if part is not None else f"{'-':>14}"
        ratio = f"{part / reference:7.2f}x" if part is not None and reference else ""
        print(f"{name:52}{full:14,.0f}{part_text}{ratio}")
    if subset is None or reference is None:
        print("d20 not installed: pip install -r bench/requirements.txt for the reference")
        return
    print(
        f"{f'd20 in-process, parse cache ({len(subset)} of {len(CORPUS)} lines parse)':52}"
        f"{'-':>14}{reference:14,.0f}{1:7.2f}x"
    )
    print(f"target: piped stdin >= 2x d20 in-process: {whole_subset / reference:.2f}x")


if __name__ == "__main__":
    main()
