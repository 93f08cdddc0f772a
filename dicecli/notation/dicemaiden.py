"""Dice Maiden's notation in dicecli's: the forms of a line it writes its own way, and
its game aliases (github.com/Humblemonk/dicemaiden-rs, roll_syntax.md).

Two readings, for two uses:

- :func:`plain_forms` rewrites the forms that no well-known roller reads otherwise and
  that dicecli refuses as written: the display flags before a roll (``p s 2d6``), a
  doubled sign (``1d6++5``), ``tl6`` (count the dice of 6 or less), ``ds`` with no
  number beside ``t``/``tl`` (its target), and ``c`` where no failures are counted
  (``4d10 t8 c``: its cancel has nothing to cancel).
  The grammar offers a refused line this reading, so these read by default.
- :func:`maiden_line` is the whole of the ``dicemaiden`` dialect's own reading: the
  plain forms, the spellings that mean something else here (``-d20`` is disadvantage
  there, ``ds6`` beside ``t`` is 6 or more), and the game aliases of :data:`ALIASES`
  (``sw8``, ``ess1d8``), each spelt in dicecli's notation. Where dicecli has the
  game, its own line reads Dice Maiden's spelling (``4cod``, ``sr6``, ``fitd2``: the
  games' ``joined`` and ``counted`` keywords), so that needs no alias here.

An explosion once, ``e6``, is dicecli's ``!o>=6``; the implosion ``i1`` is dicecli's
own ``i1`` (dropped beside a target, where Dice Maiden ignores it). A form Dice Maiden
reads that dicecli cannot roll (an alias whose meaning needs its own rules, ``vtm7h2``)
is refused with Dice Maiden's name, never rolled otherwise.
docs/grammar.md, "Dialects", tables each reading; this module is loaded only for a line
that needs it (docs/startup.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from dicecli.errors import DiceError
from dicecli.frozen import frozen

# --- the plain forms ------------------------------------------------------------------

_FLAGS = re.compile(r"(?P<label>\s*(?:\([^()]*\)[ \t]*)?)(?:(?:p|s|nr|ul)[ \t]+)+(?=\S)")
"""Display flags before a roll: ``p`` private, ``s`` simple output, ``nr`` no results,
``ul`` unsorted. None changes what is rolled."""
_DOUBLED_PLUS = re.compile(r"\+(?:[ \t]*\+)+")
_TARGET_LOWER = re.compile(
    r"(?<![A-Za-z])tl(?P<target>\d+)(?![ \t]*ds\d)(?P<double>ds(?![\d<>=!]))?"
)
"""``tl6`` (with a bare ``ds``: doubles on the target); not beside ``ds`` and a number,
which Dice Maiden reads as that number or less and dicecli as exactly it: such a line
stays refused (its hint gives the dialect's reading)."""
_TARGET_DOUBLE = re.compile(r"(?<![A-Za-z])t(?P<target>\d+)ds(?![\d<>=!])")
_COUNT_ONLY = re.compile(r"(?:(?<=\s)|(?<=\d))c(?=\s|$)")
"""``c``, alone or right after a modifier's number: Dice Maiden's cancel (each 10
cancels a failure on a 1), which does nothing without failures (``f``)."""
_FAILURES = re.compile(r"(?<![A-Za-z])f(?:<=)?\d")


def without_flags(text: str) -> str:
    """``text`` without Dice Maiden's display flags before the roll (``p s 2d6``)."""
    found = _FLAGS.match(text)
    return text if found is None else found["label"] + text[found.end() :]


def plain_forms(text: str) -> str:
    """``text`` with the forms of Dice Maiden that dicecli refuses as written and no
    other roller reads otherwise spelt as dicecli's; ``text`` itself when it has none.
    ``tl`` beside a bare ``f2`` stays as written (refused): Dice Maiden counts a die
    of 2 or less a failure even when it is a success, dicecli reads exactly 2 and
    never counts a success a failure (:func:`lower_target_failure`)."""
    text = without_flags(text)
    text = _DOUBLED_PLUS.sub("+", text)
    if lower_target_failure(text) is None:
        text = _TARGET_LOWER.sub(_lower_target, text)
    text = _TARGET_DOUBLE.sub(lambda m: f">={m['target']}ds>={m['target']}", text)
    return text if _FAILURES.search(text) else _COUNT_ONLY.sub("", text).rstrip()


_LOWER_TARGET_WORD = re.compile(r"(?<![A-Za-z])tl(?P<n>\d+)")
_BARE_FAILURE = re.compile(r"(?<![A-Za-z])f(?P<n>\d+)(?![\d<>=])")


def lower_target_failure(code: str) -> re.Match[str] | None:
    """Dice Maiden's bare failure (``f2``) in ``code`` beside ``tl`` (``4d6 tl4 f2``),
    or None. Dice Maiden counts every die of 2 or less a failure, those it counts
    successes too (roll_syntax.md: ``f1``, "count failures ≤1"; roller.rs,
    ``count_failures_and_subtract``: each kept die at the threshold or less, the
    successes then less the failures): beside ``tl`` such a die is worth 0 there,
    where dicecli reads ``f2`` as exactly 2 and never counts a success a failure."""
    if _LOWER_TARGET_WORD.search(code) is None:
        return None
    return _BARE_FAILURE.search(code)


def _lower_target(found: re.Match[str]) -> str:
    target = found["target"]
    return f"<={target}" + (f"ds<={target}" if found["double"] else "")


# --- the readings that collide ---------------------------------------------------------

_LABEL = r"(?P<label>\s*(?:\([^()]*\)\s*)?)"
_ADVANTAGE = re.compile(_LABEL + r"(?P<sign>[+-])[dD](?P<die>20|%)(?![\w])")
_TARGET = re.compile(r"(?<![A-Za-z])t(?P<lower>l?)\d")
_DOUBLE_NUMBER = re.compile(r"(?<![A-Za-z])ds(?P<n>\d+)")
_FAILURE_NUMBER = re.compile(r"(?<![A-Za-z])f(?P<n>\d+)")
_BOTCH = re.compile(r"(?:(?<=\s)|(?<=\d))b(?P<n>\d*)(?=\s|$|[a-z]{1,2}(?:\d|\s|$))")
"""``b1``: count the dice of 1 or less as botches, told apart; the total stays."""
_ONCE = re.compile(r"(?:(?<=\s)|(?<=\d))e(?P<n>\d*)(?=\s|$|[a-z]{1,2}(?:\d|\s|$))")
_IMPLODE = re.compile(r"\s*(?:(?<=\s)|(?<=\d))i\d*(?![a-z])")
"""``i``/``i2``: implode (dicecli's own ``i``, read as Dice Maiden reads it)."""
_REROLL_AFTER = re.compile(r"(?<![A-Za-z])i?rg?\d")


def with_advantage(sign: str, die: str) -> str:
    """Dice Maiden's ``+d20``/``-d20`` (``sign``, ``die`` 20) and ``+d%``/``-d%`` (``die``
    ``%``) in dicecli's notation: the better or worse of two d20, or the better (lower)
    or worse tens die of two for a 1 to 100."""
    if die == "20":
        return "2d20kh1" if sign == "+" else "2d20kl1"
    tens = "kl1" if sign == "+" else "kh1"
    return f"(2d10{tens}*10+1d10-10)"


def _advantage(found: re.Match[str]) -> str:
    return found["label"] + with_advantage(found["sign"], found["die"])


def _target_numbers(code: str) -> str:
    """``code`` with Dice Maiden's bare numbers after ``ds`` and ``f`` beside a target
    (``t6ds10``, ``t8 f2``) spelt as the comparisons they are there: ``ds>=10`` (``ds<=``
    beside ``tl``), ``f<=2``; dicecli reads a bare number as ``=``."""
    target = _TARGET.search(code)
    if target is None:
        return code
    op = "<=" if target["lower"] else ">="
    code = _DOUBLE_NUMBER.sub(lambda m: f"ds{op}{m['n']}", code)
    return _FAILURE_NUMBER.sub(lambda m: f"f<={m['n']}", code)


_TARGET_WORD = r"(?:tl?\d+(?:ds\d*)?|f\d+|b\d*)"
_ARITHMETIC = r"(?:\s*[-+*/]\s*\d+)"
_COUNTED_TERM = re.compile(
    r"(?P<head>\s*(?:\([^()]*\)\s*)?\d*[dD](?P<sides>\d+|%)"
    rf"(?:\s*(?!{_TARGET_WORD})[a-z]+(?![a-z])\d*)*)"
    rf"(?P<before>{_ARITHMETIC}*)(?P<targets>(?:\s*{_TARGET_WORD})+)(?P<after>{_ARITHMETIC}*)\s*"
)
"""One dice term with Dice Maiden's targets (``t``, ``tl``, ``ds``, ``f``, ``b``), and
numbers added, subtracted, multiplied or divided before and after them."""
_ARITHMETIC_PART = re.compile(r"\s*(?P<op>[-+*/])\s*(?P<n>\d+)")
_TARGET_PART = re.compile(r"(?P<word>tl|t|f|b)(?P<n>\d*)(?:ds(?P<double>\d*))?")


def _applied(value: int, steps: list[tuple[str, int]]) -> int:
    """``value`` through ``steps`` in the order written, dividing as Dice Maiden does
    (Rust's integer ``/``: towards zero); a division by zero is a :class:`_StepError`
    naming the step."""
    for index, (op, number) in enumerate(steps):
        if op == "+":
            value += number
        elif op == "-":
            value -= number
        elif op == "*":
            value *= number
        else:
            if number == 0:
                raise _StepError("Dice Maiden cannot divide by zero", index)
            value = abs(value) // number * (1 if value >= 0 else -1)
    return value


class _StepError(DiceError):
    """An error about one of the steps :func:`_applied` works through: ``index`` is the
    step's, which its caller turns into the step's place in the line."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def _arithmetic_beside_targets(code: str) -> str:
    """``code`` with the numbers Dice Maiden works on a counted roll spelt as dicecli's:
    written before the targets they change each die (``1d12+2 t8`` counts the dice
    whose face plus 2 is 8 or more: dicecli's ``1d12>=6``; dicemaiden-rs roller.rs,
    ``apply_pre_target_mathematical_modifiers``), written after they change the count,
    in the order written (``t4 +1 *2`` is ``(count + 1) * 2``). Each die's worth only
    grows with its face, so each target becomes a threshold on the face; ``code``
    itself when it has no such numbers."""
    found = _COUNTED_TERM.fullmatch(code)
    if found is None:
        return code
    parts = list(_ARITHMETIC_PART.finditer(found["before"]))
    before = [(m["op"], int(m["n"])) for m in parts]
    after_parts = list(_ARITHMETIC_PART.finditer(found["after"]))
    after = [(m["op"], int(m["n"])) for m in after_parts]
    for part in after_parts:
        if part["op"] == "/":
            raise DiceError(
                "Dice Maiden divides a count towards zero, dicecli rounds up: "
                "write the division after the roll, in brackets",
                code,
                found.start("after") + part.start("op"),
            )
    if not before and len(after) < 2:
        return code  # dicecli adds a number to the count already (1d20 t10 +5)
    sides = 100 if found["sides"] == "%" else int(found["sides"])
    try:
        worth = [(_applied(face, before), face) for face in range(1, sides + 1)]
    except _StepError as error:  # (only a division by zero: a division after is refused)
        at = found.start("before") + parts[error.index].start("op")
        raise DiceError(error.message, code, at) from None

    def at_least(number: int) -> int:
        return min((face for value, face in worth if value >= number), default=sides + 1)

    def at_most(number: int) -> int:
        return max((face for value, face in worth if value <= number), default=0)

    counted = ""
    for part in _TARGET_PART.finditer(found["targets"]):
        word, number = part["word"], int(part["n"] or 1)
        if word == "t":
            counted += f">={at_least(number)}"
        elif word == "tl":
            counted += f"<={at_most(number)}"
        elif word == "f":
            counted += f"f<={at_most(number)}"
        else:  # a botch: marked, as criticals are
            counted += f"cf<={at_most(number)}"
        if part["double"] is not None:
            double = int(part["double"] or number)
            counted += f"ds>={at_least(double)}" if word == "t" else f"ds<={at_most(double)}"
    text = found["head"] + counted
    for op, number in after:
        text = f"({text}) {op} {number}"
    return text


_FAILURES_ONLY = re.compile(
    r"(?P<label>\s*(?:\([^()]*\)\s*)?)(?P<term>\d*[dD](?:\d+|%)(?:\s*[a-z]+(?![a-z])\d*)*)\s*"
)
_FAILURE_WORD = re.compile(r"\s*(?<![A-Za-z])f(?P<n>\d+)")
_BOTCH_WORD = re.compile(r"(?<![A-Za-z])b(?P<n>\d*)(?![a-z])")


def _failures_only(code: str) -> str:
    """``4d6 f1``: failures counted without a target, minus one for each die of 1 or
    less (dicemaiden-rs roller.rs: ``f`` alone starts the successes at 0), spelt as
    dicecli's ``4d6<=1*-1`` (a minus in front would read a label before it as a
    name); ``code`` itself for any other line."""
    found = _FAILURES_ONLY.fullmatch(code)
    if found is None or _TARGET.search(code) or not _FAILURE_WORD.search(found["term"]):
        return code
    term = _FAILURE_WORD.sub(lambda m: f"<={m['n']}", found["term"])
    term = _BOTCH_WORD.sub(lambda m: f"cf<={m['n'] or 1}", term)  # marked, as criticals are
    return f"{found['label']}{term}*-1"


def _refuse_both(code: str) -> None:
    """Refuse failures that take in successes (``4d6 tl4 f2``, ``4d6 t2 f3``): Dice
    Maiden counts such a die a success and a failure, worth 0
    (:func:`lower_target_failure`), which dicecli cannot roll."""
    target = _TARGET_NUMBER.search(code)
    failure = _BARE_FAILURE.search(code)
    if target is None or failure is None:
        return
    lower, n, bound = target["lower"], int(failure["n"]), int(target["n"])
    if lower or n >= bound:
        worded = f"t{lower}{bound}"
        raise DiceError(
            f"Dice Maiden counts each die of {failure['n']} or less a failure beside "
            f"{worded}, also one it counts a success (worth 0 then), which dicecli cannot "
            "roll: a success here is never a failure",
            code,
            failure.start(),
        )


_TARGET_NUMBER = re.compile(r"(?<![A-Za-z])t(?P<lower>l?)(?P<n>\d+)")


def _refuse_cancel(code: str) -> None:
    """Refuse ``c`` beside failures (``4d10 f1 c``): each 10 cancels a failure on a 1,
    which dicecli cannot roll."""
    cancel = _COUNT_ONLY.search(code)
    if cancel is not None and _FAILURES.search(code):
        raise DiceError(
            "Dice Maiden's c (each 10 cancels a failure on a 1) has rules dicecli cannot roll",
            code,
            cancel.start(),
        )


_EXPERTISE_WORD = re.compile(r"(?<![A-Za-z])e[x]\d+(?![\w])")


def _once(text: str) -> str:
    """``e6`` (each die of 6 or more explodes once, the dice it adds do not) spelt as
    dicecli's ``!o>=6`` (a bare ``e``: on the highest face). ``ex1`` after a roll is
    refused: it is Level Up A5E's expertise die, which goes after ``a5e``."""
    expertise = _EXPERTISE_WORD.search(text)
    if expertise is not None:
        raise DiceError(
            f"Dice Maiden's {expertise[0]} is an expertise die of Level Up A5E: "
            f"write it after a5e (a5e +5 {expertise[0]})",
            text,
            expertise.start(),
        )
    return _ONCE.sub(lambda found: "!o>=" + found["n"] if found["n"] else "!o", text)


