"""Start-up of a plain roll, as ratios to references measured in the same run.

    python bench/bench_startup.py [--runs 30] [--baseline OTHER/bin/dicecli]

References: ``python -c pass`` (the interpreter) and ``python -c "import pyparsing"``
(the floor the grammar imposes on lines the quick reader does not take). Targets,
printed at the end: ``dicecli 2D6+5`` at most 3x the interpreter; a roll with the
common options (``--seed``, ``--given``, ``--json``, ``-n``) at most 1.1x the plain
roll; a game line at most 1.15x the pyparsing import; ``--help`` at most 1.5x. Runs
are interleaved so that machine load hits all alike.
``--baseline`` adds the same commands run by another dicecli (an earlier version
installed in another environment), so a change is measured before and after in one run.

dicecli freezes what its imports built out of the garbage collector (docs/startup.md),
which spares the full collection Python makes at exit, over pyparsing's objects as
well as ours. The row "import pyparsing, then gc.freeze()" applies
the same to the reference, so the ratio without that help can be read off too.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

PYTHON = sys.executable
DICECLI = shutil.which("dicecli", path=str(Path(PYTHON).parent)) or "dicecli"

COMMANDS = {
    "python -c pass": [PYTHON, "-c", "pass"],
    "python -c 'import pyparsing'": [PYTHON, "-c", "import pyparsing"],
    "import pyparsing, then gc.freeze()": [
        PYTHON,
        "-c",
        "import pyparsing, gc; gc.freeze()",
    ],
    "dicecli 2D6+5": [DICECLI, "2D6+5"],
    "dicecli --seed 1 2D6+5": [DICECLI, "--seed", "1", "2D6+5"],
    "dicecli --given 3,4 --json 2d6": [DICECLI, "--given", "3,4", "--json", "2d6"],
    "dicecli 4d6kh3 -n 6": [DICECLI, "4d6kh3", "-n", "6"],
    "dicecli --set STR=1 2D6+STR": [DICECLI, "--set", "STR=1", "2D6+STR"],
    "dicecli --color never 2D6+5 (typer path)": [DICECLI, "--color", "never", "2D6+5"],
    "dicecli 'wfb ld 8'": [DICECLI, "wfb ld 8"],
    "dicecli 'alkemy 8 vs 15 +1bonus'": [DICECLI, "alkemy 8 vs 15 +1bonus"],
    "dicecli 'age 2 vs 13'": [DICECLI, "age 2 vs 13"],
    "dicecli --help": [DICECLI, "--help"],
}
TARGETS = (  # (row, reference, most allowed)
    ("dicecli 2D6+5", "python -c pass", 3.0),
    ("dicecli --seed 1 2D6+5", "dicecli 2D6+5", 1.1),
    ("dicecli --given 3,4 --json 2d6", "dicecli 2D6+5", 1.1),
    ("dicecli 4d6kh3 -n 6", "dicecli 2D6+5", 1.1),
    ("dicecli 'wfb ld 8'", "python -c 'import pyparsing'", 1.15),
    ("dicecli 'alkemy 8 vs 15 +1bonus'", "python -c 'import pyparsing'", 1.15),
    ("dicecli 'age 2 vs 13'", "python -c 'import pyparsing'", 1.15),
    ("dicecli --help", "python -c 'import pyparsing'", 1.5),
)


def compile_package() -> None:
    """Byte-compile dicecli first, as ``pip install`` does: an editable install run with
    PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start."""
    import dicecli

    package = str(Path(dicecli.__file__).parent)
    subprocess.run([PYTHON, "-m", "compileall", "-q", package], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--baseline", help="another dicecli executable to measure alike")
    arguments = parser.parse_args()
    runs = arguments.runs
    compile_package()
    commands = dict(COMMANDS)
    if arguments.baseline:
        for name, command in COMMANDS.items():
            if command[0] == DICECLI:
                commands[f"baseline: {name}"] = [arguments.baseline, *command[1:]]
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
            )
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    bare = medians["python -c pass"]
    floor = medians["python -c 'import pyparsing'"]
    print(f"start-up, median of {runs} interleaved runs, stdout piped")
    print(f"{'command':52} {'ms':>8} {'x python':>9} {'x pyparsing':>12}")
    for name, seconds in medians.items():
        print(f"{name:52} {seconds * 1000:8.1f} {seconds / bare:9.2f} {seconds / floor:12.2f}")
    for row, reference, most in TARGETS:
        ratio = medians[row] / medians[reference]
        verdict = "met" if ratio <= most else "not met"
        print(f"target: {row} <= {most}x {reference}: {ratio:.2f}x ({verdict})")
    frozen = medians["dicecli 2D6+5"] / medians["import pyparsing, then gc.freeze()"]
    print(f"against the pyparsing import that freezes too: {frozen:.2f}x")
    if editable_install():
        print(
            "note: dicecli is an editable install here; its import hook runs at every start "
            "of this Python, references included, so the ratios read low. Measure in a "
            "venv with `pip install .` for what users get."
        )


def editable_install() -> bool:
    """True when dicecli is imported from outside site-packages (``pip install -e``)."""
    import sysconfig

    import dicecli

    site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
    return site_packages not in Path(dicecli.__file__).resolve().parents


if __name__ == "__main__":
    main()
