"""``--json`` lines: put together from cached pieces, yet exactly ``json.dumps`` of the
schema's dict (``docs/json.md``), whatever the roll."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_counts import examples
from strategies import line_text

import dicecli
from dicecli.errors import DiceError
from dicecli.render.jsonlines import result_json
from dicecli.results import RollResult
from dicecli.rolling.sources import RandomSource


def _dumps(result: RollResult) -> str:
    return json.dumps(result.as_dict(), ensure_ascii=False)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_text(depth=1, names=False), st.integers(0, 2**32))
def test_every_line_is_json_dumps_of_its_dict(text: str, seed: int) -> None:
    source = RandomSource(seed)
    for _ in range(2):  # the second time, every small die's JSON comes from the cache
        try:
            result = dicecli.roll(text, source=source)
        except DiceError:  # division by zero, the roll budget: no result to write
            return
        assert result_json(result) == _dumps(result)
        assert json.loads(result_json(result)) == result.as_dict()


@pytest.mark.parametrize(
    "text",
    [
        "alkemy 8 vs 15 +1bonus # climb",
        "wfb artillery",
        "wfb ld 8",
        "age 3 vs 13 until 15",
        "age 2 vs age 3",
        'd6 # a "quoted" note, a \\ and \u00e9\t\u2603',
        "4d6kh3[str\u00e9ngth]",
        "d10000 * 9999d2",
    ],
)
def test_game_checks_notes_and_odd_characters(text: str) -> None:
    for seed in range(5):
        result = dicecli.roll(text, seed=seed)
        assert result_json(result) == _dumps(result)


def test_a_re_roll() -> None:
    result = dicecli.reroll(dicecli.roll("3d6", seed=1), seed=2)
    assert result.reroll
    assert result_json(result) == _dumps(result)
