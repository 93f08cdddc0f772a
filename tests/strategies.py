"""Hypothesis strategies for the generic dice notation, one per grammar rule.

Three families, each reusable by any test module (``from strategies import ...``):

* **Text** (``*_text``): what a player types, over the whole generic notation of
  ``dicecli/notation/grammar.py``: dice (``NdM``, ``dM``, ``D``/``d``, ``d%``, ``dF``,
  ``D3``, custom faces ``d{-1,0,1}``, ``d{1..4,10}``), their modifiers typed in any
  order and spelling (``kh kl dh dl k``, ``r``/``ro``, ``! !! !p``, ``>=5 >5 <=5 <5
  =5 >=-1``, ``f1``, critical markers ``cs20 cf<2``), groups ``{a, b}kh1``, numbers,
  ``+ - * / x X ×``, Unicode minus, parentheses, unary minus, ``N% of X``,
  ``[labels]``, names, a trailing ``# comment`` and optional whitespace between
  tokens. Every generated line parses. Dice counts and sides stay small, and re-rolls
  and explosions are kept to forms that end quickly (at most half the standing faces
  explode, at most three quarters re-roll), so a roll is fast and never meets the roll
  budget.
  A line may end in a check on the expression (``d20 + 5 >= 15``, ``3d6 vs 11``):
  :func:`check_text`.
* **Refused text**: :func:`endless_dice_text` (rolls that would never end, which must
  be refused), :func:`junk_text` (any Unicode) and :func:`near_miss_text` (valid lines
  with a few characters inserted, deleted or swapped, which is where parsers crash).
* **Nodes** (``*_nodes``): syntax trees built directly from
  :mod:`dicecli.notation.nodes`, for the round trip ``parse(str(node)).body == node``.

The valid strategies include the forms that exposed core bugs (fixed in 0f059e6): a
bare ``!`` beside a success condition (``d6>=5!``), a label on a labelled expression
(``(d6[a])[b]``), ``d03``, tabs in labels and comments. One ambiguity is the grammar's,
not a bug: typed ``d6!>=5`` means "explode on >=5", so a bare ``!`` is never typed just
before a success condition here (it is typed last instead).

The faces of each die kind are written out here (:func:`die_values`) rather than taken
from :mod:`dicecli.rolling.sources`, so the tests check the core against the rules, not against
itself.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Literal, TypeVar, cast

from hypothesis import strategies as st

from dicecli.frozen import replace
from dicecli.notation.nodes import (
    FUNCTION_NAMES,
    BinaryOp,
    BinaryOpSymbol,
    Call,
    CheckOp,
    CompareOp,
    Comparison,
    ComputedDice,
    Condition,
    Dice,
    Explode,
    ExplodeKind,
    Expr,
    Group,
    Keep,
    KeepKind,
    Labelled,
    Modifiers,
    Name,
    Negate,
    Number,
    PercentOf,
    Reroll,
    Sides,
    Unique,
)
from dicecli.notation.sides import FaceList

T = TypeVar("T")

NAMES: dict[str, int] = {"str": 3, "dex": -1, "bonus": 2}
"""The named values generated text and nodes may use; roll them with ``values=NAMES``."""

SIDES: tuple[Sides, ...] = (1, 2, 4, 6, 8, 10, 12, 20, 100, "%", "F", "F.1", "3")
"""Die kinds generated: numbered dice, the percentile die, the fudge die and the D3
(rule N4; ``Dice(1, 3)`` is the same node as ``Dice(1, "3")``); :func:`sides` adds
custom faces (:func:`face_lists`)."""

COMPARE_OPS: tuple[CompareOp, ...] = ("=", "<", "<=", ">", ">=", "<>")
CHECK_OPS: tuple[CheckOp, ...] = (">=", "<=", ">", "<", "=", "!=")
CHECK_SPELLINGS: dict[str, CheckOp] = {
    **{op: op for op in CHECK_OPS},
    "vs": ">=",
    "VS": ">=",
    "\N{GREATER-THAN OR EQUAL TO}": ">=",
    "\N{LESS-THAN OR EQUAL TO}": "<=",
    "\N{NOT EQUAL TO}": "!=",
}
"""How a check's comparison may be typed, and what it means (``vs`` meets or beats)."""
KEEP_KINDS: tuple[KeepKind, ...] = ("kh", "kl", "dh", "dl", "km")
EXPLODE_KINDS: tuple[ExplodeKind, ...] = ("!", "!!", "!p", "!!p")

MAX_EXPLODING_SHARE = 0.5  # of the standing faces: explosions end fast
MAX_REROLLING_SHARE = 0.75  # of the faces, for ``r``: re-rolls end fast

_DICE_START = re.compile(r"\d*[dD](?:\d|%|[fF{])")
_NO_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)  # not encodable: never typed
_LABEL_ALPHABET = st.characters(exclude_characters="[]", exclude_categories=_NO_SURROGATES)
_COMMENT_ALPHABET = st.characters(exclude_characters="\n", exclude_categories=_NO_SURROGATES)


