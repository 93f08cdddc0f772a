"""``dnd`` lines: canonical text that parses back (Hypothesis), rolls that stay within
their rules, errors with a caret, and the hints for common mistakes (rules D1-D7).

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import DiceSyntaxError
from dicecli.hints import advise

KINDS = st.sampled_from(["attack", "check", "save", ""])
EDGE_WORDS = st.lists(st.sampled_from(["adv", "advantage", "dis", "disadvantage"]), max_size=3)


@settings(max_examples=examples(200))
@given(KINDS, st.integers(-9, 15), EDGE_WORDS, st.one_of(st.none(), st.integers(0, 35)))
def test_a_line_parses_back_from_its_canonical_text(
    kind: str, modifier: int, edges: list[str], target: int | None
) -> None:
    line = f"dnd {kind} {modifier:+d} {' '.join(edges)}"
    if target is not None:
        line += f" vs {target}"
    check = dicecli.parse(line).body
    assert dicecli.parse(str(check)).body == check


@settings(max_examples=examples(200))
@given(
    KINDS,
    st.integers(-9, 15),
    EDGE_WORDS,
    st.integers(0, 35),
    st.lists(st.integers(1, 20), min_size=2, max_size=2),
)
def test_a_roll_follows_its_rules(
    kind: str, modifier: int, edges: list[str], target: int, faces: list[int]
) -> None:
    # rules D1-D3
    line = f"dnd {kind} {modifier:+d} {' '.join(edges)} vs {target}"
    has = {word[:3] for word in edges}
    two = len(has) == 1
    given_faces = ",".join(map(str, faces if two else faces[:1]))
    result = dicecli.roll(line, given=given_faces)
    natural = faces[0] if not two else (max(faces) if "adv" in has else min(faces))
    assert result.total == natural + modifier
    assert result.outcome is not None
    if kind == "attack" and natural in (1, 20):
        assert result.outcome.passed is (natural == 20)  # rule D1
    else:
        assert result.outcome.passed is (natural + modifier >= target)  # rules D1, D2


@pytest.mark.parametrize(
    ("line", "message", "position"),
    [
        ("dnd attack d20+5 vs 15", "the d20 is rolled for you", len("dnd attack ")),
        ("dnd death vs 12", "DC is 10", len("dnd death ")),
        ("dnd damage", "expected damage dice", len("dnd damage")),
        ("dnd damage 0d6", "1 to 1000 dice", len("dnd damage ")),
        ("dnd attack +5 vs", "expected an AC or DC", len("dnd attack +5 vs")),
        ("dnd damage 2d6 +3 x2", "write crit", len("dnd damage 2d6 ")),
    ],
)
def test_bad_lines_get_a_caret(line: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    assert message in caught.value.message
    assert caught.value.position == position


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [
        ("dnd stat", "dnd stats"),
        ("dnd damage 2d6+3 x2", "dnd damage 2d6+3 crit"),
        ("dnd attack +5 with adv vs 15", "dnd attack +5 adv vs 15"),
    ],
)
def test_common_mistakes_get_a_hint(line: str, suggestion: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(line)
    hint = advise(caught.value).hint
    assert hint is not None
    assert suggestion in hint
    dicecli.parse(suggestion)  # the suggestion itself reads


def test_the_alias_keyword_and_any_case() -> None:
    assert (
        dicecli.parse("DnD5e Attack +5 VS AC 15").body == dicecli.parse("dnd attack +5 vs 15").body
    )
