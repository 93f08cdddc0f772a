"""dicecli: a dice roller for tabletop gamers.

The public API::

    >>> import dicecli
    >>> dicecli.roll("2d6+5", given="3,4").total
    12

``parse`` turns text into a syntax tree, ``roll`` rolls it, ``reroll`` rolls a result
again under rule W5, ``odds`` gives exact chances. Errors derive from ``DiceError``.

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

__version__ = "0.1.0"

_HOMES = {
    "odds": "dicecli.api",
    "parse": "dicecli.api",
    "reroll": "dicecli.api",
    "roll": "dicecli.api",
    "Environment": "dicecli.environment",
    "DiceError": "dicecli.errors",
    "DiceSyntaxError": "dicecli.errors",
    "GivenFacesError": "dicecli.errors",
    "RollLimitError": "dicecli.errors",
    "RuleError": "dicecli.errors",
    "UnknownNameError": "dicecli.errors",
    "RollResult": "dicecli.results",
    "DEFAULT_BUDGET": "dicecli.rolling.sources",
    "DiceSource": "dicecli.rolling.sources",
    "GivenSource": "dicecli.rolling.sources",
    "RandomSource": "dicecli.rolling.sources",
    "Roller": "dicecli.rolling.sources",
}
"""Where each public name is defined: it is imported from there when first asked for
(PEP 562), so ``import dicecli.__main__`` loads only the package's own ``__init__``."""


if not TYPE_CHECKING:  # type checkers read the imports above, and know every name

    def __getattr__(name: str) -> object:
        from importlib import import_module

        home = _HOMES.get(name)
        if home is None:  # a submodule, as ``import dicecli; dicecli.errors`` always gave
            try:
                return import_module(f"dicecli.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"dicecli.{name}":
                    raise
            raise AttributeError(f"module 'dicecli' has no attribute {name!r}")
        value = getattr(import_module(home), name)
        globals()[name] = value  # asked once: later uses find it as any module attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_HOMES})


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
