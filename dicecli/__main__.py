"""``python -m dicecli`` and the ``dicecli`` command: :func:`dicecli.entry.main`."""

from __future__ import annotations

import sys

from dicecli.entry import main

if __name__ == "__main__":
    sys.exit(main())

__all__ = ["main"]