def die_values(sides: Sides) -> tuple[int, ...]:
    """The values a die can show, each once, lowest first (rules N1, N4)."""
    if isinstance(sides, FaceList):
        return tuple(sorted(set(custom_faces(sides))))
    if sides == "%":
        return tuple(range(1, 101))
    if sides in ("F", "F.1"):  # dF.1: one minus, four blanks, one plus
        return (-1, 0, 1)
    if sides == "3":
        return (1, 2, 3)
    assert isinstance(sides, int)
    return tuple(range(1, sides + 1))


def custom_faces(faces: FaceList) -> list[int]:
    """Every face of a custom die in its canonical spelling (``{1..3,3}`` -> 1, 2, 3, 3),
    read here rather than by :mod:`dicecli.notation.faces`."""
    values: list[int] = []
    for item in faces.strip("{}").split(","):
        ends = [int(end) for end in item.split("..")]
        values += range(ends[0], ends[-1] + 1)
    return values


@st.composite
def face_lists(draw: st.DrawFn) -> FaceList:
    """Custom faces in their canonical spelling: one to five faces or ranges (low to
    high) of small numbers, negative ones too, a face perhaps written twice."""
    items: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        low = draw(st.integers(-3, 10))
        width = draw(st.sampled_from([0, 0, 0, 1, 3]))
        items.append(str(low) if not width else f"{low}..{low + width}")
    if draw(st.booleans()):
        items.append(draw(st.sampled_from(items)))
    return FaceList("{" + ",".join(items) + "}")


_NAMED_FACE_LISTS = tuple(
    FaceList(faces) for faces in ("{-1,0,1}", "{1,1,2,3,5,8}", "{1..4,10}", "{0,0,1,1,2,2}")
)


def sides_strategy() -> st.SearchStrategy[Sides]:
    """A die kind: one of :data:`SIDES` or custom faces (the usual ones or any)."""
    return st.one_of(st.sampled_from(SIDES), st.sampled_from(_NAMED_FACE_LISTS), face_lists())


def lowest_condition(sides: Sides) -> Condition:
    """What a bare ``r`` re-rolls: the die's lowest face."""
    if sides in ("F", "F.1"):
        return Condition("<", 0)
    return Condition("=", die_values(sides)[0])


def standing_values(sides: Sides, reroll: Reroll | None) -> tuple[int, ...]:
    """The values a die can end on after its re-rolls (``r`` re-rolls until it misses)."""
    values = die_values(sides)
    if reroll is None or not reroll.conditions(False):
        return values
    return tuple(v for v in values if not reroll.repeats(v))


def exploding_values(sides: Sides, modifiers: Modifiers) -> tuple[int, ...]:
    """The standing values that set off an explosion (none without ``!``)."""
    explode = modifiers.explode
    if explode is None:
        return ()
    condition = explode.condition or Condition("=", die_values(sides)[-1])
    return tuple(v for v in standing_values(sides, modifiers.reroll) if condition.matches(v))


def is_endless(sides: Sides, modifiers: Modifiers) -> bool:
    """True when a die would re-roll or explode forever."""
    standing = standing_values(sides, modifiers.reroll)
    return not standing or len(exploding_values(sides, modifiers)) == len(standing)


def too_few_values(sides: Sides, count: int, modifiers: Modifiers) -> bool:
    """True when ``count`` unique dice (``u``, re-rolled until unique) would need more
    different values than can stand, and every value standing re-rolls on a repeat."""
    unique = modifiers.unique
    if unique is None or unique.once:
        return False
    standing = standing_values(sides, modifiers.reroll)
    if unique.condition is not None and not all(map(unique.condition.matches, standing)):
        return False  # a value the condition lets repeat can always stand
    return count > len(standing)


# --- small pieces -------------------------------------------------------------------


@cache
def spaces(allow: bool = True) -> st.SearchStrategy[str]:
    """Optional whitespace between tokens."""
    if not allow:
        return st.just("")
    return st.sampled_from(["", "", "", " ", "  ", "\t"])


@cache
def _cased(word: str) -> st.SearchStrategy[str]:
    """``word`` in any mix of upper and lower case."""
    return st.sampled_from(
        sorted({"".join(p) for p in product(*({c.lower(), c.upper()} for c in word))})
    )


@cache
def condition_for(values: Sequence[int]) -> st.SearchStrategy[Condition]:
    """A comparison against a die's faces, near its range."""
    low, high = values[0] - 1, values[-1] + 1
    return st.builds(Condition, st.sampled_from(COMPARE_OPS), st.integers(low, high))


@cache
def condition_text(
    condition: Condition, bare_allowed: bool, not_equal_spelling: bool = True
) -> st.SearchStrategy[str]:
    """``>=5``; after ``r``, ``!`` and ``f`` the ``=`` may be left out (not before a
    negative number: ``r-1`` is a re-roll, minus one); ``<>3`` may be typed ``!=3`` after
    a modifier's letter, never after ``!`` (``!!=3`` is ``!!`` on 3)."""
    if condition.op == "=" and bare_allowed and condition.value >= 0:
        return st.sampled_from([str(condition.value), f"={condition.value}"])
    if condition.op == "<>" and not_equal_spelling:
        return st.sampled_from([str(condition), f"!={condition.value}"])
    return st.just(str(condition))


