"""One side of the differential run: reads cases (JSON Lines), runs each against
the dicecli this interpreter imports, writes one result per line.

Run by ``run.py`` as ``PYTHON worker.py FIXTURES CASES RESULTS``, in a folder of its
own (it copies the fixtures there), with the cases read from the file CASES and the
results appended to the file RESULTS, case by case (the program may read and write the
process's own streams: they carry nothing of the harness). Every case but a ``proc``
runs in this process:

- ``api``: ``dicecli.roll``/``parse``/``odds``/``reroll``, the result turned into
  plain data (``RollResult.as_dict`` and the breakdown; an ``Odds``'s fields);
- ``cli``, ``pipe``, ``repl``, ``odds``: ``dicecli.__main__.main(argv)`` (both the
  old and the new version have it) with stdin, stdout and stderr on files of their
  own, as a process whose streams are pipes, colour off, 80 columns, an empty home;
- ``proc``: ``python -m dicecli`` as a process of its own.

Dice a case does not seed (an unseeded line of a REPL or a pipe) come from a
generator seeded per case and per generator made (``dicecli.rolling.sources.random``
is replaced), so that both sides draw the same faces wherever they make their
generators the same way.

Only the standard library and dicecli: this file runs under either version's
interpreter.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

CASE_SECONDS = 30
"""A case still running after this long is stopped and recorded as a timeout."""

BASE_ENV = {
    "NO_COLOR": "1",
    "COLUMNS": "80",
    "LINES": "24",
    "TERM": "dumb",
    "LC_ALL": "C.UTF-8",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONHASHSEED": "0",
}


class CaseTimeout(BaseException):
    """Raised by the alarm inside a case that runs too long."""


Seed = int | float | str | bytes | bytearray | None
"""What ``random.Random`` takes as a seed."""


class SeededRandomModule:
    """Stands for the ``random`` module in ``dicecli.rolling.sources``: a generator made
    without a seed gets the case's next seed instead."""

    def __init__(self) -> None:
        self.base = 0
        self.made = 0

    def reset(self, base: int) -> None:
        self.base = base
        self.made = 0

    def Random(self, seed: Seed = None) -> random.Random:  # noqa: N802 - the module's name
        if seed is None:
            self.made += 1
            seed = self.base * 1000 + self.made
        return random.Random(seed)

    def __getattr__(self, name: str) -> Any:
        return getattr(random, name)


