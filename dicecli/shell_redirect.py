"""A comparison the shell took for a redirect: ``dicecli 10d10>=7`` unquoted makes the
shell write the output into a file named ``=7`` and pass ``10d10`` alone;
``dicecli 1d20+5 >= 15`` writes into a file named ``=`` and passes ``1d20+5 15``.

:func:`redirected_to` finds such a file: standard output is a regular file in the
current directory whose name starts with ``=``; :func:`quoted_roll` rebuilds the roll
as typed, for the hint "quote the roll". Looked at only when standard output is a
regular file, so a roll at a terminal or into a pipe never pays for it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

from dicecli.escape import escaped


def redirected_to(descriptor: int = 1) -> str | None:
    """The name of the ``=...`` file in the current directory that ``descriptor`` writes
    to, or None."""
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            return None
        with os.scandir(".") as entries:
            for entry in entries:
                if entry.name.startswith("=") and entry.is_file(follow_symlinks=False):
                    there = entry.stat(follow_symlinks=False)
                    if (there.st_dev, there.st_ino) == (found.st_dev, found.st_ino):
                        return entry.name
    except (OSError, ValueError):
        return None
    return None


def quoted_roll(words: Sequence[str], name: str) -> str:
    """The roll as typed before the shell took ``>`` and the file ``name`` from it:
    ``>=`` with spaces stood before the last word (``1d20+5 >= 15``); ``>=7`` was glued
    to the end (``10d10>=7``)."""
    if name == "=" and len(words) >= 2:
        return f"{' '.join(words[:-1])} >= {words[-1]}"
    return f"{' '.join(words)}>{name}"


def hint(words: Sequence[str], descriptor: int = 1) -> str | None:
    """``the shell read >= as a redirect ...: quote the roll: dicecli '...'`` when the
    output went into a ``=...`` file, else None."""
    name = redirected_to(descriptor)
    if name is None:
        return None
    return escaped(
        f"the shell read > as a redirect into a file named '{name}': quote the roll: "
        f"dicecli '{quoted_roll(words, name)}'"
    )
