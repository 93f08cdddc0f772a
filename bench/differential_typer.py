"""Two dicecli executables over the same command lines of the typer app: every command
(``roll``, ``odds``, ``help``, ``examples``, ``table``, ``repl``, ``games``), each option
of the command line's table with good and bad values, options a command does not take
and ones no command has, ``--help``/``-h`` of the program and of each command,
``--version``, missing values, shell completion, and game lines. Every difference in
stdout, stderr or exit status is printed.

    python bench/differential_typer.py OTHER/bin/dicecli [--cases 1500] [--jobs 2]

Meant for a change of how the typer app is made (docs/startup.md): a command line must
give what it gave before, whichever of the app's forms it now meets. Each run has a
home folder of its own, empty, and runs with ``NO_COLOR=1`` and 80 columns; a run whose
dice are neither seeded nor given has its digits compared masked. Paths into either
installation (``dicecli examples --path``) are compared as the same.
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

from dicecli.command_line import COMMANDS, OPTIONS

THIS = shutil.which("dicecli", path=str(Path(sys.executable).parent)) or "dicecli"

ROLLS = [
    "2D6+5",
    "d20",
    "4d6kh3",
    "3d6; d4",
    "1d20+5 >= 15",
    "wfb ld 8",
    "wfb artillery",
    "alkemy 8 vs 15 +1bonus",
    "age 2 vs 13",
    "dnd attack +5 vs 15",
    "coc 45 hard",
    "blades 2",
    "fate +2 vs 3",
    "cod 5 rote",
    "sr 8 vs 3",
    "yz 3 2 1",
    "ex 6 vs 3",
    "l5r 6k3 vs 20",
    "2d6 -n 2",
    "STR + d6",
    "3dBoost",
    "2d6+",
    "foo 2d6",
    "d0",
    "-7/2",
    "2d6 # a comment é",
    "tables encounters",
]
VALUES: dict[str, list[str]] = {
    "seed": ["1", "42", "-3", "x", "1.5", ""],
    "given": ["3,4", "1,2,3,4,5,6", "7", "3,4,x", ",".join(["6"] * 12)],
    "times": ["1", "3", "0", "-2", "x", "100001"],
    "sets": ["STR=1", "A=1d6+1", "STR", "wfb=1", "a=a+1"],
    "character": ["character", "nosuch.toml", "."],
    "dice_file": ["genesys-dice", "alkemy-dice", "nosuch.toml"],
    "settings": [
        "age.max_rolls=200",
        "nosuch=1",
        "x",
        "dialect=roll20",
        "warhammer.misfire_on_hit=yes",
    ],
    "dialect": ["roll20", "foundry", "dicemaiden", "nosuch"],
    "color": ["never", "always", "auto", "purple"],
    "at_least": ["10", "x", "-3"],
    "at_most": ["5", "x"],
    "svg": ["odds.svg", "nofolder/odds.svg"],
    "path": ["tables", "character", "nosuch"],
}
"""Values for each option of the table that takes one, good and bad."""
ODD_OPTIONS = ["--nope", "--seed=3", "-x", "--wild-die", "--Help", "--seeds", "-V"]
"""Options no command has, or spelled otherwise than the table spells them."""
HELP_TOPICS = ["", "wfb", "grammar", "dice", "nosuch", "odds", "repl", "alkemy", "tables", "yz"]
REPL_SCRIPTS = ["2d6\nwfb ld 8\nhelp\n", "let STR = 3\n2d6+STR\nvars\n", "odds 2d6\n"]
PIPED = ["2d6\nd8+1\n", "wfb ld 8\n# a comment\n\nage 2 vs 13\n", "2d6+\nd4\n"]
COMPLETIONS = ["dicecli ", "dicecli wfb ", "dicecli --se", "dicecli help ", "dicecli roll --c"]


def _option_words(rng: random.Random, command: str) -> list[list[str]]:
    """Some options of the table (those ``command`` takes, mostly), each as its words."""
    chosen: list[list[str]] = []
    for option in OPTIONS:
        takes = command in option.commands
        if rng.random() >= (0.18 if takes else 0.02):
            continue
        spelling = rng.choice(option.spellings)
        if option.takes_value:
            chosen.append([spelling, rng.choice(VALUES[option.name])])
        else:
            chosen.append([spelling])
    if rng.random() < 0.06:
        chosen.append([rng.choice(ODD_OPTIONS)])
    if rng.random() < 0.06:
        chosen.append([rng.choice(["--help", "-h"])])
    return chosen


def command_line(rng: random.Random) -> tuple[tuple[str, ...], str, dict[str, str]]:
    """One case: the arguments, stdin and the environment's additions."""
    if rng.random() < 0.02:
        typed = rng.choice(COMPLETIONS).split(" ")
        env = {
            "_DICECLI_COMPLETE": "complete_bash",
            "COMP_WORDS": " ".join(typed),
            "COMP_CWORD": str(len(typed) - 1),
        }
        return (), "", env
    if rng.random() < 0.03:
        return (rng.choice(["--version", "-V", "--help", "-h", "--show-completion"]),), "", {}
    command = rng.choice([*COMMANDS, "roll", "odds", "roll"])
    options = _option_words(rng, command)
    if command in ("roll", "table", "repl"):
        options.append(["--seed", str(rng.randrange(100))])  # dice that can be compared
    words: list[str] = []
    stdin = ""
    if command in ("roll", "odds"):
        if rng.random() < 0.9:
            words = [rng.choice(ROLLS)]
        elif command == "roll":
            stdin = rng.choice(PIPED)
    elif command == "table":
        words = rng.choice([["tables", "encounters"], ["tables"], ["nosuch"], []])
    elif command == "help":
        topic = rng.choice(HELP_TOPICS)
        words = [topic] if topic else []
    elif command == "repl":
        stdin = rng.choice(REPL_SCRIPTS)
    rng.shuffle(options)
    place = rng.randint(0, len(options))
    parts = [*options[:place], words, *options[place:]]
    args = [word for part in parts for word in part]
    if rng.random() < 0.04 and args:  # an option given last without its value
        args.append(rng.choice(["--seed", "--given", "--setting", "--color", "--at-least"]))
    if command != "roll" or not words or rng.random() < 0.3:
        args.insert(0, command)  # a roll's command may go unsaid
    return tuple(args), stdin, {}


