"""The first ``odds`` call loads only what the question asked needs (issue 25): the odds
of criticals for a line whose dice can mark one beyond a lone kept die, the dice
files' reader for a line naming a die of a dice file, the notes on other rollers'
readings for a line whose spelling they need, a game's registry for a game's line.
Checked by module, not by time (``bench/bench_odds.py`` times it against icepool)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CRITICALS = "dicecli.probability.criticals"
DICE_FILES = ("dicecli.dicefiles.load", "dicecli.probability.symbols")
NOTES = ("dicecli.notation.translations", "dicecli.notation.other_readings")
GAMES = ("dicecli.systems.registry", "dicecli.systems.guard", "pyparsing")


def modules_loaded_by_odds(text: str) -> set[str]:
    """The modules a fresh process has imported after ``odds(text)``, beyond those it
    had once the odds were imported and the line parsed."""
    code = (
        "import sys\n"
        "from dicecli.probability.report import odds\n"
        "from dicecli.notation.reader import parse\n"
        f"parse({text!r})\n"
        "before = set(sys.modules)\n"
        f"odds({text!r})\n"
        "print(*sorted(set(sys.modules) - before))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_importing_the_odds_loads_no_game_nor_the_grammar() -> None:
    code = "import sys\nimport dicecli.probability.report\nprint(*sorted(sys.modules))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert set(done.stdout.split()).isdisjoint({*GAMES, "dicecli.notation.grammar"})


@pytest.mark.parametrize("text", ["3d6", "4dF", "2d6+8", "d100 - 2"])
def test_a_small_question_without_criticals_loads_nothing_more(text: str) -> None:
    loaded = modules_loaded_by_odds(text)
    assert loaded.isdisjoint({CRITICALS, *DICE_FILES, *NOTES, *GAMES})


@pytest.mark.parametrize("text", ["2d20kh1", "d20 + 5", "2d20kl1 - 2", "3d20km1"])
def test_a_lone_kept_die_marking_criticals_loads_nothing_more(text: str) -> None:
    """Its chances of criticals come from the term's own weights; ``kh`` is a keep no
    other roller reads otherwise, so the notes' module is not loaded either."""
    assert modules_loaded_by_odds(text).isdisjoint({CRITICALS, *DICE_FILES, *NOTES, *GAMES})


@pytest.mark.parametrize("text", ["4d6cs6", "(d4)d20", "4d20!cs20"])
def test_dice_counted_for_criticals_load_their_module(text: str) -> None:
    assert CRITICALS in modules_loaded_by_odds(text)


@pytest.mark.parametrize("text", ["4d6k3", "d100 / 2"])  # / rounds up: noted
def test_a_spelling_another_roller_reads_otherwise_loads_its_note(text: str) -> None:
    assert "dicecli.notation.other_readings" in modules_loaded_by_odds(text)
