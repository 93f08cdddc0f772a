"""Notes naming another roller's reading of a line, so that no difference is silent.

dicecli reads its notation one documented way (``D6x5`` multiplies, ``>`` is strictly
greater), and a player who learnt another roller may mean something else by the same
spelling: ``6x4d6kh3`` is six ability scores in rolldice, ``10d20cs>10`` counts
successes in Foundry VTT. :func:`other_readings` gives, for a line, one short note per
such spelling: what the other roller reads and how to get that here (a spelling, or
``--dialect``). The results carry the notes (``notes`` in JSON, in parentheses in plain
output, dim under the line at a terminal). Under a dialect the line is read as its
roller reads it, and :func:`dicecli.notation.dialects.dialect_note` says what was rolled
instead.

A line with none of the characters these spellings need never loads this module
(:func:`dicecli.notation.dialects.line_notes`, docs/startup.md), and one in which
none of the spellings may be (``4d6kh3``) does not load the dialects' rewriting.
"""

from __future__ import annotations

import re
from functools import lru_cache
from math import gcd
from typing import TYPE_CHECKING, cast

from dicecli.notation.nodes import FLOOR_DIVISOR_START, Check, Expr, Keep, KeepKind

LETTER_SPELLINGS = (
    r"[dD](?:\d+|%)[A-Za-z!<>=\d]*?\s*[eE](?:[<>=\d]|(?![A-Za-z_]))"  # 3d6 e6, 4d6e6kh3
    r"|\d[ \t]*[vV]\d"  # 6d6v3
)
"""The ``e`` and ``v`` spellings (``3d6 e6``, ``6d6v3``): the same pattern as
:data:`dicecli.notation.dialects.LETTER_SPELLINGS`, which looks at a line before this
module is loaded (a test holds the two equal; this module does not import that one)."""

if TYPE_CHECKING:
    from collections.abc import Callable

_MAYBE = re.compile(
    r"[xX{!<>*^/]|[cC][sSfF]|[rRkK]\d|[rR](?![a-zA-Z])|[kK]\s*\d|[kKdD][hlHL]\d+\s*[kKdD]"
    rf"|{LETTER_SPELLINGS}"
)
"""A character that one of the spellings below needs: most lines have none (a lone
``4d6kh3`` neither: only a keep followed by another, ``kh2dl1``, is looked at)."""

