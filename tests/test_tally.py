"""The ``--times`` summary (:mod:`dicecli.tally`): it fits what was rolled, and it is
kept as running tallies (memory does not grow with the count).

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import dicecli
from dicecli.dicefiles.load import parse_book
from dicecli.tally import Tally


def tally(line: str, *faces: str) -> str:
    return Tally.of(dicecli.roll(line, given=given) for given in faces).line()


def test_plain_rolls_get_total_range_and_mean() -> None:
    assert tally("2d6", "1,2", "6,6", "3,4") == "3 rolls: total 22, min 3, max 12, mean 7.33"


def test_checks_get_passes() -> None:
    # rule W9: Ld 8 passes on 2D6 <= 8
    assert tally("wfb ld 8", "1,2", "6,6", "3,3") == "3 rolls: 2 of 3 passed"


def test_misfires_are_counted() -> None:
    # rule W1: a MISFIRE has no number
    assert tally("wfb artillery", "MISFIRE", "4", "MISFIRE") == "3 rolls: 2 MISFIRE"


def test_hits_are_counted() -> None:
    # rule W2: a HIT does not move
    assert tally("wfb scatter 2d6", "HIT↑12,3,4", "↑12,1,1") == "2 rolls: 1 hit"


def test_symbols_are_summed_over_the_rolls() -> None:
    # dice of a dice file (docs/dice.md): each symbol added up, in the file's order
    book = parse_book('[Ability]\nfaces = ["", "success", "success+advantage"]\n', "a.toml")
    env = dicecli.Environment(dice=book)
    results = [
        dicecli.roll("2dAbility", given=given, environment=env)
        for given in ("success,blank", "success+advantage,success+advantage")
    ]
    assert Tally.of(results).line() == "2 rolls: symbols: 3 success, 2 advantage"
    numbered = parse_book('[Axe]\nfaces = [1, {value = 2, symbol = "hit"}]\n', "b.toml")
    env = dicecli.Environment(dice=numbered)
    results = [dicecli.roll("2dAxe", given=g, environment=env) for g in ("1,2", "2,2")]
    assert Tally.of(results).line() == ("2 rolls: total 7, min 3, max 4, mean 3.50; symbols: 3 hit")


def test_a_rolloff_gets_a_win_tally() -> None:
    # rule W6: the highest die wins
    line = tally("wfb rolloff Alice Bob", "1,6", "6,1", "2,5")
    assert line == "3 rolls: wins: Bob 2, Alice 1"


def test_opposed_tests_count_wins_by_side_number() -> None:
    # rule A2: the higher total wins
    assert tally("alkemy 2 vs alkemy 5", "3,4,4,1", "1,1,6,6") == "2 rolls: wins: #2 2"


def test_opposed_rolls_told_by_levels_count_wins_too() -> None:
    # rule C5: the higher level wins (01 critical against 30 regular: #1; 50 regular
    # against 10 extreme: #2); both failing (90 and 95) is no winner, and no win counted.
    # An opposed roll has no total, yet docs/output.md promises its win tally
    line = tally("coc 45 vs coc 60", "1,30", "50,10", "90,95")
    assert line == "3 rolls: wins: #1 1, #2 1"


def test_stunt_points_and_doubles_are_summed() -> None:
    # rule G4: doubles on a success give stunt points equal to the Dragon die
    line = tally("age 3 vs 10", "4,4,5", "1,2,3", "6,6,6")
    assert line == "3 rolls: 2 of 3 passed; 2 doubles; stunt points: 11 in 2 rolls"


def test_the_summary_is_kept_in_flat_memory() -> None:
    """The tally holds counts, not results: its size does not grow with the rolls."""
    code = textwrap.dedent(
        """
        import tracemalloc
        import dicecli
        from dicecli.tally import Tally
        tally = Tally()
        result = dicecli.roll("2d6", seed=1)
        tally.add(result)
        tracemalloc.start()
        for _ in range(20000):
            tally.add(result)
        size, _ = tracemalloc.get_traced_memory()
        print(size)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert int(done.stdout) < 10_000  # bytes; a list of 20,000 results would be >160 kB
