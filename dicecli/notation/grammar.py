"""Text -> syntax tree, with pyparsing, for the generic dice notation.

The EBNF is in ``docs/grammar.md``; keep the two in step. Parse actions only build
nodes from :mod:`dicecli.notation.nodes`. Errors are translated once, in :func:`parse`,
into a :class:`~dicecli.errors.DiceSyntaxError` with the position of the fault.

A line whose first word is a game's keyword is handed to that game's grammar, found in
the games handed in (:mod:`dicecli.notation.games`) and imported only then, so a plain roll
pays for this grammar alone. Game grammars reuse :data:`expression`, :data:`integer` and
:func:`keyword` from here.

Each dice term is one ``Regex`` token and all of its modifiers another: measured, that
halves parse time against a token per symbol. Packrat parsing is off: it made this
grammar slower. Parsed lines are cached by text instead
(:func:`dicecli.notation.reader.parse`). Parse actions
take pyparsing's full ``(text, loc, tokens)``: given fewer, pyparsing works out how many
on the first call by catching a TypeError and reading the traceback, at every start.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any, Literal, cast

import pyparsing as pp

from dicecli.errors import DiceSyntaxError
from dicecli.frozen import replace
from dicecli.limits import MAX_MODIFIERS, check_line
from dicecli.notation.nodes import (
    FLOOR_DIVISOR_START,
    FUNCTION_NAMES,
    NO_MODIFIERS,
    BinaryOp,
    BinaryOpSymbol,
    Call,
    Check,
    CheckOp,
    CompareOp,
    Comparison,
    ComputedDice,
    Condition,
    Dice,
    Explode,
    ExplodeKind,
    Expr,
    FunctionName,
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
    Roll,
    Sides,
    Unique,
)
from dicecli.notation.semantics import (
    MAX_DICE_COUNT,
    MAX_SIDES,
    bare_reroll_condition,
    condition_of,
    endless_roll,
    starts_as_dice,
)
from dicecli.notation.sides import DieName, FaceList
from dicecli.notation.thresholds import computed_threshold

_COMPARE = r"(?:>=|<=|<>|>|<|=)"
# After a modifier's letter (r, ro, u, uo, f, ds, cs, cf), ``!=`` is "not equal" too, and
# "=" may be left out; right after dice or after ``!`` it stays an explosion on =N
# (``d6!=6``). A negative number only after a comparison: ``r-1`` is ``r``, minus 1.
_CONDITION = r"(?:(?:>=|<=|<>|!=|>|<|=)-?)?\d+"
_EXPLODE_CONDITION = rf"(?:{_COMPARE}-?)?\d+"
_COMPARISON = rf"{_COMPARE}-?\d+"


def keyword(word: str, *aliases: str) -> pp.ParserElement:
    """A case-insensitive word (``vs``, ``by``) that does not match a longer word."""
    words = [pp.CaselessKeyword(w) for w in (word, *aliases)]
    element = words[0] if len(words) == 1 else pp.MatchFirst(words)
    return element.set_name(f"'{word}'")


def _fail(text: str, loc: int, message: str) -> pp.ParseFatalException:
    return pp.ParseFatalException(text, loc, message)


def lazy_regex(pattern: str, flags: int = 0) -> pp.Regex:
    """A regular-expression token compiled the first time a line reaches it, not when
    the grammar is built: compiling in Python's ``re`` is most of building this grammar,
    and a line reaches few of its tokens (a game line none of the dice modifiers).
    ``pattern`` never matches the empty string (a test checks every one), so pyparsing
    need not compile it to ask."""
    token = pp.Regex(pattern, flags)
    token.mayReturnEmpty = False
    return token


integer = lazy_regex(r"\d+").set_name("a number")
integer.set_parse_action(lambda s, loc, t: int(t[0]))

_FACES = r"\{[^{}()\[\]#]*\}?"  # d{1,1,2}: read by notation.faces, which finds the faults
_DICE = rf"(?P<count>\d*)[dD](?P<sides>\d+|%|[fF](?:\.[12](?!\d))?|{_FACES})"
_OWN_MODIFIER = (
    r"(?P<keep>kh|kl|km(?=\d)|dh|dl|k)(?P<keep_n>\d*)"
    rf"|(?P<reroll>ro|r)(?P<reroll_if>{_CONDITION})?"
    rf"|(?P<unique>uo|u)(?P<unique_if>{_CONDITION})?"
    r"|(?P<clamp>min|max)(?P<bound>-?\d+)"
    rf"|(?P<explode>!!p|!!|!p|!(?!=(?:\s|$)))(?P<explode_once>o)?"
    rf"(?P<explode_if>{_EXPLODE_CONDITION})?"
    rf"|ds(?P<double>{_CONDITION})"
    r"|s(?P<sort>a|d(?![hls]))?"
    rf"|(?P<success>{_COMPARISON})"
    rf"|f(?P<failure>{_CONDITION})"
    rf"|c(?P<critical>[sf])(?P<critical_if>{_CONDITION})"
)
"""dicecli's own modifiers."""
_SPELT_BEFORE = (
    rf"rr(?P<repeated_if>{_CONDITION})?|(?P<respelt_reroll>rg|irg|ir)(?P<respelt_reroll_n>\d+)"
    r"|(?P<respelt_versus>[er]?v)(?P<respelt_versus_n>\d+)"
)
"""Other rollers' spellings that must be tried before dicecli's own (``rr`` before ``r``):
``rr`` re-roll repeatedly (d20, Foundry), ``irN``/``irgN`` re-roll repeatedly at most or
at least N, ``rgN`` once at least N (Dice Maiden), justinian/dice's versus ``v5`` (count
the dice of 5 or more; ``ev5`` compounding, ``rv5`` adding a die on the highest face, not
``r`` and ``v5``). See docs/grammar.md, "Other rollers' spellings"."""
_SPELT_AFTER = (
    r"(?P<respelt_keep>[hld]|p[hl])(?P<respelt_keep_n>\d+)"
    r"|(?P<respelt_clamp>mi|ma)(?P<respelt_bound>-?\d+)"
    r"|ie(?P<respelt_explode>\d*)"
    rf"|(?P<respelt_e>e)(?:(?P<respelt_e_if>{_EXPLODE_CONDITION})|(?![A-Za-z_]))"
    r"|(?P<implode>i)(?:(?P<implode_n>\d+)|(?![a-z]))"
    rf"|(?P<respelt_xo>xo)(?P<respelt_once>{_EXPLODE_CONDITION})?"
    r"|t(?P<respelt_target>\d+)"
    rf"|c(?P<respelt_count>{_COMPARISON})"
    r"|(?P<respelt_counted>>>|<<)[ \t]*(?P<respelt_counted_n>\d+)"
)
"""Other rollers' spellings tried after dicecli's own: ``h3``/``l1`` keep highest or
lowest, ``d1`` drop lowest, ``ph1``/``pl1`` drop highest or lowest (d20), ``mi2``/``ma5``
clamps, ``ie``/``ie6`` explode (at least N), ``e``/``e6``/``E=6`` explode once (at
least N; after a comparison, on it: Dice Maiden, caith, DiceParser), ``i``/``i2``
implode (Dice Maiden: at most N, a bare ``i`` at most 1),
``xo``/``xo10``/``xo>=8`` explode once (Foundry VTT; ``x`` alone multiplies), ``t7``,
``c>3`` and Rollem's ``>>4``/``<<3`` (at least, at most) count successes."""
_MODIFIER = rf"(?i){_SPELT_BEFORE}|{_OWN_MODIFIER}|{_SPELT_AFTER}"
# The patterns are compiled when first used; re.compile keeps them after that.
_dice_token = lazy_regex(_DICE).set_name("dice such as 2d6")
_modifier_token = lazy_regex(_MODIFIER).set_name("a dice modifier (kh3, r1, !, >=5, u, min3 ...)")


