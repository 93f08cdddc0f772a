"""Every example in the REPL's help is a line the REPL accepts."""

from __future__ import annotations

import pytest

from dicecli.environment import Environment
from dicecli.repl.help import EXAMPLE_VALUES, TOPICS, TOPICS_BY_NAME, help_text
from dicecli.repl.state import OddsShown, Rolled, handle_line, start_state
from dicecli.rolling.dice import RandomSource, Roller

EXAMPLES = [(topic, example) for topic in TOPICS for example, _ in TOPICS_BY_NAME[topic].examples]


@pytest.mark.parametrize(("topic", "example"), EXAMPLES)
def test_every_help_example_rolls(topic: str, example: str) -> None:
    state = start_state(Roller(RandomSource(1)), Environment(values=EXAMPLE_VALUES))
    _, output = handle_line(state, example)
    assert len(output) == 1
    assert isinstance(output[0], OddsShown if topic == "odds" else Rolled)


def test_every_game_and_the_notation_have_examples() -> None:
    for topic in ("notation", "alkemy", "wfb", "age", "odds"):
        assert len(TOPICS_BY_NAME[topic].examples) >= 5


def test_the_repl_topic_lists_the_commands() -> None:
    assert "  let NAME = VALUE" in help_text("repl", "  let NAME = VALUE  name a number")
