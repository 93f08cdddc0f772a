"""The odds engine's work estimates against the work measured, question by question.

Not a test: a script that prints a table. Every costly step of the odds estimates its
work before doing it, in units of about a nanosecond (``dicecli.probability.weights``,
``MAX_WORK``), and a question is refused when its estimate passes the budget
(``MAX_WORK`` a step, ``MAX_QUESTION_WORK`` a question). An estimate too high refuses
questions that would finish within the second (issue 25); one too low lets a question
run long. This script asks each question of a grid (keep highest, lowest and the middle
of many dice, counts, sides, exploding dice, groups), with the budgets lifted, and
prints the estimate charged to the question, the CPU time it took (the fastest of a few
runs, the distribution caches cleared before each, the line parsed before the clock),
their ratio, and what the real budgets do with it; then the worst ratios both ways::

    python bench/bench_estimates.py [--runs 3] [--skip-above 4000] [QUESTION ...]

A question estimated above ``--skip-above`` million is not run (its estimate is shown).
CPU time on a busy machine is noisy: compare ratios, run twice.
"""

from __future__ import annotations

import argparse
import sys
import time

from dicecli.errors import DiceError
from dicecli.notation.reader import parse
from dicecli.probability import weights
from dicecli.probability.engine import clear_caches
from dicecli.probability.report import odds

GRID: list[str] = [
    # keep the highest, the lowest, the middle of fair dice, many and few
    *(f"{n}d6{keep}" for n in (4, 20, 100, 300, 1000) for keep in ("kh1", "kl3", "dl1")),
    "300d6kh150",
    "1000d6kh500",
    "1000d6kl250",
    "2000d6kh1000",
    *(f"{n}d20{keep}" for n in (10, 50, 256) for keep in ("kh3", "dh1")),
    "256d20kh128",
    "400d20kl200",
    "100d100dl",
    "100d100kh50",
    "50d100kh25",
    "200d100kh100",
    "100d100kl3",
    "10000d100kh3",
    "3000d6kh3",
    "500d6dl1",
    "150d100dl",
    "300d20kh150",
    "300d100kh150",
    "3d2000kh2",
    "3d10000dl",
    # dice that are not fair: re-rolled, clamped, counting successes
    "40d6r1kh20",
    "100d6min2kh50",
    "200d10kh100>=7",
    "60d20ro1kh30",
    # exploding dice, kept from a count of units that is itself random
    "20d6!dl1",
    "10d6!kh3",
    "4d20!dl2",
    "6d20!kl3",
    "10d10!kh5",
    "30d6!kh15",
    "10d100kl2!>=4",
    "6d100kl2!>=20",
    "10d20kl2!>=5",
    "3d%!dh3",
    "6d6!pkh3",
    "20d6!pkh3",
    "8d10!pkh4",
    "5d10!!kh2",
    # exploding dice added up, no keep
    "d20!>=2",
    "d20!>=3",
    "84d6!r1",
    "50d6!",
    "80d6!",
    "30d10!",
    "4d3ro1!>=2",  # a chain of wide weights to a power
    # different units
    "{3d6, 2d8, d10, d12}kh2",
    "{4d6, 3d10, 2d20}dl2",
    "{100d6, 100d6, 100d6}kh2",
    "{100d6, 100d6, 100d6, 100d6}kh2",
    "{200d6, 200d6, 200d6}kh2",
]


def estimate_and_time(text: str, runs: int, skip_above: int) -> tuple[int, float | None, str]:
    """The work charged to the question, the fastest CPU time of ``runs`` (None when
    not run), and what happened."""
    parse(text)
    clear_caches()
    saved = weights.MAX_WORK, weights.MAX_QUESTION_WORK
    weights.MAX_WORK = weights.MAX_QUESTION_WORK = skip_above
    best: float | None = None
    try:
        odds(text)
        estimate = weights._ACCOUNT.spent
        for _ in range(runs):
            clear_caches()
            start = time.process_time()
            odds(text)
            took = time.process_time() - start
            best = took if best is None else min(best, took)
            if took > 0.5:
                break
        return estimate, best, "answered"
    except DiceError as error:
        return weights._ACCOUNT.spent, None, "not run: " + str(error).split(": ", 1)[-1][:50]
    finally:
        weights.MAX_WORK, weights.MAX_QUESTION_WORK = saved


def verdict(text: str) -> str:
    """What the real budgets do with the question."""
    clear_caches()
    try:
        odds(text)
    except DiceError:
        return "refused"
    return "answered"


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("questions", nargs="*", default=GRID)
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--skip-above", type=int, default=4000, help="millions")
    args = options.parse_args()
    skip_above = args.skip_above * 1_000_000
    print(
        f"python {sys.version.split()[0]}; estimates in millions of units (about a "
        "nanosecond), CPU time in ms; ratio = estimate / measured"
    )
    header = f"{'question':<26}{'estimate':>10}{'measured':>10}{'ratio':>7}  budgets"
    print(header)
    print("-" * len(header))
    ratios: list[tuple[float, str]] = []
    for text in args.questions:
        estimate, took, outcome = estimate_and_time(text, args.runs, skip_above)
        if took is None:
            print(f"{text:<26}{estimate / 1e6:10.1f}{'-':>10}{'-':>7}  {outcome}")
            continue
        ratio = estimate / max(took * 1e9, 1.0)
        if took >= 0.005:  # below, the clock's resolution and the overheads dominate
            ratios.append((ratio, text))
        print(
            f"{text:<26}{estimate / 1e6:10.1f}{took * 1e3:10.1f}{ratio:7.2f}  {verdict(text)}"
            f"{'  (past 1 s)' if took > 1 else ''}"
        )
    if ratios:
        high, low = max(ratios), min(ratios)
        print(
            f"worst over ({len(ratios)} questions of 5 ms or more): estimate {high[0]:.2f}x "
            f"the work ({high[1]}), {1 / low[0]:.2f}x below it ({low[1]})"
        )


if __name__ == "__main__":
    main()
