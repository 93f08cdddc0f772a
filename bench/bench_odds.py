"""Time dicecli's exact odds against icepool on the same questions, in one run.

Not a test: a script that prints a table. Run it from a virtual environment holding
dicecli and the packages of ``bench/requirements.txt``::

    python3 -m venv /tmp/venv/bench
    /tmp/venv/bench/bin/pip install -e . -r bench/requirements.txt
    /tmp/venv/bench/bin/python bench/bench_odds.py

Both sides answer each question completely, in exact fractions: every outcome's
probability and the mean (dicecli: ``odds(text)``; icepool: the die, its
``probabilities()`` and ``mean()``).

- **cold**: the first call in a fresh process (imports done, and for dicecli the
  grammar built by parsing another line, before the clock starts: pyparsing's one-time
  set-up costs about 2 ms, which is the parser's, not the odds engine's), the median of
  a few fresh processes. "(engine)" also parses the line itself before the clock: the
  odds engine alone (icepool is handed Python source, which ``eval`` compiles on the
  clock);
- **warm**: the median of repeated calls in one process. dicecli caches the
  distribution of a dice term, so a repeated question is a look-up; the "no cache"
  column clears dicecli's distribution caches before every call (parsed lines stay
  cached: icepool parses no text), which is the fair comparison with icepool's warm
  figure.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

# (name, dicecli text, at_least, icepool expression as Python source using d6/d10)
QUESTIONS: list[tuple[str, str, int | None, str]] = [
    ("3d6", "3d6", None, "3 @ d6"),
    ("2d6+8 >= 15", "2d6+8", 15, "(2 @ d6 + 8) >= 15"),
    ("4d6 keep lowest 2", "4d6kl2", None, "d6.lowest(4, 2)"),
    ("4d6kh3", "4d6kh3", None, "d6.highest(4, 3)"),
    ("10d10kh3", "10d10kh3", None, "d10.highest(10, 3)"),
    ("20d6", "20d6", None, "20 @ d6"),
    ("100d6", "100d6", None, "100 @ d6"),
]

COLD_RUNS = 5
WARM_SECONDS = 0.5


def ours(text: str, at_least: int | None) -> Callable[[], object]:
    from dicecli.probability.report import odds

    return lambda: odds(text, at_least=at_least)


def ours_uncached(text: str, at_least: int | None) -> Callable[[], object]:
    from dicecli.probability.engine import clear_caches
    from dicecli.probability.report import odds

    def call() -> object:
        clear_caches()  # the parse cache stays: icepool parses no text either
        return odds(text, at_least=at_least)

    return call


def theirs(source: str) -> Callable[[], object]:
    import icepool  # type: ignore[import-not-found, unused-ignore]

    namespace: dict[str, Any] = {"d6": icepool.d6, "d10": icepool.d10}

    def call() -> object:
        die = eval(source, namespace)
        return die.probabilities(), die.mean()

    return call


def _question(name: str) -> tuple[str, str, int | None, str]:
    return next(q for q in QUESTIONS if q[0] == name)


def cold_once(side: str, name: str) -> float:
    """One first call, in this (fresh) process: the child's side of a cold timing."""
    _, text, at_least, source = _question(name)
    call = theirs(source) if side == "icepool" else ours(text, at_least)
    if side != "icepool":  # build the grammar (a one-time ~2 ms of pyparsing) off the clock
        from dicecli.notation.grammar import parse

        parse("1d2")
        if side == "engine":  # and parse this very line: time the odds engine alone
            parse(text)
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def cold(side: str, name: str) -> float:
    """The median first-call time over fresh processes."""
    times: list[float] = []
    for _ in range(COLD_RUNS):
        output = subprocess.run(
            [sys.executable, __file__, "--cold", side, name],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        times.append(float(output))
    return statistics.median(times)


def warm(call: Callable[[], object]) -> float:
    """The median of repeated calls for about :data:`WARM_SECONDS`."""
    call()
    times: list[float] = []
    deadline = time.perf_counter() + WARM_SECONDS
    while len(times) < 5 or (time.perf_counter() < deadline and len(times) < 2000):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f}"


def main() -> None:
    import icepool  # type: ignore[import-not-found, unused-ignore]

    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}; times in ms")
    header = (
        f"{'question':<20}{'ours cold':>10}{'(engine)':>10}{'icepool':>10}{'ratio':>7}"
        f"{'ours warm':>11}{'(no cache)':>11}{'icepool':>10}{'ratio*':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, text, at_least, source in QUESTIONS:
        our_cold, engine_cold = cold("ours", name), cold("engine", name)
        their_cold = cold("icepool", name)
        our_warm = warm(ours(text, at_least))
        our_uncached = warm(ours_uncached(text, at_least))
        their_warm = warm(theirs(source))
        print(
            f"{name:<20}{_ms(our_cold):>10}{_ms(engine_cold):>10}{_ms(their_cold):>10}"
            f"{our_cold / their_cold:7.2f}{_ms(our_warm):>11}{_ms(our_uncached):>11}"
            f"{_ms(their_warm):>10}{our_uncached / their_warm:8.2f}"
        )
    print(
        "ratio = ours cold / icepool cold (below 1: we are faster); (engine) = ours cold "
        "with the line parsed off the clock; ratio* = ours no-cache / icepool warm"
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--cold":
        print(cold_once(sys.argv[2], sys.argv[3]))
    else:
        main()
