"""The differential harness (``bench/differential``): its cases depend on the seed and
the index alone, a version run against itself differs nowhere, and its classifier
explains a deliberate change but not a changed roll."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "bench" / "differential"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(HARNESS))  # compare.py imports cases.py as a sibling
    try:
        spec = importlib.util.spec_from_file_location(
            f"differential_{name}", HARNESS / f"{name}.py"
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(HARNESS))


cases = _load("cases")
compare = _load("compare")


def test_a_case_depends_on_the_seed_and_its_index_alone() -> None:
    first = [cases.case(7, index) for index in range(300)]
    again = [cases.case(7, index) for index in reversed(range(300))][::-1]
    assert first == again
    assert cases.case(8, 5) != cases.case(7, 5)
    kinds = {one["kind"] for one in first}
    assert kinds == {"api", "cli", "pipe", "repl", "odds", "proc"}


def _run_worker(batch: list[dict[str, Any]], folder: Path) -> dict[int, Any]:
    cases_file = folder / "cases.jsonl"
    results_file = folder / f"results-{len(list(folder.iterdir()))}.jsonl"
    cases_file.write_text("".join(json.dumps(one) + "\n" for one in batch), encoding="utf-8")
    work = Path(tempfile.mkdtemp(dir=folder))
    subprocess.run(
        [
            sys.executable,
            str(HARNESS / "worker.py"),
            str(HARNESS / "fixtures"),
            str(cases_file),
            str(results_file),
        ],
        cwd=work,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=True,
    )
    results = [json.loads(line) for line in results_file.read_text(encoding="utf-8").splitlines()]
    return {one["id"]: one["result"] for one in results}


@pytest.mark.slow  # two worker processes, each importing all of dicecli
def test_a_version_against_itself_differs_nowhere(tmp_path: Path) -> None:
    batch = [cases.case(3, index) for index in range(1, 41) if index % cases.PROCESS_EVERY]
    first = _run_worker(batch, tmp_path)
    second = _run_worker(batch, tmp_path)
    assert sorted(first) == [one["id"] for one in batch]
    assert first == second
    assert not [r for r in first.values() if "harness_error" in r or "timeout" in r]
    rolled = [r for r in first.values() if r.get("stdout") or r.get("result")]
    assert rolled, "the cases rolled something"


def _row(case_id: int, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    kind = cases.case(1, case_id)["kind"]
    return {"id": case_id, "seed": 1, "kind": kind, "old": old, "new": new}


def _an_odds_case() -> int:
    return next(
        index
        for index in range(1, 1000)
        if cases.case(1, index)["kind"] == "odds" and cases.case(1, index)["argv"][0] == "odds"
    )


def test_a_deliberate_change_of_wording_is_explained() -> None:
    index = _an_odds_case()
    old = {"status": 0, "stdout": "2\t1/36\t2.78%\t>= 100.00%\n", "stderr": ""}
    new = {"status": 0, "stdout": "2\t1/36\t2.78%\t100.00%\n", "stderr": ""}
    verdict = compare.classify(_row(index, old, new))
    assert verdict.explained
    assert "at-least" in verdict.category


def test_a_changed_roll_is_not_explained() -> None:
    index = _an_odds_case()
    old = {"status": 0, "stdout": "2\t1/36\t2.78%\t100.00%\n", "stderr": ""}
    new = {"status": 0, "stdout": "2\t1/18\t5.56%\t100.00%\n", "stderr": ""}
    verdict = compare.classify(_row(index, old, new))
    assert not verdict.explained
    assert verdict.category.startswith("unexplained: odds: stdout")