@cache
def keep_for(count: int) -> st.SearchStrategy[Keep]:
    """Keep/drop of 0 to ``count + 1`` dice or items (keeping none, ``kh0``, is worth 0);
    now and then the middle (``km``) or a second keep after the first (``dl1kh2``)."""
    one = st.builds(
        Keep, st.sampled_from(("kh", "kl", "dh", "dl", "km")), st.integers(0, count + 1)
    )
    chained = st.builds(Keep.followed_by, one, one)
    return st.one_of(one, one, one, chained)


def _maybe(draw: st.DrawFn, strategy: st.SearchStrategy[T]) -> T | None:
    """A value from ``strategy``, or None half the time."""
    return draw(strategy) if draw(st.booleans()) else None


def _shuffled(draw: st.DrawFn, items: Sequence[T]) -> list[T]:
    """``items`` in an order Hypothesis picks (and shrinks towards the original)."""
    order = list(items)
    for index in range(len(order) - 1, 0, -1):
        other = draw(st.integers(0, index))
        order[index], order[other] = order[other], order[index]
    return order


# --- dice modifiers -----------------------------------------------------------------


@cache
@st.composite
def reroll_for(draw: st.DrawFn, sides: Sides) -> Reroll:
    """``r``/``ro`` with a condition; ``r`` only when it ends quickly."""
    values = die_values(sides)
    condition = draw(condition_for(values))
    matching = sum(map(condition.matches, values))
    once = draw(st.booleans()) or matching > MAX_REROLLING_SHARE * len(values)
    return Reroll(condition, once)


@cache
@st.composite
def dice_modifiers(draw: st.DrawFn, sides: Sides, count: int) -> Modifiers:
    """Modifiers for ``count`` dice of ``sides``, none endless, explosions ending fast."""
    values = die_values(sides)
    reroll = _maybe(draw, reroll_for(sides))
    if reroll is not None and draw(st.integers(0, 3)) == 0:  # a second: 2d8r1r3
        second = draw(reroll_for(sides))
        chained = reroll.followed_by(second)
        left = sum(1 for value in values if not chained.repeats(value))
        if left < (1 - MAX_REROLLING_SHARE) * len(values):  # too few faces stand
            chained = reroll.followed_by(Reroll(second.condition, True))
        reroll = chained
    explode: Explode | None = None
    if draw(st.booleans()):
        condition = _maybe(draw, condition_for(values))
        once = draw(st.integers(0, 3)) == 0  # !o: the added die does not explode
        explode = Explode(draw(st.sampled_from(EXPLODE_KINDS)), condition, once)
        trial = Modifiers(reroll=reroll, explode=explode)
        standing = standing_values(sides, reroll)
        share = len(exploding_values(sides, trial)) / max(1, len(standing))
        if is_endless(sides, trial) or share > MAX_EXPLODING_SHARE:
            explode = None
    keep = _maybe(draw, keep_for(count))
    success = _maybe(draw, condition_for(values))
    failure = _maybe(draw, condition_for(values)) if success is not None else None
    critical = fumble = None
    if explode is None or explode.kind not in ("!!", "!!p"):  # cs/cf judge single dice
        critical = _maybe(draw, condition_for(values))
        fumble = _maybe(draw, condition_for(values))
    double = _maybe(draw, condition_for(values)) if success is not None else None
    sorts: tuple[Literal["a", "d"], ...] = ("a", "d")
    sort = _maybe(draw, st.sampled_from(sorts))
    unique: Unique | None = None
    if explode is None and draw(st.integers(0, 3)) == 0:  # unique dice cannot explode
        unique = Unique(_maybe(draw, condition_for(values)), draw(st.booleans()))
        if too_few_values(sides, count, Modifiers(reroll=reroll, unique=unique)):
            unique = Unique(unique.condition, once=True)
    low = high = None
    if draw(st.integers(0, 3)) == 0:
        bounds = st.integers(values[0] - 1, values[-1] + 1)
        low, high = _maybe(draw, bounds), _maybe(draw, bounds)
        if low is not None and high is not None and low > high:
            low, high = high, low
    return Modifiers(
        reroll,
        explode,
        keep,
        success,
        failure,
        critical,
        fumble,
        double,
        sort,
        unique=unique,
        clamp_low=low,
        clamp_high=high,
    )


@cache
@st.composite
def group_modifiers(draw: st.DrawFn, items: int) -> Modifiers:
    """Group modifiers: keep/drop, success counting and sorting (shown only)."""
    keep = _maybe(draw, keep_for(items))
    success = _maybe(draw, condition_for(range(13)))
    failure = _maybe(draw, condition_for(range(13))) if success is not None else None
    sorts: list[Literal["a", "d"] | None] = [None, None, "a", "d"]
    sort = draw(st.sampled_from(sorts))
    return Modifiers(keep=keep, success=success, failure=failure, sort=sort)


def _fudge(sides: Sides) -> bool:
    return isinstance(sides, str) and sides.startswith("F")