def _modifier_found(text: str, loc: int, tokens: pp.ParseResults) -> tuple[int, str]:
    """A modifier token and where it stands; not one written after a space that starts
    a word of letters no chain of modifiers makes: a game's word after a pool or skill
    that ends in a die (``d2`` and a word such as ``rules``) is the word, not ``r`` and a
    stray rest (``2d6 scf1`` is ``s`` and ``cf1``)."""
    word: str = tokens[0]
    end = loc + len(word)
    if loc and text[loc - 1] in " \t" and word[-1:].isalpha() and text[end : end + 1].isalpha():
        chain = re.compile(_MODIFIER_CHAIN, re.IGNORECASE).match(text, loc)
        after = text[chain.end() : chain.end() + 1] if chain is not None else "?"
        if after.isalpha() and after not in "xX":  # (x: a product, 2d6 sd x 3)
            raise pp.ParseException(text, loc, "a word, not a modifier")
    return loc, word


_MODIFIER_CHAIN = rf"(?:{_SPELT_BEFORE}|{_OWN_MODIFIER}|{_SPELT_AFTER})+"
"""Modifiers run together to the end of a word (``scf1kh2``): compiled (and kept by
:mod:`re`) for the first word after a dice term that starts like one."""


_modifier_token.set_parse_action(_modifier_found)


def _modifiers(
    text: str, found: list[tuple[int, str]], allow_per_die: bool, lowest: Condition | None = None
) -> Modifiers:
    """Fold the modifier tokens of one term into :class:`Modifiers`, refusing repeats.
    ``lowest`` is what a bare ``r`` re-rolls: the die's lowest face (None for a group)."""
    if not found:
        return NO_MODIFIERS
    if len(found) > MAX_MODIFIERS:  # before folding them: chains fold one into the next
        raise _fail(
            text,
            found[MAX_MODIFIERS][0],
            f"too many modifiers: at most {MAX_MODIFIERS} on one dice term",
        )
    values: dict[str, Any] = {}
    value: Keep | Reroll | Explode | Condition | Unique | str | int
    after, end = "", -1  # the token before, and where it ends
    target_spelt = False  # a success spelt t7, as Dice Maiden does
    for loc, token in found:
        match = re.fullmatch(_MODIFIER, token)
        assert match is not None
        groups = _as_own(match)
        respelt = _respelt(groups)
        if respelt is not None:
            selects = end == loc and token[:1].lower() in "hl"
            if selects and after.lower() in ("r", "ro", "rr"):
                raise _fail(text, loc - len(after), _SELECTED_REROLL.format(after + token))
            slot, value = respelt
            target_spelt = target_spelt or token[:1] in "tT"
            if groups["respelt_versus"] and len(groups["respelt_versus"]) == 2:  # ev5, rv5
                if "explode" in values:
                    raise _fail(text, loc, "a second explode modifier: write one per dice term")
                values["explode"] = _VERSUS_EXPLOSIONS[groups["respelt_versus"][0].lower()]
        elif groups["keep"]:
            kind = groups["keep"].lower()
            kind = "kh" if kind == "k" else kind
            count = int(groups["keep_n"] or 1)
            slot, value = "keep", Keep(cast("KeepKind", kind), count)
        elif groups["reroll"]:
            reroll = groups["reroll"].lower()
            if groups["reroll_if"] is None and lowest is None:
                raise _fail(text, loc, "a group cannot reroll: put it on the dice inside the group")
            condition = condition_of(groups["reroll_if"]) if groups["reroll_if"] else lowest
            assert condition is not None
            slot, value = "reroll", Reroll(condition, reroll == "ro")
        elif groups["unique"]:
            condition = condition_of(groups["unique_if"]) if groups["unique_if"] else None
            slot, value = "unique", Unique(condition, groups["unique"].lower() == "uo")
        elif groups["clamp"]:
            slot, value = f"clamp_{_CLAMP_SLOTS[groups['clamp'].lower()]}", int(groups["bound"])
        elif groups["double"]:
            slot, value = "double", condition_of(groups["double"])
        elif match.group(0).lower().startswith("s"):
            slot, value = "sort", "d" if (groups["sort"] or "a").lower() == "d" else "a"
        elif groups["explode"]:
            condition = condition_of(groups["explode_if"]) if groups["explode_if"] else None
            once = groups["explode_once"] is not None
            slot, value = (
                "explode",
                Explode(cast("ExplodeKind", groups["explode"].lower()), condition, once),
            )
        elif groups["critical"]:
            kind = "success" if groups["critical"].lower() == "s" else "failure"
            slot, value = f"critical_{kind}", condition_of(groups["critical_if"])
        elif groups["success"]:
            slot, value = "success", condition_of(groups["success"])
        else:
            slot, value = "failure", condition_of(groups["failure"])
        if slot == "keep" and "keep" in values:  # 4d6dl1kh3: each applies in turn
            value = values["keep"].followed_by(value)
        elif slot == "reroll" and "reroll" in values:  # 2d8r1r3: either re-rolls
            value = values["reroll"].followed_by(value)
        elif slot in values:
            word = _SLOT_WORDS.get(slot, slot)
            raise _fail(text, loc, f"a second {word} modifier: write one {word} per dice term")
        if not allow_per_die and slot in _PER_DIE:
            raise _fail(
                text, loc, f"a group cannot {_PER_DIE[slot]}: put it on the dice inside the group"
            )
        values[slot] = value
        after, end = token, loc + len(token)
    if target_spelt and any(_BARE_NUMBER_AFTER_TARGET.fullmatch(token) for _, token in found):
        raise _fail(text, found[-1][0], _TARGET_AND_BARE_NUMBER)
    if "double" in values and "success" not in values:
        loc = found[-1][0]
        raise _fail(text, loc, "ds counts a success twice: add a success such as >=8")
    if "failure" in values and "success" not in values:
        loc = found[-1][0]
        raise _fail(text, loc, "f counts failures beside successes: add one such as >=5")
    _check_unique_and_clamps(text, found[-1][0], values)
    if "implode" in values:
        _check_implode(text, found[-1][0], values)
    compounds = "explode" in values and values["explode"].kind in ("!!", "!!p")
    if compounds and ("critical_success" in values or "critical_failure" in values):
        loc = found[-1][0]
        raise _fail(text, loc, "cs and cf judge single dice: a compounded die (!!) is several")
    return Modifiers(**values)


_CLAMP_SLOTS = {"min": "low", "max": "high"}
_BARE_NUMBER_AFTER_TARGET = re.compile(r"(?i)ds\d+|f(?!0*1$)\d+")
_TARGET_AND_BARE_NUMBER = (
    "beside t, write ds and f with a comparison (ds>=6, f<=2): Dice Maiden reads ds6 as "
    "6 or more and f2 as 2 or less, dicecli as exactly 6 and exactly 2"
)
_SELECTED_REROLL = (
    "{} re-rolls the lowest or highest dice in d20 (Avrae), which dicecli does not do: "
    "give the re-roll a condition (ro1), and keep with kh or kl"
)


_VERSUS_EXPLOSIONS = {"e": Explode("!!", None), "r": Explode("!", None)}
"""justinian/dice's ``ev5`` (a die on the highest face rolls again and adds to itself)
and ``rv5`` (it adds another die to the pool)."""


def _as_own(match: re.Match[str]) -> dict[str, Any]:
    """The groups of a modifier match, with ``rr`` (re-roll repeatedly, as d20 and
    Foundry spell it) as the ``r`` it is: a bare ``rr`` re-rolls the lowest face too."""
    groups = match.groupdict()
    if match[0][:2].lower() != "rr":
        return groups
    return {**groups, "reroll": "r", "reroll_if": groups["repeated_if"]}


