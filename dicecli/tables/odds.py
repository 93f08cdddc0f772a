"""Each entry's exact chance (``dicecli table NAME --odds``, ``docs/tables.md``).

An entry's chance is the chance that the table's roll lands in its range, from the
roll's exact distribution (:mod:`dicecli.probability.engine`); a weighted entry's is its
weight over the sum of the weights (the same figure: the table is rolled with one die
of that many sides). Inline rolls and referred tables do not change which entry is
chosen, so they are not part of these figures.
"""

from __future__ import annotations

import bisect
from fractions import Fraction

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.notation.nodes import Check, Comparison
from dicecli.probability.distribution import Odds
from dicecli.probability.engine import distribution
from dicecli.probability.report import probability_object
from dicecli.results import JSONValue
from dicecli.tables.model import Entry, Table


def entry_chances(
    table: Table, env: Environment = EMPTY_ENVIRONMENT
) -> tuple[tuple[Entry, Fraction], ...]:
    """Every entry of ``table`` and its exact chance, in table order, with the names of
    ``env`` for a roll that reads them (``d100+CRITS``)."""
    if table.weighted:
        whole = sum(entry.weight for entry in table.entries)
        return tuple((entry, Fraction(entry.weight, whole)) for entry in table.entries)
    body = table.roll.body
    assert not isinstance(body, (Check, Comparison))  # checked when loaded
    lows = [entry.low for entry in table.entries]
    chances = [Fraction(0)] * len(lows)
    for value, chance in distribution(body, env).outcomes:
        index = bisect.bisect_right(lows, value) - 1  # every value has one entry (load)
        chances[index] += chance
    return tuple(zip(table.entries, chances, strict=True))


def table_odds(table: Table, env: Environment = EMPTY_ENVIRONMENT) -> Odds:
    """The chances as :class:`Odds` for the terminal and plain renderers: one named
    chance per entry, ``key: text``."""
    return Odds(
        input=f"table {table.name}",
        expression=table.roll_text,
        chances=tuple(
            (f"{entry.key}: {entry.text}", chance) for entry, chance in entry_chances(table, env)
        ),
    )


def table_odds_as_dict(table: Table, env: Environment = EMPTY_ENVIRONMENT) -> dict[str, JSONValue]:
    """The JSON object of ``dicecli table NAME --odds --json`` (``docs/tables.md``)."""
    entries: list[JSONValue] = [
        {
            "key": entry.key,
            "text": entry.text,
            "low": entry.low,
            "high": entry.high,
            "weight": entry.weight if table.weighted else None,
            "probability": probability_object(chance),
        }
        for entry, chance in entry_chances(table, env)
    ]
    return {
        "input": f"table {table.name}",
        "table": table.name,
        "expression": table.roll_text,
        "weighted": table.weighted,
        "entries": entries,
        "exact": True,
    }
