"""``dicecli odds``: the exact chances of one line, and their JSON form.

:func:`odds` parses a line. A game check is handed to its game module
(``SYSTEM.odds``); the generic notation goes to :mod:`dicecli.probability.engine`. The answer
is an :class:`~dicecli.probability.distribution.Odds`; :func:`odds_as_dict` turns it into the JSON
object documented in ``docs/odds.md``, where every probability is an exact fraction and
its float: ``{"fraction": "7/12", "float": 0.5833333333333334}``.

Named chances of plain rolls: ``at_least_N`` (the total is N or more) and
``at_most_N`` (N or less), when asked for. Named expectations: ``mean``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING

from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.errors import DiceError
from dicecli.frozen import replace
from dicecli.notation.dialects import line_notes
from dicecli.notation.dice import Die
from dicecli.notation.nodes import (
    NO_MODIFIERS,
    BinaryOp,
    Check,
    Comparison,
    ComputedDice,
    Condition,
    Dice,
    Expr,
    Name,
    children,
)
from dicecli.notation.reader import parse_as
from dicecli.notation.semantics import critical_conditions, kept_count
from dicecli.notation.sides import DieName
from dicecli.probability.distribution import Distribution, Odds, exact_text, reduced_fraction
from dicecli.probability.engine import PRECISION, analyse, check_names, dice_weights
from dicecli.probability.games import games
from dicecli.probability.weights import Weights, question
from dicecli.results import JSONValue

if TYPE_CHECKING:
    from dicecli.dicefiles.model import DiceBook


def odds(
    text: str,
    env: Environment | None = None,
    at_least: int | None = None,
    at_most: int | None = None,
) -> Odds:
    """The exact odds of one line; ``at_least``/``at_most`` add the chance that the
    total is at least/at most that number."""
    env = env or EMPTY_ENVIRONMENT
    line, times = text, None
    if env.dialect is not None:  # rolldice's 6x4d6, Dice Maiden's 6 4d6 and dndstats
        line, times = _dialect_repeat(text, env.dialect)
    try:
        body = parse_as(line, env.dialect).body
    except DiceError:
        repeated = None if times is not None else _repeat(text)
        if repeated is None:
            raise
        line, times = repeated
        body = parse_as(line, env.dialect).body
    with question():
        found = _odds(body, env, line, at_least, at_most)
    notes = line_notes(line, env.dialect)  # another roller's reading of the line
    if times is not None:
        notes = (*notes, f"repeated {times} times (-n {times}): the odds of one roll")
        found = replace(found, input=text)
    return replace(found, notes=(*found.notes, *notes)) if notes else found


def _dialect_repeat(text: str, dialect: str) -> tuple[str, int | None]:
    """The roll ``text`` repeats and how many times, when ``dialect`` reads it as a
    repeat (rolldice's ``6x4d6``); ``(text, None)`` otherwise."""
    from dicecli.notation.reader import with_repeats  # docs/startup.md

    line = with_repeats(text, dialect)
    if line == text:
        return text, None
    from dicecli.times import repeat_count  # docs/startup.md

    return repeat_count(line)


def _repeat(text: str) -> tuple[str, int] | None:
    """The roll the refused line ``text`` repeats and how many times, when it is a
    repeat (``4d6 -n 6``, ``6 4d6``, ``repeat(4d6kh3, 6)``); else None."""
    from dicecli.times import other_repeat, repeat_count  # docs/startup.md

    line, times = repeat_count(text)
    if times is None:
        spelt = other_repeat(text)
        if spelt is None:
            return None
        line, times = repeat_count(spelt)
    return None if times is None else (line, times)


def _odds(
    body: Expr | Comparison | Check,
    env: Environment,
    text: str,
    at_least: int | None,
    at_most: int | None,
) -> Odds:
    try:
        if isinstance(body, Comparison):
            check_names(body.left, env)
            check_names(body.right, env)
        elif not isinstance(body, Check):
            check_names(body, env)
        if isinstance(body, Check):
            found = games().odds(body, env, text)
        elif isinstance(body, Comparison):
            from dicecli.probability.comparison import comparison_odds  # docs/startup.md

            found = comparison_odds(body, env, text)
        else:
            found = _plain_odds(body, env, text)
        if not isinstance(body, Check):
            found = _with_criticals(found, body, env)
        return _with_bounds(found, at_least, at_most)
    except DiceError as error:
        if env.dialect is not None:  # the caret under the line as typed
            from dicecli.notation.translations import typed_error  # docs/startup.md

            error = typed_error(error, text, env.dialect)
        raise error.at(text) from None
    except RecursionError:
        raise DiceError("too deeply nested", text, 0) from None


def odds_of_rolls(
    text: str,
    env: Environment | None = None,
    at_least: int | None = None,
    at_most: int | None = None,
) -> tuple[Odds, ...]:
    """The odds of each roll of ``text``, a line that may hold several
    (``1d20+5 >= 15; 2d6+3``, docs/grammar.md "Several rolls on one line"): all worked
    out before any is shown; an error points into the whole line."""
    from dicecli.notation.lines import split_rolls  # docs/startup.md

    pieces = split_rolls(text)
    if len(pieces) == 1 and pieces[0][1] == text:  # no ';': the usual case
        return (odds(text, env, at_least, at_most),)
    if not pieces:
        raise DiceError("nothing to work out", text, len(text))
    found = []
    for where, piece in pieces:
        try:
            found.append(odds(piece.strip(), env, at_least, at_most))
        except DiceError as error:
            offset = where + len(piece) - len(piece.lstrip())
            position = None if error.position is None else offset + error.position
            raise type(error)(error.message, text, position) from None
    return tuple(found)


def _with_criticals(found: Odds, body: Expr | Comparison, env: Environment) -> Odds:
    if not _may_mark_criticals(body):
        return found
    chances = _lone_die_criticals(body)
    if chances is None:
        # Imported when first needed (docs/startup.md).
        from dicecli.probability.criticals import LinkedCriticalsError, critical_chances

        try:
            chances = critical_chances(body, env)
        except LinkedCriticalsError as error:
            return replace(found, notes=(*found.notes, str(error)))
    return replace(found, chances=found.chances + chances) if chances else found


def _lone_die_criticals(body: Expr | Comparison) -> tuple[tuple[str, Fraction], ...] | None:
    """The chances of criticals (as :func:`~dicecli.probability.criticals.critical_chances`
    gives them) for a line whose every term that can mark one keeps one die, worth its
    value (``d20``, ``2d20kh1 + 5``, ``d20ro1 >= 15``): the term's own weights, already
    worked out for the total, are then those of the kept die, so the chance that it
    marks none is theirs over the values that do not meet the condition, and the module
    of criticals, which walks names, computed dice and counted dice, is not loaded.
    None for any other line."""
    marking: list[tuple[Dice, tuple[Condition | None, Condition | None]]] = []
    pending: list[Expr | Comparison] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, Comparison):
            pending += [node.left, node.right]
            continue
        if isinstance(node, (Name, ComputedDice)):
            return None
        if isinstance(node, Dice):
            if isinstance(node.sides, DieName):
                return None
            conditions = critical_conditions(node)
            if conditions == (None, None):
                continue
            mods = node.modifiers
            lone = (
                mods.explode is None
                and mods.unique is None
                and mods.implode is None  # the total is no longer the die's value
                and not mods.counts_successes
            )
            if not lone or kept_count(node) != 1:
                return None
            marking.append((node, conditions))
        pending.extend(children(node))
    chances = []
    for name, which in (("critical_success", 0), ("critical_failure", 1)):
        terms = [(term, both[which]) for term, both in marking]
        none, whole, marks = 1, 1, False  # the chance that none marks: none / whole
        for term, condition in terms:
            if condition is not None:
                found = dice_weights(term)
                none *= sum(w for v, w in found.counts.items() if not condition.matches(v))
                whole *= found.denominator
                marks = True
        if marks:
            chances.append((name, reduced_fraction(whole - none, whole)))
    return tuple(chances)


