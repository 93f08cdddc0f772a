"""Issue 25's table, every row, this dicecli and another side by side, as same-run
ratios.

    python bench/bench_issue25.py [--baseline OTHER/bin/dicecli] [--lines 20000]

Run it from an environment holding this dicecli (``pip install .``: compiled, as users
get it) and ``bench/requirements.txt``. Each row calls the bench script that owns the
measure; only the rows no script had are measured here. Every row's figure is a ratio
to a reference measured in the same run (the same program's plain roll, d20's or RPG
Dice Roller's loop, a bare PromptSession, icepool), or a peak memory:

- **random sides** (``bench_sides.py``): 20,000 distinct ``NdS+k`` lines, S from 2 to
  1,000, piped, CPU time a line against the standard sides' lines; ``1dS`` (5,000
  lines, S up to 10,000) likewise; each run's CPU time less that of a run of one line
  (start-up: the runs have different numbers of lines); the peak memory of each
  (target 1.2x, 50 MiB). Beside the CPU
  time, which swings from run to run on a busy machine, the callgrind instructions a
  line of each kind (3,000 lines less one), which do not (but see no cache misses);
  and the instructions a line whose dice are all of computed faces, S in one decade
  (5..99, 101..1,000, 1,001..10,000; 1,000 lines each), against standard sides: what
  grows with the sides, apart from what a die not shared costs;
- **API loop** (``bench_api.py``): ``dicecli.roll(text)`` against ``d20.roll`` on
  repeated, check, multi-roll and new lines (target 2x d20's speed);
- **fast options** (``bench_instructions.py``): callgrind instructions of ``--seed``,
  ``--given --json``, ``-n``, ``--set`` and ``--character`` one-shots against
  ``dicecli 2D6+5``
  (target 1.1x);
- **REPL** (``bench_repl.py --callgrind``): instructions to the first prompt and out,
  against a bare prompt_toolkit ``PromptSession`` (target 1.1x);
- **never-seen lines**: the CPU time per piped distinct line (a run of ``--lines``
  lines less a run of one), against RPG Dice Roller's loop over the same lines in node
  (``new DiceRoll(line)``), when node and the npm package can be had, and against
  ``floor_roller.py`` (a regular expression, a random source, the same output: what
  any Python roller pays, so that the 10 µs can be read against this machine's speed
  in the same run); and the callgrind instructions per such line
  (``bench_instructions.py``'s piped new line, over 500 lines) (target 10 µs, 1.5x
  RPG Dice Roller's speed);
- **checks and multi-roll piped**: CPU time per piped line of checks (``d20 + 5 >=
  15`` ...) and of lines of three rolls (``1d20+5; 2d6+3; 1d8+2``), against ``d20.roll``
  in a loop over the same rolls (target 1.5x d20's speed);
- **first odds call** (``3d6``, ``2d20kh1``, ``4dF``): in a fresh process with the
  odds engine imported (``dicecli.probability.report``, as icepool is), the first
  ``odds(text)``, with whatever it loads or builds (the grammar, criticals ...) on the
  clock, against icepool's first answer to the same question, the median of a few
  processes each (target 1x icepool's time);
- **odds refusals** (``bench_runaway.py``'s runner): ``1000d6kh500``, ``100d100dl``,
  ``256d20kh128``, ``20d6!dl1``, each in a fresh process: CPU seconds and whether
  answered or refused (target: answered if under 1 s of work, else refused within 1 s);
- **``--times 3000 --json 10000d6``**: the peak memory of that process (target
  100 MiB).

Processes run under a cap on their address space (``--memory-cap``, 2 GiB: the machine
is shared); a run stopped by it is shown as over the cap. ``BENCH_ROUNDS`` (default 2)
rounds of the timed rows, interleaved, the best kept.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import bench_api
import bench_instructions
import bench_repl
import bench_runaway
from bench_lines import distinct_lines
from bench_sides import SIZE_RANGES, big_die_lines, random_sides_lines, sized_lines
from bench_startup import DICECLI
from bench_throughput import cycle

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
FLOOR = (sys.executable, str(Path(__file__).with_name("floor_roller.py")))
"""The regular-expression roller the never-seen lines are also timed with, run by this
script's Python: what any Python roller pays for them."""
MIB = 1024 * 1024

