"""Time dicecli's exact odds against icepool on the same questions, in one run.

Not a test: a script that prints a table. Run it from a virtual environment holding
dicecli and the packages of ``bench/requirements.txt``::

    python3 -m venv /tmp/venv/bench
    /tmp/venv/bench/bin/pip install -e . -r bench/requirements.txt
    /tmp/venv/bench/bin/python bench/bench_odds.py

Both sides answer each question completely, in exact fractions: every outcome's
probability and the mean (dicecli: ``odds(text)``; icepool: the die, its
``probabilities()`` and ``mean()``).

dicecli is byte-compiled first, as ``pip install`` leaves it.

- **cold**: the first call in a fresh process (imports done, and for dicecli both
  parsers set up by parsing another line, before the clock starts: pyparsing's
  one-time set-up costs about 2 ms, and loading the quick reader of common lines
  (``notation/common_lines.py``) a little, which are the parser's, not the odds
  engine's), the median of a few fresh processes. Anything else the first call loads
  (the odds of criticals, dice files, the notes on other rollers' readings) is on the
  clock: it should load only what the question asked needs. "(engine)" also parses
  the line itself before the clock: the odds engine alone (icepool is handed Python
  source, which ``eval`` compiles on the clock);
- **warm**: the median of repeated calls in one process. dicecli caches the
  distribution of a dice term, so a repeated question is a look-up; the "no cache"
  column clears dicecli's distribution caches before every call (parsed lines stay
  cached: icepool parses no text). icepool's warm figure keeps *its* caches (the
  module-level dice remember their computations): a cache hit, shown for reference;
  the fair comparison is the cold one, where neither side has a cache.

Questions named on the command line (``bench_odds.py 3d6 2d20kh1 4dF``) are the only
rows of the first table.

``--big`` runs the second table instead: big questions (issues 16 and 17), each the
first call in a fresh process for both sides (no cache on either side), with the
time dicecli takes to answer *or refuse*, and icepool's time when it has the same
question, stopped after ``--icepool-timeout`` seconds (then the ratio is an upper
bound, ``<``)::

    /tmp/venv/bench/bin/python bench/bench_odds.py --big [--icepool-timeout 60] [--ours-only]

(``--ours-only`` skips icepool: to time another version of dicecli on the same
questions, put it first on ``PYTHONPATH``.)
"""

from __future__ import annotations

