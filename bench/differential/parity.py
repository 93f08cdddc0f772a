"""Check that the in-process runs stand for real processes: the stored ``proc`` cases
(run as ``python -m dicecli``) run again through the entry function, on each side.

    python bench/differential/parity.py --old OLD_PYTHON --new NEW_PYTHON --store STORE

Prints, per side, how many of the stored process results the in-process run gives
again, and the first differences.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import case  # noqa: E402 - this folder is not a package
from run import run_worker  # noqa: E402

WORK_FOLDER = re.compile(r"[^\s'\"]*dicecli-differential-[A-Za-z0-9_]+/work")
"""Each worker's temporary folder, which a message may name."""


def _plain(result: Any) -> str:
    return WORK_FOLDER.sub("<work>", json.dumps(result))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--store", required=True, type=Path)
    args = parser.parse_args()
    connection = sqlite3.connect(
        f"file:{args.store / 'results.sqlite'}?mode=ro", uri=True, timeout=120
    )
    seed = int(connection.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone()[0])
    stored: dict[tuple[int, str], Any] = {
        (index, side): json.loads(result)
        for index, side, result in connection.execute(
            "SELECT id, side, result FROM results WHERE kind = 'proc'"
        )
    }
    ids = sorted({index for index, _ in stored})
    batch = []
    for index in ids:
        one = case(seed, index)
        one["kind"] = "pipe" if one.get("stdin") else "cli"  # the same case, in-process
        batch.append(one)
    failed = False
    for side, python in (("old", args.old), ("new", args.new)):
        got = run_worker(python, [one for one in batch if (one["id"], side) in stored], 3600)
        differ = [index for index in got if _plain(got[index]) != _plain(stored[(index, side)])]
        print(f"{side}: in-process equals the process for {len(got) - len(differ)} of {len(got)}")
        for index in differ[:5]:
            failed = True
            print(f"  case {index}: {json.dumps(got[index])[:300]}")
            print(f"  process: {json.dumps(stored[(index, side)])[:300]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
