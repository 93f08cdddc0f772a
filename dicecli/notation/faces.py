"""The faces of a custom die, ``d{1,1,2,3,5,8}``: read as typed, spelt canonically, and
counted out.

A face list is whole numbers and ranges (``1..4``, ``-2..2``, low to high) between
braces, separated by commas; a face written twice is twice as likely. The grammar
(:mod:`dicecli.notation.grammar`) hands the braces it found to :func:`read_faces`,
which refuses a list that is empty, has a face that is not a whole number, a range
that runs downwards, or more faces than :data:`dicecli.limits.MAX_FACES` (counted before
any face is built), and gives the :class:`~dicecli.notation.nodes.FaceList` of the
tree. :func:`face_values` counts a list's faces out for the die
(:func:`dicecli.notation.dice.custom_die`).
"""

from __future__ import annotations

import re

from dicecli.limits import MAX_FACE_VALUE, MAX_FACES
from dicecli.notation.sides import FaceList

_ITEM = re.compile(r"\s*(?P<low>[-+]?\d+)\s*(?:\.\.\s*(?P<high>[-+]?\d+)\s*)?")
_DECIMAL = re.compile(r"\s*-?(?:\d+\.\d*|\.\d+)\s*")
_WORD = re.compile(r"\s*[^\W\d]\w*\s*")


class FacesError(ValueError):
    """A face list that is not one: ``message``, and where in the written list (from
    its ``{``) the fault is."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def read_faces(written: str) -> FaceList:
    """The canonical :class:`FaceList` of ``written`` (``{1, 1..3}`` -> ``{1,1..3}``),
    which starts at its ``{``; a :class:`FacesError` when it is not a list of faces."""
    closed = written.endswith("}")
    inside = written[1:-1] if closed else written[1:]
    if not inside.strip():
        if not closed:
            raise FacesError("expected faces and '}' after 'd{', as in d{1,1,2}", len(written))
        raise FacesError("a die needs at least one face: d{} has none", 0)
    items: list[str] = []
    total = 0
    offset = 1
    for piece in inside.split(","):
        try:
            low, high = _item(piece, offset)
        except FacesError:
            started = _ITEM.match(piece)
            if closed or started is None:
                raise
            # d{1,2 + d6: the faces ended without their brace
            raise FacesError(
                "expected ',' or '}' after the faces", offset + started.end()
            ) from None
        items.append(str(low) if high is None else f"{low}..{high}")
        total += 1 if high is None else high - low + 1
        offset += len(piece) + 1
    if total > MAX_FACES:
        raise FacesError(_too_many(total), 0)
    if not closed:
        raise FacesError("expected ',' or '}' after the faces", len(written.rstrip()))
    return FaceList("{" + ",".join(items) + "}")


def _item(piece: str, offset: int) -> tuple[int, int | None]:
    """One face or range: its low and high values (high None for a single face)."""
    match = _ITEM.fullmatch(piece)
    at = offset + len(piece) - len(piece.lstrip())
    shown = piece.strip()
    if match is None:
        if not shown:
            raise FacesError("a face is missing: nothing between two commas", offset)
        if _DECIMAL.fullmatch(piece):
            raise FacesError(f"faces are whole numbers: {shown} is not one", at)
        if ".." in shown:
            raise FacesError(f"a range of faces is low..high, as in 1..4: not {shown}", at)
        if _WORD.fullmatch(piece):
            raise FacesError(
                f"faces in d{{}} are numbers: '{shown}' is a symbol "
                "(dice with symbols are named in a dice file)",
                at,
            )
        raise FacesError(f"faces are whole numbers, as in d{{1,1,2}}: not '{shown}'", at)
    low = int(match["low"])
    high = None if match["high"] is None else int(match["high"])
    if high is not None and high < low:
        raise FacesError(f"the range {low}..{high} runs downwards: write {high}..{low}", at)
    if high is not None and high - low >= MAX_FACES:
        raise FacesError(_too_many(high - low + 1), at)
    for value in (low, high):
        if value is not None and abs(value) > MAX_FACE_VALUE:
            raise FacesError(
                f"face {value} is too large: faces are -{MAX_FACE_VALUE:,} to {MAX_FACE_VALUE:,}",
                at,
            )
    return low, high


def _too_many(faces: int) -> str:
    return f"too many faces: {faces:,}, the limit is {MAX_FACES:,} on one die"


def face_values(faces: FaceList) -> tuple[int, ...]:
    """Every face of a canonical list, in the order written, ranges counted out."""
    values: list[int] = []
    for item in faces[1:-1].split(","):
        low, _, high = item.partition("..")
        if high:
            values.extend(range(int(low), int(high) + 1))
        else:
            values.append(int(low))
    return tuple(values)


def lowest_face(faces: FaceList) -> int:
    """The lowest face of a canonical list (what a bare ``r`` re-rolls)."""
    return min(int(item.partition("..")[0]) for item in faces[1:-1].split(","))
