"""dicecli: a dice roller for tabletop gamers.

The public API::

    >>> import dicecli
    >>> dicecli.roll("2d6+5", given="3,4").total
    12

``parse`` turns text into a syntax tree, ``roll`` rolls it, ``reroll`` rolls a result
again under rule W5, ``odds`` gives exact chances. Errors derive from ``DiceError``.

Results, their dice and their breakdowns are frozen values shared between rolls: read
them, never change them (``dicecli/frozen.py``: nothing refuses an assignment at run
time, and a changed die would show in later rolls). Type checkers refuse it.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicecli.api import odds, parse, reroll, roll
    from dicecli.environment import Environment
    from dicecli.errors import (
        DiceError,
        DiceSyntaxError,
        GivenFacesError,
        RollLimitError,
        RuleError,
        UnknownNameError,
    )
    from dicecli.results import RollResult
    from dicecli.rolling.sources import (
        DEFAULT_BUDGET,
        DiceSource,
        GivenSource,
        RandomSource,
        Roller,
    )

from dicecli.command_line import VERSION as __version__  # noqa: N811

if not TYPE_CHECKING:  # type checkers read the imports above, and know every name
    # The public names are imported on first use (docs/startup.md, "Public names").
    from dicecli.entry import public_name as __getattr__  # noqa: F401
    from dicecli.entry import public_names as __dir__  # noqa: F401


__all__ = [
    "DEFAULT_BUDGET",
    "DiceError",
    "DiceSource",
    "DiceSyntaxError",
    "Environment",
    "GivenFacesError",
    "GivenSource",
    "RandomSource",
    "RollLimitError",
    "RollResult",
    "Roller",
    "RuleError",
    "UnknownNameError",
    "__version__",
    "odds",
    "parse",
    "reroll",
    "roll",
]