def _respelt(groups: dict[str, Any]) -> tuple[str, Any] | None:
    """The slot and value of a modifier spelt as another roller spells it (one of
    :data:`_SPELT_BEFORE` and :data:`_SPELT_AFTER`), as dicecli's own spelling has them;
    None for dicecli's own spelling."""
    if groups["respelt_reroll"]:
        spelling, number = groups["respelt_reroll"].lower(), groups["respelt_reroll_n"]
        op: CompareOp = ">=" if spelling.endswith("g") else "<="
        return "reroll", Reroll(Condition(op, int(number or 1)), spelling == "rg")
    if groups["respelt_versus"]:  # justinian/dice's 10d10v7: the dice of 7 or more
        return "success", Condition(">=", int(groups["respelt_versus_n"]))
    if groups["respelt_keep"]:
        kind = {"h": "kh", "l": "kl", "d": "dl", "ph": "dh", "pl": "dl"}[
            groups["respelt_keep"].lower()
        ]
        return "keep", Keep(cast("KeepKind", kind), int(groups["respelt_keep_n"] or 1))
    if groups["respelt_clamp"]:
        slot = "clamp_low" if groups["respelt_clamp"].lower() == "mi" else "clamp_high"
        return slot, int(groups["respelt_bound"] or 0)
    if groups["respelt_xo"]:  # Foundry's xo10: once, on exactly 10; xo>=8 on 8 or more
        condition = groups["respelt_once"]
        return "explode", Explode("!", condition_of(condition) if condition else None, True)
    if groups["respelt_e"]:  # e6: once, on 6 or more; E=6: once, on exactly 6
        condition = groups["respelt_e_if"]
        if condition is None:
            return "explode", Explode("!", None, True)
        written = ">=" + condition if condition.isdigit() else condition
        return "explode", Explode("!", condition_of(written), True)
    if groups["respelt_explode"] is not None:
        number = groups["respelt_explode"]
        return "explode", Explode("!", Condition(">=", int(number)) if number else None)
    if groups["implode"]:
        return "implode", int(groups["implode_n"] or 1)
    if groups["respelt_target"]:
        return "success", Condition(">=", int(groups["respelt_target"]))
    if groups["respelt_count"]:
        return "success", condition_of(groups["respelt_count"])
    if groups["respelt_counted"]:
        counted: CompareOp = ">=" if groups["respelt_counted"] == ">>" else "<="
        return "success", Condition(counted, int(groups["respelt_counted_n"]))
    return None


def _check_unique_and_clamps(text: str, loc: int, values: dict[str, Any]) -> None:
    """Refuse unique dice that explode, and clamps that cross (``min5max3``)."""
    if "unique" in values and "explode" in values:
        raise _fail(
            text, loc, "unique dice (u, uo) cannot explode: an added die has no earlier faces"
        )
    low, high = values.get("clamp_low"), values.get("clamp_high")
    if low is not None and high is not None and low > high:
        raise _fail(text, loc, f"min{low} is above max{high}: no value is within both")


def _check_implode(text: str, loc: int, values: dict[str, Any]) -> None:
    """Refuse an implosion (``i2``) on 0 or less, beside counting (a count has no
    total to subtract from), and beside unique dice or clamps."""
    if values["implode"] < 1:
        raise _fail(text, loc, "i implodes on a face of at most N: N is 1 or more (i1)")
    if "success" in values or "failure" in values:
        raise _fail(
            text, loc, "i subtracts dice from a total: a term that counts successes has none"
        )
    if "unique" in values or "clamp_low" in values or "clamp_high" in values:
        raise _fail(text, loc, "i does not go with unique dice (u) or clamps (min, max)")


_SLOT_WORDS = {
    "critical_success": "cs",
    "critical_failure": "cf",
    "clamp_low": "min",
    "clamp_high": "max",
    "unique": "u",
}
_PER_DIE = {
    "reroll": "reroll",
    "explode": "explode",
    "critical_success": "mark criticals",
    "critical_failure": "mark criticals",
    "unique": "re-roll duplicates",
    "clamp_low": "clamp",
    "clamp_high": "clamp",
    "implode": "implode",
}
"""Modifiers of single dice, refused on a group, and what a group cannot do."""


def _dice_action(text: str, loc: int, tokens: pp.ParseResults) -> Dice:
    match = re.compile(_DICE).match(text, loc)
    assert match is not None
    count = int(match["count"]) if match["count"] else 1
    raw_sides = match["sides"]
    if raw_sides[0] == "{":
        raw_sides = _face_list(text, match.start("sides"))
    modifiers = _modifiers(text, list(tokens[1:]), True, bare_reroll_condition(raw_sides))
    return _checked_dice(text, loc, count, raw_sides, modifiers)


def _face_list(text: str, loc: int) -> FaceList:
    """The custom faces written at ``loc`` (their ``{``), or an error pointing into them.
    (:mod:`dicecli.notation.faces` is imported for the first: most lines have none.)"""
    from dicecli.notation.faces import FacesError, read_faces  # docs/startup.md

    written = re.match(_FACES, text[loc:])
    assert written is not None
    try:
        return read_faces(written[0])
    except FacesError as error:
        raise _fail(text, loc + error.offset, error.message) from None


def _checked_dice(text: str, loc: int, count: int, raw_sides: str, modifiers: Modifiers) -> Dice:
    """``count`` dice of ``raw_sides`` (as typed), refused out of range or endless."""
    sides: Sides
    if isinstance(raw_sides, FaceList):
        sides = raw_sides
    elif raw_sides in ("%", "F", "f", "F.2", "f.2"):  # dF.2 is the usual Fudge die
        sides = cast(Sides, raw_sides.upper()[0])
    elif raw_sides in ("F.1", "f.1"):
        sides = "F.1"
    elif int(raw_sides) == 3:  # d3, d03: the D3 of rule N4
        sides = "3"
    else:
        sides = int(raw_sides)
        if not 1 <= sides <= MAX_SIDES:
            raise _fail(text, loc, f"a die needs 1 to {MAX_SIDES:,} sides")
    if count < 1:
        raise _fail(text, loc, "roll at least one die")
    if count > MAX_DICE_COUNT:
        raise _fail(text, loc, f"roll limit: one roll may use at most {MAX_DICE_COUNT:,} dice")
    node = Dice(count, sides, modifiers)
    endless = endless_roll(node)
    if endless is not None:
        raise _fail(text, loc, endless)
    return node


# Dice named in a dice file (docs/dice.md): a lower-case d, then the name with a capital
# first letter: 3dBoost, 2dAbility (after a count, any case: 2dability). dF, dF.1 and dF
# with modifiers (4dFr, 3dFkh1) stay the Fudge die; a word with a lower-case letter
# after the d and no count (dex) stays a name. The name ends at the first character
# that cannot be in a name: modifiers go after a space (2dAvg kh1). A Fudge die times
# dice (4dFxd6, dFx2) stays a product.
_NAMED_DIE = r"(?P<count>\d*)d(?P<name>[A-Z][A-Za-z0-9_]*)"
_COUNTED_NAMED_DIE = r"(?P<count>\d+)d(?P<name>[a-z][A-Za-z0-9_]*)"
"""With a count, a name after the d may start lower-case too (2dability): nothing else
is written so, and dice names match regardless of case."""
_FUDGE_FORM = (
    rf"[Ff](?:\.[12])?(?i:{_OWN_MODIFIER})*"
    r"(?:(?![A-Za-z0-9_])|[xX](?![A-Za-z_])|[xX](?=[dD][\d%fF]))"
)