_TIMES_DICE = r"^\s*(?P<times>\d{1,9})\s*[xX×]\s*(?P<roll>\d*[dD]\S*)"
_SPACED_BANG = r"\s!(?:\s*$|\s+[^\sA-Za-z])"
"""A lone ``!`` that explodes: at the end of the line or before more of the roll
(``2d6 !``, ``d6 ! + 3``); before words (``2d6 ! Fire``) it is read as Dice Maiden's
comment, and no note is due."""
_LONE_POOL = r"\{\s*\d*[dD]\d+[A-Za-z!<>=\d]*\s*\}\s*(?:>=|<=|>|<|=)-?\d"
_LONE_KEPT = (
    r"\{\s*(?P<term>\d*[dD](?:\d+|%|[fF](?:\.[12])?|\{[^{}]*\})[A-Za-z!<>=\d]*?)\s*\}\s*"
    r"(?P<keep>(?:[kK][hHlL]?|[dD][hHlL])(?:\d+|(?![A-Za-z])))"
)
"""A group of one dice term with a keep or drop after it (``{4d6!}dl1``, ``{4dF!}kh1``,
``{4d6!}kl``: one), the dice as Roll20's dialect reads them
(:data:`dicecli.notation.translations._HEAD`)."""
_ADD_THEN_TIMES = r"(?P<dice>\d*[dD]\d+)(?P<add>[+-]\d+)\*(?P<times>\d{1,9})(?!\d)"
_SPACED_REROLL = r"[dD]\d+\S*\s+[rR](?:\d|[<>=])"
_DISADVANTAGE = r"\s*-[dD](?P<die>20|%)(?!\w)"
"""Dice Maiden's disadvantage, ``-d20``: looked for (and compiled) only in a line that
starts with ``-``."""
_SPACED_KEEP = r"(?:[dD]\d+\s+|\)\s*)[kK](?P<n>\d+)"  # 4d6 k3, (4d6)k3
_TWO_KEEPS = r"(?:[kK][hlHLmM]?|[dDpP][hlHL])\d+\s*[kKdDpP]"  # kh2dl1, k2d1: a chain
_CARET = r"(?P<dice>\d*[dD]\d+)?\s*\^\s*(?P<n>\d+)?"
_FLOOR_DIVISION = rf"//(?={FLOOR_DIVISOR_START})"
_DIVISION = r"[\w)\]}]\s*/(?![/*])"
"""A division, ``/`` after a term (not ``//``, a ``/*`` comment, nor a chat prefix
``/r``), looked for once labels (``[fire/ice]``) are left out."""
_LABELS = r"\[[^\]]*\]"
_HASH_REPEAT = r"\s*(?P<times>\d{1,9})#(?P<roll>\d*[dD][^\s#]*)"
"""Rollem's repeat, ``6#4d6d1`` (six rolls): a number, ``#`` and dice, with no space."""
_MAIDEN_COUNT = r"(?<![A-Za-z])tl?\d+(?:ds\d*)?(?:\s*f\d+)?(?P<ops>(?:\s*[-+*/]\s*\d+){2,})\s*$"
"""Dice Maiden's target (``t10``) and two numbers or more after it (``+1 *2``), which it
works on the count in the order written: ``((count) + 1) * 2``."""
_ROUNDING = r"(?i)(?<![\w])(?:floor|ceil|round)\s*\("
"""A function that rounds a division its own way (``floor(2d6/2)``): a line with one
is left without the note on ``/`` (whether a division is its whole argument is the
grammar's to say)."""
_ONCE = (
    r"(?P<dice>(?<![A-Za-z_\d])\d*[dD]\d+)[A-Za-z!<>=\d\s]*?(?<![A-Za-z])(?P<letter>[eE])"
    r"(?:(?P<condition>(?:>=|<=|<>|>|<|=)?\d+)|(?![A-Za-z_]))"
)
"""An explosion spelt ``e``/``e6``/``E=6`` after dice (``3d6 e6``, ``4d6e6kh3``)."""
_VERSUS = r"(?P<dice>(?<![A-Za-z_\d])\d*[dD]\d+)[ \t]*[vV](?P<n>\d+)"
"""justinian/dice's versus right after dice (``6d6v3``), which python-dice reads as a keep."""

# The spellings' patterns above are each compiled the first time a line has the
# characters it needs (:func:`_pattern`), not when a line with a ``k`` or ``<`` loads
# this module.

