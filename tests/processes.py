"""Running dicecli as a user does: a process of its own (``python -m dicecli``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_dicecli(
    *args: str,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``dicecli ARGS < stdin`` in a new process, colour off, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "dicecli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        timeout=60,
        check=False,
    )
