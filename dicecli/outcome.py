"""The verdict of a game check: :class:`Outcome`, carried by a check's
:class:`~dicecli.results.RollResult`.

Only the game modules build outcomes (a plain roll's is None), so this type lives apart
from :mod:`dicecli.results` and a plain roll never creates it: a frozen dataclass costs
about 3M instructions (1 ms) to create on Python 3.11, at every start that imports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicecli.results import JSONValue


@dataclass(frozen=True)
class Outcome:
    """The verdict of a check and its facts.

    ``passed`` drives the exit status (False: 1) and the colour; None when the roll is
    not pass/fail (a scatter roll, a roll-off). ``fields`` become the JSON ``outcome``
    object, in order.
    """

    verdict: str
    passed: bool | None
    fields: tuple[tuple[str, JSONValue], ...] = ()
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {"verdict": self.verdict, "passed": self.passed}
        data.update(self.fields)
        if self.notes:
            data["notes"] = list(self.notes)
        return data
