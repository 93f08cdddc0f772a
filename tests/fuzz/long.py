"""The long fuzzing profile: a million API inputs and more, with figures.

Run from the repository root (niced: it keeps one core busy for about half an hour)::

    nice python tests/fuzz/long.py --inputs 1000000

Each input (a mutated line of any game, a token soup or a byte soup, from seeded
generators: the same command gives the same inputs) goes to ``parse``, ``roll`` and
``reroll``, and to ``odds`` when its numbers are small (:func:`odds_friendly`); a
second, smaller run asks the odds of unfiltered inputs under a tighter budget and
reports what passes it (the odds' own estimate-before-work bounds, docs/odds.md). The
report gives the inputs per area, the internal errors (must be 0), the worst steps and
time per call, and the worst memory (the process's peak, and the peak of single calls
sampled under tracemalloc). The exit status is 1 if any internal error was found.
Stopped early (Ctrl-C, SIGTERM), it prints the figures of the calls made so far.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import signal
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.harness import (
    AREAS,
    InternalError,
    any_input,
    exercise,
    odds_friendly,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="API calls to make")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--odds-sample", type=int, default=2_000, help="unfiltered odds asked")
    parser.add_argument("--odds-budget", type=int, default=5_000_000)
    parser.add_argument("--memory-every", type=int, default=1_000, help="calls between samples")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # figures on SIGTERM too

    rng = random.Random(options.seed)
    calls: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    worst_steps = dict.fromkeys(AREAS, (0, ""))
    worst_time = dict.fromkeys(AREAS, (0.0, ""))
    worst_memory = (0, "")
    internal: list[str] = []
    started = time.perf_counter()
    made = 0
    over_budget: list[str] = []
    odds_refused = 0
    interrupted = False
    try:
        while made < options.inputs:
            text = any_input(rng)
            for area in AREAS:
                if area == "odds" and not odds_friendly(text):
                    continue
                sampled = made % options.memory_every == 0
                if sampled:
                    tracemalloc.start()
                began = time.perf_counter()
                try:
                    outcome = exercise(area, text)
                except InternalError as error:
                    internal.append(str(error)[:500])
                    made += 1
                    continue
                finally:
                    spent = time.perf_counter() - began
                    if sampled:
                        peak = tracemalloc.get_traced_memory()[1]
                        tracemalloc.stop()
                        if peak > worst_memory[0]:
                            worst_memory = (peak, f"{area}({text[:80]!r})")
                made += 1
                calls[area] += 1
                if outcome.error:
                    errors[outcome.error] += 1
                if outcome.steps > worst_steps[area][0]:
                    worst_steps[area] = (outcome.steps, text[:80])
                if spent > worst_time[area][0]:
                    worst_time[area] = (spent, text[:80])
            if made % 50_000 < len(AREAS):
                print(f"{made:,} calls, {time.perf_counter() - started:.0f} s", file=sys.stderr)

        for _ in range(options.odds_sample):
            text = any_input(rng)
            try:
                outcome = exercise("odds", text, budget=options.odds_budget)
            except InternalError as error:
                if "over the budget" in str(error):
                    over_budget.append(text[:80])
                else:
                    internal.append(str(error)[:500])
                continue
            odds_refused += outcome.error is not None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: report what was done
        interrupted = True

    figures = {
        "interrupted": interrupted,
        "calls per area": dict(calls),
        "calls": sum(calls.values()),
        "internal errors": len(internal),
        "internal error examples": internal[:20],
        "documented errors by type": dict(errors.most_common()),
        "worst steps per area": {a: {"steps": s, "input": t} for a, (s, t) in worst_steps.items()},
        "worst seconds per area": {
            a: {"seconds": round(s, 3), "input": t} for a, (s, t) in worst_time.items()
        },
        "worst memory of a sampled call (bytes)": {
            "bytes": worst_memory[0],
            "call": worst_memory[1],
        },
        "process peak memory (KiB)": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "seconds": round(time.perf_counter() - started, 1),
        "unfiltered odds asked": options.odds_sample,
        "unfiltered odds refused with a DiceError": odds_refused,
        f"unfiltered odds over {options.odds_budget:,} steps": len(over_budget),
        "unfiltered odds over the budget, examples": over_budget[:20],
    }
    text = json.dumps(figures, indent=2, ensure_ascii=False)
    print(text)
    if options.json:
        options.json.write_text(text + "\n", encoding="utf-8")
    return 1 if internal else 0


if __name__ == "__main__":
    sys.exit(main())