def _implosions(code: str) -> str:
    """``code`` with its implosions (``i1``) as Dice Maiden rolls them: dropped beside a
    target (an imploded die never joins the dice counted, roll_syntax.md: "i# does
    nothing on a success-counting roll"), refused before a re-roll (Dice Maiden judges
    the die before that re-roll, dicecli after every re-roll), else as written."""
    found = _IMPLODE.search(code)
    if found is None:
        return code
    if _TARGET.search(code):
        return _IMPLODE.sub("", code)
    if _REROLL_AFTER.search(code, found.end()):
        raise DiceError(
            f"Dice Maiden judges {found[0].strip()} before the re-roll written after it, dicecli "
            "after it: write the re-roll first",
            code,
            found.start() + len(found[0]) - len(found[0].lstrip()),
        )
    return code


# --- the game aliases ------------------------------------------------------------------


@frozen
class Alias:
    """One of Dice Maiden's game aliases: the words it matches (a regular expression
    over the whole roll, before any comment), how it is spelt here, one example and
    Dice Maiden's meaning of it (roll_syntax.md, "Game System Aliases")."""

    game: str
    pattern: str
    spell: Callable[[re.Match[str]], str]
    example: str
    meaning: str


def _d20(sign: str) -> str:
    return with_advantage(sign, "20") if sign else "1d20"