_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled, once (a lookup here costs less than ``re``'s own cache)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        compiled = _COMPILED[pattern] = re.compile(pattern)
    return compiled


_LOADED: dict[str, Callable[[str], list[tuple[str, list[tuple[str, str]]]]]] = {}


def _modifier_runs() -> Callable[[str], list[tuple[str, list[tuple[str, str]]]]]:
    """:func:`~dicecli.notation.translations.modifier_runs`, loaded by the first line
    with a run worth reading and kept: an import statement run again for each new line
    costs more than this lookup."""
    runs = _LOADED.get("modifier_runs")
    if runs is None:
        from dicecli.notation.translations import modifier_runs  # docs/startup.md

        runs = _LOADED["modifier_runs"] = modifier_runs
    return runs


_KEEPS = frozenset(("k", "kh", "kl", "d", "dh", "dl"))

_NUMBER_WORDS = ("", "once", "twice", "three", "four", "five", "six", "seven", "eight")


def _times(count: int) -> str:
    if count < len(_NUMBER_WORDS) and count > 2:
        return f"{_NUMBER_WORDS[count]} times"
    return _NUMBER_WORDS[count] if 0 < count <= 2 else f"{count} times"


def _strict(condition: str) -> bool:
    return condition[:1] in ("<", ">") and condition[1:2] not in ("=", ">")


_COUNT = r"(?P<count>\d*)[dD]\d"


def _keeps_read_otherwise(code: str) -> str | None:
    """The first chain of keeps and drops (``4d6kh2dl1``) that RPG Dice Roller, which
    applies each to all the dice, reads otherwise; None when there is none."""
    from dicecli.notation.semantics import kept_window  # docs/startup.md
    from dicecli.notation.translations import (  # docs/startup.md
        keep_steps,
        modifier_runs,
        rdr_window,
    )

    for head, tokens in modifier_runs(code):
        steps = keep_steps(tokens)
        if len(steps) < 2:
            continue
        written = ("{...}" if head == "}" else head) + "".join(f"{k}{n}" for k, n in steps)
        counted = _pattern(_COUNT).match(head)
        exploding = any(word.startswith("!") for word, _ in tokens)
        if counted is None or exploding:  # a group, Fudge dice, added dice: count unknown
            return written
        count = int(counted["count"] or 1)
        chain = Keep(cast("KeepKind", steps[0][0]), steps[0][1])
        for kind, amount in steps[1:]:
            chain = chain.followed_by(Keep(cast("KeepKind", kind), amount))
        low, high = kept_window(chain, count)
        theirs = rdr_window(steps, count)
        if (low, high) != theirs and (high > low or theirs[1] > theirs[0]):
            return written
    return None


@lru_cache(maxsize=1024)
def other_readings(text: str) -> tuple[str, ...]:
    """The notes on the spellings of ``text`` that another well-known roller reads
    otherwise, each once, in the order found; ``()`` for most lines."""
    code = text.partition("#")[0]
    leading_minus = code.lstrip()[:1] == "-"
    hashed = _pattern(_HASH_REPEAT).match(text) if "#" in text else None
    if not leading_minus and hashed is None and not _MAYBE.search(code):
        return ()
    notes: list[str] = []
    if hashed is not None:
        times, rolled = int(hashed["times"]), hashed["roll"]
        notes.append(
            f"# starts a comment here: {hashed[0].strip()} rolls {times}; Rollem rolls "
            f"{rolled} {_times(times)}: write {rolled} -n {times}"
        )
    # Each pattern is tried only on a line with a letter or sign it needs: ``in`` on
    # the line in lower case (a ``K`` is a ``k`` there) is the cheapest look.
    lowered = code.lower()
    repeat = (
        _pattern(_TIMES_DICE).match(code)
        if ("x" in lowered or "\N{MULTIPLICATION SIGN}" in code) and code.lstrip()[:1].isdigit()
        else None
    )
    if repeat is not None:
        count = int(repeat["times"])
        notes.append(
            f"{code.strip()} multiplies; to roll {_times(count)}: -n {count}, "
            f"as rolldice reads {count}x with --dialect rolldice"
        )
    if "{" in code and _pattern(_LONE_POOL).search(code):
        notes.append(
            "a group of one dice term counts its sum as one value; Roll20 compares each "
            "die with the target: write the dice without braces, or --dialect roll20"
        )
    kept = _pattern(_LONE_KEPT).search(code) if "{" in code else None
    if kept is not None:
        from dicecli.notation.translations import one_value_term  # docs/startup.md

        term, keep = kept["term"], kept["keep"]
        runs = _modifier_runs()(term)
        if runs and one_value_term(runs[0][1]):
            notes.append(
                f"{{{term}}}{keep} keeps or drops the group's sum as one value here; Roll20 "
                f"picks among the dice: write {term}{keep}, or --dialect roll20"
            )
    strict: str | None = None
    counted: str | None = None
    once = False
    bare_keep: str | None = None
    selected: str | None = None
    multiplied: tuple[str, str] | None = None
    unequal: tuple[str, str] | None = None
    # what the modifiers read below need: a strict condition, cs, r, x, != or k
    worth_reading = (
        "<" in code
        or ">" in code
        or "c" in lowered
        or "r" in lowered
        or "x" in lowered
        or "!=" in code
    )
    runs = _modifier_runs()(code) if worth_reading or "k" in lowered else []
    for head, tokens in runs:
        for index, (word, condition) in enumerate(tokens):
            low = word.lower()
            if strict is None and _strict(condition) and low not in _KEEPS:
                strict = condition
            if low == "cs" and condition and counted is None:
                compared = "=" + condition if condition[:1].isdigit() else condition  # cs6
                counted = (head if head != "}" else "{...}") + compared
            if low == "r":
                once = True
            if low == "x" and condition.isdigit() and head != "}" and multiplied is None:
                multiplied = (head + "".join(w + c for w, c in tokens[:index]), condition)
            if low == "k" and condition[:1].isdigit() and bare_keep is None:
                bare_keep = condition
            if low in ("k", "p") and _strict(condition) and selected is None:
                selected = word + condition
            if word == "!" and condition[:1] == "=" and unequal is None and head != "}":
                unequal = (head + "".join(w + c for w, c in tokens[:index]), condition[1:])
    keep_letter = "k" in lowered or "h" in lowered or "l" in lowered  # what a chain needs
    two_keeps = keep_letter and _pattern(_TWO_KEEPS).search(code)
    chain = _keeps_read_otherwise(code) if two_keeps else None
    if chain is not None:
        notes.append(
            f"{chain}: each keep or drop here takes from the dice the one before kept, as "
            "in Dice Maiden and d20 (Avrae); RPG Dice Roller applies each to all the dice, "
            "keeps first: --dialect rdr"
        )
    if multiplied is not None:
        dice, n = multiplied
        notes.append(
            f"x multiplies: {dice}x{n} is {dice}*{n}; Foundry VTT reads x{n} as exploding "
            f"on {n}: write {dice}!{n}, or --dialect foundry"
        )
    unequal_note = _unequal_note(code, *unequal) if unequal is not None else None
    if unequal_note is not None:
        notes.append(unequal_note)
    if strict is not None:
        op, number = strict[0], strict[1:]
        notes.append(
            f"{strict} is strict here, {'over' if op == '>' else 'under'} {number}; Roll20 "
            f"reads {strict} as {number} or {'more' if op == '>' else 'less'}: write "
            f"{op}={number}, or --dialect roll20"
        )
    if counted is not None:
        notes.append(
            "cs marks critical successes here and the total is the sum; Foundry VTT "
            f"counts successes with cs: write {counted}, or --dialect foundry"
        )
    if once or ("r" in lowered and _pattern(_SPACED_REROLL).search(code)):
        notes.append(
            "r re-rolls until the face is gone here; Foundry VTT re-rolls once: write ro, "
            "or --dialect foundry; Dice Maiden's r2 re-rolls 2 or less once: "
            "--dialect dicemaiden"
        )
    spaced_keep = (
        _pattern(_SPACED_KEEP).search(code) if bare_keep is None and "k" in lowered else None
    )
    if spaced_keep is not None:
        bare_keep = spaced_keep["n"]
    if bare_keep is not None:
        n = bare_keep
        notes.append(
            f"k{n} keeps the {n} highest here; d20 (Avrae) keeps the dice showing {n} and "
            f"caith the {n} lowest: write kh{n} or kl{n} to say which"
        )
    if selected is not None:
        side = "over" if ">" in selected else "under"
        number = selected[1:].lstrip("<>=")
        notes.append(
            f"{selected} keeps the highest die here, then counts the dice {side} {number}; "
            f"d20 (Avrae) keeps the dice {side} {number}, which dicecli does not roll: write "
            f"kh1{selected[1:]} for this reading"
        )
    if "!" in code and _pattern(_SPACED_BANG).search(code):
        notes.append(
            "a lone ! explodes here; Dice Maiden reads ' !' as the start of a comment: "
            "write # for a comment, or --dialect dicemaiden"
        )
    caret = _pattern(_CARET).search(code) if "^" in code else None
    if caret is not None:
        dice, n = caret["dice"], caret["n"]
        others = ["python-dice and caith read ^ otherwise (keep, repeat)"]
        if n:
            others = [f"caith reads ^ {n} as rolling {_times(int(n))} (-n {n})"]
            if dice:
                others.insert(0, f"python-dice reads {dice}^{n} as {dice}kh{n}")
        notes.append("^ is a power here, as in RPG Dice Roller; " + " and ".join(others))
    rounded = "(" in code and _pattern(_ROUNDING).search(code) is not None
    divides = "/" in code and not rounded
    if divides and _pattern(_DIVISION).search(_pattern(_LABELS).sub("", code)) and _inexact(text):
        notes.append(
            "/ rounds up here, 7/2 is 4; Roll20, Foundry VTT, RPG Dice Roller and d20 "
            "(Avrae) keep the fraction, Dice Maiden rounds towards zero: write // to round "
            "down"
        )
    if "//" in code and _pattern(_FLOOR_DIVISION).search(code):
        notes.append(
            "// divides rounding down here, as in d20 (Avrae); RPG Dice Roller reads // as "
            "the start of a comment: write # for a comment"
        )
    maiden = _pattern(_MAIDEN_COUNT).search(code) if "t" in lowered else None
    # the order matters where a sign comes before a * or /: 1d20 t10 +1 *2
    if maiden is not None and re.search(r"[-+][^*/]*[*/]", maiden["ops"]):
        from dicecli.errors import DiceError  # docs/startup.md
        from dicecli.notation.translations import translated  # docs/startup.md

        try:
            theirs = translated(code.strip(), "dicemaiden")
        except DiceError:  # refused in the dialect (a division of the count): no reading
            theirs = None
        if theirs is not None:
            notes.append(
                f"{maiden['ops'].strip()} after a target is worked here as arithmetic "
                "always is; Dice Maiden works it on the count in the order written: "
                f"--dialect dicemaiden reads {theirs}"
            )
    disadvantage = _pattern(_DISADVANTAGE).match(code) if leading_minus else None
    if disadvantage is not None:
        from dicecli.notation.dicemaiden import with_advantage  # docs/startup.md

        die = disadvantage["die"]
        worse = with_advantage("-", die)
        notes.append(
            f"-d{die} subtracts a d{die} here; Dice Maiden rolls it with disadvantage: "
            f"write {worse}, or --dialect dicemaiden"
        )
    explosion = _pattern(_ONCE).search(code) if "e" in lowered else None
    if explosion is not None:
        notes.append(_once_note(explosion["dice"], explosion["letter"], explosion["condition"]))
    versus = _pattern(_VERSUS).search(code) if "v" in lowered else None
    if versus is not None:
        dice, n = versus["dice"], versus["n"]
        notes.append(
            f"v{n} counts the dice of {n} or more here, as justinian/dice reads it; "
            f"python-dice reads {dice}v{n} as keeping the lowest {n}: write {dice}kl{n}"
        )
    added = _pattern(_ADD_THEN_TIMES).search(code) if "*" in code else None
    if added is not None:
        notes.append(
            f"* comes before {added['add'][0]} here; rolldice multiplies the dice first: "
            f"write {added['dice']}*{added['times']}{added['add']}, or --dialect rolldice"
        )
    return tuple(notes)


_UNEQUAL = r"(?<![A-Za-z!])!=(?=-?\d)"
"""``!=`` right against a number, not after a letter (``r!=6`` is a re-roll's
condition) nor in ``!!=``: dicecli's explosion ``!`` on ``=N``."""


def _unequal_note(code: str, dice: str, n: str) -> str | None:
    """The note on ``3d6!=6`` (``dice`` and ``n``): an explosion on 6 here, d20
    (Avrae)'s inequality of the total (grammar.lark: no ``!``, and ``!=`` is a
    ``COMP_OPERATOR``); None when d20 does not write the dice and what is before the
    ``!=`` (``4dF!=1``, ``3d6u!=6``): it reads no such line."""
    from dicecli.notation.translations import spelt_by_roller  # docs/startup.md

    if not spelt_by_roller(f"{dice}!={n}", "d20"):
        return None
    found = _pattern(_UNEQUAL).search(code)
    if found is None:  # (the run read it: never)
        return None
    spaced = f"{code[: found.start()].rstrip()} != {code[found.end() :].lstrip()}".strip()
    return (
        f"{dice}!={n} explodes on {n} here; d20 (Avrae) reads != as not equal, a check of "
        f"the total: write {spaced} for that, or --dialect d20"
    )


def _inexact(text: str) -> bool:
    """Whether a division ``/`` of the line ``text`` as read can leave a remainder, so
    that rounding up can matter: not ``10/5``, nor ``2d6*2/2``, nor a ``/`` in a
    comment (Dice Maiden's ``! half/2``); True for a line that is not read (its error
    is what a player sees)."""
    from dicecli.errors import DiceError  # docs/startup.md
    from dicecli.notation.nodes import BinaryOp, Comparison, children  # docs/startup.md
    from dicecli.notation.reader import parse  # docs/startup.md

    try:
        body = parse(text).body
    except DiceError:
        return True
    if isinstance(body, Comparison):
        roots = [body.left, body.right]
    elif isinstance(body, Check):
        return True  # a game's line: its divisions are the game's
    else:
        roots = [body]
    # Each value's known factor (every value it takes is a multiple of it; 0: it is
    # always 0) and its value when it is one number, worked out children first, with
    # a stack: a line of thousands of terms is no deeper than this loop.
    factor: dict[int, int] = {}
    constant: dict[int, int | None] = {}
    stack: list[tuple[Expr, bool]] = [(root, False) for root in roots]
    while stack:
        node, ready = stack.pop()
        if not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in children(node))
            continue
        known, value = _factor(node, factor, constant)
        if isinstance(node, BinaryOp) and node.op == "/":
            divisor = constant[id(node.right)]
            left = factor[id(node.left)]
            if divisor is None or (divisor != 0 and left % divisor):
                return True
            known = left // abs(divisor) if divisor else 1
            left_value = constant[id(node.left)]
            value = None if left_value is None or not divisor else left_value // divisor
        factor[id(node)], constant[id(node)] = known, value  # (the tree holds every node)
    return False