def named_die_at(text: str, loc: int = 0) -> re.Match[str] | None:
    """The named die written at ``loc`` in ``text`` (``3dBoost``: its ``count`` and
    ``name`` groups), or None, also for the forms that stay the Fudge die."""
    match = re.compile(_NAMED_DIE).match(text, loc) or re.compile(_COUNTED_NAMED_DIE).match(
        text, loc
    )
    if match is None:
        return None
    name_at = match.start("name")
    if text.startswith(("F", "f"), name_at) and re.compile(_FUDGE_FORM).match(text, name_at):
        return None  # the pattern of the Fudge forms is compiled only for a name in F
    return match


def is_named_die(typed: str) -> bool:
    """Whether all of ``typed`` (``dBoost``) reads as a named die."""
    match = named_die_at(typed)
    return match is not None and match.end() == len(typed)


class _NamedDieToken(pp.Token):
    """:func:`named_die_at` as a token. (One regular expression holding the Fudge forms
    in a lookahead compiled the modifiers' pattern a second time at every start.)"""

    def parseImpl(  # noqa: N802 - pyparsing's name
        self, instring: str, loc: int, do_actions: bool = True
    ) -> tuple[int, str]:
        match = named_die_at(instring, loc)
        if match is None:
            raise pp.ParseException(instring, loc, self.errmsg, self)
        return match.end(), match[0]


_named_die_token = _NamedDieToken().set_name("dice such as 3dBoost")


def _named_dice_action(text: str, loc: int, tokens: pp.ParseResults) -> Dice:
    match = named_die_at(text, loc)
    assert match is not None
    count = int(match["count"]) if match["count"] else 1
    if count < 1:
        raise _fail(text, loc, "roll at least one die")
    if count > MAX_DICE_COUNT:
        raise _fail(text, loc, f"roll limit: one roll may use at most {MAX_DICE_COUNT:,} dice")
    found = list(tokens[1:])
    modifiers = _modifiers(text, found, True, Condition("=", 1))
    reroll = modifiers.reroll
    if reroll is not None and any(_bare_reroll(token) for _, token in found):
        # The die's lowest face, settled when the die is looked up (docs/dice.md).
        modifiers = replace(modifiers, reroll=replace(reroll, lowest=True))
    return Dice(count, DieName(match["name"], loc), modifiers)


def _bare_reroll(token: str) -> bool:
    """Whether the modifier ``token`` is a bare ``r``/``ro`` (no condition)."""
    match = re.fullmatch(_MODIFIER, token)
    if match is None:
        return False
    groups = _as_own(match)
    return bool(groups["reroll"]) and groups["reroll_if"] is None


named_dice_term = (_named_die_token + pp.ZeroOrMore(_modifier_token)).set_name(
    "dice such as 3dBoost"
)
named_dice_term.set_parse_action(_named_dice_action)

expression: pp.Forward = pp.Forward()
expression.set_name("an expression")

dice_term = (_dice_token + pp.ZeroOrMore(_modifier_token)).set_name("dice such as 2d6")
dice_term.set_parse_action(_dice_action)

group_term = (
    pp.Suppress("{")
    + pp.Group(pp.DelimitedList(expression))
    + pp.Suppress("}").set_name("'}' or ','")
    + pp.ZeroOrMore(_modifier_token)
).set_name("a group such as {2d6, 1d8}")
group_term.set_parse_action(
    lambda s, loc, t: Group(tuple(t[0]), _modifiers(s, list(t[1:]), allow_per_die=False))
)

name = lazy_regex(r"[A-Za-z_][A-Za-z0-9_]*").set_name("a name")
name.set_parse_action(lambda s, loc, t: Name(t[0], loc))

number = integer.copy().set_name("a number")
number.set_parse_action(lambda s, loc, t: Number(int(t[0])))

_parenthesised = pp.Suppress("(") + expression + pp.Suppress(")").set_name("')'")

_function_name = lazy_regex(r"(?i)(?:floor|ceil|round|abs|min|max)(?=\s*\()").set_name(
    "a function such as floor("
)
_function_name.set_parse_action(lambda s, loc, t: (loc, t[0].lower()))
function_call = (
    _function_name
    + pp.Suppress("(")
    - pp.Group(pp.DelimitedList(expression))
    + pp.Suppress(")").set_name("',' or ')'")
).set_name("a function such as floor(2d6/2)")


def _call_action(text: str, loc: int, tokens: pp.ParseResults) -> Call:
    where, function = tokens[0]
    args = tuple(tokens[1])
    if function in ("floor", "ceil", "round", "abs") and len(args) != 1:
        raise _fail(text, where, f"{function}() takes one value, not {len(args)}")
    return Call(cast(FunctionName, function), args)


function_call.set_parse_action(_call_action)

# Dice with a count or sides worked out when rolled: (1+2)d6, (STR)d6, (2d4)d6, d(2*3).
# Written without spaces, as any dice term; tried before a parenthesised expression.
_inner = (pp.Suppress("(") + expression + pp.Suppress(")").set_name("')'")).leave_whitespace()
_computed_sides = lazy_regex(rf"\d+|%|[fF](?:\.[12](?!\d))?|{_FACES}").leave_whitespace()
_computed_sides.set_name("sides")
_computed_sides.set_parse_action(
    lambda s, loc, t: ("literal", _face_list(s, loc) if t[0][0] == "{" else t[0])
)
_computed_letter = lazy_regex(r"[dD]").leave_whitespace().set_name("'d'")
_computed_count = lazy_regex(r"\d+").set_name("a count")
_computed_count.set_parse_action(lambda s, loc, t: Number(int(t[0])))
computed_dice_term = (
    pp.Optional(_computed_count)
    + _computed_letter
    + pp.Group(_inner)
    + pp.ZeroOrMore(_modifier_token)
).set_name("dice such as (1+2)d6 or d(2*3)")
_bracket_keep = lazy_regex(r"(?i)(?:kh|kl|km(?=\d)|dh|dl|ph|pl|k)\d*").set_name("a keep")
_bracket_keep.set_parse_action(lambda s, loc, t: (loc, t[0]))
# A bracketed expression is read once, then may turn out to be a dice count: (1+2)d6.
# Trying it first as a count and again as an expression would read brackets nested N
# deep 2^N times.
bracketed = (
    pp.Group(_parenthesised)
    + pp.Optional(
        _computed_letter + (_computed_sides | pp.Group(_inner)) + pp.ZeroOrMore(_modifier_token)
        | pp.OneOrMore(_bracket_keep)  # d20's (10d6kh5)kl2: keeps of the dice inside
    )
).set_name("'(' or dice such as (1+2)d6")


def _computed_action(text: str, loc: int, tokens: pp.ParseResults) -> Dice | ComputedDice:
    parts = list(tokens)
    letter = next(index for index, part in enumerate(parts) if isinstance(part, str))
    count: Expr = Number(1)
    if letter == 1:
        count = cast(Expr, parts[0][0] if isinstance(parts[0], pp.ParseResults) else parts[0])
    raw_sides = parts[letter + 1]
    sides: Expr | str
    if isinstance(raw_sides, tuple) and isinstance(raw_sides[1], FaceList):
        sides = raw_sides[1]
    elif isinstance(raw_sides, tuple):
        raw = raw_sides[1].upper()
        sides = {"F.2": "F", "F.1": "F.1"}.get(raw, raw) if raw[0] in "F%" else Number(int(raw))
    else:
        sides = cast(Expr, raw_sides[0])
    lowest = (
        bare_reroll_condition(raw_sides[1]) if isinstance(raw_sides, tuple) else Condition("=", 1)
    )
    modifiers = _modifiers(text, parts[letter + 2 :], True, lowest)
    if isinstance(count, Number) and isinstance(sides, (Number, str)):  # (3)d6 is 3d6
        raw = str(sides.value) if isinstance(sides, Number) else sides
        return _checked_dice(text, loc, count.value, raw, modifiers)
    return ComputedDice(count, cast("Expr | Literal['%', 'F'] | FaceList", sides), modifiers)


