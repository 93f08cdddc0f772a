"""Plain-text spelling of dice and breakdowns, shared by the plain renderer and the
REPL's history. No colour: a die that does not count is wrapped in tildes (``~1~``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from dicecli.escape import escaped
from dicecli.results import (
    CLAMPED,
    COMPOUNDED,
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    EXPLODED,
    IMPLOSION,
    MAX_VALUE_TEXTS,
    VALUE_TEXTS,
    DieRoll,
    NumberedDice,
    RollResult,
    Segment,
    SharedBreakdown,
    Text,
)

if TYPE_CHECKING:
    from dicecli.probability.distribution import Odds

TOTAL_MISSING = "-"
"""What stands in the total field when a roll has no number (a face that is a word)."""


def face_text(die: DieRoll) -> str:
    """``5``; ``5→3`` when the value differs from the face (D3, penetrating dice,
    clamps ``min3``/``max6``, on a Fudge die too: ``-→0``);
    ``6!`` for a die that exploded; ``+3`` for a die added into the one before (``!!``);
    ``20*`` for a critical die; ``-3`` for a die an implosion subtracts (``i1``)."""
    text = die.face
    marks = die.marks
    value = die.value
    if IMPLOSION in marks and value is not None:
        return str(value)
    if value is not None and str(value) != text:
        numbered = text.lstrip("-+").isdigit() or CLAMPED in marks  # dF: -→0 (min0)
        if numbered:
            text = f"{text}→{value}"
    if not marks:
        return text
    if EXPLODED in marks:
        text += "!"
    if COMPOUNDED in marks:  # added into the die before it (``!!``)
        text = "+" + text
    if CRITICAL_SUCCESS in marks or CRITICAL_FAILURE in marks:
        text += CRITICAL_SIGN  # seen without colour, and in plain text
    return text


def named(die: DieRoll, text: str) -> str:
    """``dragon 4``: ``text`` with the die's kind in front when the die carries its own
    kind as a mark (a game's key die, a Dragon die) and stands among dice of another
    kind, so that it is named without colour too; else ``text``."""
    marks = die.marks
    return f"{die.die} {text}" if marks and die.die in marks else text


CRITICAL_SIGN = "*"
"""After a die marked critical (``20*``), beside its style."""


_DIE_TEXTS: dict[int, str] = {}
"""Text of marked or dropped dice by identity: most are the few instances each die kind
shares for a face, kept or not, with its marks (``Die.roll_of``). An unmarked kept
die's text is worked out each time instead (:func:`plain_die_text`): most such dice are
shared too, but a big die's are made afresh for each roll, and holding them here would
keep every one alive past its line."""
_HELD: list[DieRoll] = []
"""The dice whose text is cached, held so that their ids stay theirs; both are emptied
when they grow past a bound."""


def die_text(die: DieRoll) -> str:
    text = _DIE_TEXTS.get(id(die))
    if text is None:
        text = face_text(die) if die.kept else f"~{face_text(die)}~"
        if len(_HELD) >= 4096:
            _DIE_TEXTS.clear()
            _HELD.clear()
        _HELD.append(die)
        _DIE_TEXTS[id(die)] = text
    return text


def _face_is_value(text: str, value: int) -> bool:
    """Whether ``text``, a face, is ``value`` written out; remembered when it is
    (:data:`~dicecli.results.VALUE_TEXTS`), for an ``int``: a ``bool`` is equal to
    an int and hashed alike, so ``True``'s text would be found for 1."""
    if str(value) != text:
        return False
    if type(value) is int and len(VALUE_TEXTS) < MAX_VALUE_TEXTS:
        VALUE_TEXTS[value] = text
    return True


def plain_die_text(die: DieRoll) -> str:
    """The text of an unmarked kept die: its face, unless its value differs (``5→3``)."""
    text = die.face
    value = die.value
    if value is not None and VALUE_TEXTS.get(value) != text and not _face_is_value(text, value):
        return face_text(die)
    return text


def dice_text(dice: Sequence[DieRoll]) -> str:
    if len(dice) == 1:  # the most common term (d20): no list to build
        die = dice[0]
        if die.kept and not die.marks:
            return "[" + plain_die_text(die) + "]"
        return "[" + (_DIE_TEXTS.get(id(die)) or die_text(die)) + "]"
    cached = _DIE_TEXTS.get
    value_text = VALUE_TEXTS.get
    texts = []
    among: bool | None = None  # whether the dice are of more than one kind, once asked
    for die in dice:  # a loop: cheaper than a comprehension for a few dice
        if die.kept and not die.marks:  # most dice: plain_die_text, written out
            text = die.face
            value = die.value
            if value is not None and value_text(value) != text and not _face_is_value(text, value):
                text = face_text(die)
        else:
            text = cached(id(die)) or die_text(die)
            marks = die.marks
            if marks and die.die in marks:  # a die that may need naming (see named)
                if among is None:
                    among = any(other.die != dice[0].die for other in dice)
                if among:
                    text = named(die, text)
        texts.append(text)
    return "[" + ", ".join(texts) + "]"


def repeats_value(segment: Text, before: str) -> bool:
    """True for a target's `` (=15)`` right after the name that showed it (``AC(15)``):
    the value is said once."""
    text = segment.text
    return (
        segment.role == "target"
        and text.startswith(" (=")
        and text.endswith(")")
        and before.endswith(f"({text[3:-1]})")
    )


def breakdown_text(segments: Sequence[Segment]) -> str:
    """The plain text of a breakdown: ``[4, 3] + 5``; kept for a breakdown that rolls
    share (one function: most breakdowns are spelt once, and a call costs)."""
    shared = type(segments) is SharedBreakdown
    if shared:
        kept = cast(SharedBreakdown, segments).texts.get("plain")
        if kept is not None:
            return kept
    parts: list[str] = []
    for segment in segments:
        if isinstance(segment, Text):
            if segment.role == "dropped":
                text = segment.text
                stripped = text.lstrip()
                parts.append(f"{text[: len(text) - len(stripped)]}~{stripped}~")
            elif segment.role != "target" or not parts or not repeats_value(segment, parts[-1]):
                parts.append(segment.text)
        elif type(segment) is NumberedDice:  # dice of computed faces: no DieRoll made
            parts.append("[" + ", ".join(map(str, segment.numbers)) + "]")
        else:
            parts.append(dice_text(segment.dice))
    spelt = "".join(parts)
    if shared:
        cast(SharedBreakdown, segments).texts["plain"] = spelt
    return spelt


def total_text(result: RollResult) -> str:
    return TOTAL_MISSING if result.total is None else str(result.total)


def result_line(result: RollResult) -> str:
    """``TOTAL<tab>INPUT<tab>DETAIL``: the documented plain format (docs/output.md)."""
    detail = breakdown_text(result.breakdown)
    outcome = result.outcome
    if outcome is not None:
        detail += f" => {outcome.verdict}"
        if outcome.notes:
            detail += " (" + "; ".join(outcome.notes) + ")"
    if result.notes:  # another roller's reading of the line (docs/output.md)
        detail += " (" + "; ".join(result.notes) + ")"
    if result.comment:
        detail += f" # {result.comment}"
    # Control characters (a tab in a comment) escaped: always exactly three fields.
    total = result.total
    shown = TOTAL_MISSING if total is None else str(total)  # total_text, without a call
    return f"{shown}\t{escaped(result.input.strip())}\t{escaped(detail)}"


def chance_text(result: RollResult, odds: Odds) -> str:
    """The chance beside a result (``--odds``): ``72.22% to pass`` for a check, ``8.33%
    to roll 11 or more`` for a total; ``""`` when neither applies."""
    from dicecli.probability.distribution import percent  # docs/startup.md

    success = dict(odds.chances).get("success")
    if success is not None:
        return f"{percent(success)} to pass"
    dist = odds.distribution
    if result.outcome is None and dist is not None and result.total is not None:
        return f"{percent(dist.at_least(result.total))} to roll {result.total} or more"
    return ""


def summary_line(results: Sequence[RollResult]) -> str:
    """The summary of ``results`` (:meth:`dicecli.tally.Tally.line`)."""
    from dicecli.tally import Tally  # docs/startup.md

    return Tally.of(results).line()
