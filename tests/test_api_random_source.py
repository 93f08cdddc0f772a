"""Where the API's dice come from: calls without a seed share one generator for the
process (seeded from the system once), seeded calls always roll the same, a given
source is used as given, and a forked process does not roll what its parent rolls."""

from __future__ import annotations

import os

import pytest

import dicecli
from dicecli import api
from dicecli.rolling.sources import RandomSource


def faces_of(result: dicecli.RollResult) -> list[int | None]:
    return [die.value for die in result.dice]


def test_calls_without_a_seed_draw_in_turn_from_one_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(api, "_unseeded_source", RandomSource(11))
    rolled = [faces_of(dicecli.roll("3d20")) for _ in range(4)]
    in_one_stream = dicecli.roll("12d20", source=RandomSource(11))
    assert [face for faces in rolled for face in faces] == faces_of(in_one_stream)


def test_the_shared_generator_is_made_once() -> None:
    assert api._random_source(None) is api._random_source(None)


def test_a_seed_rolls_the_same_whatever_was_rolled_before() -> None:
    first = dicecli.roll("10d100 + 4d6kh3", seed=42)
    dicecli.roll("5d20")  # unseeded, in between
    dicecli.roll("5d20", seed=7)
    assert dicecli.roll("10d100 + 4d6kh3", seed=42) == first
    assert api._random_source(42) is not api._random_source(42)


def test_a_source_given_is_the_one_used() -> None:
    source = RandomSource(3)
    expected = faces_of(dicecli.roll("6d6", source=RandomSource(3)))
    assert faces_of(dicecli.roll("6d6", source=source)) == expected


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_process_makes_its_own_generator() -> None:
    parent = api._random_source(None)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the child: say whether it got a generator of its own, and leave
        mine = api._random_source(None)
        os.write(writing, b"own" if mine is not parent else b"parent's")
        os._exit(0)
    os.close(writing)
    said = os.read(reading, 16)
    os.close(reading)
    os.waitpid(child, 0)
    assert said == b"own"
    assert api._random_source(None) is parent