_EXPERTISE = {"1": 4, "2": 6, "3": 8}
_EXPERTISE_DICE = (4, 6, 8, 10, 12, 20, 100)


def _a5e(found: re.Match[str]) -> str:
    def die(expertise: re.Match[str]) -> str:
        level = expertise[1]
        sides = _EXPERTISE.get(level) or int(level)
        if sides not in _EXPERTISE_DICE:
            raise DiceError(f"Dice Maiden's a5e has no expertise die of level {level}")
        return f"+1d{sides}"

    return _d20(found["sign"]) + re.sub(r"(?<![A-Za-z])e[x](\d+)", die, found["rest"])


_LADDER = ("1d2", "1d4", "1d6", "1d8", "1d10", "1d12", "2d8", "3d6")
"""Essence20's skill dice, rank 1 to 8."""


def _essence(found: re.Match[str]) -> str:
    skill = f"{found['count'] or 1}d{found['sides']}"
    if skill not in _LADDER:
        raise DiceError(f"Dice Maiden's Essence20 has no skill die {skill}")
    if found["special"]:  # the skill die and every one below it: the highest counts
        rank = _LADDER.index(skill)
        skill = "(" + ", ".join(reversed(_LADDER[: rank + 1])) + ")kh1"
    return f"{_d20(found['sign'])}+{skill}{found['rest']}"


