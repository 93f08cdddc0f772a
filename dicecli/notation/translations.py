"""A line as another roller reads it, rewritten into dicecli's notation: the work
behind the dialects of :mod:`dicecli.notation.dialects`, loaded with the first line
read in a dialect or looked at for another reading (docs/startup.md).

Each dialect is a rewrite of the modifiers written against a dice term (or a group's
closing brace), token by token, plus a few forms of the whole line (a one-term group in
Roll20, a repeat in rolldice). The rewritten line is read by the grammar as any other:
a dialect never changes the grammar, only what a roller's spelling is taken to mean. A
form the roller reads that dicecli cannot roll is refused with the roller's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial

from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.limits import LONG_NUMBER

# A dice term's head, and the modifiers written against it (or against a group's
# closing brace), each right after the one before or after spaces (``4d6 kh3``: the
# grammar reads both alike): each a word and a condition, ``kh3``, ``r<2``, ``cs>=19``,
# ``>4`` (a word left out: a success condition), ``!!``, ``!p``.
_HEAD = r"(?<![A-Za-z_\d])\d*[dD](?:\d+|%|[fF](?:\.[12])?|\{[^{}]*\})"
_COMPARE = r"(?:>=|<=|<>|!=|>|<|=)"
# Each piece is read one way only (a word whole, its condition whole, an explosion
# whole): a run of pieces that can be split otherwise is tried every way before a
# pattern that needs more after it fails (a line of free words took seconds).
_WORD = r"(?:!!p|!!|!p|!)(?!!)(?:o|(?!o))|[A-Za-z]+(?![A-Za-z])"  # 4d6!kh3: ! then kh3
_NUMBER = r"-?\d+(?!\d)"
_CONDITION = rf"{_COMPARE}{_NUMBER}|\d+(?!\d)"
_PIECE = rf"(?:{_WORD})(?:{_CONDITION}|(?!{_COMPARE}-?\d|\d))|{_COMPARE}{_NUMBER}"
_TOKEN = rf"(?P<word>{_WORD}|)(?P<condition>{_COMPARE}-?\d+|\d+)?"
_DICE_AHEAD = r"\d*[dD](?:\d|%|\{|[fF](?![<>=]))"  # dF dice, not Foundry's df<2
_RUN = rf"(?:(?:{_PIECE})|\s+(?!{_DICE_AHEAD}|[xX]\s)(?:{_PIECE}))*"
"""The modifiers after a head: each against the one before, or after spaces but for
the next dice term (``2d6 + 1 x d8``: ``d8`` is dice, not a modifier ``d`` and ``8``)
and a lone ``x`` between spaces (``2d6 x 3``: a product)."""
_TERM = re.compile(rf"(?P<head>{_HEAD}|\}})(?P<run>{_RUN})")
_TOKENS = re.compile(rf"(?P<space>\s*)(?P<piece>{_PIECE})")
_SPLIT = re.compile(_TOKEN)
# The patterns below are each dialect's own: kept as text, compiled (and cached by
# :mod:`re`) when a line is first read in that dialect, not by every line that is
# looked at for another reading (docs/startup.md).

Token = tuple[str, str]
"""One modifier: its word (``kh``, ``!``, ``""`` for a success condition) and its
condition as written (``3``, ``>=5``, ``""``)."""


def modifier_runs(text: str) -> list[tuple[str, list[Token]]]:
    """Each dice term's (or group's) head and its modifiers, as written in ``text``."""
    runs = []
    for found in _TERM.finditer(text):
        runs.append((found["head"], [token for _, token in _spaced(found["run"])]))
    return runs


def _spaced(run: str) -> list[tuple[str, Token]]:
    """Each modifier of a term's ``run`` and the spaces written before it."""
    return [(found["space"], _token(found["piece"])) for found in _TOKENS.finditer(run)]


def _token(piece: str) -> Token:
    split = _SPLIT.fullmatch(piece)
    assert split is not None  # every piece _TOKENS finds is one token
    return split["word"], split["condition"] or ""


