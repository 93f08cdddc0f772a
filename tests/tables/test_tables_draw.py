"""Drawing from tables with given dice: the behaviour docs/tables.md documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicecli.environment import Environment
from dicecli.errors import DiceError
from dicecli.results import JSONValue, RollResult
from dicecli.rolling.sources import GivenSource, RandomSource, Roller
from dicecli.tables.draw import draw
from dicecli.tables.load import load_book, parse_book
from dicecli.tables.model import TableBook

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tables.toml"


def given(book: TableBook, name: str, faces: str, env: Environment | None = None) -> RollResult:
    """Draw with exactly these faces (all of them used)."""
    source = GivenSource.from_text(faces)
    result = draw(book, name, Roller(source), env or Environment())
    source.check_all_used()
    return result


def fields(result: RollResult) -> dict[str, object]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


BOOK = parse_book(
    """
[encounters]
roll = "2d6"
[encounters.entries]
"2-6" = "[[2d4]] goblins"
"7" = "a merchant with [[table: loot]] and [[d4]] mules"
"8-12" = "nothing"

[loot.entries]
coins = { weight = 3, text = "[[d6]] gold" }
gem = "a gem from [[table: gems]]"

[gems]
roll = "d100"
[gems.entries]
"1-99" = "the river"
"100" = "a dragon's hoard worth [[d10*100]] gold"
""",
    "t.toml",
)


def test_the_tables_roll_picks_the_entry_covering_its_total() -> None:
    """docs/tables.md, "Rolled tables": every value has exactly one entry."""
    result = given(BOOK, "encounters", "4,5")
    assert result.total == 9
    assert fields(result)["key"] == "8-12"
    assert fields(result)["text"] == "nothing"
    assert result.outcome is not None
    assert result.outcome.verdict == "8-12: nothing"
    assert result.outcome.passed is None  # a draw is not a check
    assert result.expression == "2d6"
    assert result.input == "table encounters"


def test_an_inline_roll_is_rolled_after_the_tables_roll_and_shown() -> None:
    """docs/tables.md, "Which dice, in what order": the table's roll, then the inline
    roll's dice."""
    result = given(BOOK, "encounters", "1,2,3,4")
    assert fields(result)["text"] == "7 goblins"
    assert [die.face for die in result.dice] == ["1", "2", "3", "4"]
    assert result.outcome is not None
    assert result.outcome.notes == ("[[2d4]]: [3, 4] = 7",)
    assert fields(result)["rolls"] == [
        {
            "roll": "2d4",
            "expression": "2d4",
            "total": 7,
            "text": "7",
            "dice": [result.dice[2].as_dict(), result.dice[3].as_dict()],
        }
    ]


def test_a_weighted_table_takes_the_faces_of_one_die_in_file_order() -> None:
    """docs/tables.md, "Weighted tables": loot (3 + 1) is a d4; coins take 1-3, gem 4."""
    assert fields(given(BOOK, "loot", "3,6"))["key"] == "coins"
    result = given(BOOK, "loot", "4,42")
    assert fields(result)["key"] == "gem"
    assert result.dice[0].die == "d4"
    with pytest.raises(DiceError, match="given face #1 '5' is not a face of d4"):
        given(BOOK, "loot", "5")


def test_weights_adding_up_to_three_roll_the_d3() -> None:
    """docs/tables.md, "Weighted tables": the notation's d3 is the D3 of rule N4 (a d6
    halved, rounding up), which gives 1, 2 and 3 equally often."""
    book = parse_book('[a.entries]\none = { weight = 2, text = "x" }\ntwo = "y"\n', "t.toml")
    assert [fields(given(book, "a", str(face)))["key"] for face in range(1, 7)] == [
        "one",  # 1 -> 1
        "one",  # 2 -> 1
        "one",  # 3 -> 2
        "one",  # 4 -> 2
        "two",  # 5 -> 3
        "two",  # 6 -> 3
    ]