_OPEN_LEGEND = ("", "1d4", "1d6", "1d8", "1d10", "2d6", "2d8", "2d10", "3d8", "3d10", "4d8")
"""Open Legend's attribute dice, by score 0 to 10."""


def _open_legend(found: re.Match[str]) -> str:
    score = int(found["score"])
    if score >= len(_OPEN_LEGEND):
        raise DiceError(f"Dice Maiden's Open Legend has no attribute score {score}")
    dice = _OPEN_LEGEND[score]
    return "1d20ie20" + (f"+{dice}ie" if dice else "") + found["rest"]


def _darkest_house(found: re.Match[str]) -> str:
    dice = {"b": "3d6kh2", "n": "3d6kl2"}.get(found["boon"], "2d6")
    house = "+1d6" if found["call"] else ""
    return f"{dice}{house}+{found['rating']}{found['rest']}"


def _d6_legends(found: re.Match[str]) -> str:
    count = int(found["count"] or 1)
    if count < 1:
        raise DiceError("Dice Maiden's D6 Legends rolls at least the wild die: 1d6l")
    wild = "1d6t4f1ie6"
    return (wild if count == 1 else f"{count - 1}d6t4+{wild}") + found["rest"]


def _warhammer_fantasy(found: re.Match[str]) -> str:
    target = int(found["skill"])
    for sign, number in re.findall(r"([+-])\s*(\d+)", found["rest"]):
        target += int(number) if sign == "+" else -int(number)
    return f"1d100 <= {target}"