class _RefusedTokenError(DiceError):
    """A roller's modifier that dicecli cannot roll, found by a rewriting of a run's
    tokens: ``index`` is the token's, which :func:`_rewrite_runs` turns into the place
    of its piece in the line, so that the caret stands under it."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def _rewrite_runs(text: str, change: Callable[[list[Token]], list[Token]]) -> str:
    """``text`` with each dice term's modifiers replaced by ``change(modifiers)``, one
    for one, each after the spaces written before it. A modifier ``change`` refuses
    (:class:`_RefusedTokenError`) is an error at its place in ``text``."""

    def one(found: re.Match[str]) -> str:
        spaced = _spaced(found["run"])
        try:
            changed = change([token for _, token in spaced])
        except _RefusedTokenError as refused:
            placed = list(_TOKENS.finditer(found["run"]))
            at = found.start("run") + placed[refused.index].start("piece")
            raise DiceError(refused.message, found.string, at) from None
        pieces = (
            space + word + condition
            for (space, _), (word, condition) in zip(spaced, changed, strict=True)
        )
        return found["head"] + "".join(pieces)

    return _TERM.sub(one, text)


def _at_least(condition: str) -> str:
    """Roll20's ``>3`` (3 or more) and ``<3`` (3 or less) in dicecli's spelling."""
    if condition.startswith((">=", "<=", "<>", "!=")):
        return condition
    if condition.startswith((">", "<")):
        return condition[0] + "=" + condition[1:]
    return condition


# --- Roll20 ---------------------------------------------------------------------------

_GROUP_KEEP = r"(?:[kK][hHlL]?|[dD][hHlL])(?:\d|(?![A-Za-z]))"
"""A keep or drop after a group, its count written (``dl1``) or left out (``kl``: one)."""
_LONE_POOL = (
    rf"\{{\s*(?P<term>{_HEAD}{_RUN})\s*\}}(?=\s*(?:(?:{_COMPARE})-?\d|(?P<keep>{_GROUP_KEEP})))"
)
"""A group of one dice term with a success condition after it (``{5d6!!}>8``), or a
keep or drop (``{4d6!}dl1``)."""

_ONE_VALUE_WORDS = frozenset(("u", "uo", "min", "max", "mi", "ma"))
"""Besides explosions, the words that make a dice term one value in a group, where
dicecli keeps or drops its sum (:func:`~dicecli.notation.semantics.pooled_dice`)."""

_TERM_KEEPS = frozenset(("k", "kh", "kl", "d", "dh", "dl", "km"))


def one_value_term(tokens: list[Token]) -> bool:
    """Whether a dice term with these modifiers is one value in a group with a keep
    (``{4d6!}dl1`` keeps or drops its sum), where Roll20 picks among its dice: it
    explodes, is unique or clamped, and neither keeps nor counts successes itself."""
    words = [word.lower() for word, _ in tokens]
    if any(word in _TERM_KEEPS or word == "" for word in words):
        return False
    return any(word.startswith("!") or word in _ONE_VALUE_WORDS for word in words)


_SIDES = r"\d*[dD](?P<sides>\d+|%)"


def _lone_pool(found: re.Match[str]) -> str:
    """A group of one dice term as Roll20 reads it: each die compared with the target
    (``{5d6!!}>8`` is ``5d6!!6>=8`` once ``>`` is read), each die kept or dropped
    (``{4d6!}dl1`` is ``4d6!dl1``; dicecli's own reading drops the sum). An explosion
    left without a condition before a target is given its highest face, so that the
    target counts successes rather than becoming the explosion's condition."""
    term = found["term"]
    runs = modifier_runs(term)
    tokens = runs[0][1] if runs else []
    if any(word == "" for word, _ in tokens):  # it counts successes itself: one value
        return found[0]
    if found["keep"] is not None and not one_value_term(tokens):
        return found[0]  # dicecli keeps among its dice already ({4d6}dl1), or keeps itself
    bare_explosion = tokens and tokens[-1][0] in ("!", "!!", "!p", "!!p") and not tokens[-1][1]
    if bare_explosion and found["keep"] is None:
        sides = re.match(_SIDES, term)
        if sides is None:  # Fudge dice or a face list: left to dicecli's reading
            return found[0]
        highest = "100" if sides["sides"] == "%" else sides["sides"]
        return term + highest
    return term


def _roll20_tokens(tokens: list[Token]) -> list[Token]:
    """Roll20's conditions, inclusive; its ``m``/``m3`` ("Matching Dice": matches are
    highlighted, the total is unchanged) left out, and ``mt`` (the number of matching
    sets) refused."""
    changed: list[Token] = []
    for index, (word, condition) in enumerate(tokens):
        low = word.lower()
        if low.startswith("mt"):
            raise _RefusedTokenError(
                f"Roll20's {word}{condition} counts the sets of matching dice, which "
                "dicecli cannot roll",
                index,
            )
        if low == "m" and (condition == "" or condition.isdigit()):
            # the matches are only highlighted: the dice and total as rolled (left out,
            # as an empty token: a rewriting replaces its tokens one for one)
            changed.append(("", ""))
            continue
        changed.append((word, _at_least(condition)))
    return changed


def _roll20(text: str) -> str:
    text = re.sub(_LONE_POOL, _lone_pool, text)
    return _rewrite_runs(text, _roll20_tokens)


# --- Foundry VTT ----------------------------------------------------------------------


def _foundry_tokens(tokens: list[Token]) -> list[Token]:
    words = {word.lower() for word, _ in tokens}
    changed: list[Token] = []
    for word, condition in tokens:
        low = word.lower()
        if low == "x":
            changed.append(("!", condition))  # explode; x10 is !10 (= 10)
        elif low == "xo":
            changed.append(("!o", condition))  # explode once; xo10 is !o10 (= 10)
        elif low == "r":
            changed.append(("ro", condition))  # Foundry re-rolls once
        elif low == "rr":
            changed.append(("r", condition))  # recursive: dicecli's r
        elif low == "d" and not condition:
            changed.append(("dl", "1"))  # a drop without its number drops one, the lowest
        elif low == "cs":
            changed.append(("", _equal(condition)))  # count successes
        elif low == "cf" and "cs" not in words:
            changed.append(("", _equal(condition)))  # count failures: the dice meeting it
        elif low == "df":
            changed.append(("f", condition))  # deduct failures: -1 each
        else:
            changed.append((word, condition))
    return changed


def _equal(condition: str) -> str:
    """A bare number as a success condition: ``6`` is ``=6``."""
    return "=" + condition if condition[:1].isdigit() else condition


_FOUNDRY_FAILURES = ("df", "sf")
_CHECKS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda face, n: face == n,
    "<": lambda face, n: face < n,
    "<=": lambda face, n: face <= n,
    ">": lambda face, n: face > n,
    ">=": lambda face, n: face >= n,
}
MOST_FACES_SPELT = 100
"""The most faces a die may have for Foundry's ``df``/``sf`` alone to be spelt as faces."""


