"""What a dice term names after ``d`` when it is not a number: custom faces written out
(:class:`FaceList`) or the name of a die of a dice file (:class:`DieName`).

Apart from the nodes (:mod:`dicecli.notation.nodes`) and the die kinds
(:mod:`dicecli.notation.dice`) because both need them: the nodes hold them as a dice
term's sides, and the die kinds build dice from them.
"""

from __future__ import annotations

from dicecli.frozen import field, frozen


class FaceList(str):
    """The faces of a custom die as written in its canonical spelling, braces included:
    ``{1,1,2,3,5,8}``, ``{-1,0,1}``, ``{1..4,10}`` (ranges kept, spaces and leading
    zeros dropped; :func:`dicecli.notation.faces.read_faces` reads and spells them).

    A string, so that a dice term's sides stay a plain value whatever the die: two
    lists are the same die exactly when they are spelt the same, and the code that
    takes ``"%"`` or ``"F"`` as sides takes these too.
    """

    __slots__ = ()


@frozen
class DieName:
    """A die named in a dice file, as typed after ``d``: ``Boost`` in ``3dBoost``
    (``docs/dice.md``). Looked up when rolled, in the dice file in force. ``position``:
    where the dice term starts in the line typed (-1: not known), for errors; it takes
    no part in equality."""

    name: str
    position: int = field(default=-1, compare=False, repr=False)

    def __str__(self) -> str:
        return self.name
