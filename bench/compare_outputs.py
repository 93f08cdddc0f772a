"""Same input, same output: this dicecli against another, over many generated lines.

    python bench/compare_outputs.py --baseline OTHER/bin/dicecli [--lines 10000]

A check for changes meant to be refactors (speed, memory): every line must give the
same result for the same seed as before, down to each die. Lines are generated from a
fixed seed: dice of the usual and of any size up to 10,000 sides, Fudge, percentile
and custom dice, every modifier, arithmetic, groups, checks (``>= 15``, ``vs``),
repeated rolls (``D6x5``), comments, game lines, and lines that are refused. Each
dicecli then

- **piped**: rolls all of them in one ``--seed 7`` process, as text and as ``--json``
  (one generator for the whole run: a change in how many numbers any line draws shows
  on every line after it);
- **API**: ``dicecli.roll(line, seed=n)`` for each line ``n``, its total, dice,
  breakdown and outcome (or its error);
- **odds**: ``dicecli.odds(line)`` for each line, its distribution and mean (or its
  refusal), at most ``--odds`` lines.

Prints how many lines each way compared and how many differ (with the first few);
exits 1 when any does.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench_instructions import interpreter_and_script
from bench_throughput import DICECLI

GAME_LINES = [
    "alkemy 8 vs 15",
    "alkemy Mind 8 vs 15 yellow +1bonus",
    "wfb ld 8",
    "wfb artillery",
    "wfb scatter 2D6",
    "wfb break 8 lost by 3",
    "age 3 vs 13",
    "age 3 +focus vs hard",
    "age 2 vs age 3",
]

API_SCRIPT = """
import sys, dicecli
from dicecli.frozen import field_names
def fields(value):  # by its fields, not vars(): a value may hold them another way
    return tuple(getattr(value, name) for name in field_names(value))
odds_left = int(sys.argv[1])
for number, line in enumerate(sys.stdin.read().split("\\n")[:-1]):
    try:
        r = dicecli.roll(line, seed=number)
        print("roll", number, r.total, r.expression, [fields(d) for d in r.dice],
              [fields(s) for s in r.breakdown],
              None if r.outcome is None else r.outcome.as_dict(), r.comment)
    except Exception as error:
        print("roll", number, "error", type(error).__name__, str(error))
    if number < odds_left:
        try:
            o = dicecli.odds(line)
            print("odds", number, o.as_dict() if hasattr(o, "as_dict") else repr(o))
        except Exception as error:
            print("odds", number, "error", type(error).__name__, str(error))
"""


def generated_lines(count: int, seed: int = 25) -> list[str]:
    """``count`` lines of every kind, the same ones every run."""
    rng = random.Random(seed)
    return [line(rng) for _ in range(count)]


def sides(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.35:
        return str(rng.choice((2, 4, 6, 8, 10, 12, 20, 100)))
    if kind < 0.7:
        return str(rng.randint(1, 1000))
    if kind < 0.8:
        return str(rng.randint(1000, 10_000))
    return rng.choice(("%", "F", "{1,1,2,3,5,8}", "{-1..1}", "{1..4,10}", "3", "F.1", "0"))


def modifiers(rng: random.Random, count: int) -> str:
    k = rng.randint(1, max(count, 1))
    x = rng.randint(1, 12)
    choices = (
        "",
        "",
        "",
        f"kh{k}",
        f"kl{k}",
        f"dl{k}",
        f"dh{k}",
        "r1",
        f"r<{x}",
        "ro1",
        "!",
        "!!",
        "!p",
        f"!>={x + 3}",
        f">={x}",
        f">={x}f1",
        f"cs>={x}",
        "cf1",
        "s",
        "sd",
        "u",
        f"min{x}",
        f"max{x}",
        f"r1kh{k}",
        f"!kh{k}",
    )
    return rng.choice(choices)


def term(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.15:
        return str(rng.randint(0, 99))
    count = rng.choice((1, 1, 2, 3, 4, 5, 8, 10, 17, 20, 40))
    written = "" if count == 1 and rng.random() < 0.5 else str(count)
    return f"{written}{rng.choice('dD')}{sides(rng)}{modifiers(rng, count)}"


def line(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.05:
        return rng.choice(GAME_LINES)
    terms = [term(rng) for _ in range(rng.choice((1, 1, 1, 2, 2, 3)))]
    text = terms[0]
    for each in terms[1:]:
        text += rng.choice((" + ", "+", " - ", "*", " x ")) + each
    if kind < 0.15:
        text = f"{{{text}, {term(rng)}}}kh1"
    elif kind < 0.3:
        text += rng.choice((" >= 15", " vs 11", ">=10", " < 7"))
    elif kind < 0.35:
        text = f"D6x{rng.randint(1, 6)}" if rng.random() < 0.5 else f"3x {text}"
    elif kind < 0.4:
        text += " # a comment"
    elif kind < 0.43:
        text = f"({text})/2"
    return text


def piped(executable: str, lines: list[str], *options: str) -> list[str]:
    process = subprocess.run(
        [executable, "--seed", "7", *options],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    return [*process.stdout.splitlines(), "stderr:", *process.stderr.splitlines()]


def api(executable: str, lines: list[str], odds: int) -> list[str]:
    python = interpreter_and_script(executable)[0]
    process = subprocess.run(
        [python, "-c", API_SCRIPT, str(odds)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return process.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the other dicecli executable")
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--odds", type=int, default=2_000, help="lines whose odds compare")
    arguments = parser.parse_args()
    lines = generated_lines(arguments.lines)
    differing = 0
    ways: dict[str, Callable[[str], list[str]]] = {
        "piped": lambda program: piped(program, lines),
        "piped --json": lambda program: piped(program, lines, "--json"),
        "API roll and odds": lambda program: api(program, lines, arguments.odds),
    }
    for way, outputs in ways.items():
        ours, theirs = outputs(DICECLI), outputs(arguments.baseline)
        different = [(a, b) for a, b in zip(ours, theirs, strict=False) if a != b] + [
            ("(length)", f"{len(ours)} vs {len(theirs)}")
        ] * (len(ours) != len(theirs))
        differing += len(different)
        print(f"{way}: {len(ours):,} output lines, {len(different):,} differ")
        for a, b in different[:5]:
            print(f"  this:     {a[:200]}\n  baseline: {b[:200]}")
    kinds = Path(__file__).name
    print(f"{kinds}: {arguments.lines:,} input lines, odds of the first {arguments.odds:,}")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