SEEDED = SeededRandomModule()


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-able data, whatever class holds it (field names, not class
    names: the refactor renamed and moved classes)."""
    if depth > 40:
        return "<deep>"
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, dict):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(item) for item in value)
    fields = getattr(value, "__frozen_fields__", None) or getattr(value, "_fields", None)
    if fields:
        return {name: plain(getattr(value, name, None), depth + 1) for name in fields}
    if hasattr(value, "__dict__"):
        return {k: plain(v, depth + 1) for k, v in vars(value).items() if not k.startswith("_")}
    return repr(value)


def error_data(error: BaseException) -> dict[str, Any]:
    names = [cls.__name__ for cls in type(error).__mro__ if cls.__module__.startswith("dicecli")]
    return {"error": type(error).__name__, "dicecli_bases": names, "message": str(error)}


def run_api(case: dict[str, Any]) -> dict[str, Any]:
    import dicecli

    op, text = case["op"], case["text"]
    values = case.get("values")
    try:
        if op == "parse":
            tree = dicecli.parse(text)
            return {"str": str(tree), "repr": repr(tree)}
        if op == "odds":
            odds = dicecli.odds(text, values=values, at_least=case.get("at_least"))
            data = {
                name: plain(getattr(odds, name, None))
                for name in (
                    "input",
                    "expression",
                    "chances",
                    "wins",
                    "expectations",
                    "tables",
                    "notes",
                    "estimated",
                    "passing",
                )
            }
            distribution = odds.distribution
            if distribution is not None:
                data["outcomes"] = plain(distribution.outcomes)
                data["residue"] = plain(distribution.residue)
            return data
        if op == "given":
            result = dicecli.roll(text, given=case["given"], values=values)
        else:
            result = dicecli.roll(text, seed=case["seed"], values=values)
        data = {"result": plain(result.as_dict()), "breakdown": plain(result.breakdown)}
        if op == "reroll":
            again = dicecli.reroll(result, seed=case["seed"] + 1)
            data["reroll"] = plain(again.as_dict())
        return data
    except Exception as error:  # the API's answer: compared as data
        return error_data(error)


@contextlib.contextmanager
def environment(extra: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(extra)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def streams(stdin: bytes) -> Iterator[dict[str, bytes]]:
    files = [tempfile.TemporaryFile() for _ in range(3)]  # noqa: SIM115 - closed below
    files[0].write(stdin)
    files[0].seek(0)
    saved = sys.stdin, sys.stdout, sys.stderr
    opened = [
        open(  # noqa: SIM115 - closed below
            file.fileno(),
            "r" if index == 0 else "w",
            encoding="utf-8",
            errors="surrogateescape",
            newline="\n",
            closefd=False,
        )
        for index, file in enumerate(files)
    ]
    sys.stdin, sys.stdout, sys.stderr = opened
    captured: dict[str, bytes] = {}
    try:
        yield captured
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in opened:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        for name, file in (("stdout", files[1]), ("stderr", files[2])):
            file.seek(0)
            captured[name] = file.read()
        for file in files:
            file.close()


def text_of(data: bytes) -> str:
    return data.decode("utf-8", errors="backslashreplace")


def run_in_process(case: dict[str, Any], home: Path) -> dict[str, Any]:
    from dicecli.__main__ import main

    new_run: Callable[[], None] | None
    try:
        from dicecli.runs import new_run
    except ImportError:  # pragma: no cover - both versions have it
        new_run = None
    env = {**BASE_ENV, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    status: Any
    with environment(env), streams(case["stdin"].encode("utf-8", "surrogateescape")) as out:
        if new_run is not None:
            new_run()
        frozen = gc.get_freeze_count()
        try:
            status = main(list(case["argv"]))
        except SystemExit as exit_:
            status = f"SystemExit({exit_.code!r})"
        except CaseTimeout:
            raise
        except BaseException as error:  # an escape from main: recorded, not fatal
            status = f"raised {type(error).__name__}: {error}"
        finally:
            if frozen == 0:
                gc.unfreeze()
    return {"status": status, "stdout": text_of(out["stdout"]), "stderr": text_of(out["stderr"])}


def run_process(case: dict[str, Any], home: Path) -> dict[str, Any]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key in ("PATH", "SYSTEMROOT", "TMPDIR", "LANG")
    }
    env.update(BASE_ENV, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "dicecli", *case["argv"]],
            input=case["stdin"].encode("utf-8", "surrogateescape"),
            capture_output=True,
            env=env,
            timeout=CASE_SECONDS * 2,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    return {
        "status": done.returncode,
        "stdout": text_of(done.stdout),
        "stderr": text_of(done.stderr),
    }


ALARMS = {"rang": False}
"""Whether the alarm of the case running rang: main's entry function turns any
exception into an exit status, the alarm's too, so the worker looks here as well."""


def on_alarm(signum: int, frame: Any) -> None:
    ALARMS["rang"] = True
    raise CaseTimeout


def main() -> int:
    fixtures = Path(sys.argv[1])
    for path in fixtures.iterdir():
        shutil.copy(path, Path.cwd() / path.name)
    import dicecli.rolling.sources as sources

    vars(sources)["random"] = SEEDED  # its global `random`, which it does not export
    signal.signal(signal.SIGALRM, on_alarm)
    cases = Path(sys.argv[2]).read_text(encoding="utf-8").splitlines()
    out = open(sys.argv[3], "a", encoding="utf-8")  # noqa: SIM115 - open while the worker runs
    home = Path.cwd() / "home"
    for raw in cases:
        case = json.loads(raw)
        if home.exists():
            shutil.rmtree(home)
        home.mkdir()
        SEEDED.reset(case["id"])
        ALARMS["rang"] = False
        signal.alarm(CASE_SECONDS)
        try:
            if case["kind"] == "api":
                result = run_api(case)
            elif case["kind"] == "proc":
                result = run_process(case, home)
            else:
                result = run_in_process(case, home)
        except CaseTimeout:
            result = {"timeout": True}
        except Exception:
            result = {"harness_error": traceback.format_exc(limit=5)}
        finally:
            signal.alarm(0)
        if ALARMS["rang"]:
            result = {"timeout": True}
        out.write(json.dumps({"id": case["id"], "result": result}, ensure_ascii=True) + "\n")
        out.flush()
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