computed_dice_term.set_parse_action(_computed_action)


def _bracketed_action(text: str, loc: int, tokens: pp.ParseResults) -> Expr:
    if len(tokens) == 1:  # no dice letter after the brackets: the expression itself
        return cast(Expr, tokens[0][0])
    if isinstance(tokens[1], tuple):  # modifiers right after the brackets
        return _kept_in_brackets(text, cast(Expr, tokens[0][0]), list(tokens[1:]))
    return _computed_action(text, loc, tokens)


def _kept_in_brackets(text: str, inner: Expr, found: list[tuple[int, str]]) -> Dice:
    """d20's ``((10d6kh5)kl2)kh1``: keeps after brackets holding one dice term act on
    its dice, after the keeps it has (``10d6kh5kl2kh1``); anything else is refused."""
    if not isinstance(inner, Dice):
        raise _fail(text, found[0][0], "a keep after brackets needs one dice term inside")
    keep = _modifiers(text, found, True, Condition("=", 1)).keep
    assert keep is not None  # the tokens are keeps (_bracket_keep)
    if inner.modifiers.keep is not None:
        keep = inner.modifiers.keep.followed_by(keep)
    return Dice(inner.count, inner.sides, replace(inner.modifiers, keep=keep))


bracketed.set_parse_action(_bracketed_action)


class _SetOpenToken(pp.Token):
    """The ``(`` of a set of values as d20 (Avrae) writes them: ``(1d4, 2+2, 3d6kl1)kh1``,
    ``(3d6,)``. It matches only a bracket holding a comma outside any inner bracket, so
    every other ``(`` is read once, by :data:`bracketed`."""

    def parseImpl(  # noqa: N802 - pyparsing's name
        self, instring: str, loc: int, do_actions: bool = True
    ) -> tuple[int, str]:
        if instring.startswith("(", loc) and _holds_a_comma(instring, loc):
            return loc + 1, "("
        raise pp.ParseException(instring, loc, self.errmsg, self)


def _holds_a_comma(text: str, loc: int) -> bool:
    """Whether the bracket opened at ``loc`` holds a comma outside inner brackets and
    labels (a label's text, ``(0[a{b])[c,d]``, holds no brackets of the notation)."""
    depth = 0
    index, end = loc, len(text)
    while index < end:
        char = text[index]
        if char == "[":  # a label: its text up to its "]" is not notation
            close = text.find("]", index)
            index = end if close < 0 else close + 1
            continue
        if char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
            if depth == 0:
                return False
        elif char == "," and depth == 1:
            return True
        index += 1
    return False


set_term = (
    pp.Suppress(_SetOpenToken().set_name("'('"))
    + pp.Group(pp.DelimitedList(expression, allow_trailing_delim=True))
    + pp.Suppress(")").set_name("',' or ')'")
    + pp.ZeroOrMore(_modifier_token)
).set_name("a set such as (2d6, 1d8)")
set_term.set_parse_action(
    lambda s, loc, t: Group(tuple(t[0]), _modifiers(s, list(t[1:]), allow_per_die=False))
)

_operand = (
    named_dice_term
    | dice_term
    | group_term
    | set_term
    | bracketed
    | computed_dice_term
    | number
    | function_call
    | name
).set_name("a number, dice such as 2d6, '(' or a name")
_label = lazy_regex(r"\[(?P<label>[^\]\[]*)\]").set_name("a [label]")
_label.set_parse_action(lambda s, loc, t: t["label"].strip())
atom = (_operand + pp.Optional(_label)).set_name(_operand.name)
atom.set_parse_action(lambda s, loc, t: Labelled(t[0], t[1]) if len(t) == 2 else t[0])

unary: pp.Forward = pp.Forward()

_percent_of = lazy_regex(r"(?P<percent>[0-9]+)[ \t]*%[ \t]*(?i:of)\b").set_name("'N% of'")
"""ASCII digits, and only the blanks the rest of the grammar skips (a space, a tab):
``\\s`` and ``\\d`` would take Unicode ones (the separators ``\\x1c``-``\\x1f``, an em
space), which ``int`` refuses or reads."""
# Signs as literals, not a regex class: a class mixing ASCII with the minus sign U+2212
# makes ``re`` build a 64k-character bitmap at every start.
_minus = (pp.Literal("-") | pp.Literal("\N{MINUS SIGN}")).set_name("'-'")
# A power binds tighter than a sign or ``N% of`` before it (``-2^2`` is ``-(2^2)``): after
# one, the atom takes its power here; any other power is read with the term's operators
# (:func:`_fold_powers`), so that an atom without a sign tries no token more than before.
_signed: pp.Forward = pp.Forward()
_power_only = lazy_regex(r"\^|\*\*").set_name("'^'")
_power_chain = (unary + pp.ZeroOrMore(_power_only - unary)).set_name(_operand.name)
_power_chain.set_parse_action(lambda s, loc, t: _fold_powers(list(t)))
_signed_operand = (atom + pp.Optional(_power_only - _power_chain)).set_name(_operand.name)
_signed_operand.set_parse_action(
    lambda s, loc, t: BinaryOp("^", t[0], t[2]) if len(t) == 3 else t[0]
)
_signed <<= ((_percent_of + _signed) | (_minus + _signed) | _signed_operand).set_name(_operand.name)
unary <<= ((_percent_of + _signed) | (_minus + _signed) | atom).set_name(_operand.name)


def _unary_action(text: str, loc: int, tokens: pp.ParseResults) -> Expr:
    if len(tokens) == 1:
        return cast(Expr, tokens[0])
    head, operand = tokens[0], tokens[1]
    if head in ("-", "\N{MINUS SIGN}"):
        return Negate(operand)
    return PercentOf(int(cast(str, head).split("%")[0].rstrip(" \t")), operand)


unary.set_parse_action(_unary_action)
_signed.set_parse_action(_unary_action)

_mul_op = lazy_regex(
    rf"//(?={FLOOR_DIVISOR_START})|\^|\*\*"
    r"|[*×/]|%(?![ \t]*(?i:of)\b)|[xX](?![A-Za-z_])|[xX](?=[dD][\d%fF{])"
).set_name("'*' or '/'")
"""``%`` between two values is the remainder (``1d100 % 10``, as Roll20 and d20 write
it); ``N% of`` is read before, by :data:`unary`, and ``d%`` is a die. ``//`` before a
value (a number, a bracket, a sign, dice) divides rounding down, as d20 writes it
(``60 // 1d6``); before a word it starts a comment, as RPG Dice Roller writes one
(``3d6 // fire``, read by :mod:`dicecli.notation.chat_text`)."""
_add_op = (pp.Literal("+") | _minus).set_name("'+' or '-'")
_SYMBOLS: dict[str, BinaryOpSymbol] = {
    "*": "*",
    "x": "*",
    "X": "*",
    "×": "*",
    "/": "/",
    "//": "//",
    "^": "^",
    "**": "^",
    "%": "%",
    "+": "+",
    "-": "-",
    "\N{MINUS SIGN}": "-",
}


def _fold(text: str, loc: int, tokens: pp.ParseResults) -> Expr:
    result = cast(Expr, tokens[0])
    for index in range(1, len(tokens), 2):
        symbol = _SYMBOLS[tokens[index]]
        if symbol == "^":
            return _fold_powers(list(tokens))
        result = BinaryOp(symbol, result, tokens[index + 1])
    return result


