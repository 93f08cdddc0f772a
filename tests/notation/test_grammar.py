"""The grammar: what parses to what, canonical spelling, and error messages.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import pyparsing as pp
import pytest

from dicecli import DiceSyntaxError, parse
from dicecli.notation import grammar
from dicecli.notation.nodes import (
    BinaryOp,
    Condition,
    Dice,
    Explode,
    Group,
    Keep,
    Labelled,
    Modifiers,
    Name,
    Negate,
    Number,
    PercentOf,
    Reroll,
)
from dicecli.systems import registry


def body(text: str) -> object:
    return parse(text).body


@pytest.mark.parametrize(
    ("text", "node"),
    [
        ("2D6", Dice(2, 6)),  # rule N1
        ("d6", Dice(1, 6)),
        ("D20", Dice(1, 20)),
        ("d%", Dice(1, "%")),
        ("4dF", Dice(4, "F")),
        ("D3", Dice(1, "3")),  # rule N4
        ("2D6+5", BinaryOp("+", Dice(2, 6), Number(5))),  # rule N2
        ("D6-2", BinaryOp("-", Dice(1, 6), Number(2))),
        ("D6x5", BinaryOp("*", Dice(1, 6), Number(5))),  # rule N2
        ("D6*5", BinaryOp("*", Dice(1, 6), Number(5))),
        ("D6×5", BinaryOp("*", Dice(1, 6), Number(5))),
        ("2D6/2", BinaryOp("/", Dice(2, 6), Number(2))),  # rule N3
        ("10% of 51", PercentOf(10, Number(51))),  # rule N3
        ("-d6", Negate(Dice(1, 6))),
        ("4d6kh3", Dice(4, 6, Modifiers(keep=Keep("kh", 3)))),
        ("4d6 k3", Dice(4, 6, Modifiers(keep=Keep("kh", 3)))),
        ("4d6dl1", Dice(4, 6, Modifiers(keep=Keep("dl", 1)))),
        ("2d20KL1", Dice(2, 20, Modifiers(keep=Keep("kl", 1)))),
        ("4d6r1", Dice(4, 6, Modifiers(reroll=Reroll(Condition("=", 1), once=False)))),
        ("4d6ro<3", Dice(4, 6, Modifiers(reroll=Reroll(Condition("<", 3), once=True)))),
        ("d6!", Dice(1, 6, Modifiers(explode=Explode("!", None)))),
        ("d6!!", Dice(1, 6, Modifiers(explode=Explode("!!", None)))),
        ("d6!p", Dice(1, 6, Modifiers(explode=Explode("!p", None)))),
        ("d10!>=9", Dice(1, 10, Modifiers(explode=Explode("!", Condition(">=", 9))))),
        (
            "10d10>=7f1",
            Dice(10, 10, Modifiers(success=Condition(">=", 7), failure=Condition("=", 1))),
        ),
        ("6d6>4", Dice(6, 6, Modifiers(success=Condition(">", 4)))),
        ("{2d6, 1d8}kh1", Group((Dice(2, 6), Dice(1, 8)), Modifiers(keep=Keep("kh", 1)))),
        ("2d6[fire]", Labelled(Dice(2, 6), "fire")),
        ("STR + 2", BinaryOp("+", Name("STR"), Number(2))),
    ],
)
def test_parses_to(text: str, node: object) -> None:
    assert body(text) == node


def test_modifiers_apply_in_fixed_order_whatever_order_typed() -> None:
    assert body("4d6kh3r1") == body("4d6r1kh3")
    assert str(body("4d6kh3r1")) == "4d6r1kh3"


def test_precedence_and_associativity() -> None:
    assert body("1 + 2 * 3") == BinaryOp("+", Number(1), BinaryOp("*", Number(2), Number(3)))
    assert body("8 - 2 - 1") == BinaryOp("-", BinaryOp("-", Number(8), Number(2)), Number(1))
    assert body("(1 + 2) * 3") == BinaryOp("*", BinaryOp("+", Number(1), Number(2)), Number(3))


def test_comment_is_kept_apart_from_the_roll() -> None:
    roll = parse("2d6 + 1 # sword")
    assert roll.comment == "sword"
    assert roll.body == BinaryOp("+", Dice(2, 6), Number(1))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2D6+5", "2d6 + 5"),
        ("1d6", "d6"),
        ("D6x5", "d6*5"),
        ("(2d6+1)*2", "(2d6 + 1)*2"),
        ("2*(3*4)", "2*(3*4)"),
        ("8-(2-1)", "8 - (2 - 1)"),
        ("-(d6+1)", "-(d6 + 1)"),
        ("10% of (2d6+3)", "10% of (2d6 + 3)"),
        ("4D6KH3", "4d6kh3"),
        ("d10!>=9", "d10!>=9"),
        ("4d6r=1", "4d6r1"),
        ("(d6+1)[fire]", "(d6 + 1)[fire]"),
        ("{ 2d6 ,1d8 } kh1", "{2d6, d8}kh1"),
        ("10d10>=7f1", "10d10>=7f1"),
    ],
)
def test_canonical_spelling_parses_back(text: str, canonical: str) -> None:
    node = body(text)
    assert str(node) == canonical
    assert body(canonical) == node


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("2d6+", "expected a number, dice such as 2d6, '(' or a name at the end", 4),
        ("2d6 foo", "unexpected 'foo'", 4),
        ("(2d6", "expected ')' at the end", 4),
        ("0d6", "roll at least one die", 0),
        ("d0", "a die needs 1 to 10,000 sides", 0),
        ("d10001", "a die needs 1 to 10,000 sides", 0),
        ("d6r<7", "d6r<7: every face re-rolls, so the roll would never end", 0),
        ("d1!", "d1!: every face explodes, so the roll would never end", 0),
        ("2d6min1min2", "a second min modifier: write one min per dice term", 7),
        ("2d6f1", "f counts failures beside successes: add one such as >=5", 3),
        ("{d6}!", "a group cannot explode: put it on the dice inside the group", 4),
        ("1000000000d6", "roll limit: one roll may use at most 10,000 dice", 0),
        ("   ", "nothing to roll", 3),
    ],
)
def test_syntax_errors_say_what_and_where(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.message == message
    assert caught.value.position == position


def test_error_shows_the_input_with_a_caret() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse("2d6 + * 3")  # (2d6 + + 3 reads: Dice Maiden's doubled sign)
    assert caught.value.show() == (
        "error: expected a number, dice such as 2d6, '(' or a name, found '*'\n"
        "  2d6 + * 3\n"
        "        ^"
    )


def test_parse_is_cached_by_text() -> None:
    assert parse("3d6+1") is parse("3d6+1")


def _regex_tokens(element: pp.ParserElement, seen: set[int]) -> list[pp.Regex]:
    """Every regular-expression token reachable from ``element``."""
    if id(element) in seen:
        return []
    seen.add(id(element))
    found = [element] if isinstance(element, pp.Regex) else []
    for inner in element.recurse():
        found += _regex_tokens(inner, seen)
    return found


def test_no_lazily_compiled_token_matches_the_empty_string() -> None:
    # grammar.lazy_regex tells pyparsing so without compiling: it must be true of every
    # token of the grammar and of each game's line grammar.
    lines = [grammar.whole_line(grammar.check)]
    lines += [registry.system(game.name).line_grammar() for game in registry.games()]
    seen: set[int] = set()
    tokens = [token for line in lines for token in _regex_tokens(line, seen)]
    assert len(tokens) > 20
    for token in tokens:
        assert token.re.match("") is None, token.pattern


@pytest.mark.parametrize("blank", ["\x1c", "\x1d", "\x1e", "\x1f", "\u2003", "\x85"])
@pytest.mark.parametrize("where", ["5{}% of 10", "5%{}of 10"])
def test_percent_of_takes_only_spaces_and_tabs_between_its_parts(blank: str, where: str) -> None:
    # The file separators \x1c-\x1f are whitespace to Python (re's \s, str.isspace)
    # but not to int() nor to the grammar elsewhere: a syntax error with its caret,
    # not an internal error.
    with pytest.raises(DiceSyntaxError) as error:
        parse(where.format(blank))
    position = error.value.position
    assert position is not None
    assert position <= where.index("{")  # at the blank, or at the '%' it leaves alone


@pytest.mark.parametrize("text", ["5% of 10", "5 % of 10", "5\t%\tOF 10", "05%of 10"])
def test_percent_of_with_spaces_and_tabs(text: str) -> None:
    assert str(parse(text)) == "5% of 10"


def test_percent_of_takes_ascii_digits_only() -> None:
    with pytest.raises(DiceSyntaxError):
        parse("\u0665% of 10")  # ARABIC-INDIC DIGIT FIVE
