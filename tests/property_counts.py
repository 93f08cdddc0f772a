"""How much of each property and fuzz test this run does.

The quick run (``python -m pytest -q``, the README's command) tries a tenth of each
property's full example count (at least 10) and leaves out the tests marked ``slow``;
``--runslow``, which CI runs, tries every full count and runs the slow tests too.
``DICECLI_PROPERTY_SCALE=20`` multiplies either count, for a deeper hunt. conftest.py
sets :data:`full` from the command line before any test module is imported, so a
module's ``@settings(max_examples=examples(N))`` reads the right count.
"""

from __future__ import annotations

import os

QUICK_SHARE = 0.1
"""The share of a property's full example count that the quick run tries."""
QUICK_LEAST = 10
"""The fewest examples the quick run tries of a property (its full count if smaller)."""

full = False
"""True under ``--runslow``: every property at its full count."""


def examples(count: int) -> int:
    """How many examples to try of a property whose full count is ``count``."""
    scale = float(os.environ.get("DICECLI_PROPERTY_SCALE", "1"))
    share = count if full else max(min(count, QUICK_LEAST), round(count * QUICK_SHARE))
    return max(1, int(share * scale))