def _alien(found: re.Match[str]) -> str:
    stress = int(found["stress"] or 0) + (1 if found["push"] else 0)
    base = f"{found['base']}d6>=6"
    return base + (f"+{stress}d6>=6" if stress else "") + found["rest"]


def _wrath_and_glory(found: re.Match[str]) -> str:
    """Icons: 4-5 one, 6 two; ``!soak`` and ``!dmg`` take the total;
    ``dnN`` passes at N; the Wrath dice are among the pool and change no count."""
    dice = found["dice"]
    total = (found["flag"] or "").lower() in ("soak", "dmg")
    counted = f"{dice}{found['rest']}" if total else f"{dice}>=4ds>=6{found['rest']}"
    return f"{counted} >= {found['difficulty']}" if found["difficulty"] else counted


def _mothership(found: re.Match[str]) -> str:
    """Roll-under 1d100; with advantage (``+``) two dice, the better: it passes when
    either passes, as ``2d100kl1`` does; with disadvantage the worse (``2d100kh1``)."""
    stat = int(found["stat"] or 50)
    if not 1 <= stat <= 99:
        raise DiceError(f"Dice Maiden's Mothership stat is 1 to 99, not {stat}")
    dice = {"+": "2d100kl1", "-": "2d100kh1"}.get(found["sign"], "1d100")
    return f"{dice} <= {stat}"


_STEPS_TO_7 = ("1d4!-2", "1d4!-1", "1d4!", "1d6!", "1d8!", "1d10!", "1d12!")
_STEP_CYCLE = (
    ("2d6",),
    ("1d8", "1d6"),
    ("2d8",),
    ("1d10", "1d8"),
    ("2d10",),
    ("1d12", "1d10"),
    ("2d12",),
    ("1d12", "2d6"),
    ("1d12", "1d8", "1d6"),
    ("1d12", "2d8"),
    ("1d12", "1d10", "1d8"),
)
"""Earthdawn's step dice from step 8, eleven steps that repeat with one more d20 each
time round (4th edition; the first edition's steps above 18 differ)."""


def _earthdawn(found: re.Match[str]) -> str:
    """Earthdawn's step dice, each exploding on its highest face: steps 1 to 100 of
    the 4th edition (``ed4e``), 1 to 18 of the first (``ed``; its steps above 18 are
    a table of their own, refused here)."""
    step = int(found["step"])
    highest = 100 if found["edition"] else 18
    if not 1 <= step <= highest:
        edition = "ed4e" if found["edition"] else "ed"
        raise DiceError(f"Dice Maiden's {edition} steps are 1 to {highest} here, not {step}")
    if step <= 7:
        return _STEPS_TO_7[step - 1]
    d20s, place = divmod(step - 8, 11)
    dice = ((f"{d20s}d20",) if d20s else ()) + _STEP_CYCLE[place]
    return "+".join(f"{term}!" for term in dice)


def _plot_dice(found: re.Match[str]) -> str:
    count = int(found["count"] or 1)
    if count < 1:
        raise DiceError("Dice Maiden's plot dice roll at least one die: 1dp")
    return f"{count}d{{2,4,0,0,0,0}}"


def _wild_worlds(found: re.Match[str]) -> str:
    count, cut = int(found["count"]), int(found["cut"] or 0)
    if count < 1 or cut >= count:
        raise DiceError(f"Dice Maiden's Wild Worlds cannot cut {cut} of {count} dice")
    return f"{count}d6" + (f"dh{cut}" if cut else "") + "kh1"