Measure = dict[str, float | str]


# --- running a dicecli ------------------------------------------------------------------


def capped(cap: int) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return limit


def piped(
    command: Sequence[str], lines: Sequence[str], cap: int, *options: str
) -> tuple[float, float]:
    """CPU seconds and peak MiB of ``COMMAND OPTIONS < lines`` (a dicecli, or the floor
    roller, :data:`FLOOR`); the CPU time is ``nan`` when the process failed (over the
    memory cap)."""
    process = subprocess.Popen(
        [*command, *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=capped(cap),
    )
    assert process.stdin is not None
    try:
        process.stdin.write(("\n".join(lines) + "\n").encode())
        process.stdin.close()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(process.pid, 0)
    seconds = usage.ru_utime + usage.ru_stime
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        seconds = float("nan")
    return seconds, usage.ru_maxrss / 1024


def per_line(command: Sequence[str], lines: Sequence[str], cap: int) -> float:
    """CPU seconds a piped line, start-up left out: ``lines`` less their first line alone."""
    many, _ = piped(command, lines, cap, "--seed", "1")
    one, _ = piped(command, lines[:1], cap, "--seed", "1")
    return (many - one) / (len(lines) - 1)


def best_of(measure: Callable[[], float]) -> float:
    return min(measure() for _ in range(ROUNDS))


# --- the rows ---------------------------------------------------------------------------


def sides_rows(programs: dict[str, str], lines: int, cap: int) -> dict[str, Measure]:
    standard_lines = distinct_lines(lines)
    sets = {
        "standard": standard_lines,
        "random": random_sides_lines(lines),
        "1dS": big_die_lines(5_000),
        "one line": standard_lines[:1],  # start-up, taken off each run
    }
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        seconds: dict[str, float] = {}
        memory: dict[str, float] = {}
        for _ in range(ROUNDS):
            for kind, texts in sets.items():
                cpu, peak = piped([dicecli], texts, cap, "--seed", "1")
                seconds[kind] = min(cpu, seconds.get(kind, cpu))
                memory[kind] = max(peak, memory.get(kind, peak))
        a_line = {  # start-up taken off: the runs have different numbers of lines
            kind: (seconds[kind] - seconds["one line"]) / (len(sets[kind]) - 1)
            for kind in ("standard", "random", "1dS")
        }
        found[name] = {
            "random sides: CPU vs standard sides": a_line["random"] / a_line["standard"],
            "random sides: peak MiB": memory["random"],
            "1dS (S 2..10,000): CPU a line vs standard sides": a_line["1dS"] / a_line["standard"],
            "1dS: peak MiB": memory["1dS"],
            "random sides: instructions vs standard sides": instructions_a_line(
                dicecli, sets["random"][:SIDES_INSTRUCTION_LINES], "--seed", "1"
            )
            / instructions_a_line(
                dicecli, sets["standard"][:SIDES_INSTRUCTION_LINES], "--seed", "1"
            ),
        }
        standard_instructions = instructions_a_line(
            dicecli, sets["standard"][:SIZED_INSTRUCTION_LINES], "--seed", "1"
        )
        for low, high in SIZE_RANGES:
            row = f"sides {low:,}..{high:,}, none usual: instructions vs standard"
            found[name][row] = (
                instructions_a_line(
                    dicecli, sized_lines(low, high, SIZED_INSTRUCTION_LINES), "--seed", "1"
                )
                / standard_instructions
            )
    return found


SIDES_INSTRUCTION_LINES = 3_000

SIZED_INSTRUCTION_LINES = 1_000
"""Lines of each size range (``bench_sides.SIZE_RANGES``) and of standard sides run
for the rows that tell a cost growing with the sides from that of dice not shared."""


def instructions_a_line(dicecli: str, lines: Sequence[str], *options: str) -> float:
    """Callgrind instructions a line of ``lines`` piped into ``dicecli OPTIONS``: the
    run of all of them less a run of the first alone, over one fewer."""
    return command_instructions_a_line(
        [*bench_instructions.interpreter_and_script(dicecli), *options], lines
    )


def command_instructions_a_line(command: list[str], lines: Sequence[str]) -> float:
    """:func:`instructions_a_line` for any command (the floor roller's)."""
    all_of_them = bench_instructions.instructions(command, "\n".join(lines) + "\n")
    return (all_of_them - bench_instructions.instructions(command, lines[0] + "\n")) / (
        len(lines) - 1
    )


def api_rows(programs: dict[str, str], calls: int) -> dict[str, Measure]:
    rows = bench_api.row_lines(calls)
    d20 = bench_api.d20_row(rows)
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        python = bench_instructions.interpreter_and_script(dicecli)[0]
        best: dict[str, float] = {}
        for _ in range(ROUNDS):
            for row, seconds in bench_api.worker(python, rows).items():
                best[row] = min(seconds, best.get(row, seconds))
        found[name] = {f"API {row}: speed vs d20.roll": d20[row] / best[row] for row in rows}
        found[name]["API repeated: µs a call"] = best["repeated"] * 1e6
    return found


FAST_OPTIONS = {
    "--seed 1 2D6+5": ["--seed", "1", "2D6+5"],
    "--given 3,4 --json 2d6": ["--given", "3,4", "--json", "2d6"],
    "4d6kh3 -n 6": ["4d6kh3", "-n", "6"],
    "--times 3 2D6+5": ["--times", "3", "2D6+5"],
    "--set STR=1 2D6+STR": ["--set", "STR=1", "2D6+STR"],
    "--character character damage": ["--character", "character", "damage"],
}


def fast_option_rows(programs: dict[str, str]) -> dict[str, Measure]:
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        base = bench_instructions.interpreter_and_script(dicecli)
        plain = bench_instructions.instructions([*base, "2D6+5"])
        found[name] = {
            f"{row}: instructions vs 2D6+5": bench_instructions.instructions([*base, *args]) / plain
            for row, args in FAST_OPTIONS.items()
        }
    return found


def repl_rows(programs: dict[str, str]) -> dict[str, Measure]:
    found: dict[str, Measure] = {}
    with tempfile.TemporaryDirectory() as home:
        bare = bench_repl.instructions([sys.executable, "-c", bench_repl.BARE], home)
        for name, dicecli in programs.items():
            bench_repl.compile_package(dicecli)
            found[name] = {
                f"REPL {row}: instr. vs bare PromptSession": bench_repl.instructions(
                    [dicecli, *args], home
                )
                / bare
                for row, args in (
                    ("dicecli", []),
                    ("dicecli repl --seed 1", ["repl", "--seed", "1"]),
                )
            }
    return found


RDR_LOOP = """
const { DiceRoll } = require('@dice-roller/rpg-dice-roller');
const rows = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const found = {};
for (const [name, lines] of Object.entries(rows)) {
  for (const line of lines.slice(0, 50)) new DiceRoll(line + '+0');
  const start = process.cpuUsage();
  for (const line of lines) new DiceRoll(line).total;
  const used = process.cpuUsage(start);
  found[name] = (used.user + used.system) / 1e6 / lines.length;
}
console.log(JSON.stringify(found));
"""


def rpg_dice_roller() -> tuple[Path | None, str]:
    """A folder where node finds ``@dice-roller/rpg-dice-roller``, installed by npm into
    a temporary folder; None and why, when node, npm or the network is missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return None, "node or npm not found"
    folder = Path(tempfile.mkdtemp(prefix="bench_rdr_"))
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "@dice-roller/rpg-dice-roller"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if done.returncode != 0:
        return None, "npm install failed (offline?): " + done.stderr.strip()[-120:]
    version = json.loads(
        (folder / "node_modules/@dice-roller/rpg-dice-roller/package.json").read_text()
    )["version"]
    return folder, f"RPG Dice Roller {version}, node {subprocess.getoutput('node --version')}"


def rdr_seconds(folder: Path, rows: dict[str, list[str]]) -> dict[str, float]:
    best: dict[str, float] = {}
    for _ in range(ROUNDS):
        done = subprocess.run(
            ["node", "-e", RDR_LOOP],
            input=json.dumps(rows),
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        for row, seconds in json.loads(done.stdout).items():
            best[row] = min(seconds, best.get(row, seconds))
    return best


def d20_seconds(lines: Sequence[str]) -> float:
    """Seconds a line for ``d20.roll`` in a loop, each ``;``-separated roll rolled."""
    import d20  # type: ignore[import-untyped, import-not-found, unused-ignore]

    parts = [[part.strip() for part in line.split(";")] for line in lines]
    for rolls in parts[:50]:
        for text in rolls:
            d20.roll(text)

    def loop() -> float:
        start = time.process_time()
        for rolls in parts:
            for text in rolls:
                d20.roll(text)
        return (time.process_time() - start) / len(parts)

    return best_of(loop)


def piped_rows(
    programs: dict[str, str], lines: int, cap: int, notes: list[str]
) -> dict[str, Measure]:
    new = distinct_lines(lines)
    checks = cycle(bench_api.CHECKS, lines)
    multi = cycle(bench_api.MULTI, lines)
    folder, said = rpg_dice_roller()
    notes.append(said)
    rdr = rdr_seconds(folder, {"new": new}) if folder is not None else None
    floor = best_of(partial(per_line, FLOOR, new, cap))
    few = [f"{line}+{index}" for index, line in enumerate(new[:500])]
    floor_instructions = command_instructions_a_line(list(FLOOR), few)
    notes.append(
        f"floor roller (floor_roller.py, Python {platform.python_version()}): "
        f"{floor * 1e6:.2f} µs a never-seen line; 10 µs is {10e-6 / floor:.2f}x it"
    )
    d20_checks, d20_multi = d20_seconds(checks), d20_seconds(multi)
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        seconds_new = best_of(partial(per_line, [dicecli], new, cap))
        seconds_checks = best_of(partial(per_line, [dicecli], checks, cap))
        seconds_multi = best_of(partial(per_line, [dicecli], multi, cap))
        instructions = instructions_a_line(dicecli, few)
        found[name] = {
            "never-seen line: µs a line": seconds_new * 1e6,
            "never-seen line: time vs the floor roller": seconds_new / floor,
            "never-seen line: instructions": instructions,
            "never-seen line: instructions vs the floor roller": instructions / floor_instructions,
            "never-seen line: speed vs RPG Dice Roller": "n/a"
            if rdr is None
            else rdr["new"] / seconds_new,
            "checks piped: speed vs d20.roll": d20_checks / seconds_checks,
            "multi-roll piped: speed vs d20.roll": d20_multi / seconds_multi,
        }
    return found


ODDS_QUESTIONS = {"3d6": "3 @ d6", "2d20kh1": "d20.highest(2, 1)", "4dF": "4 @ (d3 - 2)"}

FIRST_ODDS = """
import sys, time
from dicecli.probability.report import odds
start = time.perf_counter()
odds(sys.argv[1])
print(time.perf_counter() - start)
"""
FIRST_ICEPOOL = """
import sys, time
import icepool
start = time.perf_counter()
die = eval(sys.argv[1], {"d6": icepool.d6, "d20": icepool.d20, "d3": icepool.d3})
die.probabilities(), die.mean()
print(time.perf_counter() - start)
"""


def first_call(python: str, code: str, question: str) -> float:
    times = [
        float(
            subprocess.run(
                [python, "-c", code, question],
                capture_output=True,
                text=True,
                check=True,
                cwd=tempfile.gettempdir(),
            ).stdout
        )
        for _ in range(3 * ROUNDS)
    ]
    return statistics.median(times)


def odds_rows(programs: dict[str, str]) -> dict[str, Measure]:
    icepool = {
        text: first_call(sys.executable, FIRST_ICEPOOL, q) for text, q in ODDS_QUESTIONS.items()
    }
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        python = bench_instructions.interpreter_and_script(dicecli)[0]
        found[name] = {
            f"first odds {text}: time vs icepool": first_call(python, FIRST_ODDS, text)
            / icepool[text]
            for text in ODDS_QUESTIONS
        }
    return found


REFUSALS = ("1000d6kh500", "100d100dl", "256d20kh128", "20d6!dl1")

TIMES_JSON = (
    "import sys\nfrom dicecli.__main__ import main\n"
    "sys.argv = ['dicecli', '--times', '3000', '--json', '--seed', '1', '10000d6']\n"
    "sys.stdout = open('/dev/null', 'w')\n"
    "status = main()\n"
    "sys.stdout = sys.__stdout__\n"
    "print('status', status)\n"
)


def runaway_rows(programs: dict[str, str], cap: int) -> dict[str, Measure]:
    found: dict[str, Measure] = {}
    for name, dicecli in programs.items():
        python = bench_instructions.interpreter_and_script(dicecli)[0]
        rows: Measure = {}
        for text in REFUSALS:
            done = bench_runaway.run(python, bench_runaway._odds(text), 20.0, cap)
            outcome = str(done["outcome"])
            # answered, else refused (an error) or stopped (CPU or memory)
            verdict = "answered" if outcome.startswith("answered") else "refused"
            if done["cpu"] is None:
                verdict = outcome
            cpu = "" if done["cpu"] is None else f" {done['cpu']:.2f} s"
            rows[f"odds {text}: answer, CPU"] = verdict + cpu
        done = bench_runaway.run(python, TIMES_JSON, 120.0, cap)
        peak = done["peak_kib"]
        rows["--times 3000 --json 10000d6: peak MiB"] = (
            int(peak) / 1024  # type: ignore[call-overload]
            if peak is not None and done["outcome"] == "status 0"
            else f"over {cap // MIB}: {done['outcome']}"
        )
        found[name] = rows
    return found


TARGETS = {
    "random sides: CPU vs standard sides": "<= 1.2",
    "random sides: instructions vs standard sides": "(CPU's target: 1.2)",
    "none usual: instructions vs standard": "(none: what grows with S)",
    "random sides: peak MiB": "<= 50",
    "1dS (S 2..10,000): CPU a line vs standard sides": "<= 1.2",
    "1dS: peak MiB": "<= 50",
    "piped: speed vs d20.roll": ">= 1.5",
    "speed vs d20.roll": ">= 2",
    "instructions vs 2D6+5": "<= 1.1",
    "instr. vs bare PromptSession": "<= 1.1",
    "never-seen line: µs a line": "<= 10",
    "vs the floor roller": "(the floor: 1)",
    "speed vs RPG Dice Roller": ">= 1.5",
    "time vs icepool": "<= 1",
    "answer, CPU": "answered if < 1 s of work, else refused in 1 s",
    "--times 3000 --json 10000d6: peak MiB": "<= 100",
}


def target(row: str) -> str:
    return next((wanted for end, wanted in TARGETS.items() if row.endswith(end)), "")


def shown(value: float | str) -> str:
    if isinstance(value, str):
        return value
    if value != value:  # nan: the run failed
        return "failed"
    return f"{value:,.0f}" if value >= 1000 else f"{value:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another dicecli executable, measured alike")
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--memory-cap", type=int, default=2 << 30)
    arguments = parser.parse_args()
    programs = {"this": DICECLI}
    if arguments.baseline:
        programs["baseline"] = arguments.baseline
    for dicecli in programs.values():
        bench_repl.compile_package(dicecli)  # as pip install does
    notes: list[str] = []
    cap = arguments.memory_cap
    parts: tuple[Callable[[], dict[str, Measure]], ...] = (
        lambda: sides_rows(programs, arguments.lines, cap),
        lambda: api_rows(programs, arguments.lines),
        lambda: fast_option_rows(programs),
        lambda: repl_rows(programs),
        lambda: piped_rows(programs, arguments.lines, cap, notes),
        lambda: odds_rows(programs),
        lambda: runaway_rows(programs, cap),
    )
    table: dict[str, dict[str, float | str]] = {}
    for part in parts:
        for name, rows in part().items():
            for row, value in rows.items():
                table.setdefault(row, {})[name] = value
    print(f"issue 25, same-run ratios; {ROUNDS} rounds; this: {DICECLI}")
    if arguments.baseline:
        print(f"baseline: {arguments.baseline}")
    for note in notes:
        print(f"note: {note}")
    header = f"{'row':56}{'this':>22}" + (f"{'baseline':>22}" if arguments.baseline else "")
    print(header + "  target")
    for row, values in table.items():
        line = f"{row:56}{shown(values['this']):>22}"
        if arguments.baseline:
            line += f"{shown(values['baseline']):>22}"
        print(f"{line}  {target(row)}")


if __name__ == "__main__":
    main()
