"""The guides and examples that ship with dicecli: ``docs/*.md`` (``dicecli help
grammar``) and ``examples/*.toml`` (``dicecli examples``, ``--dice-file genesys-dice``).

An installed dicecli carries them in ``dicecli/_bundled/`` (setup.py copies them there
when the wheel is built); a source checkout, installed editable or not, reads the
repository's own ``docs/`` and ``examples/``. So a message can always send the user to
``dicecli help TOPIC``, and a line of the README or of a guide that names
``examples/tables.toml`` works wherever dicecli is installed (:func:`example_or_path`).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from dicecli.frozen import frozen

_PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    """The folder of the guides (``docs``) or of the examples (``examples``): the
    package's copy, else the source checkout's."""
    inside = _PACKAGE / "_bundled" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


@cache
def guides() -> dict[str, Path]:
    """Every guide by topic name (its file's stem: ``grammar``, ``dice`` ...), sorted."""
    folder = _folder("docs")
    return {path.stem: path for path in sorted(folder.glob("*.md"))}


def guide_text(topic: str) -> str:
    """The Markdown text of the guide ``topic`` (one of :func:`guides`)."""
    return guides()[topic].read_text(encoding="utf-8")


def guide_title(topic: str) -> str:
    """The guide's first heading (``# Roll tables`` -> ``Roll tables``)."""
    for line in guide_text(topic).splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return topic


@frozen
class Example:
    """An example file that ships with dicecli: its name (the file's stem), its path,
    what it is and a line to try it with."""

    name: str
    path: Path
    about: str
    try_line: str


_TRY = re.compile(r"`(dicecli (?!help)[^`]+)`|^(dicecli (?!help).+)$")
_ABOUT_END = re.compile(r"(?:,? for dicecli)?(?:[:.](?:\s|$)|$)")


@cache
def examples() -> dict[str, Example]:
    """Every example by name, from the comment at the head of each file: its first
    sentence says what it is, its first ``dicecli ...`` line (alone on a comment line
    or in back quotes) how to try it."""
    found: dict[str, Example] = {}
    for path in sorted(_folder("examples").glob("*.toml")):
        comments = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            comments.append(line.lstrip("#").strip())
        head = " ".join(comments)
        end = _ABOUT_END.search(head)
        about = head[: end.start()] if end is not None and end.start() else path.stem
        tries = (_TRY.search(comment) for comment in comments)
        tried = next((match[1] or match[2] for match in tries if match), "")
        found[path.stem] = Example(path.stem, path, about, tried)
    return found


def example_or_path(given: str) -> Path:
    """The file ``given`` names: itself when it exists; when it does not and it names
    a shipped example (``genesys-dice``, ``genesys-dice.toml`` or
    ``examples/genesys-dice.toml``, as the README and the guides write it), that
    example; else ``given`` as a path (which the reader then reports missing)."""
    path = Path(given).expanduser()
    if path.exists() or path.is_symlink():
        return path
    parts = given.replace("\\", "/").split("/")
    if len(parts) == 1 or (len(parts) == 2 and parts[0] == "examples"):
        name = parts[-1].removesuffix(".toml")
        example = examples().get(name)
        if example is not None:
            return example.path
    return path


__all__ = [
    "Example",
    "example_or_path",
    "examples",
    "guide_text",
    "guide_title",
    "guides",
]
