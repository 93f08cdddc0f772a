"""Text -> syntax tree, with pyparsing, for the generic dice notation.

The EBNF is in ``docs/grammar.md``; keep the two in step. Parse actions only build
nodes from :mod:`dicecli.notation.nodes`. Errors are translated once, in :func:`parse`,
into a :class:`~dicecli.errors.DiceSyntaxError` with the position of the fault.

A line whose first word is a game's keyword is handed to that game's grammar, found in
the registry (:mod:`dicecli.systems.registry`) and imported only then, so a plain roll
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

import re
from typing import Any, cast

import pyparsing as pp

from dicecli.errors import DiceSyntaxError
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    BinaryOp,
    BinaryOpSymbol,
    Check,
    CompareOp,
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
    Roll,
    Sides,
)
from dicecli.notation.semantics import MAX_DICE_COUNT, MAX_SIDES, endless_roll

_COMPARE = r"(?:>=|<=|>|<|=)"


def keyword(word: str, *aliases: str) -> pp.ParserElement:
    """A case-insensitive word (``vs``, ``by``) that does not match a longer word."""
    words = [pp.CaselessKeyword(w) for w in (word, *aliases)]
    element = words[0] if len(words) == 1 else pp.MatchFirst(words)
    return element.set_name(f"'{word}'")


def _fail(text: str, loc: int, message: str) -> pp.ParseFatalException:
    return pp.ParseFatalException(text, loc, message)


integer = pp.Regex(r"\d+").set_name("a number")
integer.set_parse_action(lambda s, loc, t: int(t[0]))

_DICE_RE = re.compile(r"(?P<count>\d*)[dD](?P<sides>\d+|%|[fF])")
_MODIFIER_RE = re.compile(
    r"(?i)(?P<keep>kh|kl|dh|dl|k)(?P<keep_n>\d*)"
    rf"|(?P<reroll>ro|r)(?P<reroll_if>{_COMPARE}?\d+)"
    rf"|(?P<explode>!!|!p|!)(?P<explode_if>{_COMPARE}?\d+)?"
    rf"|(?P<success>{_COMPARE}\d+)"
    rf"|f(?P<failure>{_COMPARE}?\d+)"
)
_dice_token = pp.Regex(_DICE_RE).set_name("dice such as 2d6")
_modifier_token = pp.Regex(_MODIFIER_RE).set_name("a dice modifier (kh3, r1, !, >=5 ...)")
_modifier_token.set_parse_action(lambda s, loc, t: (loc, t[0]))


def _condition(text: str) -> Condition:
    for op in (">=", "<=", ">", "<", "="):
        if text.startswith(op):
            compare: CompareOp = op
            return Condition(compare, int(text[len(op) :]))
    return Condition("=", int(text))


def _modifiers(text: str, found: list[tuple[int, str]], allow_per_die: bool) -> Modifiers:
    """Fold the modifier tokens of one term into :class:`Modifiers`, refusing repeats."""
    if not found:
        return NO_MODIFIERS
    values: dict[str, Any] = {}
    value: Keep | Reroll | Explode | Condition
    for loc, token in found:
        match = _MODIFIER_RE.fullmatch(token)
        assert match is not None
        groups = match.groupdict()
        if groups["keep"]:
            kind = groups["keep"].lower()
            kind = "kh" if kind == "k" else kind
            count = int(groups["keep_n"] or 1)
            if count == 0 and kind in ("kh", "kl"):
                raise _fail(text, loc, f"{kind}0 keeps no dice: keep at least one")
            slot, value = "keep", Keep(cast("KeepKind", kind), count)
        elif groups["reroll"]:
            reroll = groups["reroll"].lower()
            slot, value = "reroll", Reroll(_condition(groups["reroll_if"]), reroll == "ro")
        elif groups["explode"]:
            condition = _condition(groups["explode_if"]) if groups["explode_if"] else None
            slot, value = (
                "explode",
                Explode(cast("ExplodeKind", groups["explode"].lower()), condition),
            )
        elif groups["success"]:
            slot, value = "success", _condition(groups["success"])
        else:
            slot, value = "failure", _condition(groups["failure"])
        if slot in values:
            raise _fail(text, loc, f"a second {slot} modifier: write one {slot} per dice term")
        if not allow_per_die and slot in ("reroll", "explode"):
            raise _fail(text, loc, f"a group cannot {slot}: put it on the dice inside the group")
        values[slot] = value
    if "failure" in values and "success" not in values:
        loc = found[-1][0]
        raise _fail(text, loc, "f counts failures beside successes: add one such as >=5")
    return Modifiers(**values)


def _dice_action(text: str, loc: int, tokens: pp.ParseResults) -> Dice:
    match = _DICE_RE.match(text, loc)
    assert match is not None
    count = int(match["count"]) if match["count"] else 1
    raw_sides = match["sides"]
    sides: Sides
    if raw_sides in ("%", "F", "f"):
        sides = cast(Sides, raw_sides.upper())
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
    node = Dice(count, sides, _modifiers(text, list(tokens[1:]), allow_per_die=True))
    endless = endless_roll(node)
    if endless is not None:
        raise _fail(text, loc, endless)
    return node


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

name = pp.Regex(r"[A-Za-z_][A-Za-z0-9_]*").set_name("a name")
name.set_parse_action(lambda s, loc, t: Name(t[0], loc))

number = integer.copy().set_name("a number")
number.set_parse_action(lambda s, loc, t: Number(int(t[0])))

_parenthesised = pp.Suppress("(") + expression + pp.Suppress(")").set_name("')'")
_operand = (dice_term | group_term | number | _parenthesised | name).set_name(
    "a number, dice such as 2d6, '(' or a name"
)
_label = pp.Regex(r"\[(?P<label>[^\]\[]*)\]").set_name("a [label]")
_label.set_parse_action(lambda s, loc, t: t["label"].strip())
atom = (_operand + pp.Optional(_label)).set_name(_operand.name)
atom.set_parse_action(lambda s, loc, t: Labelled(t[0], t[1]) if len(t) == 2 else t[0])

unary: pp.Forward = pp.Forward()
_percent_of = pp.Regex(r"(?P<percent>\d+)\s*%\s*(?i:of)\b").set_name("'N% of'")
# Signs as literals, not a regex class: a class mixing ASCII with the minus sign U+2212
# makes ``re`` build a 64k-character bitmap at every start.
_minus = (pp.Literal("-") | pp.Literal("\N{MINUS SIGN}")).set_name("'-'")
unary <<= ((_percent_of + unary) | (_minus + unary) | atom).set_name(_operand.name)


def _unary_action(text: str, loc: int, tokens: pp.ParseResults) -> Expr:
    if len(tokens) == 1:
        return cast(Expr, tokens[0])
    head, operand = tokens[0], tokens[1]
    if head in ("-", "\N{MINUS SIGN}"):
        return Negate(operand)
    return PercentOf(int(cast(str, head).split("%")[0]), operand)


unary.set_parse_action(_unary_action)

_mul_op = pp.Regex(r"[*×/]|[xX](?![A-Za-z_])|[xX](?=[dD][\d%fF])").set_name("'*' or '/'")
_add_op = (pp.Literal("+") | _minus).set_name("'+' or '-'")
_SYMBOLS: dict[str, BinaryOpSymbol] = {
    "*": "*",
    "x": "*",
    "X": "*",
    "×": "*",
    "/": "/",
    "+": "+",
    "-": "-",
    "\N{MINUS SIGN}": "-",
}


def _fold(text: str, loc: int, tokens: pp.ParseResults) -> Expr:
    result = cast(Expr, tokens[0])
    for index in range(1, len(tokens), 2):
        result = BinaryOp(_SYMBOLS[tokens[index]], result, tokens[index + 1])
    return result


term = unary + pp.ZeroOrMore(_mul_op - unary)
term.set_parse_action(_fold)
expression <<= term + pp.ZeroOrMore(_add_op - term)
expression.set_parse_action(_fold)

comment = pp.Regex(r"#(?P<comment>.*)").set_name("a # comment")
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


_generic_line = whole_line(expression)


def _expected(error: pp.ParseBaseException, text: str) -> str:
    """One short sentence for what pyparsing expected at the error."""
    message = str(error.msg)
    fatal = isinstance(error, pp.ParseFatalException)
    if (fatal and not isinstance(error, pp.ParseSyntaxException)) or not message.startswith(
        "Expected"
    ):
        return message
    found = text[error.loc :].strip()
    wanted = message.removeprefix("Expected ").strip()
    if wanted.startswith("end of text") or wanted == "the end of the line":
        return f"unexpected '{_word(found)}'"
    if not found:
        return f"expected {wanted} at the end"
    return f"expected {wanted}, found '{_word(found)}'"


def _word(text: str) -> str:
    return text.split()[0] if text.split() else text


def parse(text: str) -> Roll:
    """Parse one line with the grammar: an expression or a game form, and an optional
    ``# comment``. The program reads lines through :func:`dicecli.notation.reader.parse`,
    which caches them and reads common lines without this grammar.
    Raises :class:`DiceSyntaxError` with the position of the fault.
    """
    stripped = text.strip()
    if not stripped:
        raise DiceSyntaxError("nothing to roll", text, len(text))
    grammar = _generic_line
    first = stripped.split(None, 1)[0]
    if first[0].isalpha():  # a game's keyword is a word: lines of numbers never ask
        from dicecli.systems import registry

        game = registry.game_for_keyword(first)
        if game is not None:
            grammar = registry.system(game.name).line_grammar()
    try:
        return cast(Roll, grammar.parse_string(text, parse_all=True)[0])
    except pp.ParseBaseException as error:
        raise DiceSyntaxError(_expected(error, text), text, error.loc) from None
    except RecursionError:
        raise DiceSyntaxError("too deeply nested", text, 0) from None