_BIGGEST = 10**100
"""Past this a value is taken as unknown (any power past it is an error anyway)."""


def _factor(
    node: Expr, factor: dict[int, int], constant: dict[int, int | None]
) -> tuple[int, int | None]:
    """``node``'s known factor and its value when it is one number, from its
    children's (see :func:`_inexact`); 1 and None for anything rolled or named."""
    from dicecli.notation.nodes import BinaryOp, Labelled, Negate, Number  # docs/startup.md

    if isinstance(node, Number):
        return abs(node.value), node.value
    if isinstance(node, Negate | Labelled):
        inner = node.operand if isinstance(node, Negate) else node.expr
        value = constant[id(inner)]
        sign = -1 if isinstance(node, Negate) else 1
        return factor[id(inner)], None if value is None else sign * value
    if isinstance(node, BinaryOp) and node.op in ("+", "-", "*"):
        left, right = factor[id(node.left)], factor[id(node.right)]
        one, other = constant[id(node.left)], constant[id(node.right)]
        known = left * right if node.op == "*" else gcd(left, right)
        value = None
        if one is not None and other is not None:
            value = {"*": one * other, "+": one + other, "-": one - other}[node.op]
        if value is not None and abs(value) > _BIGGEST:
            value = None
        if value is not None:  # (2 + 4)/3: a number, whatever its parts' factors
            known = abs(value)
        return (known if known <= _BIGGEST else 1), value
    return 1, None


def _once_note(dice: str, letter: str, condition: str | None) -> str:
    """The note on an explosion spelt ``e``: once here, as Dice Maiden, caith and
    DiceParser read it; again and again in Dice-Bag and d20 (Avrae), which reads a
    bare number as exactly it; python-dice counts the dice meeting it."""
    written = letter + (condition or "")
    bare = condition is not None and condition.isdigit()
    note = f"{written} explodes each die once here, as Dice Maiden and caith read it"
    if not bare or int(condition or 0) > 1:  # e1 again and again would never end
        again = f"{dice}!>={condition}" if bare else f"{dice}!{condition or ''}"
        note += f"; Dice-Bag and d20 (Avrae) explode again and again: write {again}"
        if bare:
            note += f" (d20 on exactly {condition}: --dialect d20)"
    if bare:
        note += (
            f"; python-dice reads {written} as counting the dice of {condition} or more: "
            f"write {dice}>={condition}"
        )
    return note


__all__ = ["other_readings"]
