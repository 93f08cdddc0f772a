"""The command line under hostile arguments and stdin (short profile): odd bytes, NUL,
CRLF, control characters, huge lines. Each run must end with a documented status
(0, 1 or 2), never an internal error or a traceback, and write only whole plain lines
of three fields."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from fuzz.harness import TOKENS, VALID_LINES, byte_soup, mutated, token_soup

DICECLI = [sys.executable, "-m", "dicecli"]
DOCUMENTED = {0, 1, 2}
CLI = settings(max_examples=examples(8), deadline=None)


def check(done: subprocess.CompletedProcess[bytes]) -> None:
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode in DOCUMENTED, (done.returncode, err)
    assert "internal error" not in err
    assert "Traceback" not in err
    for line in done.stdout.splitlines():
        assert line.count(b"\t") == 2, line


def argument(rng: random.Random) -> bytes:
    """An argument: any bytes but NUL (which no argument can hold), often dice-like."""
    kind = rng.randrange(3)
    text = (
        mutated(rng, rng.choice(VALID_LINES))
        if kind == 0
        else token_soup(rng, 12)
        if kind == 1
        else byte_soup(rng, 30)
    )
    data = text.encode("utf-8", "surrogateescape").replace(b"\x00", b"")
    return data if not data.startswith(b"-") else b" " + data


@pytest.mark.slow
@CLI
@given(st.randoms(use_true_random=False))
def test_odd_arguments(rng: random.Random) -> None:
    words = [argument(rng) for _ in range(rng.randint(1, 3))]
    check(subprocess.run([*DICECLI, "--plain", *words], capture_output=True, timeout=60))


@pytest.mark.slow
@CLI
@given(st.randoms(use_true_random=False))
def test_odd_stdin(rng: random.Random) -> None:
    ends = [b"\n", b"\r\n", b"\r", b"\x00", b"\x0c", "\u2028".encode()]
    lines = [argument(rng) + rng.choice(ends) for _ in range(rng.randint(1, 20))]
    stdin = b"".join(lines)
    for command in ([], ["repl"]):
        done = subprocess.run(
            [*DICECLI, *command, "--plain"], input=stdin, capture_output=True, timeout=60
        )
        check(done)


@pytest.mark.slow
def test_a_million_lines_are_all_answered() -> None:
    done = subprocess.run(
        [*DICECLI, "--seed", "1"], input=b"d6\n" * 1_000_000, capture_output=True, timeout=600
    )
    check(done)
    assert done.stdout.count(b"\n") == 1_000_000


def test_tokens_one_per_line() -> None:
    stdin = "\n".join(TOKENS).encode("utf-8", "surrogateescape")
    check(subprocess.run([*DICECLI, "--plain"], input=stdin, capture_output=True, timeout=60))
