"""Time and peak memory of the inputs that once ran away (issue 24), each in a fresh
process: the answer or refusal, its CPU seconds and its peak resident memory.

Not a test: a script that prints a table. Each case runs in its own process, under a
cap on its address space (``--memory-cap``, 3 GiB by default: the machine is shared)
and a CPU-time limit (``--timeout``); a case stopped by either is shown as such. To
measure another version of dicecli on the same cases, give its interpreter::

    python bench/bench_runaway.py [--python OTHER/bin/python] [--timeout 20] [CASE ...]

The promise measured (``docs/odds.md``, ``docs/limits.md``): every case answered or
refused within about a second of CPU, peak memory well under 500 MB. The clock starts
after dicecli's odds are imported and the grammar built (about 20 MB of the peak).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

WORK = Path(tempfile.mkdtemp(prefix="bench_runaway_"))


def _files() -> dict[str, Path]:
    """The table file and dice file some cases read."""
    table = WORK / "tables.toml"
    table.write_text('[big]\nroll = "(6d29!)d6"\n[big.entries]\n"1-100000" = "x"\n')
    symbols = ", ".join(f'"s{index}"' for index in range(1000))
    dice = WORK / "dice.toml"
    dice.write_text(f"[Sym]\nfaces = [{symbols}]\n")
    return {"table": table, "dice": dice}


def _odds(text: str) -> str:
    return (
        "from dicecli.probability.report import odds\n"
        f"found = odds({text!r})\n"
        "print('answered', found.distribution and len(found.distribution.outcomes))\n"
    )


FLAT_D20 = "+".join(["d20"] * 1000)

# (name, Python source run in the child; it prints the answer in a few words)
CASES: list[tuple[str, str]] = [
    ("1,000 flat d20 terms", _odds(FLAT_D20)),
    ("(6d29!)d12", _odds("(6d29!)d12")),
    ("(6d29!)d6", _odds("(6d29!)d6")),
    ("(12d%dh5)d8", _odds("(12d%dh5)d8")),
    ("(d62)d12u=5 + (d62)d12u=6", _odds("(d62)d12u=5 + (d62)d12u=6")),
    ("(6d12)d12u=5", _odds("(6d12)d12u=5")),
    ("(1d20)d20!! vs 30", _odds("(1d20)d20!! vs 30")),
    (
        "table rolled with (6d29!)d6",
        "from pathlib import Path\nfrom dicecli.tables.load import load_book\n"
        "load_book(Path({table!r}))\nprint('loaded')\n",
    ),
    (
        "odds 10dSym (1,000 symbols)",
        "from pathlib import Path\nfrom dicecli.dicefiles.load import read_book\n"
        "from dicecli.environment import Environment\n"
        "from dicecli.probability.report import odds\n"
        "env = Environment(dice=read_book(Path({dice!r})))\n"
        "print('answered', odds('10dSym', env) is not None)\n",
    ),
    ("10000d%kh3", _odds("10000d%kh3")),
    (
        "50% of 10d100>=5 - 100d100kh3 + 100 x 4d20!!p",
        _odds("50% of 10d100>=5 - 100d100kh3 + 100 x 4d20!!p"),
    ),
    (
        "--times 300 --json 10000d6",
        "import sys\nfrom dicecli.__main__ import main\n"
        "sys.argv = ['dicecli', '--times', '300', '--json', '--seed', '1', '10000d6']\n"
        "sys.stdout = open('/dev/null', 'w')\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n",
    ),
    (
        "200 piped lines 1dS (S 2..10,000)",
        "import dicecli, random\nrng = random.Random(1)\n"
        "for _ in range(200):\n    dicecli.roll(f'1d{{rng.randint(2, 10000)}}')\n"
        "print('rolled')\n",
    ),
    (
        "30 odds Nd6, N 1,801-1,830, then clear_caches",
        "from dicecli.probability.report import odds\n"
        "from dicecli.probability.engine import clear_caches\n"
        "for n in range(1801, 1831):\n    odds(f'{{n}}d6')\n"
        "clear_caches()\nprint('answered')\n",
    ),
    ("d(1000d6)", _odds("d(1000d6)")),
    ("((20)d%u)d6", _odds("((20)d%u)d6")),
    ("(8d20!r)d20", _odds("(8d20!r)d20")),
    ("(20d%)d5-attack", _odds("(20d%)d5-attack")),
    ("20d9999uo!=5", _odds("20d9999uo!=5")),
    (
        "wfb rolloff with 400 names",
        _odds("wfb rolloff " + " ".join(f"n{index}" for index in range(400))),
    ),
]

DRIVER = """
import json, resource, sys, time
import dicecli.probability.report
dicecli.probability.report.odds('1d6 + 1')  # imports and grammar: off the clock
start = time.process_time()
outcome = 'done'
try:
    exec(compile(sys.stdin.read(), 'case', 'exec'))
except MemoryError:
    outcome = 'MemoryError'
except SystemExit:
    raise
except BaseException as error:
    outcome = type(error).__name__ + ': ' + str(error)[:70]
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({'outcome': outcome, 'cpu': cpu, 'peak_kib': peak}), file=sys.stderr)
"""


def run(python: str, source: str, timeout: float, cap: int) -> dict[str, object]:
    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout) + 1, int(timeout) + 2))

    process = subprocess.run(
        [python, "-c", DRIVER],
        input=source,
        capture_output=True,
        text=True,
        preexec_fn=limits,
        check=False,
        cwd=WORK,  # not a folder holding a dicecli package: the interpreter's own is used
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    lines = process.stderr.strip().splitlines()
    if process.returncode != 0 or not lines:
        reason = f"killed (status {process.returncode})"
        if process.returncode in (-9, -24, 152):
            reason = f"over {timeout:.0f} s CPU"
        return {"outcome": reason, "cpu": None, "peak_kib": None}
    found: dict[str, object] = json.loads(lines[-1])
    answer = process.stdout.strip().splitlines()
    if found["outcome"] == "done":
        found["outcome"] = answer[-1] if answer else "done"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--memory-cap", type=int, default=3 << 30)
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    parser.add_argument("cases", nargs="*", help="names (or parts of names) to run")
    arguments = parser.parse_args()
    files = {name: str(path) for name, path in _files().items()}
    for name, source in CASES:
        if arguments.cases and not any(part in name for part in arguments.cases):
            continue
        found = run(
            arguments.python,
            textwrap.dedent(source).format(**files),
            arguments.timeout,
            arguments.memory_cap,
        )
        if arguments.json:
            print(json.dumps({"case": name, **found}), flush=True)
            continue
        cpu = "-" if found["cpu"] is None else f"{found['cpu']:.2f} s"
        peak = "-" if found["peak_kib"] is None else f"{int(found['peak_kib']) // 1024} MiB"  # type: ignore[call-overload]
        print(f"{name:48} {cpu:>9} {peak:>9}  {found['outcome']}", flush=True)


if __name__ == "__main__":
    main()