@lru_cache(maxsize=4096)
@st.composite
def modifiers_text(
    draw: st.DrawFn,
    modifiers: Modifiers,
    allow_spaces: bool = True,
    lowest: Condition | None = None,
    respell: bool = True,
) -> str:
    """``modifiers`` typed in a random order and spelling (other rollers' spellings too,
    when ``respell``: not right after ``dF``, where they would run into a die name); a
    re-roll of ``lowest`` (the
    die's lowest face) may be typed bare (``r``), and then goes last, before a bare
    ``!`` (``r>=5`` would read as "re-roll on >=5")."""
    tokens: list[tuple[str, str]] = []
    bare_reroll = ""
    if modifiers.reroll is not None:
        word = draw(_cased("ro" if modifiers.reroll.once else draw(st.sampled_from(["r", "rr"]))))
        chain = modifiers.reroll.then
        if chain is None and modifiers.reroll.condition == lowest and draw(st.booleans()):
            bare_reroll = word
        else:
            condition = draw(condition_text(modifiers.reroll.condition, True))
            text = word + condition
            while chain is not None:  # several re-rolls: one token, in their order
                word = draw(_cased("ro" if chain.once else draw(st.sampled_from(["r", "rr"]))))
                text += word + draw(condition_text(chain.condition, True))
                chain = chain.then
            tokens.append(("reroll", text))
    if modifiers.explode is not None:
        explode = modifiers.explode
        word = draw(_cased(explode.kind + ("o" if explode.once else "")))
        condition = ""
        if explode.condition:
            condition = draw(condition_text(explode.condition, True, not_equal_spelling=False))
        at_least = explode.condition is None or explode.condition.op == ">="
        if (
            respell and explode.kind == "!" and at_least and draw(st.booleans())
        ) and not explode.once:  # Dice Maiden's ie6
            word, condition = "ie", str(explode.condition.value) if explode.condition else ""
        condition_value = explode.condition.value if explode.condition else 0
        exactly = explode.condition is None or explode.condition.op == "="
        exactly = exactly and condition_value >= 0
        if respell and explode.kind == "!" and explode.once and exactly and draw(st.booleans()):
            word = draw(_cased("xo"))  # Foundry's xo10
            condition = str(explode.condition.value) if explode.condition else ""
        tokens.append(("explode", word + condition))
    bare_unique = ""
    if modifiers.unique is not None:
        word = draw(_cased("uo" if modifiers.unique.once else "u"))
        if modifiers.unique.condition is None:
            bare_unique = word  # typed last: "u>=5" would read as u's own condition
        else:
            tokens.append(("unique", word + draw(condition_text(modifiers.unique.condition, True))))
    for word, bound in (("min", modifiers.clamp_low), ("max", modifiers.clamp_high)):
        if bound is not None:
            tokens.append(
                (
                    word,
                    draw(_cased(draw(st.sampled_from([word, word[: 2 if respell else 3]]))))
                    + str(bound),
                )
            )
    if modifiers.keep is not None:  # a chain of keeps is one token: its order is its meaning
        tokens.append(("keep", draw(_keep_text(modifiers.keep, respell, modifiers.sort is None))))
    if modifiers.success is not None:
        success = modifiers.success
        spellings = [str(success)] + ([f"c{success}"] if respell else [])  # DiceParser's c>3
        # Dice Maiden's t7; beside it a bare ds6 or f2 is refused (it reads them otherwise)
        alone = modifiers.failure is None and modifiers.double is None
        if respell and success.op == ">=" and success.value >= 0 and alone:
            spellings.append(f"t{success.value}")
        tokens.append(("success", draw(_cased(draw(st.sampled_from(spellings))))))
    if modifiers.failure is not None:
        condition = draw(condition_text(modifiers.failure, True))
        tokens.append(("failure", draw(_cased("f")) + condition))
    if modifiers.double is not None:
        tokens.append(("double", draw(_cased("ds")) + draw(condition_text(modifiers.double, True))))
    if modifiers.sort is not None:
        spellings = ["s", "sa"] if modifiers.sort == "a" else ["sd"]
        tokens.append(("sort", draw(_cased(draw(st.sampled_from(spellings))))))
    for word, marked in (("cs", modifiers.critical_success), ("cf", modifiers.critical_failure)):
        if marked is not None:
            tokens.append((word, draw(_cased(word)) + draw(condition_text(marked, True))))
    order = _shuffled(draw, tokens)
    # A bare "!" just before ">=5" reads as "explode on >=5": type the "!" last instead.
    bare = [
        t
        for t in order
        if t[0] == "explode" and modifiers.explode and not modifiers.explode.condition
    ]
    if bare:
        order = [t for t in order if t[0] != "explode"]
    if bare_reroll:
        order.append(("reroll", bare_reroll))
    order += bare
    if bare_unique:
        order.append(("unique", bare_unique))
    gaps = [draw(spaces(allow_spaces)) for _ in order]
    return "".join(gap + text for gap, (_, text) in zip(gaps, order, strict=True))


@st.composite
def _keep_text(draw: st.DrawFn, keep: Keep, respell: bool, unsorted: bool) -> str:
    """``keep`` and the keeps after it, each in a random spelling (``k``, ``h3``, d20's
    ``ph1``; ``km`` always with its number: ``kmax3`` is ``k`` and ``max3``)."""
    spellings = [keep.kind] + (["k"] if keep.kind == "kh" else [])
    word = draw(_cased(draw(st.sampled_from(spellings))))
    bare_one = keep.amount == 1 and keep.kind != "km"
    number = draw(st.sampled_from(["", "1"])) if bare_one else str(keep.amount)
    other = {"kh": ["h"], "kl": ["l"], "dl": ["d", "pl"], "dh": ["ph"]}.get(keep.kind)
    if respell and other and unsorted and draw(st.booleans()):  # 4d6h3, 4d6d1, 4d6ph1
        word, number = draw(_cased(draw(st.sampled_from(other)))), str(keep.amount)
    rest = "" if keep.then is None else draw(_keep_text(keep.then, respell, unsorted))
    return word + number + rest