def _fold_powers(tokens: list[Any]) -> Expr:
    """A term with powers (``2*3^2``; RPG Dice Roller's ``^``, Roll20's ``**``): each
    run of powers first, to the right (``2^3^2`` is ``2^(3^2)``), then the rest to the
    left. Powers are read with the term's other operators, so that a line without one
    tries no token more than before (after a sign, :data:`_signed_operand` reads them)."""
    runs: list[list[Expr]] = [[tokens[0]]]
    symbols: list[BinaryOpSymbol] = []
    for index in range(1, len(tokens), 2):
        symbol = _SYMBOLS[tokens[index]]
        if symbol == "^":
            runs[-1].append(tokens[index + 1])
        else:
            symbols.append(symbol)
            runs.append([tokens[index + 1]])
    powers = []
    for run in runs:
        power = run[-1]
        for base in reversed(run[:-1]):
            power = BinaryOp("^", base, power)
        powers.append(power)
    result = powers[0]
    for symbol, operand in zip(symbols, powers[1:], strict=True):
        result = BinaryOp(symbol, result, operand)
    return result


term = unary + pp.ZeroOrMore(_mul_op - unary)
term.set_parse_action(_fold)
expression <<= term + pp.ZeroOrMore(_add_op - term)
expression.set_parse_action(_fold)

comment = lazy_regex(r"#(?P<comment>.*)").set_name("a # comment")
comment.set_parse_action(lambda s, loc, t: t["comment"].strip())


def _roll_action(text: str, loc: int, tokens: pp.ParseResults) -> Roll:
    body = cast("Expr | Check", tokens[0])
    note = cast(str, tokens[1]) if len(tokens) > 1 else None
    return Roll(body, note or None)


def whole_line(body: pp.ParserElement) -> pp.ParserElement:
    """``body``, an optional comment, and nothing else: the shape of every line."""
    line = body + pp.Optional(comment) + pp.StringEnd().set_name("the end of the line")
    line.set_parse_action(_roll_action)
    # Keep tabs as typed: expanded, they would shift error positions and change labels.
    return line.parse_with_tabs()


# A check on an expression: ``d20 + 5 >= 15``. After dice, a comparison with a number
# right after it (``6d6>4``, ``6d6 >4``) is a success condition of the dice (a
# modifier), read before this; a comparison followed by a space, or after anything
# else, is a check.
_CHECK_OPS: dict[str, CheckOp] = {
    ">=": ">=",
    "\N{GREATER-THAN OR EQUAL TO}": ">=",
    "<=": "<=",
    "\N{LESS-THAN OR EQUAL TO}": "<=",
    "!=": "!=",
    "\N{NOT EQUAL TO}": "!=",
    ">": ">",
    "<": "<",
    "=": "=",
    "vs": ">=",
}


def _check_op_action(text: str, loc: int, tokens: pp.ParseResults) -> CheckOp:
    refused = computed_threshold(text, loc)  # `1d6!>(1d2+3)` is no check (issue 26)
    if refused is not None:
        raise _fail(text, loc, refused)
    return _CHECK_OPS[tokens[0].lower()]


# The Unicode signs as literals, not in a regex class (see the minus sign above).
_check_op = (
    lazy_regex(">=|<=|!=|[><=]")
    | pp.Literal("\N{GREATER-THAN OR EQUAL TO}")
    | pp.Literal("\N{LESS-THAN OR EQUAL TO}")
    | pp.Literal("\N{NOT EQUAL TO}")
    | keyword("vs")
).set_name("a comparison (>=, vs, <= ...)")
_check_op.set_parse_action(_check_op_action)
check = (expression + pp.Optional(_check_op - expression)).set_name(expression.name)


def _check_action(text: str, loc: int, tokens: pp.ParseResults) -> Expr | Comparison:
    if len(tokens) == 1:
        return cast(Expr, tokens[0])
    return Comparison(tokens[0], cast(CheckOp, tokens[1]), tokens[2])


check.set_parse_action(_check_action)

# d20 (Avrae)'s advantage after a roll, ``1d20+5 adv``: the first d20 rolled twice, the
# higher kept (``dis``: the lower). A word, so Dice Maiden's ``adv2`` is not it.
_advantage_word = lazy_regex(
    r"(?i)(?:adv(?:antage)?|dis(?:adv(?:antage)?)?)(?![A-Za-z0-9_])"
).set_name("'adv'")  # one token, not five keywords: every line tries it
_advantage_word.set_parse_action(lambda s, loc, t: (loc, t[0].lower()))


def _advantage_action(text: str, loc: int, tokens: pp.ParseResults) -> Expr | Comparison:
    body = cast("Expr | Comparison", tokens[0])
    if len(tokens) == 1:
        return body
    where, word = tokens[1]
    keep = Keep("kh" if word.startswith("adv") else "kl", 1)
    if isinstance(body, Comparison):
        return Comparison(with_first_d20_kept(body.left, keep, text, where), body.op, body.right)
    return with_first_d20_kept(body, keep, text, where)


def with_first_d20_kept(body: Expr, keep: Keep, text: str = "", loc: int = 0) -> Expr:
    """``body`` with its first term, a lone ``d20``, rolled twice and ``keep`` applied
    (``d20 + 5`` -> ``2d20kh1 + 5``), as d20 (Avrae) reads ``adv``/``dis``; an error
    at ``loc`` when the line does not start with a d20."""
    spine: list[BinaryOp | Labelled] = []
    node = body
    while isinstance(node, (BinaryOp, Labelled)):
        spine.append(node)
        node = node.left if isinstance(node, BinaryOp) else node.expr
    lone = isinstance(node, Dice) and node.count == 1 and node.sides == 20
    if not isinstance(node, Dice) or not lone or node.modifiers.keep is not None:
        word = "adv" if keep.kind == "kh" else "dis"
        raise _fail(
            text, loc, f"{word} rolls the first d20 twice: start the roll with d20 (d20 + 5 {word})"
        )
    found: Expr = Dice(2, 20, replace(node.modifiers, keep=keep))
    for outer in reversed(spine):
        found = (
            BinaryOp(outer.op, found, outer.right)
            if isinstance(outer, BinaryOp)
            else Labelled(found, outer.label)
        )
    return found


def _generic_roll_action(text: str, loc: int, tokens: pp.ParseResults) -> Roll:
    """A generic line: the check or expression, the advantage after it, the comment."""
    body = cast("Expr | Comparison", tokens[0])
    rest = list(tokens[1:])
    if rest and isinstance(rest[0], tuple):  # adv, dis ...
        body = _advantage_action(text, loc, pp.ParseResults([body, rest.pop(0)]))
    note = cast(str, rest[0]) if rest else None
    return Roll(body, note or None)


_generic_line = (
    check
    + pp.Optional(_advantage_word)
    + pp.Optional(comment)
    + pp.StringEnd().set_name("the end of the line")
).parse_with_tabs()
_generic_line.set_parse_action(_generic_roll_action)


