"""Every example in the REPL's help is a line the REPL accepts."""

from __future__ import annotations

import pytest

from dicecli.environment import Environment
from dicecli.repl.commands import handle_line
from dicecli.repl.help import EXAMPLE_VALUES, help_text, topics
from dicecli.repl.state import OddsShown, Rolled, start_state
from dicecli.rolling.sources import RandomSource, Roller

EXAMPLES = [(name, example) for name, topic in topics().items() for example, _ in topic.examples]


@pytest.mark.parametrize(("topic", "example"), EXAMPLES)
def test_every_help_example_rolls(topic: str, example: str) -> None:
    state = start_state(Roller(RandomSource(1)), Environment(values=EXAMPLE_VALUES))
    _, output = handle_line(state, example)
    assert len(output) == 1
    assert isinstance(output[0], OddsShown if topic == "odds" else Rolled)


def test_every_game_and_the_notation_have_examples() -> None:
    for topic in ("notation", "alkemy", "wfb", "age", "odds"):
        assert len(topics()[topic].examples) >= 5


def test_the_repl_topic_lists_the_commands() -> None:
    assert "  let NAME = VALUE" in help_text("repl", "  let NAME = VALUE  name a number")
