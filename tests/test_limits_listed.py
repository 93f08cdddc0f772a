"""docs/limits.md lists every limit in one place, with the value the code has (issue
24): each ``MAX_*`` constant of dicecli is found in the source, and must either have its
row in docs/limits.md, with its value as the doc writes it, or be named below as no
limit a player meets (a cache's tuning, a guess of the fast path). The limits the doc
adds for the games are also checked against what the games say when passed."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import dicecli
from dicecli.errors import DiceError

ROOT = Path(__file__).resolve().parent.parent
LIMITS = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")

LISTED: dict[str, tuple[int, str, str]] = {
    # constant: (its value, how docs/limits.md writes it, words of its row)
    "dicecli.limits.MAX_LINE_LENGTH": (10_000, "10,000", "characters in a line"),
    "dicecli.limits.MAX_TERMS": (1_000, "1,000", "terms in a line"),
    "dicecli.limits.MAX_NESTING": (100, "100", "brackets `( { [` open at once"),
    "dicecli.limits.MAX_MODIFIERS": (100, "100", "modifiers on one dice term"),
    "dicecli.limits.MAX_DIGITS": (100, "100", "digits in a number typed"),
    "dicecli.limits.MAX_VALUE": (10**100 - 1, "100", "digits in a value worked out"),
    "dicecli.limits.MAX_FACES": (10_000, "10,000", "faces of a custom die"),
    "dicecli.limits.MAX_FACE_VALUE": (1_000_000, "1,000,000", "value of a custom die's face"),
    "dicecli.notation.semantics.MAX_DICE_COUNT": (10_000, "10,000", "dice in one roll"),
    "dicecli.notation.semantics.MAX_SIDES": (10_000, "10,000", "sides of a die"),
    "dicecli.notation.semantics.MAX_NAME_DEPTH": (16, "16 deep", "saved rolls referring"),
    "dicecli.rolling.sources.DEFAULT_BUDGET": (10_000, "10,000", "dice in one roll"),
    "dicecli.rolling.sources.MAX_GIVEN_FACES": (100_000, "100,000", "faces in `--given`"),
    "dicecli.rolling.sources.MAX_GIVEN_TEXT": (1_000_000, "1,000,000", "characters of `--given`"),
    "dicecli.limits.MAX_TIMES": (100_000, "100,000", "`--times`"),
    "dicecli.files.MAX_FILE_BYTES": (1 << 20, "1 MiB", "character file"),
    "dicecli.files.MAX_NAME_PARTS": (64, "64 dotted parts", "character file"),
    "dicecli.dicefiles.load.MAX_FACES": (1_000, "1,000 faces", "dice file"),
    "dicecli.repl.prompt.MAX_HISTORY_BYTES": (16 << 20, "16 MiB", "REPL history"),
    "dicecli.tables.load.MAX_DEPTH": (8, "8 tables", "depth"),
    "dicecli.tables.load.MAX_ROLLS": (1_000, "1,000", "rolls in one draw"),
    "dicecli.tables.load.MAX_TOTAL_WEIGHT": (10_000, "10,000", "weights"),
    "dicecli.probability.weights.MAX_QUESTION_WORK": (8 * 10**8, "800 million", "one question"),
    "dicecli.probability.weights.MAX_WORK": (8 * 10**8, "800 million", "work of one step"),
    "dicecli.probability.weights.MAX_EXACT_BYTES": (16 << 20, "16 MiB", "exact numbers"),
    "dicecli.probability.weights.MAX_OUTCOMES": (100_000, "100,000", "distinct totals"),
    "dicecli.probability.weights.MAX_PAIRS": (200_000, "200,000", "pairs for `*` and `/`"),
    "dicecli.probability.keep.MAX_TRACKED_STEPS": (1_000_000, "1,000,000 steps", "keep/drop"),
    "dicecli.probability.keep.MAX_STATES": (200_000, "200,000 tuples", "keep/drop"),
    "dicecli.probability.unique.MAX_UNIQUE_STEPS": (500_000, "500,000", "unique dice"),
    "dicecli.probability.engine.MAX_EXPLOSION_DEPTH": (2_000, "2,000", "explosion depth"),
    "dicecli.probability.symbols.MAX_STATES": (200_000, "200,000", "symbol counts"),
    "dicecli.probability.symbol_ways.MAX_WAYS": (4_096, "4,096", "ways the dice of a line"),
    "dicecli.probability.symbol_ways.MAX_DRAWS": (32_768, "32,768 dice", "ways the dice"),
    "dicecli.systems.warhammer.odds.MAX_ROUNDS_PLAYERS": (100, "100", "roll-off rounds"),
    "dicecli.systems.warhammer.grammar.MAX_PLAYERS": (100, "100", "numbered roll-off"),
    "dicecli.systems.warhammer.grammar.MAX_CANDIDATES": (10_000, "10,000", "candidates"),
    "dicecli.systems.warhammer.grammar.MAX_ITEMS": (1_000, "1,000", "items one allocation"),
    "dicecli.systems.alkemy.roll.MAX_ROUNDS": (100, "100", "Alkemy opposed roll"),
    "dicecli.systems.age.grammar.MAX_SIDES": (12, "12", "sides of an AGE opposed test"),
    "dicecli.systems.age.odds.MAX_ODDS_SIDES": (6, "6", "odds are worked out"),
    "dicecli.notation.dice.MAX_OTHER_SIDES": (1024, "1,024", "dice of other sizes"),
    "dicecli.notation.dice.MAX_DICE_SHARING_ROLLS": (32, "32", "dice of other sizes"),
    "dicecli.notation.dice.MAX_CUSTOM_DICE": (32, "32", "custom dice"),
    "dicecli.notation.dice.MAX_SHARED_ROLLS": (256, "256", "dice of other sizes"),
    "dicecli.notation.dice.MAX_SHARED_VARIANTS": (4096, "4,096", "lines made ready to roll"),
    "dicecli.rolling.shared_outcomes.MAX_OUTCOMES": (1296, "1,296", "result trees that rolls"),
    "dicecli.rolling.shared_outcomes.MAX_SHARED": (32_768, "32,768", "result trees that"),
    "dicecli.rolling.shared_outcomes.MAX_WEIGHT": (256, "256", "result trees that"),
}

NOT_LIMITS = {
    "dicecli.limits.RECURSION_LIMIT": "Python's recursion limit, raised so the bounds are met",
    "dicecli.systems.alkemy.rules.MAX_EXTRA": "a rule of Alkemy: two extra dice at most",
    "dicecli.notation.common_lines._MAX_DIGITS": "the fast path's guess; longer: the grammar",
    "dicecli.notation.common_lines._MAX_DEPTH": "the fast path's guess; deeper goes to the grammar",
    "dicecli.rolling.evaluate.MAX_SHARED_OUTCOMES": "outcomes kept for reuse; nothing is refused",
    "dicecli.rolling.dice_steps.MAX_LONE_DIE_STEPS": "steps kept for reuse; nothing is refused",
    "dicecli.results.MAX_VALUE_TEXTS": "faces' texts kept for reuse; nothing is refused",
}


def limit_constants() -> set[str]:
    """Every module-level constant of dicecli named like a limit (``MAX_*``, ``*_LIMIT``,
    ``*_BUDGET``)."""
    found: set[str] = set()
    for path in (ROOT / "dicecli").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                name = target.id if isinstance(target, ast.Name) else ""
                bare = name.lstrip("_")
                if bare.startswith("MAX_") or bare.endswith(("_LIMIT", "_BUDGET")):
                    found.add(f"{module}.{name}")
    return found


def test_every_limit_in_the_code_is_listed_or_said_to_be_none() -> None:
    assert limit_constants() == set(LISTED) | set(NOT_LIMITS)


def rows() -> list[str]:
    return [line for line in LIMITS.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("constant", sorted(LISTED))
def test_each_limit_has_its_row_with_the_codes_value(constant: str) -> None:
    module, name = constant.rsplit(".", 1)
    value, written, words = LISTED[constant]
    assert getattr(importlib.import_module(module), name) == value
    matching = [row for row in rows() if words in row and written in row]
    assert matching, f"no row of docs/limits.md has {words!r} and {written!r}"


@pytest.mark.parametrize(
    ("line", "odds", "message"),
    [
        ("wfb rolloff 101", False, "2 to 100 players, please"),
        ("wfb allocate 1001 among 3", False, "1 to 1000 items, please"),
        (" vs ".join(["age 1"] * 13), False, "an opposed test may have at most 12 sides"),
        (" vs ".join(["age 1"] * 7), True, "exact odds of an opposed test go up to 6 sides"),
    ],
)
def test_the_games_limits_are_as_listed(line: str, odds: bool, message: str) -> None:
    ask = dicecli.odds if odds else lambda text: dicecli.roll(text, seed=1)
    with pytest.raises(DiceError) as raised:
        ask(line)
    assert message in raised.value.message
    assert f"`{message}`" in LIMITS


@pytest.mark.parametrize(
    ("line", "odds"),
    [
        ("wfb rolloff 100", False),
        ("wfb allocate 1000 among 3", False),
        (" vs ".join(["age 1"] * 12), False),
        (" vs ".join(["age 1"] * 6), True),
    ],
)
def test_the_games_limits_themselves_are_allowed(line: str, odds: bool) -> None:
    if odds:
        assert dicecli.odds(line).chances
    else:
        assert dicecli.roll(line, seed=1).outcome is not None