def _reported(error: pp.ParseBaseException, text: str) -> tuple[str, int]:
    """The message and position a syntax error is reported with: one short sentence
    for what pyparsing expected, at the start of the word it stopped in (``keep``, not
    ``eep``: a letter matched as a modifier does not split the word it begins)."""
    both = _lower_target_failure(text)
    if both is not None:  # 4d6 tl4 f2 (or 4d6 f2 tl4: f2 is read before tl4 refused)
        return both
    message = str(error.msg)
    fatal = isinstance(error, pp.ParseFatalException)
    if (fatal and not isinstance(error, pp.ParseSyntaxException)) or not message.startswith(
        "Expected"
    ):
        return message, error.loc
    loc = _word_start(text, error.loc)
    unknown = _unknown_function(text, loc)
    if unknown is not None:
        return unknown
    chained = _chained_check(text, loc)
    if chained is not None:  # 1d20 > 5 > 0: d20 (Avrae) chains comparisons
        return chained, loc
    glued = _GLUED_TIMES.search(text, 0, loc)
    if glued is not None and not _dice_letter(text, glued.start("word")):
        # {4d6!}khx: kh, then x multiplying by nothing
        word = glued["word"]
        return (
            f"unexpected '{word}': x after {word[:-1]} multiplies, and no value follows it"
        ), glued.start("word")
    lower = _LOWER_TARGET_DOUBLE.match(text, loc)
    if lower is not None:  # 4d6 tl4 ds2: refused as 4d6 t4 ds2 is, and as clearly
        n = lower["n"]
        return (
            f"beside tl, write ds with a comparison (ds<={n}): Dice Maiden reads ds{n} "
            f"beside tl as {n} or less, dicecli as exactly {n}"
        ), lower.start("double")
    return _expected(message, text, loc), loc


_LOWER_TARGET_DOUBLE = re.compile(r"tl\d+[ \t]*(?P<double>ds(?P<n>\d+))")
"""Dice Maiden's ``tl4 ds2`` (count the dice of 4 or less, those of 2 or less twice),
which its plain forms leave refused: dicecli would read ``ds2`` as exactly 2."""


_SECOND_COMPARISON = re.compile(
    "==|>=|<=|!=|[<>=\N{GREATER-THAN OR EQUAL TO}\N{LESS-THAN OR EQUAL TO}\N{NOT EQUAL TO}]"
    r"|(?i:vs)(?![A-Za-z0-9_])"
)
_D20_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "=": operator.eq,  # (d20's ==, as its dialect writes it)
    ">=": operator.ge,
    "<=": operator.le,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}
_NOT_D20_CHECK = re.compile(
    "(?i)(?<![A-Za-z0-9_])vs(?![A-Za-z0-9_])"
    "|[\N{GREATER-THAN OR EQUAL TO}\N{LESS-THAN OR EQUAL TO}\N{NOT EQUAL TO}]"
)
"""A check d20 (Avrae) does not write (``vs``, ``≥``): its chain is no d20 reading."""
_NEGATED: dict[CheckOp, CheckOp] = {
    ">": "<=",
    "<=": ">",
    "<": ">=",
    ">=": "<",
    "=": "!=",
    "!=": "=",
}


def _chained_check(text: str, loc: int) -> str | None:
    """The error for a second comparison at ``loc`` after a check (``1d20 > 5 > 0``):
    d20 (Avrae) reads comparisons left to right, each worth 1 when true and 0 when
    false (grammar.lark ``comparison``; expression.py ``int(l > r)``), so the second
    compares the first's 1 or 0; a check here is one comparison. When the second
    compares with a number, the check it comes to is named (``1d20 > 5``, or its
    opposite); None when ``loc`` holds no second comparison."""
    second = _SECOND_COMPARISON.match(text, loc)
    first_text = text[:loc].strip()
    if second is None or not first_text:
        return None
    try:
        first = _read(first_text).body
    except (pp.ParseBaseException, DiceSyntaxError, RecursionError):
        return None
    if not isinstance(first, Comparison):
        return None
    written = second[0]
    rest = text[second.end() :].partition("#")[0].strip()
    compare = _D20_COMPARISONS.get(written)
    if compare is None or _NOT_D20_CHECK.search(first_text):  # not d20's comparisons
        return f"a check is one comparison, and {first_text} is one: a second is not read"
    if not rest or _SECOND_COMPARISON.search(rest):  # 1d20 > 5 > 0 > 1: left to right
        return (
            "a check is one comparison here; d20 (Avrae) works comparisons left to right, "
            "each 1 when true and 0 when false: write one comparison"
        )
    what = f"d20 (Avrae) compares {first_text}, 1 when true and 0 when false, with {rest}"
    if not re.fullmatch(r"-?\d{1,9}", rest):
        return f"a check is one comparison here; {what}: write one comparison"
    number = int(rest)
    when_true, when_false = compare(1, number), compare(0, number)
    if when_true and not when_false:
        return f"a check is one comparison here; {what}: write {first_text}"
    if when_false and not when_true:
        negated = Comparison(first.left, _NEGATED[first.op], first.right)
        return f"a check is one comparison here; {what}: write {negated}"
    always = "true" if when_true else "false"
    return f"a check is one comparison here; {what}, always {always}: write one comparison"


def _lower_target_failure(text: str) -> tuple[str, int] | None:
    """The error for Dice Maiden's ``tl4`` beside a bare ``f2`` in the refused line
    ``text``, at the ``f``; None for any other line."""
    code = text.partition("#")[0]
    if "tl" not in code.lower():  # (most lines: the module is not loaded for them)
        return None
    if line_grammar_for(text.strip()) is not _generic_line:  # a game's words are its own
        return None
    from dicecli.notation.dicemaiden import lower_target_failure  # docs/startup.md

    failure = lower_target_failure(code)
    if failure is None:
        return None
    n = failure["n"]
    return (
        f"beside tl, f{n} is refused: Dice Maiden counts each die of {n} or less a failure, "
        f"also one it counts a success (worth 0); dicecli reads f{n} as exactly {n} and "
        "never counts a success a failure"
    ), failure.start()


_GLUED_TIMES = re.compile(r"(?<![A-Za-z_])(?P<word>[A-Za-z]+[xX])[ \t]*$")
"""Letters run into an ``x`` just before where the grammar stopped for want of a value
(``{4d6!}khx``, ``4d6rx``): the letters were read as modifiers, the ``x`` as a
multiplication with nothing after it. Not dice (:func:`_dice_letter`): ``4dFx`` is
Fudge dice and a product, which Foundry VTT's hint reads."""


def _dice_letter(text: str, at: int) -> bool:
    """Whether the letter at ``at`` is a dice term's ``d`` (``4dF``, ``dF``)."""
    return text[at] in "dD" and (at == 0 or text[at - 1].isdigit())


_CALLED = re.compile(r"(?:^|(?<=[\s+\-*/(,{\[]))(?P<word>[A-Za-z_]\w*)$")
_DICE_WORD = re.compile(r"(?i)d(?:\d+|%|f)")


def _unknown_function(text: str, loc: int) -> tuple[str, int] | None:
    """``unknown function 'sqrt'`` when the grammar stopped at a bracket right after a
    word that is not one of its functions (``sqrt(4d6)``, RPG Dice Roller's ``pow``),
    at the word; None otherwise."""
    if text[loc : loc + 1] != "(":
        return None
    called = _CALLED.search(text, 0, loc)
    if called is None or _DICE_WORD.fullmatch(called["word"]):
        return None
    word = called["word"]
    if word.lower() in FUNCTION_NAMES:
        return None
    known = ", ".join(FUNCTION_NAMES)
    return f"unknown function '{word}' (functions: {known})", called.start("word")


_PAIRS = ("//", "**", ">=", "<=", "<>", "!=", "==")
"""Operators of two characters: an error between the two stands after the pair (the
operand it lacks), never inside it."""


_PAIR_CHARACTERS = frozenset("".join(_PAIRS))


def _splits_a_pair(text: str, loc: int) -> bool:
    """Whether ``loc`` stands between the two characters of an operator pair, the
    run of operator characters around it read in pairs from its left as the grammar
    reads them: ``///`` is ``//`` then ``/``, so its third slash starts a token."""
    start = loc
    while start > 0 and text[start - 1] in _PAIR_CHARACTERS:
        start -= 1
    while start < loc:
        start += 2 if text[start : start + 2] in _PAIRS else 1
    return start > loc


