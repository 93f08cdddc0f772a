"""Snapshots of what a player sees at a terminal: every game form, opposed test,
``--times`` summary, odds table and error, rendered by rich's recording console at a
fixed width with fixed dice, and compared with the files in ``snapshots/`` (text with
ANSI styles).

When the output changes on purpose, rewrite the files and look at them as images
before committing them::

    DICECLI_UPDATE_SNAPSHOTS=1 python -m pytest -q tests/render/test_snapshots.py
    cat tests/render/snapshots/wfb-ld.ansi        # in a terminal, or render to PNG

A missing snapshot fails the test: snapshots are written only when asked.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.hints import advise
from dicecli.render.terminal import TerminalRenderer
from dicecli.tally import Tally

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("DICECLI_UPDATE_SNAPSHOTS") == "1"
WIDTH = 80

ROLLS: list[tuple[str, str, str]] = [
    # name, line, given faces
    ("notation-keep", "4d6kh3", "3,4,1,6"),
    ("notation-natural-20", "d20+5", "20"),
    ("notation-natural-1", "d20+5", "1"),
    ("notation-advantage", "2d20kh1", "1,20"),
    ("notation-advantage-word", "d20 + 5 adv", "3,17"),  # d20 (Avrae)'s adv: 2d20kh1 + 5
    ("notation-explode", "3d6!", "6,2,3,5"),
    ("notation-successes", "6d10>=7f1", "10,7,1,3,8,6"),
    ("notation-group", "{2d6, 1d8}kh1", "3,4,8"),
    ("notation-labels", "2d6[fire] + 1d4[cold]", "3,4,2"),
    ("notation-comment", "2d6 # torch", "1,5"),
    ("notation-d3", "D3", "5"),
    ("notation-reading", "10d6 >= 4", "1,6,5,2,3,3,4,5,1,1"),  # issue 28: the other reading
    ("notation-count-said-once", "5d6>=1", "1,6,5,2,3"),
    ("alkemy-test", "alkemy 8 vs 15", "4,3"),
    ("alkemy-bonus-yellow", "alkemy 8 +1 bonus vs 15 yellow", "3,4,5"),
    ("alkemy-red", "alkemy 8 vs 15 red", "1,2"),
    ("alkemy-opposed", "alkemy 2 vs alkemy 5", "3,4,4,1"),
    ("alkemy-opposed-tie", "alkemy 3 vs alkemy 3", "2,2,1,3,5,6,1,1"),
    ("wfb-artillery", "wfb artillery", "4"),
    ("wfb-misfire", "wfb artillery", "MISFIRE"),
    ("wfb-artillery-dice", "wfb 2d6+artillery", "3,4,6"),
    ("wfb-scatter-hit", "wfb scatter 2d6", "HIT↗1,5,4"),
    ("wfb-scatter-arrow", "wfb scatter 2d6", "→3,5,4"),
    ("wfb-test", "wfb test 4", "5"),
    ("wfb-ld", "wfb ld 8", "3,4"),
    ("wfb-break", "wfb break 8 by 3", "3,3"),
    ("wfb-rolloff", "wfb rolloff Alice Bob", "4,4,2,5"),
    ("wfb-allocate", "wfb allocate 5", "2"),
    ("wfb-allocate-among", "wfb allocate 3 among 5", "2,6,5,3"),
    ("age-test", "age STR+2 vs 13", "5,5,4"),
    ("age-difficulty", "age 3 +focus vs hard", "2,3,6"),
    ("age-opposed", "age DEX+1 vs age PER+2", "6,5,5,6,2,4"),
    ("age-opposed-named", "age Ayla: DEX+1 vs Orc: DEX+2", "6,5,5,6,2,4"),
    ("age-advanced", "age 3 vs 11 until 8", "6,5,5,1,1,1,6,6,4"),
]

TIMES: list[tuple[str, str, list[str]]] = [
    ("times-total", "2d6", ["1,2", "6,6", "3,4"]),
    ("times-checks-note", "alkemy 8 vs 15 yellow", ["1,2", "4,4", "5,3"]),
    ("times-misfire", "wfb artillery", ["MISFIRE", "4", "MISFIRE"]),
    ("times-rolloff", "wfb rolloff Alice Bob", ["1,6", "6,1", "2,5"]),
    ("times-stunts", "age 3 vs 10", ["4,4,5", "1,2,3", "6,6,6"]),
    ("times-badges-aligned", "wfb ld 8", ["2,4", "4,6", "6,3"]),  # issue 28: = 6, = 10
    ("times-pool-badges-aligned", "cod 3", ["3,6,4", "10,5,9,5", "8,1,2"]),  # rule K2
]

ODDS: list[tuple[str, str]] = [
    ("odds-total", "2d6+3"),
    ("odds-long", "10d6"),
    ("odds-wfb-ld", "wfb ld 8"),
    ("odds-alkemy", "alkemy 8 vs 15"),
    ("odds-alkemy-opposed", "alkemy 2 vs alkemy 5"),
    ("odds-age", "age 3 vs 13"),
    ("odds-artillery", "wfb artillery"),
    ("odds-cod", "cod 5"),  # rules K2, K4: exact, one figure left out, the mean exact
    ("odds-sr-edge", "sr 6 edge vs 3"),  # rule S4
    ("odds-l5r", "l5r 6k3 vs 30"),  # rules L1, L2, L4
]

ERRORS: list[tuple[str, str]] = [
    ("error-syntax", "2d6+"),
    ("error-keyword", "alkmey 8 vs 15"),
    ("error-form", "wfb arty"),
    ("error-difficulty", "age STR+2 vs hardd"),
    ("error-advantage", "2d6 adv"),  # adv needs a d20 first
    ("error-keep", "4d6 kh 3"),
    ("error-successes", "10d6 4+"),
    ("error-bonus", "alkemy 8 vs 15 bonus"),
    ("error-opposed", "age DEX+1 vs DEX+2"),
    ("error-assignment", "CON = 2"),
]


def recording() -> tuple[Console, TerminalRenderer]:
    console = Console(
        file=io.StringIO(),
        record=True,
        width=WIDTH,
        force_terminal=True,
        color_system="truecolor",
        highlight=False,  # as the program's own console
        no_color=False,  # whatever NO_COLOR the tests run with
        legacy_windows=False,
    )
    return console, TerminalRenderer(io.StringIO(), console)


def check(name: str, shown: str) -> None:
    path = SNAPSHOTS / f"{name}.ansi"
    if UPDATE:
        path.write_text(shown, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: DICECLI_UPDATE_SNAPSHOTS=1 writes it"
    assert shown == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "line", "given"), ROLLS, ids=[case[0] for case in ROLLS])
def test_a_roll_looks_as_reviewed(name: str, line: str, given: str) -> None:
    console, renderer = recording()
    renderer.result(dicecli.roll(line, given=given))
    check(name, console.export_text(styles=True))


@pytest.mark.parametrize(("name", "line", "faces"), TIMES, ids=[case[0] for case in TIMES])
def test_a_run_of_rolls_and_its_summary_look_as_reviewed(
    name: str, line: str, faces: list[str]
) -> None:
    console, renderer = recording()
    tally = Tally()
    results = [dicecli.roll(line, given=given) for given in faces]
    renderer.align(results)  # as a --times run at a terminal lays its rolls out
    for result in results:
        renderer.result(result)
        tally.add(result)
    renderer.summary(tally)
    check(name, console.export_text(styles=True))


@pytest.mark.parametrize(("name", "line"), ODDS, ids=[case[0] for case in ODDS])
def test_odds_look_as_reviewed(name: str, line: str) -> None:
    console, renderer = recording()
    renderer.odds(dicecli.odds(line))
    check(name, console.export_text(styles=True))


@pytest.mark.parametrize(("name", "line"), ERRORS, ids=[case[0] for case in ERRORS])
def test_errors_look_as_reviewed(name: str, line: str) -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(line, environment=Environment(), seed=1)
    check(name, advise(caught.value).show() + "\n")


def test_every_snapshot_belongs_to_a_case() -> None:
    names = {case[0] for group in (ROLLS, TIMES, ODDS, ERRORS) for case in group}
    assert {path.stem for path in SNAPSHOTS.glob("*.ansi")} == names
