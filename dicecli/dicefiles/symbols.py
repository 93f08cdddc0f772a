"""Counting the symbols a roll of dice from a dice file shows (``docs/dice.md``).

Each symbol is counted among the kept dice; the pairs of symbols that the dice file
says cancel (``cancel = [["success", "failure"]]``) are netted. A roll holding such dice
gets the counts as its :class:`~dicecli.results.Outcome` (:func:`symbol_outcome`).
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecli.dicefiles.model import DiceBook
from dicecli.results import DieRoll, JSONValue, Outcome


def symbol_counts(dice: Sequence[DieRoll], book: DiceBook) -> dict[str, int]:
    """How many of each symbol the kept dice show, in the book's order of symbols."""
    counts = dict.fromkeys(book.symbols, 0)
    for die in dice:
        if die.kept:
            for symbol in die.symbols:
                counts[symbol] = counts.get(symbol, 0) + 1
    return counts


def net_counts(counts: dict[str, int], book: DiceBook) -> dict[str, int]:
    """What is left once the pairs that cancel have cancelled: for each pair, the symbol
    that outnumbers the other and by how many (the pair's first symbol, 0, on a tie),
    then every symbol in no pair."""
    net: dict[str, int] = {}
    paired: set[str] = set()
    for one, other in book.cancels:
        difference = counts.get(one, 0) - counts.get(other, 0)
        if difference >= 0:
            net[one] = difference
        else:
            net[other] = -difference
        paired.update((one, other))
    for symbol, count in counts.items():
        if symbol not in paired and count:
            net[symbol] = count
    return net


def counts_text(counts: dict[str, int], keep_zero: bool = False) -> str:
    """``2 success, 1 advantage`` (symbols counted 0 left out unless ``keep_zero``)."""
    shown = [f"{count} {symbol}" for symbol, count in counts.items() if count or keep_zero]
    return ", ".join(shown) or "no symbols"


def symbol_outcome(dice: Sequence[DieRoll], book: DiceBook) -> Outcome:
    """The symbols a roll shows, counted, and netted when the book says pairs cancel;
    when the book names the symbol success needs, the net result in words first
    (:func:`net_verdict`)."""
    counts = symbol_counts(dice, book)
    shown: dict[str, JSONValue] = {symbol: count for symbol, count in counts.items() if count}
    fields: list[tuple[str, JSONValue]] = [("symbols", shown)]
    verdict = counts_text(counts)
    net = net_counts(counts, book) if book.cancels else None
    if net is not None:
        fields.append(("net", dict(net)))
    if book.succeeds:
        passed = (net if net is not None else counts).get(book.succeeds, 0) > 0
        fields.append(("success", passed))  # after the counts: the tally reads those first
        return Outcome(
            f"{net_verdict(passed, net or counts, book)}; {verdict}", passed, tuple(fields)
        )
    if net is not None:
        verdict += f"; net: {counts_text(net, keep_zero=True)}"
    return Outcome(verdict, None, tuple(fields))


def net_verdict(passed: bool, net: dict[str, int], book: DiceBook) -> str:
    """``success with 3 advantage, 1 triumph``, ``failure with 2 threat``, ``failure``:
    the result, then what else is left net, the deciding pair's symbols aside."""
    deciding = {book.succeeds}
    for pair in book.cancels:
        if book.succeeds in pair:
            deciding.update(pair)
    rest = {symbol: count for symbol, count in net.items() if symbol not in deciding and count}
    word = "success" if passed else "failure"
    return f"{word} with {counts_text(rest)}" if rest else word