def _godbound(found: re.Match[str]) -> str:
    dice = found["dice"] or "1d20"
    if found["straight"]:
        return dice + found["rest"]
    count, sides = (int(part or 1) for part in dice.lower().split("d"))
    # the damage chart, die by die: 1 or less 0, 2-5 1, 6-9 2, 10 or more 4
    faces = [
        0 if face <= 1 else 1 if face <= 5 else 2 if face <= 9 else 4
        for face in range(1, sides + 1)
    ]
    return f"{count}d{{{','.join(map(str, faces))}}}" + found["rest"]


_HERO = r"(?P<whole>\d*)(?:\.(?P<fraction>\d+))?hs"
"""Hero System's dice before ``hsn``/``hsk``/``hsh``: ``2``, ``2.5`` (half a die: a 1d3)."""


def _hero(found: re.Match[str]) -> str:
    """Hero System (roll_syntax.md, "Hero System 5th Edition"; roller.rs
    ``apply_hero_system_calculation``): ``hsn`` normal damage, the dice; ``hsh`` to hit,
    always 3d6; ``hsk`` killing damage, shown as STUN: BODY (the dice and any number
    added) times 1d3. A fraction (``2.5hsk``), or a pip of 1 after ``hsk``
    (``2hsk1``), adds a 1d3."""
    kind, pip = found["kind"], found["pip"]
    if kind == "h":
        return "3d6" + found["rest"]
    fraction = bool(found["fraction"] and int(found["fraction"]))
    if kind == "k" and pip:
        if pip != "1":
            raise DiceError(f"Dice Maiden's hsk{pip} has no such half die: write hsk1")
        fraction = True
    whole = int(found["whole"] or (0 if found["fraction"] else 1))
    parts = ([f"{whole}d6"] if whole else []) + (["1d3"] if fraction else [])
    if not parts:
        raise DiceError("Dice Maiden's Hero System rolls at least half a die: 0.5hsk")
    dice = "+".join(parts)
    if kind == "n":
        return dice + found["rest"]
    return f"({dice}{found['rest']})*1d3"  # arithmetic comes before the multiplier


_REST = r"(?P<rest>(?:\s*[-+*/]\s*(?:\d*[dD])?\d+)*)"
"""Arithmetic after an alias, kept as written (``cpd4 + 2``, ``bnw4 + 2``)."""


def _fixed(spelt: str) -> Callable[[re.Match[str]], str]:
    """An alias spelt one way whatever its numbers: ``spelt`` formatted with its groups."""
    return lambda found: spelt.format(**{k: v or "" for k, v in found.groupdict().items()})