# --- text, one strategy per grammar rule --------------------------------------------


@cache
def sides_text(sides: Sides) -> st.SearchStrategy[str]:
    """``6``, sometimes ``06``; ``F`` or ``f``; ``%``; ``3`` or ``03`` for the D3;
    custom faces as canonical or with spaces, leading zeros and plus signs."""
    if isinstance(sides, FaceList):
        return st.sampled_from([sides, *_typed_face_lists(sides)])
    if sides == "F":
        return st.sampled_from(["F", "f", "F.2", "f.2"])  # dF.2 is the usual Fudge die
    if sides == "F.1":
        return st.sampled_from(["F.1", "f.1"])
    if sides == "%":
        return st.just("%")
    return st.sampled_from([str(sides), str(sides), f"0{sides}"])


def _typed_face_lists(faces: FaceList) -> list[str]:
    """``{1..4,10}`` as a player may type it: ``{ 1 .. 4, 10 }``, ``{01..+4,010}``."""
    spaced = "{ " + faces[1:-1].replace(",", ", ").replace("..", " .. ") + " }"
    padded = re.sub(r"(?<![\d-])(\d)", r"0\1", faces)
    signed = re.sub(r"(?<![\d-])(\d)", r"+\1", faces)
    return [spaced, padded, signed]


@cache
@st.composite
def dice_text(draw: st.DrawFn, explosions: bool = True, modifiers: bool = True) -> str:
    """One dice term: ``4d6kh3``, ``D%``, ``2dF``, ``D3``, ``3d6r1!>=5f1``, ``3d{-1,0,1}``."""
    sides = draw(sides_strategy())
    count = draw(st.integers(1, 4))
    count_text = draw(st.sampled_from(["", "1", "01"])) if count == 1 else str(count)
    with_modifiers = modifiers and draw(st.booleans())
    mods = draw(dice_modifiers(sides, count)) if with_modifiers else Modifiers()
    if not explosions and mods.explode is not None:
        mods = Modifiers(
            mods.reroll,
            None,
            mods.keep,
            mods.success,
            mods.failure,
            unique=mods.unique,
            clamp_low=mods.clamp_low,
            clamp_high=mods.clamp_high,
        )
    letter = draw(st.sampled_from("dD"))
    lowest = lowest_condition(sides)
    return (
        count_text
        + letter
        + draw(sides_text(sides))
        + draw(modifiers_text(mods, True, lowest, not _fudge(sides)))
    )


def number_text() -> st.SearchStrategy[str]:
    """A whole number, sometimes with leading zeros."""
    plain = st.integers(0, 20).map(str)
    return st.one_of(plain, plain, plain, st.integers(0, 999).map(lambda n: f"0{n}"))


def name_text() -> st.SearchStrategy[str]:
    """One of :data:`NAMES`, in any case but a lower-case ``d`` and a capital after it:
    ``dEX`` names a die of a dice file (docs/dice.md), tested apart."""
    return (
        st.sampled_from(sorted(NAMES))
        .flatmap(_cased)
        .filter(lambda name: not re.match(r"d[A-Z]", name))
    )


def label_text() -> st.SearchStrategy[str]:
    """``[fire]``: any text without brackets."""
    return st.text(_LABEL_ALPHABET, max_size=8).map(lambda label: f"[{label}]")


def comment_text() -> st.SearchStrategy[str]:
    """``# anything`` to the end of the line."""
    return st.text(_COMMENT_ALPHABET, max_size=12).map(lambda note: "#" + note)


def _join(left: str, op: str, right: str, gap_before: str, gap_after: str) -> str:
    """``left op right`` with the given gaps, widened where tokens would run together."""
    if op in "xX":
        if not gap_before and (left[-1].isalpha() or left[-1] == "_"):
            gap_before = " "
        word_follows = right[0].isalpha() or right[0] == "_"
        if not gap_after and word_follows and not _DICE_START.match(right):
            gap_after = " "
    return left + gap_before + op + gap_after + right


def _needs_gap_after_of(operand: str) -> bool:
    return operand[0].isalnum() or operand[0] == "_"


@dataclass(frozen=True)
class TextOptions:
    """What the expression text strategies may generate."""

    names: bool = True
    explosions: bool = True
    division: bool = True
    whitespace: bool = True


def _gap(options: TextOptions) -> st.SearchStrategy[str]:
    return spaces(options.whitespace)


@cache
def operand_pieces(options: TextOptions, depth: int) -> st.SearchStrategy[str]:
    """A dice term, a number, a name, a group or a parenthesised expression."""
    dice = dice_text(options.explosions)
    choices: list[st.SearchStrategy[str]] = [dice, dice, number_text(), computed_dice_text(options)]
    if options.names:
        choices.append(name_text())
    if depth > 0:
        choices.append(group_pieces(options, depth - 1))
        choices.append(parenthesised_pieces(options, depth - 1))
        choices.append(function_pieces(options, depth - 1))
    return st.one_of(choices)


