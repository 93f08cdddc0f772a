"""Each entry's exact chance, checked against brute force through the real draw: every
face of the table roll's dice, in every order, drawn with :func:`dicecli.tables.draw.draw`
(docs/tables.md, "Odds: --odds")."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.environment import Environment
from dicecli.notation.dice import Die
from dicecli.probability.report import probability_object
from dicecli.rolling.evaluate import roll
from dicecli.rolling.sources import Roller
from dicecli.tables.draw import draw
from dicecli.tables.load import load_book, parse_book
from dicecli.tables.model import TableBook
from dicecli.tables.odds import entry_chances, table_odds, table_odds_as_dict

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tables.toml"


class Faces:
    """A dice source: these face indexes first, then the first face of every die."""

    def __init__(self, indexes: tuple[int, ...] = ()) -> None:
        self.indexes = list(indexes)
        self.seen: list[Die] = []

    def draw(self, die: Die) -> int:
        self.seen.append(die)
        return self.indexes.pop(0) if self.indexes else 0


def brute_force(book: TableBook, name: str) -> dict[str, Fraction]:
    """Each entry's chance, by drawing with every face sequence of the table's roll."""
    table = book.table(name)
    probe = Faces()
    roll(table.roll, Roller(probe), Environment(), table.roll_text)
    dice = probe.seen  # the table roll's dice (a fixed number for these rolls)
    counts: Counter[str] = Counter()
    outcomes = list(itertools.product(*(range(len(die.faces)) for die in dice)))
    for indexes in outcomes:
        result = draw(book, name, Roller(Faces(indexes)))
        assert result.outcome is not None
        counts[str(dict(result.outcome.fields)["key"])] += 1
    return {key: Fraction(count, len(outcomes)) for key, count in counts.items()}


def computed(book: TableBook, name: str) -> dict[str, Fraction]:
    return {entry.key: chance for entry, chance in entry_chances(book.table(name)) if chance}


def test_the_example_tables_odds_equal_brute_force() -> None:
    book = load_book(EXAMPLE)
    for name in book.names():
        assert computed(book, name) == brute_force(book, name), name


def test_the_example_encounters_odds_are_those_of_2d6() -> None:
    """The documented figures: 2 is 1/36, 5-6 is 4/36 + 5/36 = 1/4."""
    chances = computed(load_book(EXAMPLE), "encounters")
    assert chances["2"] == Fraction(1, 36)
    assert chances["5-6"] == Fraction(1, 4)
    assert sum(chances.values()) == 1


@st.composite
def rolled_tables(draw_from: st.DrawFn) -> str:
    """A table file whose one table ``t`` is rolled with ``NdS`` (or ``NdSkh1``), its
    possible totals cut into consecutive ranges at random points."""
    count = draw_from(st.integers(1, 3))
    sides = draw_from(st.sampled_from([2, 4, 5, 6, 8]))
    keep = count > 1 and draw_from(st.booleans())
    low, high = (1, sides) if keep else (count, count * sides)
    cuts = sorted(draw_from(st.sets(st.integers(low + 1, high), max_size=high - low)))
    bounds = [low, *cuts, high + 1]
    lines = [f'"{a}-{b - 1}" = "e{a}"' for a, b in itertools.pairwise(bounds)]
    expression = f"{count}d{sides}" + ("kh1" if keep else "")
    return f'[t]\nroll = "{expression}"\n[t.entries]\n' + "\n".join(lines) + "\n"


@settings(max_examples=examples(60), deadline=None)
@given(rolled_tables())
def test_rolled_tables_odds_equal_brute_force(text: str) -> None:
    book = parse_book(text, "t.toml")
    assert computed(book, "t") == brute_force(book, "t")


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=5))
def test_weighted_tables_odds_equal_brute_force(weights: list[int]) -> None:
    lines = [f'e{n} = {{ weight = {w}, text = "x" }}' for n, w in enumerate(weights)]
    book = parse_book("[t.entries]\n" + "\n".join(lines) + "\n", "t.toml")
    assert computed(book, "t") == brute_force(book, "t")
    whole = sum(weights)
    assert computed(book, "t") == {f"e{n}": Fraction(w, whole) for n, w in enumerate(weights)}


def test_odds_name_each_entry_by_key_and_text() -> None:
    found = table_odds(load_book(EXAMPLE).table("loot"))
    assert found.input == "table loot"
    assert found.expression == "d10"
    assert found.chances[0] == ("coins: [[3d6]] gold pieces", Fraction(1, 2))
    assert found.exact


def test_odds_json_lists_every_entry() -> None:
    data = table_odds_as_dict(load_book(EXAMPLE).table("gems"))
    assert data["table"] == "gems"
    assert data["weighted"] is False
    entries = data["entries"]
    assert isinstance(entries, list)
    assert entries[-1] == {
        "key": "100",
        "text": "a flawless diamond worth 1000 gold",
        "low": 100,
        "high": 100,
        "weight": None,
        "probability": probability_object(Fraction(1, 100)),
    }
