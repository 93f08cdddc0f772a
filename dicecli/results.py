"""What was rolled: frozen result types shared by every game and every renderer.

A :class:`RollResult` keeps every die rolled, in roll order, discarded ones included
(``kept=False``), a presentation-neutral *breakdown* (text segments with semantic roles,
and groups of dice) and, for checks, an :class:`Outcome`. Renderers decide how a role
looks; game modules decide what to say. That split is why adding a game never touches a
renderer.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from typing import Any, Literal, NewType

from dicecli.frozen import frozen, made_when_read

JSONValue = str | int | float | bool | None | list["JSONValue"] | dict[str, "JSONValue"]

# Marks a die can carry. Renderers know these words; games may add others, shown as is.
REROLLED = "rerolled"  # this face was rolled again (the die is discarded)
REROLL = "reroll"  # this die is the re-roll of the one before it
EXPLODED = "exploded"  # this face set off another die
EXPLOSION = "explosion"  # added by an explosion (``!``, ``!p``)
COMPOUNDED = "compounded"  # added into the die before it (``!!``)
PENETRATED = "penetrated"  # an explosion die worth one less (``!p``)
DROPPED = "dropped"  # dropped by keep/drop
SUCCESS = "success"  # counted as a success
FAILURE = "failure"  # counted as a failure
IGNORED = "ignored"  # rolled, but the rules ignore it (a game's rule says so)
DOUBLE_SUCCESS = "double-success"  # a success that counts 2 (``ds``)
CRITICAL_SUCCESS = "critical-success"  # a kept die meeting ``cs`` (a lone d20's 20)
CRITICAL_FAILURE = "critical-failure"  # a kept die meeting ``cf`` (a lone d20's 1)
CLAMPED = "clamped"  # worth a clamp's bound (``min3``, ``max6``), not its face
IMPLOSION = "implosion"  # rolled by an implosion (``i1``): its face is subtracted

CoreRole = Literal[
    "plain",  # ordinary text
    "op",  # an operator or separator
    "label",  # a [label] or a player's name
    "number",  # a constant in the expression
    "dropped",  # a value that does not count (a group item dropped)
    "target",  # what a check is rolled against
    "value",  # an intermediate value worth seeing
    "success",
    "failure",
    "note",
    "side",  # between two sides of an opposed test or roll-off (a terminal breaks the line)
]
"""The roles every renderer knows."""
GameRole = NewType("GameRole", str)
"""A role a game adds (styled as its declaration says): ``GameRole("critical")``. Spelt
apart from the core's roles, so a misspelt core role still fails type checking."""
Role = CoreRole | GameRole

VALUE_TEXTS: dict[int, str] = {}
"""Numbers met as the faces of dice, each as written (``{17: "17"}``): a look-up here
costs less than writing the number out. The plain renderer asks it whether a kept,
unmarked die shows its value (:func:`dicecli.render.text.dice_text`: a D3's ``5`` is
worth 3 and shows ``5→3``), which it asks of nearly every die it writes (not of
:class:`NumberedDice`, written from their numbers). The renderer fills it with
the faces it finds to be their value written out, ``int`` values only (``True`` would
stand for 1), up to :data:`MAX_VALUE_TEXTS`."""

MAX_VALUE_TEXTS = 16_384
"""Most numbers :data:`VALUE_TEXTS` holds: the first met stay, any other is written out
each time. Room for every face of the largest numbered die
(:data:`~dicecli.notation.semantics.MAX_SIDES`, a d10,000) and more: a face not held
costs its die a call and a number written out each time it is shown, so with fewer a
stream of big dice would cost more a die the bigger its dice (about 120 bytes each, under
2 MiB in all)."""