_COUNT_TEXTS = ("1+2", "d4", "2d2", "d3 + 1", "3*1")
_SIDES_TEXTS = ("2*3", "d4+2", "d6", "10 - 4", "3", "d2*10")
_NAMED_COUNTS, _NAMED_SIDES = ("STR", "bonus"), ("BONUS+4", "str*2")
"""Counts and sizes of computed dice: each comes out 1 or more whatever is rolled."""


@cache
@st.composite
def computed_dice_text(draw: st.DrawFn, options: TextOptions) -> str:
    """``(1+2)d6``, ``(STR)d6kh1``, ``(2d2)dF``, ``(d4)d{0,1}``, ``2d(d4+2)>=3``: a count or
    sides worked out when rolled (never both literal: that is ``3d6``)."""
    counts = _COUNT_TEXTS + (_NAMED_COUNTS if options.names else ())
    sizes = _SIDES_TEXTS + (_NAMED_SIDES if options.names else ())
    computed_count = draw(st.booleans())
    if computed_count:
        count = f"({draw(st.sampled_from(counts))})"
        literal = ["6", "20", "F", "%", "{0,1}", "{ -1..1 }", "{1,1,2}"]
        sides = draw(st.sampled_from([*literal, f"({draw(st.sampled_from(sizes))})"]))
    else:
        count = draw(st.sampled_from(["", "1", "2"]))
        sides = f"({draw(st.sampled_from(sizes))})"
    # no u: a count may come out above the faces (a roll error, test_unique_and_clamps)
    counted = replace(draw(dice_modifiers(6, 3)), reroll=None, explode=None, unique=None)
    typed = draw(modifiers_text(counted, respell=sides != "F"))
    return f"{count}{draw(st.sampled_from('dD'))}{sides}{typed}"


@cache
@st.composite
def function_pieces(draw: st.DrawFn, options: TextOptions, depth: int) -> str:
    """``floor(2d6 / 2)``, ``MAX(d20, d20)``, ``abs (d6 - d6)``."""
    function = draw(st.sampled_from(FUNCTION_NAMES))
    count = draw(st.integers(1, 3)) if function in ("min", "max") else 1
    args = [draw(expression_pieces(options, depth)) for _ in range(count)]
    gap = _gap(options)
    inside = ("," + draw(gap)).join(args)
    return f"{draw(_cased(function))}{draw(gap)}({draw(gap)}{inside}{draw(gap)})"


@cache
@st.composite
def group_pieces(draw: st.DrawFn, options: TextOptions, depth: int) -> str:
    """``{2d6, 1d8+1}kh1``."""
    items = [draw(expression_pieces(options, depth)) for _ in range(draw(st.integers(1, 3)))]
    separator = "," + draw(_gap(options))
    mods = draw(modifiers_text(draw(group_modifiers(len(items))), options.whitespace))
    inner = separator.join(items)
    return "{" + draw(_gap(options)) + inner + draw(_gap(options)) + "}" + mods


@cache
@st.composite
def parenthesised_pieces(draw: st.DrawFn, options: TextOptions, depth: int) -> str:
    """``(1d6 + 2)``."""
    inner = draw(expression_pieces(options, depth))
    return f"({draw(_gap(options))}{inner}{draw(_gap(options))})"


@cache
@st.composite
def atom_pieces(draw: st.DrawFn, options: TextOptions, depth: int) -> str:
    """An operand with an optional ``[label]``."""
    operand = draw(operand_pieces(options, depth))
    if draw(st.integers(0, 3)) == 0:
        return operand + draw(_gap(options)) + draw(label_text())
    return operand