def _foundry_term(found: re.Match[str]) -> str:
    """Foundry's modifiers that change what a die is worth, on a term of plain dice
    (foundryvtt.com dice-modifiers; DiceTerm's deductFailures, subtractFailures,
    marginSuccess): without ``cs``/``cf``, ``df=1`` makes each failing die worth -1
    and ``sf<3`` worth minus its face, the others their face (spelt as the die's
    faces: ``6d6df=1`` is ``6d{-1,2,3,4,5,6}``); ``ms>=10`` is the total less 10
    (``ms<10``: 10 less the total)."""
    tokens = [token for _, token in _spaced(found["run"])]
    words = [word.lower() for word, _ in tokens]
    head = found["head"]
    counted = re.fullmatch(r"(?P<count>\d*)[dD](?P<sides>\d+)", head)
    if counted is None or not ({"df", "sf", "ms"} & set(words)):
        return found[0]
    kept: list[Token] = []
    margin: tuple[str, int] | None = None
    for word, condition in tokens:
        low = word.lower()
        compared = re.fullmatch(r"(?P<op>[<>]=?|=)?(?P<n>\d+)", condition)
        counting = "cs" in words or "cf" in words
        if low in _FOUNDRY_FAILURES and not counting and compared is not None:
            try:
                head = _worth(counted, low, compared["op"] or "=", int(compared["n"]))
            except DiceError as error:
                raise error.at(found.string, found.start()) from None
        elif low == "ms" and compared is not None:
            margin = (compared["op"] or "=", int(compared["n"]))
        else:
            kept.append((word, condition))
    term = head + "".join(word + condition for word, condition in kept)
    if margin is None:
        return term
    op, target = margin
    return f"({term} - {target})" if op in ("=", ">", ">=") else f"({target} - {term})"


