"""Running dicecli as a user does: a process of its own (``python -m dicecli``), or the
same entry point called in this process (:func:`run_in_process`), which spares each
test an interpreter's start-up.

A test needs a process of its own only for what belongs to the process: its exit
status as the shell sees it, a closed or full standard stream, signals, the output
encoding the interpreter chose, which modules start-up imports. Everything else (what
is written, to which stream, with which status) is the same through
:func:`dicecli.entry.main` with the streams replaced, which is what
:func:`run_in_process` does.
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO

from dicecli.entry import main
from dicecli.runs import new_run


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


def run_in_process(
    *args: str,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """What :func:`run_dicecli` gives, from :func:`dicecli.entry.main` called here."""
    done = run_bytes_in_process(args, stdin.encode("utf-8"), env=env, cwd=cwd)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


def run_bytes_in_process(
    args: Sequence[str | bytes],
    stdin: bytes = b"",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    entry: Callable[[list[str]], int] = main,
    output: Path | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``dicecli ARGS < stdin`` through :func:`dicecli.entry.main` in this process, colour
    off, as bytes.

    The standard streams are files of their own (not terminals; stdin read by its file
    descriptor, as a pipe is), in UTF-8 with bytes that are not UTF-8 kept, as the
    interpreter opens them under a UTF-8 locale; an argument given as bytes becomes what
    ``sys.argv`` makes of it. The environment, the working folder and the streams are
    put back afterwards. ``entry`` is called with the arguments in place of
    :func:`~dicecli.entry.main` (``dicecli.cli.run``: the typer app); ``output``: a file
    opened for stdout in place of a file of its own (``/dev/full``). A new run
    (:func:`dicecli.runs.new_run`) looks for the per-user files again, as a new
    process would.
    """
    argv = [os.fsdecode(arg) for arg in args]
    with contextlib.ExitStack() as files_open:
        files: list[IO[bytes]] = [
            files_open.enter_context(tempfile.TemporaryFile()) for _ in range(3)
        ]
        if output is not None:
            files[1] = files_open.enter_context(open(output, "wb"))
        files[0].write(stdin)
        files[0].seek(0)
        with _environment(env), _working_folder(cwd), _streams(*files):
            new_run()
            frozen = gc.get_freeze_count()
            try:
                status = entry(argv)
            finally:
                if frozen == 0:  # start-up froze what this process holds, the tests' too
                    gc.unfreeze()
        stdout = b"" if output is not None else _contents(files[1])
        stderr = _contents(files[2])
    return subprocess.CompletedProcess(["dicecli", *argv], status, stdout, stderr)


def _contents(file: IO[bytes]) -> bytes:
    file.seek(0)
    return file.read()


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    saved = dict(os.environ)
    # A process whose streams are pipes is 80 columns wide unless told otherwise; this
    # one may have a terminal behind it (pytest -s), which click and rich would measure.
    os.environ.setdefault("COLUMNS", "80")
    os.environ.setdefault("LINES", "24")
    os.environ.update({"NO_COLOR": "1", **(env or {})})
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _working_folder(cwd: Path | None) -> Iterator[None]:
    saved = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved)


@contextlib.contextmanager
def _streams(*files: IO[bytes]) -> Iterator[None]:
    """sys.stdin, sys.stdout and sys.stderr on ``files``, as the interpreter opens a
    standard stream that is not a terminal under a UTF-8 locale: no newline translation,
    bytes that are not UTF-8 kept (surrogateescape)."""
    saved = sys.stdin, sys.stdout, sys.stderr
    streams = [
        open(  # noqa: SIM115 - closed below, the files left open
            file.fileno(),
            "w" if file is not files[0] else "r",
            encoding="utf-8",
            errors="surrogateescape",
            newline="\n",
            closefd=False,
        )
        for file in files
    ]
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in streams:
            with contextlib.suppress(OSError, ValueError):  # closed or broken by the program
                stream.close()