def _word_start(text: str, loc: int) -> int:
    """Where the word that ``loc`` stands in starts: a word of letters and the digits
    after them (``keep``, ``s1``, ``STR``), or a number; after an operator of two
    characters that ``loc`` splits (``//``). ``loc`` itself elsewhere."""
    if _splits_a_pair(text, loc):
        return loc + 1
    start = loc
    if text[start : start + 1].isdigit():
        while start > 0 and text[start - 1].isdigit():
            start -= 1
        if not text[start - 1 : start].isalpha() or start == 0:
            return start
    elif not text[start : start + 1].isalpha():
        return loc
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return start


def _expected(message: str, text: str, loc: int) -> str:
    """One short sentence for what pyparsing expected (``message``) at ``loc``."""
    found = text[loc:].strip()
    refused = _refused_feature(text, loc)
    if refused is not None:
        return refused
    wanted = message.removeprefix("Expected ").strip()
    if wanted.startswith("end of text") or wanted == "the end of the line":
        return f"unexpected '{_word(found)}'"
    if not found:
        return f"expected {wanted} at the end"
    return f"expected {wanted}, found '{_word(found)}'"


def _refused_feature(text: str, loc: int) -> str | None:
    """What a form dicecli does not have is called, when the error stands at one."""
    rest = text[loc:].lstrip()
    before = text[:loc].rstrip()
    if rest.startswith(".") and rest[1:2].isdigit() and before[-1:].isdigit():
        return "decimals are not supported: dice and values are whole numbers"
    if rest.startswith("%"):
        return "'%' is percent of (10% of 51) or the remainder (1d100 % 10)"
    other = _other_rollers_form(rest, before)
    if other is not None:
        return other
    bare_keep = rest[:1] in ("h", "H", "l", "L") and not rest[1:2].isalnum()
    if bare_keep and re.search(r"[dD]\d+$", before):  # 4d6h: two rollers, two readings
        high = rest[0] in "hH"
        return (
            f"a bare {rest[0]} keeps the {'highest' if high else 'lowest'} one in kotlin-dice "
            f"and all but the {'lowest' if high else 'highest'} in python-dice: write "
            f"{'kh1 or dl1' if high else 'kl1 or dh1'}"
        )
    return None


_SIGNED = re.compile(r"\+\s*(?P<value>\d*[dD](?:\d+|%|[fF])|\d+|[A-Za-z_]\w*)?")
_ADVANTAGE_DIE = re.compile(r"\+\s*[dD](?:20|%)(?!\w)")
_BEFORE_A_VALUE = frozenset("(,+-*/%<>=^{")
_DICE_BEFORE = re.compile(r"(?<![A-Za-z_\d])(?P<dice>\d*[dD](?:\d+|%))[A-Za-z!<>=\d]*$")
_INLINE_ROLL = re.compile(r"\[\[(?P<roll>[^\[\]]*)\]\]")
_CHAT_COMMAND = re.compile(r"/(?P<word>[A-Za-z]+)(?P<rest>.*)")
_GM_ROLLS = frozenset(("gmroll", "gmr", "gr"))


def _other_rollers_form(rest: str, before: str) -> str | None:
    """What another roller means by the form the grammar stopped at, and what to write
    here: d20 (Avrae)'s sign ``+1d20`` (Dice Maiden's advantage ``+d20``), Foundry
    VTT's drop without its number ``4d6d``, Roll20's inline roll ``[[1d20+5]]`` and its
    chat commands (``/gmr 1d20``)."""
    if rest.startswith("+") and (not before or before[-1] in _BEFORE_A_VALUE):
        value = _SIGNED.match(rest)
        written = value["value"] if value is not None and value["value"] else ""
        if not written:
            return "a + before a value is no sign here: write the value without it"
        if not before and _ADVANTAGE_DIE.match(rest):
            return (
                f"a + before a value is no sign here: d20 (Avrae) reads +{written} as "
                f"{written}, Dice Maiden as advantage: write {written}, or "
                f"{'2d20kh1' if written[1:] == '20' else '--dialect dicemaiden'}"
            )
        return (
            f"a + before a value is no sign here: write {written} (d20 (Avrae) reads "
            f"+{written} as {written})"
        )
    after = rest[1:2]
    bare_drop = rest[:1] in ("d", "D") and not (after.isalnum() or (after and after in "%{(."))
    dice = _DICE_BEFORE.search(before) if bare_drop else None
    if dice is not None:
        term = dice["dice"]
        return (
            f"a d without its number drops the lowest die in Foundry VTT ({term}d is "
            f"{term}dl1 there): write dl1, or --dialect foundry"
        )
    inline = _INLINE_ROLL.match(rest)
    if inline is not None:
        inside = inline["roll"].strip()
        alone = f", {inside}" if inside else ""
        return f"[[...]] is Roll20's inline roll, in chat text: write the roll alone{alone}"
    command = _CHAT_COMMAND.match(rest) if not before else None
    if command is not None:
        word, roll = command["word"], command["rest"].strip()
        then = f": write the roll alone, {roll}" if roll else ""
        if word.lower() in _GM_ROLLS:
            return f"/{word} is Roll20's roll that only the GM sees; dicecli shows it to you{then}"
        return f"/{word} is a chat command, not a roll: dicecli reads a roll alone, or after /r"
    return None


def _word(text: str) -> str:
    return text.split()[0] if text.split() else text


def _counted_first(word: str) -> bool:
    """Whether ``word`` may be a game's keyword after its pool's count (``4xy``):
    digits, then a letter other than ``d``."""
    digits = len(word) - len(word.lstrip("0123456789"))
    return word[digits : digits + 1].isalpha() and word[digits] not in "dD"


def line_grammar_for(text: str) -> pp.ParserElement:
    """The grammar that reads the line ``text``: a game's, built on first use, when its
    first word is the game's keyword, else the generic one."""
    words = text.split(None, 1)
    first = words[0] if words else ""
    # a game's keyword is a word, or its pool's count then the word (4xy): lines of
    # numbers and dice never ask
    if (first[:1].isalpha() and not starts_as_dice(first)) or (
        first[:1].isdigit() and _counted_first(first)
    ):
        from dicecli.notation.games import games  # docs/startup.md

        grammar = games().line_grammar(first)
        if grammar is not None:
            return grammar
    return _generic_line


def parse(text: str) -> Roll:
    """Parse one line with the grammar: an expression or a game form, and an optional
    ``# comment``. The program reads lines through :func:`dicecli.notation.reader.parse`,
    which caches them and reads common lines without this grammar.
    Raises :class:`DiceSyntaxError` with the position of the fault.
    """
    stripped = text.strip()
    if not stripped:
        raise DiceSyntaxError("nothing to roll", text, len(text))
    check_line(text)
    try:
        return _read(text)
    except pp.ParseBaseException as error:
        message, loc = _reported(error, text)
        added = _without_added_text(text)
        if added is not None:
            return added
        raise DiceSyntaxError(message, text, loc) from None
    except RecursionError:
        raise DiceSyntaxError("too deeply nested", text, 0) from None


def _read(text: str) -> Roll:
    """``text`` read by its line's grammar, as written (pyparsing's errors escape)."""
    grammar = line_grammar_for(text.strip())
    return cast(Roll, grammar.parse_string(text, parse_all=True)[0])


def _without_added_text(text: str) -> Roll | None:
    """The refused line ``text`` read without a chat prefix, comment, label or free
    words a player added (:mod:`dicecli.notation.chat_text`), or None. Free words and
    labels are kept as the roll's comment."""
    from dicecli.notation.chat_text import readings  # docs/startup.md

    for reading, note in readings(text):
        if not reading.strip():
            continue
        try:
            roll = _read(reading)
        except (pp.ParseBaseException, DiceSyntaxError):
            continue
        comment = ": ".join(part for part in (note, roll.comment) if part) or None
        return Roll(roll.body, comment)
    return None