@cache
@st.composite
def unary_pieces(draw: st.DrawFn, options: TextOptions, depth: int) -> str:
    """``-x``, ``N% of x`` or an atom."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        minus = draw(st.sampled_from(["-", "\N{MINUS SIGN}"]))
        return minus + draw(_gap(options)) + draw(unary_pieces(options, depth))
    if choice == 1:
        percent = draw(number_text())
        operand = draw(unary_pieces(options, depth))
        of = draw(_cased("of"))
        gap = draw(_gap(options))
        after = " " if _needs_gap_after_of(operand) and not gap else gap
        before = draw(_gap(options)) + "%" + draw(_gap(options))
        return f"{percent}{before}{of}{after}{operand}"
    return draw(atom_pieces(options, depth))


_OPS = {
    ops: st.sampled_from(ops)
    for ops in ("*xX\N{MULTIPLICATION SIGN}/%", "*xX\N{MULTIPLICATION SIGN}", "+-\N{MINUS SIGN}")
}


@st.composite
def _chain(draw: st.DrawFn, options: TextOptions, items: st.SearchStrategy[str], ops: str) -> str:
    first = draw(items)
    rest = [(draw(_OPS[ops]), draw(items)) for _ in range(draw(st.integers(0, 2)))]
    if not rest:
        return first
    text = first
    for op, piece in rest:
        text = _join(text, op, piece, draw(_gap(options)), draw(_gap(options)))
    return text


@cache
def term_pieces(options: TextOptions, depth: int) -> st.SearchStrategy[str]:
    """Unary items joined by ``* / % x X ×``."""
    ops = "*xX\N{MULTIPLICATION SIGN}" + ("/%" if options.division else "")
    return _chain(options, unary_pieces(options, depth), ops)


@cache
def expression_pieces(options: TextOptions, depth: int) -> st.SearchStrategy[str]:
    """Terms joined by ``+ -`` (and the Unicode minus)."""
    return st.deferred(lambda: _chain(options, term_pieces(options, depth), "+-\N{MINUS SIGN}"))


def expression_text(
    depth: int = 1,
    *,
    names: bool = True,
    explosions: bool = True,
    division: bool = True,
    whitespace: bool = True,
) -> st.SearchStrategy[str]:
    """A valid generic expression, nested at most ``depth`` groups/parentheses deep.

    With ``names``, it may use :data:`NAMES` (roll with ``values=NAMES``).
    """
    options = TextOptions(names, explosions, division, whitespace)
    return expression_pieces(options, depth)


@st.composite
def check_text(draw: st.DrawFn, left: str, options: TextOptions, depth: int) -> str:
    """``left`` checked against a target: ``left >= 15``, ``left vs d6 + 2``.

    The comparison is followed by a space (else, after dice, ``>=5`` is a success
    condition of the dice), and preceded by one unless ``left`` ends in a digit or a
    closing bracket (``1d20+5>= 15``); ``vs`` is a word, so always spaced."""
    spelling = draw(st.sampled_from(sorted(CHECK_SPELLINGS)))
    before = draw(spaces(options.whitespace))
    if spelling.isalpha() or not (left[-1].isdigit() or left[-1] in ")]}"):
        before = before or " "
    after = draw(st.sampled_from([" ", "  ", "\t"]))
    return left + before + spelling + after + draw(expression_pieces(options, depth))


@st.composite
def line_text(
    draw: st.DrawFn,
    depth: int = 1,
    *,
    names: bool = True,
    explosions: bool = True,
    checks: bool = True,
) -> str:
    """A whole line: whitespace, an expression (perhaps checked against a target), an
    optional ``# comment``, whitespace."""
    body = draw(expression_text(depth, names=names, explosions=explosions))
    if checks and draw(st.integers(0, 3)) == 0:
        body = draw(check_text(body, TextOptions(names, explosions), depth))
    comment = _maybe(draw, comment_text())
    tail = "" if comment is None else draw(spaces()) + comment
    return draw(spaces()) + body + tail + draw(spaces())


# --- refused and junk text ----------------------------------------------------------


@st.composite
def endless_dice_text(draw: st.DrawFn) -> str:
    """A dice term whose roll would never end: every face re-rolls (``d6r<7``), every
    face explodes (``d1!``, ``d6!>=1``), every face left by the re-rolls explodes
    (``d6r<6!``), or more unique dice than values (``4d3u``). The core must refuse it
    (a syntax error or the roll budget)."""
    sides = draw(sides_strategy())
    values = die_values(sides)
    count = draw(st.integers(1, 3))
    high = values[-1]
    kind = draw(st.sampled_from(["reroll", "explode", "both", "unique"]))
    if kind == "unique":  # more unique dice than values: 4d3u, 3dFu
        mods = Modifiers(unique=Unique(None, once=False))
        count = len(values) + draw(st.integers(1, 2))
        assert too_few_values(sides, count, mods)
        typed = draw(modifiers_text(mods, False, respell=not _fudge(sides)))
        return f"{count}d{draw(sides_text(sides))}{typed}"
    if kind == "reroll":
        condition = draw(st.sampled_from([Condition("<", high + 1), Condition("<=", high)]))
        mods = Modifiers(reroll=Reroll(condition, once=False))
    elif kind == "explode":
        every = [Condition("<=", high), Condition("<", high + 1)]
        every += [Condition(">=", values[0])] if values[0] >= 0 else []
        condition = draw(st.sampled_from(every))
        mods = Modifiers(explode=Explode(draw(st.sampled_from(EXPLODE_KINDS)), condition))
    else:
        if len(values) == 1:
            mods = Modifiers(explode=Explode("!", None))
        else:
            reroll = Reroll(Condition("<", high), once=False)
            mods = Modifiers(
                reroll=reroll, explode=Explode(draw(st.sampled_from(EXPLODE_KINDS)), None)
            )
    assert is_endless(sides, mods)
    typed = draw(modifiers_text(mods, False, respell=not _fudge(sides)))
    return f"{count}d{draw(sides_text(sides))}{typed}"


def junk_text() -> st.SearchStrategy[str]:
    """Any text at all, often dice-like."""
    dice_like = st.text(st.sampled_from("0123456789dDfFkhlropx!<>=%{}()[],.+-*/×− #ab\t"))
    return st.text() | dice_like


_OTHER_ROLLERS = ["/r ", "!roll ", " // to hit", " /* x */", " ! with sword", "(Attack) "]
_OTHER_ROLLERS += [" to hit", "t7", "d1", "h2", "L1", "ie", "ie6", "mi2", "ma5", "rr", "ir1"]
_OTHER_ROLLERS += ["irg5", "rg2", "c>3", "*/", "/*", "//", " ! "]