import contextlib
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# (name, dicecli text, at_least, icepool expression as Python source using d6, d10, d20,
# dF (a Fate die), Deck and Pool)
QUESTIONS: list[tuple[str, str, int | None, str]] = [
    ("3d6", "3d6", None, "3 @ d6"),
    ("2d20kh1", "2d20kh1", None, "d20.highest(2, 1)"),
    ("4dF", "4dF", None, "4 @ dF"),
    ("2d6+8 >= 15", "2d6+8", 15, "(2 @ d6 + 8) >= 15"),
    ("4d6 keep lowest 2", "4d6kl2", None, "d6.lowest(4, 2)"),
    ("4d6kh3", "4d6kh3", None, "d6.highest(4, 3)"),
    ("10d10kh3", "10d10kh3", None, "d10.highest(10, 3)"),
    ("20d6", "20d6", None, "20 @ d6"),
    ("100d6", "100d6", None, "100 @ d6"),
    # unique dice: dealing from a deck of the faces is drawing until unique
    ("4d6 unique", "4d6u", None, "Deck(range(1, 7)).deal(4).sum()"),
    ("5d100 unique", "5d100u", None, "Deck(range(1, 101)).deal(5).sum()"),
    ("8d20 unique kh3", "8d20ukh3", None, "Deck(range(1, 21)).deal(8).highest(3).sum()"),
    ("4d6min2max5kh3", "4d6min2max5kh3", None, "Pool([d6.clip(2, 5)] * 4).highest(3).sum()"),
    ("100d20max15", "100d20max15", None, "100 @ d20.clip(None, 15)"),
    ("10d10<>1", "10d10<>1", None, "10 @ d10.map({k: int(k != 1) for k in range(1, 11)})"),
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
    import icepool  # type: ignore[import-untyped, import-not-found, unused-ignore]

    namespace: dict[str, Any] = {
        "d6": icepool.d6,
        "d10": icepool.d10,
        "d20": icepool.d20,
        "dF": icepool.Die([-1, 0, 1]),
        "Deck": icepool.Deck,
        "Pool": icepool.Pool,
    }

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
    if side != "icepool":  # the parsers' one-time set-up, off the clock
        from dicecli.notation.grammar import parse
        from dicecli.notation.reader import parse as read

        parse("1d2")  # the grammar of record (about 2 ms of pyparsing)
        read("1d2")  # the quick reader of common lines
        if side == "engine":  # and parse this very line: time the odds engine alone
            read(text)
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


def compile_dicecli() -> None:
    """Byte-compile the dicecli measured, as ``pip install`` does: with
    PYTHONDONTWRITEBYTECODE, an editable install would compile each module a first
    call loads (the odds of criticals, the notes ...) on the clock, every time."""
    import compileall

    import dicecli

    compileall.compile_dir(str(Path(dicecli.__file__).parent), quiet=1)


def main(names: list[str]) -> None:
    import icepool  # type: ignore[import-untyped, import-not-found, unused-ignore]

    compile_dicecli()
    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}; times in ms")
    header = (
        f"{'question':<20}{'ours cold':>10}{'(engine)':>10}{'icepool':>10}{'ratio':>7}"
        f"{'ours warm':>11}{'(no cache)':>11}{'icepool':>10}{'ratio*':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, text, at_least, source in QUESTIONS:
        if names and name not in names:
            continue
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
        "ratio = ours cold / icepool cold (below 1: we are faster; neither side has a "
        "cache); (engine) = ours cold with the line parsed off the clock; ratio* = ours "
        "no-cache / icepool warm, where icepool keeps its caches (a cache hit)"
    )


# --- big questions ---------------------------------------------------------------

# (dicecli text, icepool expression as Python source, or None when icepool has no such
# question: dicecli's "!" makes every added die a unit of its own for keep/drop)
BIG: list[tuple[str, str | None]] = [
    ("1000d6", "1000 @ d(6)"),
    ("1000d10>=7", "1000 @ (d(10) >= 7)"),
    ("10000d6", "10000 @ d(6)"),
    ("3d2000kh2", "d(2000).highest(3, 2)"),
    ("3d5000dl1", "d(5000).highest(3, 2)"),
    ("3d10000dl", "d(10000).highest(3, 2)"),
    ("4d20!dl2", None),
    ("6d20!kl3", None),
    ("3d%!dh3", None),
    ("50d100kh25", "d(100).highest(50, 25)"),
    ("100d100kh50", "d(100).highest(100, 50)"),
    ("10000d%>=5!>=5", None),
    ("d%!>=5", None),
    ("d20!>=2", None),
    ("100d100dl", "d(100).highest(100, 99)"),
    ("d1000 * d1000", "d(1000) * d(1000)"),
    ("10000d6kl1", "d(6).lowest(10000, 1)"),
    ("6000d6kl1", "d(6).lowest(6000, 1)"),
]