@frozen
class DieRoll:
    """One die as it landed. Most are shared by every roll that lands on the same face,
    so one is never changed (frozen by contract, :mod:`dicecli.frozen`).

    ``face`` is what the die shows (``"5"``, ``"+"``, or a game's word on a face), the
    natural roll of rule N5; ``value`` is what it is worth (None when it has no number).
    ``symbols`` are the symbols printed on the face, one entry per symbol (a face of two
    successes is ``("success", "success")``), for dice from a dice file (``docs/dice.md``).
    ``rerollable`` is False for a die a game's rules forbid re-rolling (rule W4): the
    result itself says so, wherever it is read or loaded.
    """

    die: str
    face: str
    value: int | None
    kept: bool = True
    marks: tuple[str, ...] = ()
    symbols: tuple[str, ...] = ()
    rerollable: bool = True

    def marked(self, *marks: str, kept: bool | None = None) -> DieRoll:
        """This die with ``marks`` added, and kept or not if ``kept`` says so."""
        return DieRoll(
            self.die,
            self.face,
            self.value,
            self.kept if kept is None else kept,
            (*self.marks, *marks),
            self.symbols,
            self.rerollable,
        )

    def as_dict(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {
            "die": self.die,
            "face": self.face,
            "value": self.value,
            "kept": self.kept,
            "marks": list(self.marks),
        }
        if self.symbols:  # dice from a dice file (docs/dice.md); other dice have none
            data["symbols"] = list(self.symbols)
        return data


@frozen
class Text:
    """A piece of a breakdown; ``role`` says what it is, never how it looks."""

    text: str
    role: Role = "plain"


@frozen
class DiceShown:
    """Dice shown together, in roll order: ``[4, 3, 1]``. Dice of a numbered die whose
    faces are computed are a :class:`NumberedDice`, equal to the DiceShown of the same
    dice."""

    dice: tuple[DieRoll, ...]


def _numbered_dice(shown: NumberedDice) -> tuple[DieRoll, ...]:
    die, rerollable = shown.die, shown.rerollable
    return tuple(
        DieRoll(die, str(value), value, True, (), (), rerollable) for value in shown.numbers
    )


@made_when_read("dice", _numbered_dice)
class NumberedDice(DiceShown):
    """Dice of a numbered die whose faces are computed (``17d743``, rolled by
    :func:`~dicecli.rolling.dice_steps.roll_computed_dice`), each kept and unmarked,
    its face its value written out: held as their :attr:`numbers`, their
    :class:`DieRoll` s made the first time :attr:`dice` is read
    (:func:`~dicecli.frozen.made_when_read`). Such dice are seldom rolled twice alike,
    so their rolls cannot be shared as the usual dice's are; a piped line writes them out
    from their numbers and never reads them one by one, and making a DieRoll for each
    was most of what such a line cost more than a line of the usual dice
    (``bench/bench_sides.py``)."""

    def __init__(self, die: str, rerollable: bool, numbers: tuple[int, ...]) -> None:
        self.die = die
        self.rerollable = rerollable
        self.numbers = numbers


Segment = Text | DiceShown


class SharedBreakdown(tuple[Segment, ...]):
    """The breakdown of a result tree that rolls share (a step with few outcomes,
    :mod:`dicecli.rolling.shared_outcomes`): the same object for every roll that drew
    those faces, so a renderer may keep what it spells of it in :attr:`texts` (by the
    renderer's name). Otherwise a tuple of segments like any other breakdown: it equals
    one, and pickles as one."""

    texts: dict[str, str]

    def __new__(cls, segments: tuple[Segment, ...]) -> SharedBreakdown:
        made = super().__new__(cls, segments)
        made.texts = {}
        return made

    def __reduce__(self) -> tuple[type[tuple[Segment, ...]], tuple[tuple[Segment, ...]]]:
        return tuple, (tuple(self),)


@frozen
class Outcome:
    """The verdict of a check and its facts.

    ``passed`` drives the exit status (False: 1) and the colour; None when the roll is
    not pass/fail (a direction, a roll-off). ``fields`` become the JSON ``outcome``
    object, in order.
    """

    verdict: str
    passed: bool | None
    fields: tuple[tuple[str, JSONValue], ...] = ()
    notes: tuple[str, ...] = ()
    quiet: bool = False
    """Nothing happened worth a look (no misfire): a terminal leaves the verdict out;
    plain and JSON output keep it."""

    def as_dict(self) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {"verdict": self.verdict, "passed": self.passed}
        data.update(self.fields)
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@frozen
class RollResult:
    """One roll: the input, every die, the breakdown, the total and the outcome. Its dice
    and breakdown are shared with other rolls that landed alike: never change them
    (frozen by contract, :mod:`dicecli.frozen`)."""

    input: str
    expression: str
    total: int | None
    dice: tuple[DieRoll, ...]
    breakdown: tuple[Segment, ...]
    outcome: Outcome | None = None
    comment: str | None = None
    reroll: bool = False  # this roll re-rolls an earlier one (rule W5)
    notes: tuple[str, ...] = ()
    """Other rollers' readings of the line (``10d20cs>10`` counts successes in Foundry
    VTT), or what a dialect read (:mod:`dicecli.notation.other_readings`)."""

    @property
    def failed(self) -> bool:
        """True when a check was rolled and did not pass (exit status 1)."""
        return self.outcome is not None and self.outcome.passed is False

    def as_dict(self) -> dict[str, JSONValue]:
        """The JSON object of ``--json`` (schema in ``docs/json.md``)."""
        data: dict[str, JSONValue] = {
            "input": self.input,
            "expression": self.expression,
            "total": self.total,
            "dice": [die.as_dict() for die in self.dice],
            "outcome": self.outcome.as_dict() if self.outcome else None,
            "comment": self.comment,
            "reroll": self.reroll,
        }
        if self.notes:  # only when another reading is worth a word (docs/json.md)
            data["notes"] = list(self.notes)
        return data


def _numbered_result_dice(result: NumberedResult) -> tuple[DieRoll, ...]:
    return result.numbered.dice


@made_when_read("dice", _numbered_result_dice)
class NumberedResult(RollResult):
    """A roll whose dice are those of one :class:`NumberedDice` alone (``17d743 + 12``),
    read from it the first time they are asked: a result that is only written out never
    makes them. Equal to the RollResult of the same fields."""

    def __init__(
        self,
        numbered: NumberedDice,
        input: str,
        expression: str,
        total: int | None,
        breakdown: tuple[Segment, ...],
        outcome: Outcome | None,
        comment: str | None,
        notes: tuple[str, ...],
    ) -> None:
        # every field but dice, made from numbered when read: RollResult's __init__
        # would assign dice, to be taken back (through Any: mypy reads them as read-only)
        fields: Any = self
        fields.input = input
        fields.expression = expression
        fields.total = total
        fields.breakdown = breakdown
        fields.outcome = outcome
        fields.comment = comment
        fields.reroll = False
        fields.notes = notes
        self.numbered = numbered
