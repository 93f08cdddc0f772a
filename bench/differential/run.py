"""Run the differential cases on two versions of dicecli and store every result.

    nice -n 15 python bench/differential/run.py --old OLD_PYTHON --new NEW_PYTHON \\
        --store STORE_DIR --count 50000 [--seed 1] [--batch 200]

OLD_PYTHON and NEW_PYTHON are the interpreters of two environments with a dicecli
installed (each worker runs in a temporary folder, so each imports its own). Cases
are made by ``cases.py``; each side runs them in batches, one worker process per batch
(``worker.py``), the two sides side by side. Every result is stored per case in
``STORE_DIR/results.sqlite`` as it comes, so a run stopped at any point continues
where it was when started again with the same arguments (a larger ``--count`` adds
cases). ``compare.py`` reads the store.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import Case, case  # noqa: E402 - this folder is not a package

SIDES = ("old", "new")


def open_store(folder: Path) -> sqlite3.Connection:
    folder.mkdir(parents=True, exist_ok=True)
    store = sqlite3.connect(folder / "results.sqlite", timeout=60)
    store.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
    store.execute(
        "CREATE TABLE IF NOT EXISTS results "
        "(id INTEGER, side TEXT, kind TEXT, result TEXT, PRIMARY KEY (id, side))"
    )
    return store


def check_meta(store: sqlite3.Connection, seed: int) -> None:
    """A store belongs to one seed: resuming with another would mix two runs."""
    row = store.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone()
    if row is None:
        store.execute("INSERT INTO meta VALUES ('seed', ?)", (str(seed),))
        store.commit()
    elif int(row[0]) != seed:
        sys.exit(f"run.py: the store holds seed {row[0]}, not {seed}")


def done_ids(store: sqlite3.Connection, side: str) -> set[int]:
    return {row[0] for row in store.execute("SELECT id FROM results WHERE side = ?", (side,))}


def run_worker(python: str, cases: list[Case], deadline: float) -> dict[int, object]:
    """The results of ``cases`` from workers under ``python``; a worker that dies is
    restarted after the case it died in, which is recorded as ``worker_died``."""
    results: dict[int, object] = {}
    pending = list(cases)
    while pending:
        folder = Path(tempfile.mkdtemp(prefix="dicecli-differential-"))
        try:
            cases_file = folder / "cases.jsonl"
            results_file = folder / "results.jsonl"
            cases_file.write_text(
                "".join(json.dumps(one, ensure_ascii=True) + "\n" for one in pending),
                encoding="utf-8",
            )
            work = folder / "work"
            work.mkdir()
            try:
                done = subprocess.run(
                    [
                        python,
                        str(HERE / "worker.py"),
                        str(HERE / "fixtures"),
                        str(cases_file),
                        str(results_file),
                    ],
                    cwd=work,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    timeout=max(60.0, deadline),
                    check=False,
                )
                status: object = done.returncode
                stderr = done.stderr.decode("utf-8", "replace")[-2000:]
            except subprocess.TimeoutExpired:
                status, stderr = "batch timeout", ""
            if results_file.exists():
                for raw in results_file.read_text(encoding="utf-8").splitlines():
                    if raw.strip():
                        one = json.loads(raw)
                        results[one["id"]] = one["result"]
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        pending = [one for one in pending if one["id"] not in results]
        if pending:
            first = pending.pop(0)
            results[first["id"]] = {"worker_died": status, "stderr": stderr}
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the old version's Python")
    parser.add_argument("--new", required=True, help="the new version's Python")
    parser.add_argument("--store", required=True, type=Path, help="folder of the results")
    parser.add_argument("--count", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="the first case to run: a second run.py on the same store may take the "
        "upper half (results are stored per case; a case run twice is stored once)",
    )
    args = parser.parse_args()
    store = open_store(args.store)
    check_meta(store, args.seed)
    pythons = {"old": args.old, "new": args.new}
    started = time.monotonic()
    finished_at_start = len(done_ids(store, "old") & done_ids(store, "new"))
    for start in range(args.start, args.count, args.batch):
        ids = range(start, min(start + args.batch, args.count))
        missing = {side: set(ids) - done_ids(store, side) for side in SIDES}
        if not any(missing.values()):
            continue
        batch = {index: case(args.seed, index) for index in sorted(set().union(*missing.values()))}
        runs = {}
        with ThreadPoolExecutor(2) as pool:
            for side in SIDES:
                todo = [batch[index] for index in sorted(missing[side])]
                if todo:
                    runs[side] = pool.submit(run_worker, pythons[side], todo, 60.0 * len(todo))
            for side, future in runs.items():
                for index, result in future.result().items():
                    store.execute(
                        "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)",
                        (
                            index,
                            side,
                            batch[index]["kind"],
                            json.dumps(result, ensure_ascii=True),
                        ),
                    )
        store.commit()
        both = len(done_ids(store, "old") & done_ids(store, "new"))
        rate = (both - finished_at_start) / max(1e-9, time.monotonic() - started)
        minutes = (args.count - both) / max(rate, 1e-9) / 60
        print(
            f"{both}/{args.count} cases on both sides, {rate:.1f}/s, about {minutes:.0f} min left",
            file=sys.stderr,
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