def big_once(side: str, index: int) -> str:
    """One first call in this fresh process: ``seconds outcome``."""
    text, source = BIG[index]
    if side == "icepool":
        import icepool  # type: ignore[import-untyped, import-not-found, unused-ignore]

        assert source is not None
        sys.setrecursionlimit(100_000)  # icepool's "1000 @ d(6)" recurses per die
        start = time.perf_counter()
        die = eval(source, {"d": icepool.d})
        die.probabilities()
        die.mean()
        seconds = time.perf_counter() - start
        return f"{seconds} {seconds} answered"
    from dicecli.errors import DiceError
    from dicecli.notation.grammar import parse
    from dicecli.probability.engine import clear_caches
    from dicecli.probability.report import odds

    parse("1d2")  # the grammar, built off the clock
    start = time.perf_counter()
    try:
        odds(text)
        outcome = "answered"
    except DiceError as error:
        outcome = "refused: " + str(error).split(": ", 1)[-1]
    first = time.perf_counter() - start
    again: list[float] = []  # in-process, dicecli's caches cleared before each call
    while first < 1 and len(again) < 5:
        clear_caches()
        start = time.perf_counter()
        with contextlib.suppress(DiceError):
            odds(text)
        again.append(time.perf_counter() - start)
    return f"{first} {statistics.median(again) if again else first} {outcome}"


def big_cold(side: str, index: int, timeout: float) -> tuple[float | None, float, str]:
    """The median over fresh processes (one only when it takes over a second):
    seconds (None if stopped at ``timeout``), the median in-process time with
    dicecli's caches cleared, and what happened."""
    times: list[float] = []
    warm: list[float] = []
    outcome = ""
    for _ in range(COLD_RUNS):
        try:
            output = subprocess.run(
                [sys.executable, __file__, "--big-once", side, str(index)],
                check=True,
                capture_output=True,
                text=True,
                timeout=timeout,
            ).stdout
        except subprocess.TimeoutExpired:
            return None, 0.0, f"stopped after {timeout:g} s"
        except subprocess.CalledProcessError as error:
            return None, 0.0, f"failed (exit status {error.returncode})"
        seconds, again, outcome = output.strip().split(" ", 2)
        times.append(float(seconds))
        warm.append(float(again))
        if times[-1] > 1:
            break
    return statistics.median(times), statistics.median(warm), outcome


def big_main(timeout: float, with_icepool: bool) -> None:
    import icepool  # type: ignore[import-untyped, import-not-found, unused-ignore]

    compile_dicecli()
    print(f"python {sys.version.split()[0]}, icepool {icepool.__version__}; cold, ms")
    header = (
        f"{'question':<18}{'dicecli':>10}{'(in-proc)':>10}{'icepool':>12}{'ratio':>9}"
        "  dicecli's answer"
    )
    print(header)
    print("-" * 110)
    for index, (text, source) in enumerate(BIG):
        ours, in_process, outcome = big_cold("ours", index, timeout)
        ours_text = f">{timeout * 1000:.0f}" if ours is None else f"{ours * 1000:.1f}"
        warm_text = "-" if ours is None else f"{in_process * 1000:.1f}"
        theirs_text, ratio = "-", "-"
        if with_icepool and source is not None and ours is not None:
            theirs, _, what = big_cold("icepool", index, timeout)
            if theirs is None and what.startswith("failed"):
                theirs_text = "failed"
            elif theirs is None:
                theirs_text, ratio = f">{timeout * 1000:.0f}", f"<{ours / timeout:.4f}"
            else:
                theirs_text, ratio = f"{theirs * 1000:.1f}", f"{ours / theirs:.4f}"
        print(
            f"{text:<18}{ours_text:>10}{warm_text:>10}{theirs_text:>12}{ratio:>9}  {outcome[:60]}"
        )
    print(
        "ratio = dicecli / icepool, both the first call in a fresh process (no cache on "
        "either side); (in-proc) = dicecli's median of repeated in-process calls, its "
        "caches cleared before each; '-': icepool has no such question"
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--cold":
        print(cold_once(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--big-once":
        print(big_once(sys.argv[2], int(sys.argv[3])))
    elif len(sys.argv) >= 2 and sys.argv[1] == "--big":
        options = sys.argv[2:]
        limit = 60.0
        if "--icepool-timeout" in options:
            limit = float(options[options.index("--icepool-timeout") + 1])
        big_main(limit, with_icepool="--ours-only" not in options)
    else:
        main(sys.argv[1:])