ALIASES: tuple[Alias, ...] = (
    Alias(
        "D&D 5e",
        r"(?P<word>attack|skill|save)" + _REST,
        _fixed("1d20{rest}"),
        "attack +5",
        "1d20 +5",
    ),
    Alias(
        "Level Up A5E",
        r"(?P<sign>[+-]?)a5e(?P<rest>(?:\s*[-+]\s*\d+)?(?:\s+e[x]\d+)?)",
        _a5e,
        "+a5e +5 ex1",
        "2d20 k1+5 + 1d4",
    ),
    Alias(
        "Essence20",
        r"(?P<sign>[+-]?)ess(?P<count>\d?)d(?P<sides>\d+)(?P<special>s?)" + _REST,
        _essence,
        "ess1d8s",
        "1d20 + the d8/d6/d4/d2 ladder, keeping the highest",
    ),
    Alias(
        "Savage Worlds",
        r"sw(?P<sides>4|6|8|10|12)" + _REST,
        _fixed("(1d{sides}!, 1d6!)kh1{rest}"),
        "sw8",
        "1d8 trait + 1d6 wild, keep highest, both explode",
    ),
    Alias(
        "40k, AoS (wh)",
        r"(?P<pool>\d+)wh(?P<target>\d+)\+",
        _fixed("{pool}d6t{target}"),
        "3wh4+",
        "3d6 t4",
    ),
    Alias(
        "World of Darkness",
        r"(?P<pool>\d+)wod(?P<target>\d+)",
        _fixed("{pool}d10t{target}f1"),
        "4wod8",
        "4d10 f1 t8",
    ),
    Alias(
        "Hero System",
        _HERO + r"(?P<kind>[nh])(?P<pip>\d*)" + _REST,
        _hero,
        "2hsn",
        "2d6 hsn (normal damage)",
    ),
    Alias(
        "Hero System killing",
        _HERO + r"(?P<kind>k)(?P<pip>\d*)" + _REST,
        _hero,
        "2.5hsk",
        "2d6 + 1d3 hsk: killing damage, STUN = BODY (the dice) times 1d3",
    ),
    Alias(
        "Cypher System",
        r"cs\s+(?P<level>\d+)",
        lambda m: f"1d20 >= {3 * int(m['level'])}",
        "cs 3",
        "level 3 task: target 9+",
    ),
    Alias(
        "d10 pool, 10s count double",
        r"e[x](?P<pool>\d+)t(?P<target>\d+)",
        _fixed("{pool}d10t{target}ds>=10"),
        "ex5t8",
        "5d10 t8ds10 (a target other than 7)",
    ),
    Alias(
        "Wrath & Glory",
        r"wng(?:\s+w\d+)?(?:\s+dn(?P<difficulty>\d+))?(?:\s+w\d+)?\s+(?P<dice>\d*d6)"
        r"(?P<rest>(?:\s*[-+*/]\s*\d+)*)(?:\s*!(?P<flag>\w*)(?:\s+\w+)*)?",
        _wrath_and_glory,
        "wng dn3 5d6",
        "5d6: 4-5 one icon, 6 two; difficulty 3 (PASS/FAIL); !soak and !dmg take the total",
    ),
    Alias(
        "Mothership",
        r"(?P<sign>[+-]?)ms(?P<stat>\d*)",
        _mothership,
        "+ms45",
        "1d100 roll-under 45 (the default stat 50); +ms45 rolls two and takes the better, "
        "-ms45 the worse (as pass or fail: a critical, doubles, is not told apart here)",
    ),
    Alias(
        "Cyberpunk Red",
        r"cpr(?P<rest>\s*[-+]\s*\d+)?",
        _fixed("1d10!o10i1{rest}"),
        "cpr + 5",
        "1d10 + 5: a 10 adds another d10, a 1 subtracts another d10",
    ),
    Alias(
        "Earthdawn",
        r"ed(?P<edition>4e)?(?P<step>\d+)",
        _earthdawn,
        "ed15",
        "step 15: 1d12 ie + 2d6 ie (each die explodes on its highest face)",
    ),
    Alias(
        "Plot dice",
        r"(?P<count>\d*)dp",
        _plot_dice,
        "3dp",
        "3d6 plot: 1 = C+2, 2 = C+4, 3-4 blank, 5-6 Opportunity (worth 0)",
    ),
    Alias(
        "Wild Worlds",
        r"ww(?P<count>\d+)(?:c(?P<cut>\d+))?",
        _wild_worlds,
        "ww4c2",
        "4d6, the 2 highest cut, the highest left: 6 Triumph, 4-5 Conflict, 1-3 Disaster",
    ),
    Alias(
        "Storypath",
        r"sp(?P<pool>\d+)(?:t(?P<target>\d+))?",
        lambda m: f"{m['pool']}d10ie10t{m['target'] or 8}",
        "sp4",
        "4d10 t8 ie10",
    ),
    Alias("Sunsails", r"snm(?P<pool>\d+)", _fixed("{pool}d6ie6t4"), "snm5", "5d6 ie6 t4"),
    Alias(
        "D6 System",
        r"d6s(?P<pool>\d+)" + _REST,
        _fixed("{pool}d6+1d6ie{rest}"),
        "d6s4",
        "4d6 + 1d6 ie",
    ),
    Alias("D6 Legends", r"(?P<count>\d*)d6l" + _REST, _d6_legends, "8d6l", "7d6 t4 + 1d6 t4f1ie6"),
    Alias(
        "Cyberpunk Red",
        r"cpd(?P<dice>\d+)" + _REST,
        _fixed("{dice}d6{rest}"),
        "cpd4 + 2",
        "4d6 cpd + 2 (the damage total; a Critical Injury is told apart)",
    ),
    Alias(
        "Double Digit",
        r"dd(?P<tens>[1-9])(?P<ones>[1-9])",
        _fixed("1d{tens}*10+1d{ones}"),
        "dd34",
        "1d3*10 + 1d4",
    ),
    Alias(
        "The Darkest House",
        r"tdh(?P<rating>\d+)(?P<boon>[bn]?)(?P<call>c?)" + _REST,
        _darkest_house,
        "tdh4b",
        "roll 3d6, discard the lowest, then add the Rating",
    ),
    Alias("Open Legend", r"ol(?P<score>\d+)" + _REST, _open_legend, "ol5", "1d20 ie20 + 2d6 ie6"),
    Alias(
        "WFRP 4e",
        r"wfrp(?P<skill>\d+)(?P<rest>(?:\s*[-+]\s*\d+)*)",
        _warhammer_fantasy,
        "wfrp67 + 20",
        "1d100 against 67, the modifier adjusting the target (87)",
    ),
    Alias(
        "Lasers & Feelings",
        r"(?P<pool>\d+)lf(?P<target>[2-5])(?P<side>[lf]?)",
        lambda m: f"{m['pool']}d6{'>=' if m['side'] == 'f' else '<='}{m['target']}",
        "2lf4f",
        "2d6 target 4 Feelings (success on 4 or more)",
    ),
    Alias(
        "Alien RPG",
        r"alien(?P<base>\d+)(?:s(?P<stress>\d+))?(?P<push>p?)" + _REST,
        _alien,
        "alien5s2",
        "5d6 alien + 2d6 aliens2: count the 6s",
    ),
    Alias(
        "Conan",
        r"cd(?P<dice>\d*)" + _REST,
        lambda m: f"{m['dice'] or 1}d{{1,2,0,0,1,1}}{m['rest']}",
        "cd4",
        "4d6 combat dice: 1=1, 2=2, 3-4=0, 5-6=1",
    ),
    Alias(
        "Godbound",
        r"gb(?P<straight>s?)(?:\s+(?P<dice>\d*[dD]\d+))?" + _REST,
        _godbound,
        "gb 3d8",
        "3d8, each die on the damage chart: 1-=0, 2-5=1, 6-9=2, 10+=4",
    ),
    Alias(
        "Dark Heresy 2e",
        r"dh\s+(?P<dice>\d*[dD]\d+)" + _REST,
        _fixed("{dice}ie{rest}"),
        "dh 4d10",
        "4d10 ie10",
    ),
)
"""Dice Maiden's game aliases that dicecli can roll, each with Dice Maiden's meaning."""