def _may_mark_criticals(body: Expr | Comparison) -> bool:
    """False when no dice term of ``body`` can mark a critical (``3d6``, ``4dF``), so
    that the chances of criticals, and their module, are not needed; True when one
    can (a lone ``d20``, ``cs``/``cf``), or when it depends on what a name, a die of
    a dice file or computed dice come to."""
    pending: list[Expr | Comparison] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, Comparison):
            pending += [node.left, node.right]
            continue
        if isinstance(node, (Name, ComputedDice)):
            return True
        if isinstance(node, Dice) and (
            isinstance(node.sides, DieName) or critical_conditions(node) != (None, None)
        ):
            return True
        pending.extend(children(node))
    return False


def _names_a_die(body: Expr) -> bool:
    """True when a dice term of ``body`` names a die of a dice file (``2dAbility``)."""
    pending: list[Expr] = [body]
    while pending:
        node = pending.pop()
        if isinstance(node, Dice) and isinstance(node.sides, DieName):
            return True
        pending.extend(children(node))
    return False


def _plain_odds(body: Expr, env: Environment, text: str) -> Odds:
    symbols = _symbol_odds(body, env, text) if _names_a_die(body) else None
    if symbols is not None:
        return symbols
    return _plain_total(body, env, text)


def _symbol_odds(body: Expr, env: Environment, text: str) -> Odds | None:
    """The odds of a pool of dice from a dice file with symbols (``docs/dice.md``):
    each symbol's count and each cancelling pair's net, as tables; the total too when
    a face has a number (one without adds 0, as when rolling). None when the line rolls
    no dice with symbols."""
    from dicecli.dicefiles.load import book_of  # docs/startup.md
    from dicecli.dicefiles.model import has_numbers
    from dicecli.probability.symbols import (
        joint_counts,
        named_terms,
        pool_dice,
        pool_terms,
        symbol_tables,
    )

    book = book_of(env.dice) if any(named_terms(body)) else None
    if book is None:
        return None
    named = [term for term in named_terms(body) if book.die(str(term.sides)) is not None]
    if not any(face.symbols for die, _ in pool_dice(named, book) for face in die.faces):
        return None  # numbers only, or unknown dice: the odds of a total say so
    terms = pool_terms(body)
    if terms is None:
        return _numbered_symbol_odds(body, env, text, book)
    pool = pool_dice(terms, book)
    shown = {symbol for die, _ in pool for face in die.faces for symbol in face.symbols}
    cancels = tuple(pair for pair in book.cancels if shown & set(pair))
    shown.update(symbol for pair in cancels for symbol in pair)
    symbols = tuple(symbol for symbol in book.symbols if symbol in shown)
    joint, denominator = joint_counts(pool, symbols)
    tables, net_weights = symbol_tables(joint, symbols, cancels)
    if all(has_numbers(die) for die, _ in pool):
        total: Distribution | None = analyse(body, env).distribution
    else:
        total = _pool_total(pool)
    return Odds(
        input=text,
        expression=str(body),
        distribution=total,
        chances=tuple(
            (f"net_{_key(symbol)}", Fraction(weight, denominator)) for symbol, weight in net_weights
        ),
        expectations=(("mean", total.mean()),) if total else (),
        tables=tuple(
            (name, Weights(table, denominator).to_distribution()) for name, table in tables
        ),
    )