def run(
    executable: str, args: tuple[str, ...], stdin: str, extra: dict[str, str]
) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of ``executable ARGS``, in a home and working
    folder of its own; a path into its installation read as ``<installed>``."""
    installed = str(Path(executable).resolve().parent.parent)
    with tempfile.TemporaryDirectory() as home:
        done = subprocess.run(
            [executable, *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=home,
            env={
                **os.environ,
                "HOME": home,
                "PYTHONHASHSEED": "0",
                "NO_COLOR": "1",
                "COLUMNS": "80",
                **extra,
            },
        )

    def plain(text: str) -> str:
        return text.replace(installed, "<installed>").replace(home, "<home>")

    return done.returncode, plain(done.stdout), plain(done.stderr)


def masked(text: str) -> str:
    return re.sub(r"\d+", "#", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="another dicecli executable")
    parser.add_argument("--cases", type=int, default=1500, help="distinct command lines")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=23)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    cases: dict[tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]], None] = {}
    while len(cases) < arguments.cases:
        args, stdin, extra = command_line(rng)
        cases.setdefault((args, stdin, tuple(sorted(extra.items()))), None)

    def compare(case: tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]]) -> str | None:
        args, stdin, extra = case
        ours = run(THIS, args, stdin, dict(extra))
        theirs = run(arguments.baseline, args, stdin, dict(extra))
        if "--seed" not in args and "--given" not in args:
            ours = (ours[0], masked(ours[1]), ours[2])
            theirs = (theirs[0], masked(theirs[1]), theirs[2])
        if ours == theirs:
            return None
        return (
            f"{list(args)!r} stdin={stdin!r} env={extra!r}:\n  this: {ours!r}\n  that: {theirs!r}"
        )

    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        differences = [d for d in pool.map(compare, cases) if d is not None]
    for difference in differences:
        print(difference)
    commands: dict[str, int] = {}
    for args, _, environment in cases:
        first = next((a for a in args if a in COMMANDS), "completion" if environment else "unsaid")
        commands[first] = commands.get(first, 0) + 1
    print(
        "command lines by command (unsaid: a roll, or the program's own options):",
        ", ".join(f"{k} {v}" for k, v in sorted(commands.items())),
    )
    print(f"{len(cases)} command lines: {len(differences)} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
