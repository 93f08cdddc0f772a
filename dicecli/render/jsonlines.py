"""JSON Lines for ``--json``: one object per roll (schema in ``docs/json.md``).

A result's object is :meth:`RollResult.as_dict` written as ``json.dumps`` writes it,
but put together here from pieces: the dice of small dice are built once per face and
come back roll after roll, so each die's JSON is encoded once (:data:`die_json`), which
makes a piped ``--json`` line several times cheaper. ``tests/render`` checks the text
is ``json.dumps(result.as_dict(), ensure_ascii=False)`` byte for byte. The renderer
writes it with the characters JSON leaves raw that could drive a terminal (DEL, the C1
controls) as ``\\u`` escapes (:func:`dicecli.escape.json_escaped`): the same
JSON value.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, TextIO

from dicecli.escape import json_escaped
from dicecli.identity_cache import IdentityCache
from dicecli.results import DieRoll, RollResult

if TYPE_CHECKING:  # rolling never loads the odds engine
    from collections.abc import Sequence

    from dicecli.probability.distribution import Odds
    from dicecli.tally import Tally

_encode = json.JSONEncoder(ensure_ascii=False).encode

die_json: IdentityCache[DieRoll, str] = IdentityCache(lambda die: _encode(die.as_dict()))
"""A die's JSON object, encoded once per die object."""


def result_json(result: RollResult) -> str:
    """``json.dumps(result.as_dict(), ensure_ascii=False)``, from cached pieces."""
    total, outcome, comment = result.total, result.outcome, result.comment
    return (
        f'{{"input": {encode_basestring(result.input)}, '
        f'"expression": {encode_basestring(result.expression)}, '
        f'"total": {"null" if total is None else int.__repr__(total)}, '
        f'"dice": [{", ".join(die_json.many(result.dice))}], '
        f'"outcome": {"null" if outcome is None else _encode(outcome.as_dict())}, '
        f'"comment": {"null" if comment is None else encode_basestring(comment)}, '
        f'"reroll": {"true" if result.reroll else "false"}'
        f"{_notes_json(result.notes) if result.notes else ''}}}"
    )


def _notes_json(notes: tuple[str, ...]) -> str:
    """``, "notes": [...]``: a result's notes, when it has any."""
    return f', "notes": {_encode(list(notes))}'


class JsonRenderer:
    def __init__(self, stream: TextIO) -> None:
        self.write = stream.write

    def result(self, result: RollResult) -> None:
        self.write(json_escaped(result_json(result)) + "\n")

    def summary(self, tally: Tally) -> None:
        """Nothing: a JSON stream holds one object per roll and no summary line."""

    def align(self, results: Sequence[RollResult]) -> None:
        """Nothing: JSON is not laid out."""

    def odds(self, odds: Odds, full: bool = False) -> None:
        from dicecli.probability.report import odds_as_dict  # docs/startup.md

        self.write(json_escaped(_encode(odds_as_dict(odds))) + "\n")