def _numbered_symbol_odds(body: Expr, env: Environment, text: str, book: DiceBook) -> Odds:
    """The odds of a line that does more than add dice with symbols (``2dMix + 1``,
    ``3dMix kh2``): the dice with symbols need a number on every face (as to roll it).
    The total's odds always; each symbol's too when the dice with symbols are added
    whole, without modifiers (a symbol is counted on every one of those dice, apart
    from the rest of the line); else a note says they are not worked out."""
    from dicecli.dicefiles.model import has_numbers  # docs/startup.md
    from dicecli.probability.symbols import added_terms, named_terms, pool_dice

    named = [term for term in named_terms(body) if book.die(str(term.sides)) is not None]
    dice = pool_dice(named, book)
    with_symbols = [
        (term, die)
        for term, (die, _) in zip(named, dice, strict=True)
        if any(face.symbols for face in die.faces)
    ]
    if not all(has_numbers(die) for _, die in with_symbols):  # they have no total
        raise DiceError(
            "odds of symbols: write a sum of dice without modifiers, such as "
            "2dAbility + 1dDifficulty"
        )
    total = _plain_total(body, env, text)
    added = added_terms(body)
    whole = all(
        term.modifiers == NO_MODIFIERS and any(term is item for item in added)
        for term, _ in with_symbols
    )
    if not whole:
        return _walked_symbol_odds(total, env, text, book, [die for _, die in with_symbols])
    pool_odds = _symbol_odds(_sum_of([term for term, _ in with_symbols]), env, text)
    assert pool_odds is not None
    return replace(
        pool_odds,
        expression=str(body),
        distribution=total.distribution,
        expectations=total.expectations,
        notes=total.notes,
    )


def _walked_symbol_odds(
    total: Odds, env: Environment, text: str, book: DiceBook, dice: list[Die]
) -> Odds:
    """``total`` with the odds of each symbol that ``dice`` show and of each pair that
    cancels, from rolling every way the dice can fall
    (:mod:`dicecli.probability.symbol_ways`); or with a note saying why not, when they
    can fall in too many ways."""
    from dicecli.probability.symbol_ways import MAX_WAYS, symbol_ways  # docs/startup.md

    walked = symbol_ways(text, env, book)
    if walked is None:
        note = (
            "the symbols' odds are worked out by rolling every way the dice can fall, "
            f"up to {MAX_WAYS:,} ways; these dice fall in more (a re-roll or an "
            "explosion in endless ways): here, the total's odds only"
        )
        return replace(total, notes=(*total.notes, note))
    tables, net_chances = walked
    shown = {symbol for die in dice for face in die.faces for symbol in face.symbols}
    cancels = tuple(pair for pair in book.cancels if shown & set(pair))
    shown.update(symbol for pair in cancels for symbol in pair)
    names = [symbol for symbol in book.symbols if symbol in shown]
    names += [f"{one} - {other}" for one, other in cancels]
    return replace(
        total,
        chances=tuple((f"net_{_key(one)}", net_chances[one]) for one, _ in cancels),
        tables=tuple((name, Distribution(tuple(sorted(tables[name].items())))) for name in names),
    )