def test_a_reference_draws_from_the_other_table_in_the_order_of_the_text() -> None:
    """docs/tables.md, "Which dice, in what order": the referred table's roll and its
    own inline rolls come where the reference stands, before later inline rolls."""
    result = given(BOOK, "encounters", "3,4,4,100,7,2")
    assert fields(result)["text"] == (
        "a merchant with a gem from a dragon's hoard worth 700 gold and 2 mules"
    )
    assert [die.die for die in result.dice] == ["d6", "d6", "d4", "d100", "d10", "d4"]
    assert result.outcome is not None
    assert result.outcome.notes == (
        # the entry's text is the verdict's: each note names its entry, said once
        "table loot: [4] = 4 → gem",
        "table gems: [100] = 100 → 100",
        "gems [[d10*100]]: [7]*100 = 700",  # the breakdown as for any roll
        "[[d4]]: [2] = 2",
    )
    rolls = fields(result)["rolls"]
    assert isinstance(rolls, list)
    assert len(rolls) == 2
    loot = rolls[0]
    assert isinstance(loot, dict)
    assert (loot["table"], loot["key"], loot["total"]) == ("loot", "gem", 4)
    gems = loot["rolls"]
    assert isinstance(gems, list)
    assert isinstance(gems[0], dict)
    assert (gems[0]["table"], gems[0]["key"], gems[0]["text"]) == (
        "gems",
        "100",
        "a dragon's hoard worth 700 gold",
    )


def test_inline_rolls_use_the_sessions_names() -> None:
    """docs/tables.md, "Inline rolls and other tables": with your names."""
    book = parse_book('[a.entries]\nx = "[[d6+STR]] damage"\n', "t.toml")
    result = given(book, "a", "1,4", Environment(values={"STR": 3}))
    assert fields(result)["text"] == "7 damage"
    with pytest.raises(DiceError, match="unknown name 'STR'"):
        given(book, "a", "1,4")


def test_one_draw_rolls_at_most_a_rolls_dice_all_its_rolls_together() -> None:
    """docs/tables.md, "Depth limit": 10,000 dice for the whole draw (998 inline rolls
    of 10000d6 once took 18 s and 2.8 GB); within it, a draw rolls as before, and the
    next draw has its whole budget again."""
    heavy = parse_book('[a.entries]\nx = "[[5000d6]] and [[5000d6]]"\n', "t.toml")
    roller = Roller(RandomSource(1))
    with pytest.raises(DiceError, match="one draw may use at most 10,000 dice"):
        draw(heavy, "a", roller)
    fits = parse_book('[a.entries]\nx = "[[4999d6]] and [[5000d6]]"\n', "t.toml")
    assert len(draw(fits, "a", roller).dice) == 10_000  # the weighted table's die too
    assert len(draw(fits, "a", roller).dice) == 10_000
    assert roller.budget == 10_000


def test_an_inline_check_shows_its_verdict_when_it_has_no_total() -> None:
    """docs/tables.md, "Inline rolls and other tables": a roll with a verdict and no
    total shows its verdict (rule W1: the artillery die's MISFIRE has no number)."""
    book = parse_book('[a.entries]\nx = "the cannon: [[wfb artillery]]"\n', "t.toml")
    result = given(book, "a", "1,MISFIRE")
    assert fields(result)["text"] == "the cannon: MISFIRE"


def test_too_few_given_faces_is_the_usual_error() -> None:
    with pytest.raises(DiceError, match="not enough dice given"):
        given(BOOK, "encounters", "1,1")


def test_the_example_file_draws_as_its_documentation_says() -> None:
    """docs/tables.md, "Which dice, in what order": --given 1,1,9,50,3,3."""
    result = given(load_book(EXAMPLE), "encounters", "1,1,9,50,3,3")
    assert fields(result)["key"] == "2"
    assert fields(result)["text"] == (
        "A dragon circles overhead, carrying a gem: a quartz worth 6 gold"
    )


def test_the_same_seed_draws_the_same() -> None:
    book = load_book(EXAMPLE)

    def evening(seed: int) -> list[dict[str, JSONValue]]:
        roller = Roller(RandomSource(seed))
        return [draw(book, "encounters", roller).as_dict() for _ in range(30)]

    assert evening(7) == evening(7)
    assert evening(7) != evening(8)
