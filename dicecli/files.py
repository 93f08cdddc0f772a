"""Reading and writing the user's files safely: the one place that opens them.

Reading (character files, dice files): only a regular file is opened, without waiting
(a FIFO or a device is refused, never read), and at most :data:`MAX_FILE_BYTES` are
read, so ``/dev/zero`` or a huge file is an error, not gigabytes of memory. A TOML
file nested deeper than Python can follow is an error too (:func:`read_toml`).

Writing (the REPL's ``save``): a new file only, never one that is there (its contents
are never at risk), written whole to a temporary file beside it and then linked into
place, so a full disk or a size limit leaves no half-written file behind.

Every failure is a :class:`FileError`, a one-line :class:`~dicecli.errors.DiceError`
saying what is wrong in words (the caller adds which file and what for).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from dicecli.errors import DiceError

MAX_FILE_BYTES = 1 << 20
"""Largest character or dice file read (1 MiB): a sheet of thousands of stats is a few
tens of kilobytes."""


def user_config_file(name: Path, environ: Mapping[str, str] = os.environ) -> Path | None:
    """The user's own file ``name`` (``dicecli/tables.toml``): under
    ``$XDG_CONFIG_HOME`` when that is an absolute path, else under ``~/.config``; None
    when the home folder is unknown."""
    return _user_config_file(name, environ.get("XDG_CONFIG_HOME", ""), environ.get("HOME", ""))


@lru_cache(maxsize=8)
def _user_config_file(name: Path, config: str, home: str) -> Path | None:
    # ``home`` is in the key because Path.home() reads $HOME
    if config and Path(config).is_absolute():
        return Path(config) / name
    try:
        return Path.home() / ".config" / name
    except RuntimeError:
        return None


class FileError(DiceError):
    """A file that cannot be read or written as asked."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


UNUSABLE_NAME = "not a file name this system can use (a NUL, or a character it cannot encode)"


def _usable(path: Path) -> None:
    """Refuse a name no file can have here: one with a NUL, or a lone surrogate that
    stands for no byte (``\\ud800``: from the API or a script, never a terminal)."""
    try:
        os.fsencode(path)
    except UnicodeEncodeError:
        raise FileError(UNUSABLE_NAME) from None
    if "\x00" in str(path):
        raise FileError(UNUSABLE_NAME)


def read_limited(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them."""
    _usable(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise FileError("no such file") from None
    except IsADirectoryError:
        raise FileError("is a folder, not a file") from None
    except OSError as error:
        raise FileError(_reason(error)) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise FileError("is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise FileError("not a regular file (a device, a pipe or a socket)")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(descriptor, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileError(f"larger than the limit of {limit:,} bytes")
        return b"".join(chunks)
    except OSError as error:
        raise FileError(_reason(error)) from None
    finally:
        os.close(descriptor)


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """:func:`read_limited`, decoded as UTF-8."""
    data = read_limited(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("not UTF-8 text") from None


MAX_NAME_PARTS = 64
"""Most dotted parts in a TOML table's header or key (``[a.b.c]``, ``a.b.c = 1``): the
reader's time grows with the square of a name's parts (160,000 took 109 s); no file
dicecli reads nests past two or three."""


_PART = r"[^.\s]\s*\."


def _check_name_parts(text: str) -> None:
    """:class:`FileError` when a header or key of ``text`` has more than
    :data:`MAX_NAME_PARTS` dotted parts (a quoted dot counts too: the bound is loose)."""
    import re  # docs/startup.md: only a file of many dots comes here

    for number, line in enumerate(text.split("\n"), 1):
        name = line.lstrip()
        if name.startswith("["):
            name = name[1 : name.find("]")]
        elif "=" in name:
            name = name.partition("=")[0]
        else:  # no header nor key: a line of a long string or array
            continue
        # a dot after a part: a run of dots (an ellipsis in a long string) is none
        if name.count(".") >= MAX_NAME_PARTS and len(re.findall(_PART, name)) >= MAX_NAME_PARTS:
            raise FileError(
                f"not usable TOML: line {number} names a table or key of more than "
                f"{MAX_NAME_PARTS} dotted parts"
            )


def loads_toml(text: str) -> dict[str, object]:
    """``text`` as TOML; :class:`FileError` when it is not, or nests too deeply."""
    # Imported here: most runs read no file, and the reader's import is costly.
    if sys.version_info >= (3, 11):
        import tomllib  # docs/startup.md
    else:  # pragma: no cover - Python 3.10
        # mypy checks this branch (python_version 3.10); tomli may be absent where it runs.
        # Imported when first needed (docs/startup.md).
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

    if text.count(".") >= MAX_NAME_PARTS:  # most files have few: no line is looked at
        _check_name_parts(text)
    try:
        data: dict[str, object] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileError(f"not valid TOML: {error}") from None
    except RecursionError:
        raise FileError("not usable TOML: arrays or tables nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an integer read from text
        raise FileError("not usable TOML: a number too long to read") from None
    return data


def write_new(path: Path, text: str) -> None:
    """Write ``text`` to a new file at ``path``: refused when ``path`` exists; written
    to a temporary file in the same folder first, so ``path`` appears whole or not at
    all."""
    folder = path.parent
    _usable(path)
    if os.path.lexists(path):
        raise FileError("it exists already: save never overwrites, give a new name")
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=folder or None
        )
    except OSError as error:
        raise FileError(_reason(error)) from None
    try:
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8", errors="backslashreplace") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            _link_new(temporary, path)
        except OSError as error:
            if error.errno == errno.EEXIST:
                raise FileError(
                    "it exists already: save never overwrites, give a new name"
                ) from None
            raise FileError(_reason(error)) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _link_new(temporary: str, path: Path) -> None:
    """Give the finished temporary file the name ``path``, failing if that name exists
    (``link`` never replaces; a file system without links falls back to ``rename``
    after one more look)."""
    try:
        os.link(temporary, path)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "exists") from None
        os.replace(temporary, path)