def _sum_of(terms: list[Dice]) -> Expr:
    """``terms`` added up, as one expression."""
    expr: Expr = terms[0]
    for term in terms[1:]:
        expr = BinaryOp("+", expr, term)
    return expr


def _plain_total(body: Expr, env: Environment, text: str) -> Odds:
    found = analyse(body, env)
    return Odds(
        input=text,
        expression=str(body),
        distribution=found.distribution,
        expectations=(("mean", found.mean),),
        notes=(*found.notes, *_residue_notes(found.distribution)),
    )


def _pool_total(pool: list[tuple[Die, int]]) -> Distribution | None:
    """The distribution of a pool's total when some of its faces have a number and some
    do not (a face without one adds 0, as when rolled); None when none has one."""
    if all(face.value is None for die, _ in pool for face in die.faces):
        return None
    counts: dict[int, int] = {0: 1}
    denominator = 1
    for die, count in pool:
        values = [face.value or 0 for face in die.faces]
        for _ in range(count):
            added: dict[int, int] = {}
            for total, weight in counts.items():
                for value in values:
                    added[total + value] = added.get(total + value, 0) + weight
            counts, denominator = added, denominator * len(values)
    return Weights(counts, denominator).to_distribution()


def _key(symbol: str) -> str:
    """A symbol as a word of a JSON key: ``net_success``."""
    return re.sub(r"\W+", "_", symbol).strip("_") or "symbol"


def _residue_notes(found: Distribution) -> tuple[str, ...]:
    if found.exact:
        return ()
    left_out = float(found.residue)
    return (
        f"computed to a precision of {float(PRECISION):.0e} per dice term: the chance "
        f"left out is {left_out:.2g}, so any chance shown may be up to that much higher; "
        "the mean and spread are those of the totals computed",
    )


def _with_bounds(found: Odds, at_least: int | None, at_most: int | None) -> Odds:
    if at_least is None and at_most is None:
        return found
    total = found.distribution
    if total is None:
        raise DiceError("this roll has no total, so 'at least'/'at most' do not apply")
    chances = list(found.chances)
    if at_least is not None:
        chances.append((f"at_least_{at_least}", total.at_least(at_least)))
    if at_most is not None:
        chances.append((f"at_most_{at_most}", total.at_most(at_most)))
    return replace(found, chances=tuple(chances))


# --- JSON ---------------------------------------------------------------------------

RESERVED = frozenset(
    (
        "input",
        "expression",
        "distribution",
        "mean",
        "min",
        "max",
        "stdev",
        "win",
        "tables",
        "notes",
        "exact",
        "estimated",
        "residue",
    )
)
"""Top-level keys of the JSON object that a named chance or expectation cannot take."""


def probability_object(
    value: Fraction, denominators: dict[int, str] | None = None
) -> dict[str, JSONValue]:
    """``Fraction(7, 12)`` -> ``{"fraction": "7/12", "float": 0.5833333333333334}``
    (``denominators``: see :func:`~dicecli.probability.distribution.exact_text`)."""
    return {"fraction": exact_text(value, denominators), "float": float(value)}


def _distribution_object(found: Distribution) -> dict[str, JSONValue]:
    denominators: dict[int, str] = {}
    return {
        str(value): probability_object(chance, denominators) for value, chance in found.outcomes
    }


def _named_key(name: str) -> str:
    return f"chance_{name}" if name in RESERVED else name


def odds_as_dict(found: Odds) -> dict[str, JSONValue]:
    """The JSON object of one line's odds (schema in ``docs/odds.md``)."""
    total = found.distribution
    data: dict[str, JSONValue] = {"input": found.input, "expression": found.expression}
    data["distribution"] = _distribution_object(total) if total else None
    expectations = dict(found.expectations)
    mean = expectations.pop("mean", None)
    if mean is None and total is not None:
        mean = total.mean()
    data["mean"] = probability_object(mean) if mean is not None else None
    data["min"] = total.min if total else None
    data["max"] = total.max if total else None
    data["stdev"] = total.stdev() if total else None
    for name, chance in found.chances:
        data[_named_key(name)] = probability_object(chance)
    for name, expected in expectations.items():
        data[_named_key(name)] = probability_object(expected)
    if found.wins:
        data["win"] = [
            {"label": label, "probability": probability_object(chance)}
            for label, chance in found.wins
        ]
    if found.tables:
        data["tables"] = {name: _distribution_object(table) for name, table in found.tables}
    data["residue"] = probability_object(found.left_out)
    data["exact"] = found.exact
    data["estimated"] = found.estimated
    data["notes"] = list(found.notes)
    return data


__all__ = ["odds", "odds_as_dict", "probability_object"]