_ALIAS_PATTERNS = tuple(
    (re.compile(rf"\s*(?:{alias.pattern})\s*", re.IGNORECASE), alias) for alias in ALIASES
)

_UNROLLED = re.compile(
    r"[+-]?(?:\d+wod\d+c|wit|vtm\d+h\d+|wng|mm|sil\d*"
    r"|bnw\d+|conan\d*(?:cd\d+)?|dheart(?:gm)?|mnm"
    r"|ol\d+[ad]\d+)(?![\w.])",
    re.IGNORECASE,
)
"""Aliases whose meaning needs rules of their own (a STUN multiplier, hunger dice, a
Wrath die, critical chains): refused by name rather than read as something else."""


def alias_line(code: str) -> str | None:
    """``code`` (a roll, without its comment) spelt in dicecli's notation when it is
    one of Dice Maiden's game aliases, else None; a :class:`DiceError` for an alias
    dicecli cannot roll."""
    start = len(code) - len(code.lstrip())  # where the alias starts: its errors' place
    for pattern, alias in _ALIAS_PATTERNS:
        found = pattern.fullmatch(code)
        if found is not None:
            try:
                return alias.spell(found)
            except DiceError as error:
                raise error.at(code, start) from None
    unrolled = _UNROLLED.match(code, start)
    if unrolled is not None:
        raise DiceError(
            f"Dice Maiden's {unrolled[0]} has rules dicecli cannot roll", code, unrolled.start()
        )
    return None


_SETS = re.compile(r"\s*(?P<count>[0-9]{1,9})[ \t]+(?P<roll>[0-9dD(A-Za-z].*)", re.DOTALL)
_STATS = re.compile(r"\s*dndstats\s*", re.IGNORECASE)


def with_sets(text: str) -> str:
    """Dice Maiden's roll sets spelt as dicecli's ``-n`` option: ``p 6 4d6 k3`` is
    ``4d6 k3 -n 6``, its alias ``dndstats`` too (before any ``#`` comment); any other
    line as it is, less its display flags."""
    code, hash_sign, comment = text.partition("#")
    code = without_flags(code)
    if _STATS.fullmatch(code):
        code = "6 4d6 k3"
    found = _SETS.fullmatch(code)
    if found is None:
        return code + hash_sign + comment
    code = f"{found['roll'].rstrip()} -n {found['count']}"
    return code + (f" {hash_sign}{comment}" if hash_sign else "")


def maiden_line(code: str) -> str:
    """``code`` (without its comment) as Dice Maiden reads it, in dicecli's notation."""
    code = without_flags(code)
    aliased = alias_line(code)
    if aliased is not None:
        return aliased
    code = _ADVANTAGE.sub(_advantage, code, count=1) if _ADVANTAGE.match(code) else code
    _refuse_cancel(code)
    _refuse_both(code)
    code = _arithmetic_beside_targets(code)
    code = _failures_only(code)
    code = _target_numbers(code)
    code = _BOTCH.sub(lambda m: f"cf<={m['n'] or 1}", code)  # marked, as criticals are
    code = _implosions(code)
    code = plain_forms(code)
    return _once(code)


__all__ = [
    "ALIASES",
    "Alias",
    "alias_line",
    "maiden_line",
    "plain_forms",
    "with_advantage",
    "with_sets",
    "without_flags",
]