@st.composite
def near_miss_text(draw: st.DrawFn) -> str:
    """A valid line with a few characters inserted, deleted, swapped or repeated."""
    text = draw(line_text(depth=1))
    alphabet = "0123456789dDfFkKhlrRop!<>=%{}()[],.+-*/xX×−# \tof"
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "swap", "repeat", "other roller"]))
        if action == "insert":
            text = text[:where] + draw(st.sampled_from(alphabet)) + text[where:]
        elif action == "other roller":  # text and spellings other rollers take (issue 26)
            text = text[:where] + draw(st.sampled_from(_OTHER_ROLLERS)) + text[where:]
        elif action == "delete" and text:
            where = min(where, len(text) - 1)
            text = text[:where] + text[where + 1 :]
        elif action == "swap" and len(text) > 1:
            where = min(where, len(text) - 2)
            text = text[:where] + text[where + 1] + text[where] + text[where + 2 :]
        else:
            text = text[:where] + text[where : where + 3] * 2 + text[where + 3 :]
    return text


# --- syntax trees -------------------------------------------------------------------


def number_nodes() -> st.SearchStrategy[Number]:
    return st.builds(Number, st.integers(0, 50))


def name_nodes() -> st.SearchStrategy[Name]:
    return st.sampled_from(sorted(NAMES)).map(Name)


@st.composite
def dice_nodes(draw: st.DrawFn, modifiers: bool = True) -> Dice:
    """``Dice`` with valid, quickly ending modifiers (none unless ``modifiers``)."""
    sides = draw(sides_strategy())
    count = draw(st.integers(1, 4))
    return Dice(count, sides, draw(dice_modifiers(sides, count)) if modifiers else Modifiers())


@st.composite
def group_nodes(draw: st.DrawFn, items: st.SearchStrategy[Expr]) -> Group:
    members = tuple(draw(st.lists(items, min_size=1, max_size=3)))
    return Group(members, draw(group_modifiers(len(members))))


def label_strings() -> st.SearchStrategy[str]:
    """A label as the parser keeps it: stripped."""
    return st.text(_LABEL_ALPHABET, max_size=8).map(str.strip)


def _binary(op: str, left: Expr, right: Expr) -> BinaryOp:
    return BinaryOp(cast(BinaryOpSymbol, op), left, right)


def expr_nodes(max_leaves: int = 8, *, modifiers: bool = True) -> st.SearchStrategy[Expr]:
    """Any generic expression tree; its dice have no modifiers unless ``modifiers``."""
    leaves: st.SearchStrategy[Expr] = st.one_of(
        number_nodes(), name_nodes(), dice_nodes(modifiers), computed_dice_nodes(modifiers)
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(
                _binary, st.sampled_from(["+", "-", "*", "/", "//", "^"]), children, children
            ),
            st.builds(Negate, children),
            st.builds(PercentOf, st.integers(0, 200), children),
            st.builds(Labelled, children, label_strings()),
            group_nodes(children),
            call_nodes(children),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


_COUNT_NODES: tuple[Expr, ...] = (
    Number(2),
    BinaryOp("+", Number(1), Number(2)),
    Dice(1, 4),
    Dice(2, 2),
    Name("str"),
)
_SIDES_NODES: tuple[Expr | Literal["%", "F"] | FaceList, ...] = (
    Number(6),
    BinaryOp("*", Number(2), Number(3)),
    BinaryOp("+", Dice(1, 4), Number(2)),
    Dice(1, 6),
    "F",
    "%",
    FaceList("{0,1}"),
    FaceList("{-1..1,1}"),
)


@st.composite
def computed_dice_nodes(draw: st.DrawFn, modifiers: bool = True) -> ComputedDice:
    """``ComputedDice`` whose count and sides always come out 1 or more; keep/drop,
    counting and critical markers only (re-rolls and explosions could be endless on
    some size)."""
    count = draw(st.sampled_from(_COUNT_NODES))
    sides = draw(st.sampled_from(_SIDES_NODES))
    if isinstance(count, Number) and isinstance(sides, (Number, str)):
        sides = BinaryOp("+", Number(1), Dice(1, 4))
    mods = Modifiers()
    if modifiers:
        drawn = draw(dice_modifiers(6, 3))
        mods = replace(drawn, reroll=None, explode=None, unique=None)  # u: a count may
        # come out above the faces (a clear roll error, tested in test_unique_and_clamps)
    return ComputedDice(count, sides, mods)


def call_nodes(args: st.SearchStrategy[Expr]) -> st.SearchStrategy[Call]:
    """``floor(...)``, ``abs(...)``; ``min``/``max`` of one to three arguments."""
    one = st.builds(
        lambda function, arg: Call(function, (arg,)),
        st.sampled_from(("floor", "ceil", "round", "abs")),
        args,
    )
    several = st.builds(
        lambda function, items: Call(function, tuple(items)),
        st.sampled_from(("min", "max")),
        st.lists(args, min_size=1, max_size=3),
    )
    return one | several


def comparison_nodes(max_leaves: int = 6) -> st.SearchStrategy[Comparison]:
    """A check on an expression: ``Comparison(left, op, right)``."""
    sides = expr_nodes(max_leaves)
    return st.builds(Comparison, sides, st.sampled_from(CHECK_OPS), sides)
