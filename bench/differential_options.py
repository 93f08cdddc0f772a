"""Two dicecli executables over the same command lines: the options a roll may carry
(``--seed``, ``--given``, ``--times``, ``-n``, ``--json``, ``--plain``, ``--set``,
``--character``, ``--dialect``) in many combinations and places, with good and bad
values, over rolls good and bad, one-shot and piped. Every difference in stdout, stderr
or exit status is printed. The character files are the shipped example and a few made
for the run in a temporary folder (one good, with a dialect; one not TOML; one with a
bad stat).

    python bench/differential_options.py OTHER/bin/dicecli [--cases 2400] [--jobs 2]

Meant for a change of the way in (docs/startup.md): the command lines that moved from
the typer app to the typer-free path must give what they gave before. A run without
``--seed`` or ``--given`` draws from the OS: its digits are compared masked, and its
rolls are ones whose number of dice cannot vary.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dicecli.command_line import route

THIS = shutil.which("dicecli", path=str(Path(sys.executable).parent)) or "dicecli"

ROLLS = [
    "2D6+5",
    "d20",
    "4d6kh3",
    "3d6; d4",
    "1d20+5 >= 15",
    "wfb ld 8",
    "alkemy 8 vs 15 +1bonus",
    "age 2 vs 13",
    "dnd attack +5 vs 15",
    "2d6 -n 2",
    "d6 -n3",
    "2d6 # a comment é",
    "-7/2",
    "--15",
    "d6!",
    "4dF",
    "{2d6, 1d8}kh1",
    "2d6+",
    "foo 2d6",
    "",
    "STR + d6",
    "1000000d6",
    "d0",
    "1d20+STR",
    "damage",
    "age STR+2 vs 13",
    "d20 + DEX + MOD",
]
RANDOM_SHAPES = ("!", "{", ">", "vs", "ld", "kh", "d20", "dF")
STEADY_ROLLS = [roll for roll in ROLLS if not any(s in roll for s in RANDOM_SHAPES)]
"""For unseeded runs: rolls whose output has the same shape and status whatever the
dice (no check, no explosion, no dice kept, no d20, whose 20 is marked, no dF)."""
PIPED = [
    "2d6\nd8+1\n",
    "wfb ld 8\n# a comment\n\nage 2 vs 13\n",
    "2d6+\nd4\n",
    "d6 -n 2\n3d6\n",
    "",
]
STEADY_PIPED = [lines for lines in PIPED if "vs" not in lines and "ld" not in lines]
SEEDS = ["1", "42", "0", "123456789", "-3", "x", "1.5", " 7", "007", "1_0", "9" * 30, ""]
GIVEN = ["3,4", "1,2,3,4,5,6", "7", "3,4,x", "", "1 2", ",".join(["6"] * 12), "2,3,1,4,5,6,2,2"]
TIMES = ["1", "2", "3", "0", "-2", "100001", "x", "٣", "1_0"]
SETS = ["STR=1", "STR=-2", "A=1d6+1", "B=A+1", "d6=1", "STR", "wfb=1", "c=d20>=10", "a=a+1", ""]
"""``--set`` values: numbers, saved rolls and checks, a name that uses another, and
names or forms that are refused."""
FLAGS = [["--json"], ["--plain"]]
DIALECTS = ["roll20", "off", "nope", "avrae"]
CHARACTER_FILES = {
    "good.toml": 'name = "Tess"\ndialect = "roll20"\n[stats]\nSTR = 1\nMOD = 2\n'
    '[rolls]\ndamage = "2d6+STR"\n',
    "broken.toml": "[stats\nSTR = 1\n",
    "bad-stat.toml": '[stats]\nSTR = "three"\n',
}
CHARACTERS = [
    "character",
    "character.toml",
    "examples/character.toml",
    "examples//character.toml",
    "nope.toml",
    "",
    "x",
]
"""``--character`` values besides the files of :data:`CHARACTER_FILES`: the shipped
example by its name, a missing file, a folder (``""`` is the current one)."""


def option_words(rng: random.Random, seeded: bool, characters: list[str]) -> list[list[str]]:
    """Some options, each as its words (``["--seed", "3"]``)."""
    chosen: list[list[str]] = []
    if seeded:
        if rng.random() < 0.6:
            chosen.append(["--seed", rng.choice(SEEDS)])
        else:
            chosen.append(["--given", rng.choice(GIVEN)])
        if rng.random() < 0.2:
            chosen.append(["--given", rng.choice(GIVEN)])
        if rng.random() < 0.15:
            chosen.append(["--seed", rng.choice(SEEDS)])
    if rng.random() < 0.5:
        count = rng.choice(TIMES)
        chosen.append(rng.choice([["--times", count], ["-n", count], [f"-n{count}"]]))
    if rng.random() < 0.1:
        chosen.append(["--times", rng.choice(TIMES)])
    for flag in FLAGS:
        if rng.random() < 0.3:
            chosen.append(flag)
    while rng.random() < 0.25:
        chosen.append(["--set", rng.choice(SETS)])
    while rng.random() < 0.2:  # given twice at times: the last one counts
        chosen.append(["--character", rng.choice(characters)])
    if rng.random() < 0.1:
        chosen.append(["--dialect", rng.choice(DIALECTS)])
    return chosen


def command_line(rng: random.Random, characters: list[str]) -> tuple[tuple[str, ...], str, bool]:
    """One case: the arguments, stdin, and whether the dice are seeded or given."""
    seeded = rng.random() < 0.85
    options = option_words(rng, seeded, characters)
    rng.shuffle(options)
    piped = rng.random() < 0.2
    words = [] if piped else [rng.choice(ROLLS if seeded else STEADY_ROLLS)]
    place = rng.randint(0, len(options))
    parts = [*options[:place], words, *options[place:]] if words else options
    args = [word for part in parts for word in part]
    if rng.random() < 0.05 and args:  # an option given last without its value
        args.append(rng.choice(["--seed", "--given", "--times", "-n", "--set", "--character"]))
    if rng.random() < 0.1:
        args.insert(0, "roll")
    stdin = rng.choice(PIPED if seeded else STEADY_PIPED) if piped else ""
    return tuple(args), stdin, seeded


def run(executable: str, args: tuple[str, ...], stdin: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0", "NO_COLOR": "1"},
    )
    return done.returncode, done.stdout, done.stderr


def masked(text: str) -> str:
    return re.sub(r"\d+", "#", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="another dicecli executable")
    parser.add_argument("--cases", type=int, default=2400, help="distinct command lines")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=25)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dicecli-characters-") as made:
        folder = Path(made)
        for name, text in CHARACTER_FILES.items():
            (folder / name).write_text(text, encoding="utf-8")
        characters = [*CHARACTERS, str(folder), *(str(folder / name) for name in CHARACTER_FILES)]
        rng = random.Random(arguments.seed)
        cases: dict[tuple[tuple[str, ...], str], bool] = {}
        while len(cases) < arguments.cases:
            args, stdin, seeded = command_line(rng, characters)
            cases.setdefault((args, stdin), seeded)  # distinct: the same line drawn again is one

        def compare(case: tuple[tuple[str, ...], str]) -> str | None:
            args, stdin = case
            ours, theirs = run(THIS, args, stdin), run(arguments.baseline, args, stdin)
            if not cases[case]:
                ours = (ours[0], masked(ours[1]), ours[2])
                theirs = (theirs[0], masked(theirs[1]), theirs[2])
            if ours == theirs:
                return None
            return f"{list(args)!r} stdin={stdin!r}:\n  this: {ours!r}\n  that: {theirs!r}"

        with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
            differences = [d for d in pool.map(compare, cases) if d is not None]
        for difference in differences:
            print(difference)
        fast = sum(1 for args, _ in cases if route(list(args)).fast_options() is not None)
        print(
            f"{len(cases)} command lines, {fast} of them on this dicecli's typer-free path: "
            f"{len(differences)} differences"
        )
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
