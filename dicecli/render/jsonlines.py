"""JSON Lines for ``--json``: one object per roll (schema in ``docs/json.md``)."""

from __future__ import annotations

import json
from typing import TextIO

from dicecli.probability.distribution import Odds
from dicecli.results import RollResult
from dicecli.tally import Tally


class JsonRenderer:
    def __init__(self, stream: TextIO) -> None:
        self.write = stream.write

    def result(self, result: RollResult) -> None:
        self.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")

    def summary(self, tally: Tally) -> None:
        """Nothing: a JSON stream holds one object per roll and no summary line."""

    def odds(self, odds: Odds, full: bool = False) -> None:
        from dicecli.probability.report import odds_as_dict

        self.write(json.dumps(odds_as_dict(odds), ensure_ascii=False) + "\n")