def _worth(counted: re.Match[str], word: str, op: str, target: int) -> str:
    """The dice ``counted`` spelt as faces, a failing face worth -1 (``df``) or minus
    itself (``sf``)."""
    sides = int(counted["sides"])
    if sides > MOST_FACES_SPELT:
        raise DiceError(f"Foundry VTT's {word} alone is read for dice of up to 100 faces")
    fails = _CHECKS[op]
    faces = [
        (-1 if word == "df" else -face) if fails(face, target) else face
        for face in range(1, sides + 1)
    ]
    return f"{counted['count']}d{{{','.join(map(str, faces))}}}"


def _foundry(text: str) -> str:
    return _rewrite_runs(_TERM.sub(_foundry_term, text), _foundry_tokens)


# --- RPG Dice Roller ------------------------------------------------------------------

_KEEP_WORDS = {"k": "kh", "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "d": "dl"}
"""RPG Dice Roller's keeps and drops (a bare ``d3`` drops the lowest), as dicecli's."""


def keep_steps(tokens: list[Token]) -> list[tuple[str, int]]:
    """The keeps and drops among a term's modifiers, in the order written, as
    dicecli's kinds and amounts (``4d6dl1kh3`` -> ``[("dl", 1), ("kh", 3)]``)."""
    return [
        (_KEEP_WORDS[word.lower()], int(condition or 1))
        for word, condition in tokens
        if _is_keep(word, condition)
    ]


def _is_keep(word: str, condition: str) -> bool:
    if word.lower() not in _KEEP_WORDS:
        return False
    return condition.isdigit() or (condition == "" and word.lower() != "d")


def rdr_window(steps: list[tuple[str, int]], count: int) -> tuple[int, int]:
    """The ranks (lowest first) RPG Dice Roller keeps of ``count`` dice: each keep or
    drop applied to all the dice, keeps before drops, a second of one kind (two
    ``kh``) in place of the first; a die is kept when none drops it."""
    last = dict(steps)  # one of each kind, the last written
    low = high = 0  # dropped at each end
    for kind, amount in last.items():
        number = min(amount, count)
        if kind == "kh":
            low = max(low, count - number)
        elif kind == "kl":
            high = max(high, count - number)
        elif kind == "dl":
            low = max(low, number)
        else:
            high = max(high, number)
    return low, max(low, count - high)


_COUNTED = r"(?P<count>\d*)[dD]"  # compiled when first used (re keeps it)


def _rdr_term(found: re.Match[str]) -> str:
    """A term's keeps and drops as RPG Dice Roller applies them (:func:`rdr_window`),
    spelt as one drop from each end: ``4d6kh2dl1`` -> ``4d6dl2``."""
    spaced = _spaced(found["run"])
    tokens = [token for _, token in spaced]
    steps = keep_steps(tokens)
    if len(steps) < 2:
        return found[0]
    head = found["head"]
    counted = re.match(_COUNTED, head)
    if counted is None or any(word.startswith("!") for word, _ in tokens):
        raise DiceError(
            "RPG Dice Roller applies each keep and drop to all the dice, which dicecli "
            "reads only for a dice term with a count and no explosion",
            found.string,
            found.start(),
        )
    count = int(counted["count"] or 1)
    low, high = rdr_window(steps, count)
    window = (f"dl{low}" if low else "") + (f"dh{count - high}" if high < count else "")
    rest = "".join(
        space + word + cond for space, (word, cond) in spaced if not _is_keep(word, cond)
    )
    return head + window + rest


def _rdr(text: str) -> str:
    return _TERM.sub(_rdr_term, text)


# --- d20 (Avrae) ----------------------------------------------------------------------


def _d20_tokens(tokens: list[Token], spaced: str = " ") -> list[Token]:
    changed: list[Token] = []
    for index, (word, condition) in enumerate(tokens):
        if word.lower() in ("k", "p") and condition[:1].isdigit():
            what = "keeps" if word.lower() == "k" else "drops"
            raise _RefusedTokenError(
                f"d20 (Avrae)'s {word}{condition} {what} the dice showing {condition}, "
                f"which dicecli cannot roll; {word}h{condition} {what} the highest",
                index,
            )
        if word.lower() in ("k", "p") and condition[:1] in ("<", ">"):
            what = "keeps" if word.lower() == "k" else "drops"
            side = "over" if condition[0] == ">" else "under"
            raise _RefusedTokenError(
                f"d20 (Avrae)'s {word}{condition} {what} the dice {side} "
                f"{condition.lstrip('<>=')}, which dicecli cannot roll",
                index,
            )
        if word.lower() == "e" and condition:
            changed.append(("!", condition))  # explode again and again; e6 is !6 (= 6)
        elif word == "!" and condition[:1] == "=":
            # d20 has no !: 3d6!=6 is its inequality of totals (grammar.lark
            # COMP_OPERATOR "!="), dicecli's check !=, where dicecli's own reading
            # explodes on 6
            changed.append(("", f"{spaced}!= {condition[1:]}"))
        elif word == "" and condition[:1] in ("<", ">"):
            # no selector before it: a comparison of the total (3d6>3 is True or
            # False), dicecli's check, written with spaces (a modifier's is not)
            number = condition.lstrip("<>=")
            changed.append(("", f"{spaced}{condition[: len(condition) - len(number)]} {number}"))
        else:
            changed.append((word, condition))
    return changed


_ZERO = r"(?:0+|\(\s*0+\s*\)|\(\s*\(\s*0+\s*\)\s*\))"  # 0, (0), ((0))
_NO_DICE = (
    rf"(?<![A-Za-z_\d]){_ZERO}[dD]"
    rf"(?:\d+|%|[fF](?:\.[12])?|\{{[^{{}}]*\}}|\(\s*\d+\s*\)){_RUN}"
)
"""A dice term of no dice, ``0d6``, ``(0)d6``, ``(0)d(6)`` (d20 reads it as 0, with
any modifiers after it; a count worked out as 0 is read so when rolled,
:data:`dicecli.notation.dialects.NO_DICE_AS_ZERO`); compiled when a line is first read
in d20's dialect."""


_SELECTING_REROLL = r"(?i)(?:ra|ro)[hl]?"  # compiled when a line is read in d20's dialect


def _d20_one_die(found: re.Match[str]) -> str:
    """d20's ``ra`` (re-roll up to one matched die, keeping it: one more die for the
    whole set) and ``rol1``/``roh1`` (re-roll the lowest / highest die once) on a term
    of one die, where they are dicecli's ``!o`` and ``ro``: ``1d6ra6`` is ``1d6!o6``,
    ``1d6ral1`` ``1d6!o>=1``, ``1d6rol1`` ``1d6ro>=1``. On more dice they are refused."""
    tokens = [token for _, token in _spaced(found["run"])]
    if not any(re.fullmatch(_SELECTING_REROLL, w) and w.lower() != "ro" for w, _ in tokens):
        return found[0]
    counted = re.match(_COUNTED, found["head"])
    if counted is None or int(counted["count"] or 1) != 1:
        raise DiceError(
            "d20 (Avrae)'s ra, rol and roh act on one die of the set, which dicecli reads "
            "only for a single die (1d6ra6)",
            found.string,
            found.start(),
        )
    changed: list[Token] = []
    for word, condition in tokens:
        low = word.lower()
        if low == "ra":
            changed.append(("!o", condition))
        elif low in ("ral", "rah") and condition.isdigit() and int(condition) >= 1:
            changed.append(("!o", ">=1"))  # the one die is its lowest and highest
        elif low in ("rol", "roh") and condition.isdigit() and int(condition) >= 1:
            changed.append(("ro", ">=1"))
        else:
            changed.append((word, condition))
    return found["head"] + "".join(word + condition for word, condition in changed)


_D20_PERCENT = r"(?<![A-Za-z_\d])(?P<count>\d*)[dD]%"
_D20_TENS = "d{0,10,20,30,40,50,60,70,80,90}"
"""d20's percentile die, ``d%``: a tens die, 00 to 90 (d20's tests: ``0 <= d% <= 90``,
``1d% % 10 == 0``), where dicecli's own ``d%`` is a d100 (a seed rule)."""


_SPACED = "\x00"
"""Where the d20 rewrite puts a space before a comparison it spells as a check, then
made one space with any written before it (unless the line holds this character
itself: then a plain space)."""

_D20_EQUALS = r"\s*==\s*"
"""d20's equality of totals, ``1d20 == 10``: dicecli's check ``=``, with spaces (``=10``
against a dice term counts the dice showing 10)."""


_COMPARISON = re.compile(r"==|>=|<=|!=|<>|>|<|=")
_OPENING, _CLOSING = "({", ")}"


def _compared_inside(code: str) -> None:
    """Refuse a comparison of totals inside brackets (``(3d6>3) + 1``): d20 (Avrae)
    reads it as a number, 1 when true and 0 when false, which dicecli cannot roll (a
    check is the whole line). A modifier's condition (``r<2``, ``!>5``: right after
    a letter or ``!``) and a label's text are left alone."""
    depth = 0
    at = 0
    while at < len(code):
        char = code[at]
        if char == "[":  # a label: its text is no notation
            end = code.find("]", at)
            at = len(code) if end < 0 else end + 1
            continue
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth = max(0, depth - 1)
        compared = _COMPARISON.match(code, at)
        if compared is not None:
            attached = at > 0 and (code[at - 1].isalpha() or code[at - 1] == "!")
            if depth and not attached:
                op = "==" if compared[0] == "=" else compared[0]  # d20's ==, read as =
                raise DiceError(
                    f"d20 (Avrae) reads {op} inside brackets as a comparison of totals, 1 "
                    "when true and 0 when false, which dicecli cannot roll: a check here "
                    "is the whole line, outside any bracket",
                    code,
                    at,
                )
            at = compared.end()
            continue
        at += 1


_BEFORE_A_SIGN = frozenset("(,+-*/%<>=")


def _without_plus_signs(code: str) -> str:
    """``code`` without d20's sign ``+`` ("+X: positive, does nothing"): a
    ``+`` at the start or after a bracket, a comma or an operator (``+1d20``,
    ``1 * +2``, ``(+3)``); not inside braces (a face ``d{-1,+1}``) nor a label."""
    chars = list(code)
    previous = "("  # the last character before, spaces left out (the start: a sign)
    braces = 0
    labelled = False
    for at, char in enumerate(code):
        if char == "[" or char == "]":
            labelled = char == "["
        elif not labelled and char in "{}":
            braces += 1 if char == "{" else -1
        elif char == "+" and not labelled and braces <= 0 and previous in _BEFORE_A_SIGN:
            chars[at] = ""
            continue  # the + is no value: the one before stays what a sign follows
        if not char.isspace():  # (the % of d% ends a value: no remainder's)
            previous = "0" if char == "%" and code[at - 1 : at] in ("d", "D") else char
    return "".join(chars)


def _d20(text: str) -> str:
    code, hash_sign, rest = text.partition("#")
    code = _without_plus_signs(code)
    code = re.sub(_D20_EQUALS, " = ", code)
    code = _TERM.sub(_d20_one_die, re.sub(_NO_DICE, "0", code))
    # 3d6>3 is 3d6 > 3, and 3d6 >3 too (the space written before is kept, not doubled)
    if _SPACED in code:
        code = _rewrite_runs(code, _d20_tokens)
    else:
        code = _rewrite_runs(code, partial(_d20_tokens, spaced=_SPACED))
        code = code.replace(f" {_SPACED}", " ").replace(_SPACED, " ")
    _compared_inside(code)
    return re.sub(_D20_PERCENT, rf"\g<count>{_D20_TENS}", code) + hash_sign + rest


_D20_WORDS = frozenset(
    (
        *(op + side for op in ("k", "p", "rr", "ro", "ra", "e") for side in ("", "h", "l")),
        "mi",
        "ma",
    )
)
"""d20's dice operators (``k p rr ro ra e mi ma``), each with its selector's ``h`` or
``l`` where one may stand (grammar.lark: ``DICE_OPERATOR selector``)."""
_D20_HEAD = r"\d*[dD](?:\d+|%)"
_NOT_D20 = r"[{^]|\*\*|[A-Za-z_]\w*\s*\(|\)\s*[dD]"
"""What d20 has none of: braces (a group, custom faces), a power, a function, a
count worked out (``(1+2)d6``; its sides, ``d(6)``, are a function's look)."""


def _spelt_in_d20(code: str) -> bool:
    """Whether d20 (Avrae) writes every dice term and modifier of ``code`` itself:
    ``NdS`` or ``Nd%`` dice with its operators and selectors, a comparison of totals
    right after them; no dicecli modifier it lacks (``i1``, ``!``, ``u``, ``cs``)."""
    if re.search(_NOT_D20, code):
        return False
    for head, tokens in modifier_runs(code):
        if not re.fullmatch(_D20_HEAD, head):
            return False
        for word, condition in tokens:
            if word == "":  # right after dice: d20's comparison of totals
                if condition[:1] not in ("<", ">") or condition[:2] == "<>":
                    return False
            elif word == "!" and condition[:1] == "=":  # 3d6!=6: d20's inequality
                continue
            elif word.lower() not in _D20_WORDS:
                return False
    return True


def spelt_by_roller(code: str, dialect: str) -> bool:
    """Whether ``dialect``'s roller writes ``code`` itself, so that a hint may offer
    ``--dialect`` for it: a dialect reads dicecli's own spellings too (``6d10i1`` in
    d20's), which its roller does not. Told for d20 (Avrae), whose grammar is short;
    True for the other dialects."""
    if dialect == "d20":
        return _spelt_in_d20(code)
    return True


# --- Dice Maiden ----------------------------------------------------------------------

_MAIDEN_REROLL = r"(?<=[\s\dA-Za-z])(?P<indefinitely>i?)r(?P<limit>\d+)(?![\d<>=])"
_MAIDEN_COMMENT = r"\s!(?:\s|$)"


def _dicemaiden(text: str) -> str:
    comment = re.search(_MAIDEN_COMMENT, text)
    if comment is not None:  # ` ! text`: the rest of the line is a comment
        words = comment.end() - 1 if comment[0][-1].isspace() else comment.end()
        text = text[: comment.start()] + " #" + text[words:].rstrip()
        if text.endswith("#"):
            text = text[:-1].rstrip()
    code, hash_sign, rest = text.partition("#")
    from dicecli.notation.chat_text import is_game_line  # docs/startup.md
    from dicecli.notation.dicemaiden import maiden_line, without_flags  # docs/startup.md

    code = without_flags(code)
    if is_game_line(code):  # a game's line (4cod, sr6) keeps its game's reading
        return code + hash_sign + rest
    code = maiden_line(code)

    def reroll(found: re.Match[str]) -> str:
        once = "" if found["indefinitely"] else "o"
        return f"r{once}<={found['limit']}"

    return re.sub(_MAIDEN_REROLL, reroll, code) + hash_sign + rest


# --- rolldice -------------------------------------------------------------------------

_ROLLDICE_REPEAT = r"\s*(?P<times>\d{1,9})\s*[xX]\s*(?=\d*[dD])"
_ROLLDICE_MULTIPLIER = rf"(?P<dice>{_HEAD}{_RUN})(?P<add>[+-]\d+)\*(?P<times>\d{{1,9}})(?!\d)"


def _rolldice(text: str) -> str:
    text = re.sub(_ROLLDICE_MULTIPLIER, lambda m: f"{m['dice']}*{m['times']}{m['add']}", text)
    return _rewrite_runs(
        text, lambda tokens: [("dl" if w.lower() == "s" and c else w, c) for w, c in tokens]
    )


def rolldice_repeats(text: str) -> tuple[str, int | None]:
    """rolldice's ``6x4d6``: six rolls of ``4d6`` -> ``("4d6", 6)``; ``(text, None)``
    for any other line."""
    found = re.match(_ROLLDICE_REPEAT, text)
    if found is None:
        return text, None
    return text[found.end() :], int(found["times"])


def with_repeats(text: str) -> str:
    """rolldice's repeat spelt as dicecli's ``-n`` option: ``6x4d6kh3`` is ``4d6kh3 -n
    6`` (before any comment); any other line as it is."""
    code, hash_sign, comment = text.partition("#")
    rest, times = rolldice_repeats(code)
    if times is None:
        return text
    return f"{rest.strip()} -n {times}" + (f" {hash_sign}{comment}" if hash_sign else "")


_REWRITE: dict[str, Callable[[str], str]] = {
    "roll20": _roll20,
    "foundry": _foundry,
    "rdr": _rdr,  # dicecli's own notation follows RPG Dice Roller's, but for several keeps
    "d20": _d20,
    "dicemaiden": _dicemaiden,
    "rolldice": _rolldice,
}


@lru_cache(maxsize=1024)
def translated(text: str, dialect: str) -> str:
    """``text`` as ``dialect``'s roller reads it, in dicecli's notation. A comment
    (after ``#``) is left as written. Raises :class:`DiceError` for a form the roller
    reads that dicecli cannot roll."""
    code, hash_sign, comment = text.partition("#")
    if LONG_NUMBER.search(code):  # the grammar refuses it, with its caret
        return text
    try:
        return _REWRITE[dialect](code) + hash_sign + comment
    except DiceSyntaxError:
        raise
    except DiceError as error:
        raise _placed(error, text, code) from None


def _placed(error: DiceError, text: str, code: str) -> DiceError:
    """A rewriting's refusal pointing into the line as typed, ``text`` (``code`` is its
    part before any comment): at the place the refusal names in the line it was found
    in (the typed code, or that code part rewritten), else at the line's start."""
    if error.text is None or error.position is None:
        return error.at(text, 0)
    position = error.position
    if error.text != code:  # found in a part of the rewriting: placed in the typed line
        position = typed_position(code, error.text, position)
    return type(error)(error.message, text, position)


WHOLLY_MATCHED = 500
"""Most characters of each line, past what the two start and end with alike, that are
matched whole (in about a tenth of a second): what the lines share is found in time
that grows with the cube of what is compared, so a line of thousands of characters
rewritten in many places would take minutes."""

MATCHED_AROUND = 250
"""Past :data:`WHOLLY_MATCHED`: the characters of each line compared on each side of
the error, the typed line's around where it has as much of its rewritten part before
it. The rewritings are local, so the caret lands near the right place, not always on
it (a line of repeated terms can be matched one term off)."""


def typed_position(typed: str, rewritten: str, position: int) -> int:
    """Where ``position`` in the ``rewritten`` line stands in the line as ``typed``: at
    the same character where the rewriting left it, else at the start of what it
    rewrote (``5d10!10 +``'s end is ``5d10x10 +``'s). What the two lines start and end
    with alike is matched at once, the rest whole up to :data:`WHOLLY_MATCHED`
    characters, and past that around the position only (:data:`MATCHED_AROUND`)."""
    if position >= len(rewritten):
        return len(typed)
    head = _same_start(rewritten, typed)
    if position < head:
        return position
    most = min(len(rewritten), len(typed)) - head  # the end matched apart from the head
    tail = _same_start(rewritten[::-1][:most], typed[::-1][:most])
    if position >= len(rewritten) - tail:
        return len(typed) - (len(rewritten) - position)
    start, end = head, len(rewritten) - tail  # the parts that differ
    typed_start, typed_end = head, len(typed) - tail
    if max(end - start, typed_end - typed_start) > WHOLLY_MATCHED:
        near = typed_start + (position - start) * (typed_end - typed_start) // (end - start)
        start, end = max(start, position - MATCHED_AROUND), min(end, position + MATCHED_AROUND)
        typed_start = max(typed_start, near - MATCHED_AROUND)
        typed_end = min(typed_end, near + MATCHED_AROUND)
    found = _matched(rewritten[start:end], typed[typed_start:typed_end], position - start)
    return typed_start + found


def _same_start(one: str, other: str) -> int:
    """How many characters ``one`` and ``other`` start with alike."""
    count = 0
    for mine, theirs in zip(one, other, strict=False):  # up to the shorter one's end
        if mine != theirs:
            break
        count += 1
    return count


def _matched(rewritten: str, typed: str, position: int) -> int:
    """:func:`typed_position` within two short parts of the lines."""
    from difflib import SequenceMatcher  # docs/startup.md: for an error only

    matcher = SequenceMatcher(None, rewritten, typed, autojunk=False)
    for tag, start, end, typed_start, _ in matcher.get_opcodes():
        if start <= position < end:
            return typed_start + (position - start if tag == "equal" else 0)
    return len(typed)


def typed_error(error: DiceError, typed: str, dialect: str) -> DiceError:
    """``error``, raised about the line ``typed`` read in ``dialect`` (its rewritten
    line, or a node of it, the position in the rewritten line), pointing into the line
    as typed: a player sees what they wrote, the caret under it."""
    try:
        rewritten = translated(typed, dialect)
    except DiceError:
        return error
    if error.text not in (None, rewritten) or rewritten == typed:
        return error
    position = error.position
    if position is not None:
        position = typed_position(typed, rewritten, position)
    moved = type(error)(error.message, typed, position)
    moved.hint = error.hint
    return moved


__all__ = [
    "modifier_runs",
    "rolldice_repeats",
    "spelt_by_roller",
    "translated",
    "typed_error",
    "typed_position",
    "with_repeats",
]
