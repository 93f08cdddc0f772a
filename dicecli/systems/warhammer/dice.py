"""The two special dice of Warhammer Fantasy Battle (rules W1, W2, W4).

**Artillery die** (W1): faces 2, 4, 6, 8, 10 and MISFIRE, one each. MISFIRE has no
number (``value=None``).

**Scatter die** (W2): two HIT faces and four arrows. An arrow points somewhere on the
table, and a HIT face carries a small arrow too. We model the direction as one of twelve
clock directions, so the die is 12 x 6 = 72 equally likely faces: for each clock
direction, HIT, HIT and four arrows. That keeps every chance an exact fraction
(P(HIT) = 24/72 = 1/3, each direction 1/12) and gives a HIT's small arrow a bearing.

Bearings are clock directions as a player sees the table from their own edge:
12 o'clock straight ahead (0 degrees), 3 o'clock to the right (90 degrees), and so on
clockwise in steps of 30 degrees. (*Assumption*: a real die points anywhere; twelve
directions is the precision a player can read off it.)

Both dice are built with ``rerollable=False`` (rule W4).

Spellings accepted with ``--given`` (case-insensitive):

- artillery: ``2`` ``4`` ``6`` ``8`` ``10``, ``MISFIRE`` or ``M``;
- scatter arrows: the clock number (``3``), ``3oclock``, ``3o'clock``, ``3h``, the
  degrees (``90deg``, ``90°``) or the face as shown (``→3``);
- scatter HIT: ``HIT`` (its small arrow then points at 12 o'clock), or with the small
  arrow's bearing: ``HIT@3``, ``HIT@3oclock``, ``HIT@90deg``, or as shown (``HIT→3``).

Faces are named as shown: an arrow ``→3`` (glyph and clock hour), a HIT ``HIT→3`` (HIT
and its small arrow), so a result's dice say everything the die showed.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from dicecli.frozen import frozen
from dicecli.notation.dice import Die, Face

MISFIRE = "MISFIRE"
HIT = "HIT"

ARTILLERY = Die(
    "artillery",
    (*(Face(str(n), n) for n in (2, 4, 6, 8, 10)), Face(MISFIRE, None)),
    aliases=((5, "M"),),
    rerollable=False,
)

CLOCK_ORDER = (12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
"""The clock directions in face order: 12 o'clock first, so a bare ``HIT`` typed with
``--given`` is the HIT whose small arrow points at 12 o'clock."""

_GLYPHS = {
    12: "↑",
    1: "↗",
    2: "↗",
    3: "→",
    4: "↘",
    5: "↘",
    6: "↓",
    7: "↙",
    8: "↙",
    9: "←",
    10: "↖",
    11: "↖",
}

FACE_KINDS = (HIT, HIT, "arrow", "arrow", "arrow", "arrow")
"""The six faces of the physical die, repeated for each clock direction."""


@frozen
class Bearing:
    """A direction on the table: a clock hour (1-12) and its degrees (0-330)."""

    clock: int

    @property
    def degrees(self) -> int:
        return (self.clock % 12) * 30

    @property
    def glyph(self) -> str:
        return _GLYPHS[self.clock]

    def describe(self) -> str:
        """``→ 3 o'clock (90°)``."""
        return f"{self.glyph} {self.clock} o'clock ({self.degrees}°)"


def _clock_spellings(clock: int) -> tuple[str, ...]:
    degrees = Bearing(clock).degrees
    return (
        str(clock),
        f"{clock}oclock",
        f"{clock}o'clock",
        f"{clock}h",
        f"{degrees}deg",
        f"{degrees}°",
    )


def _scatter_die() -> Die:
    faces: list[Face] = []
    aliases: list[tuple[int, str]] = []
    for clock in CLOCK_ORDER:
        first = len(faces)
        arrow_name = f"{Bearing(clock).glyph}{clock}"
        for kind in FACE_KINDS:
            faces.append(Face(HIT + arrow_name if kind == HIT else arrow_name, None))
        arrow = first + FACE_KINDS.index("arrow")
        for spelling in _clock_spellings(clock):
            aliases.append((arrow, spelling))
            aliases.append((first, f"{HIT}@{spelling}"))
        if clock == CLOCK_ORDER[0]:
            aliases.append((first, HIT))
    return Die("scatter", tuple(faces), aliases=tuple(aliases), rerollable=False)


SCATTER = _scatter_die()


def scatter_bearing(index: int) -> Bearing:
    """The bearing of scatter face ``index`` (an arrow's, or a HIT's small arrow)."""
    return Bearing(CLOCK_ORDER[index // len(FACE_KINDS)])


def scatter_is_hit(index: int) -> bool:
    return SCATTER.faces[index].name.startswith(HIT)


def is_misfire_face(die: str, face: str) -> bool:
    return die == ARTILLERY.name and face == MISFIRE
