"""The REPL's ``help`` texts: the notation, each game, odds and the REPL itself.

Each topic is data (:class:`~dicecli.systems.declaration.HelpTopic`): a title, example
lines with what they do, and a footer. The games' topics come from their declarations
in the registry; the topics on odds and the REPL name each game's example. The examples
are lines the REPL accepts as typed; ``tests/repl/test_repl_help.py`` rolls every one of
them, so the help cannot drift from the grammar unnoticed.
"""

from __future__ import annotations

from functools import cache

from dicecli.systems import registry
from dicecli.systems.declaration import HelpTopic

EXAMPLE_VALUES = {"STR": 3, "DEX": 2, "PER": 1}
"""Names the examples use (``d20 + STR``): set them before trying an example."""

NOTATION = HelpTopic(
    "Dice notation (d and D both work):",
    (
        ("2d6+5", "two six-sided dice plus 5"),
        ("d20", "one twenty-sided die"),
        ("d%", "1 to 100"),
        ("d3", "a d6 halved, rounded up (1-2: 1, 3-4: 2, 5-6: 3)"),
        ("3d6-3", "subtract"),
        ("d6x5", "multiply (also * and ×)"),
        ("2d6/2", "divide: rounds up"),
        ("4d6kh3", "keep the highest 3 (kl: lowest; dh, dl: drop)"),
        ("2d20kl1", "the lower of two d20"),
        ("d6r1", "re-roll ones while they come (ro1: once)"),
        ("3d6!", "exploding dice (!!: add into the die, !p: penetrate)"),
        ("d20+5 >= 15", "a check: pass or fail, and the margin (also <=, >, <, vs 15)"),
        ("6d10>=7f1", "count successes (7 or more) minus failures (ones): no space"),
        ("d20cs>=19 + 5", "criticals: 19-20 marked (cf1: a critical failure on 1)"),
        ("4d6u", "unique: a repeated face is re-rolled (uo: once)"),
        ("4d6min3", "clamp: a die below 3 counts 3 (max5: above 5 counts 5)"),
        ("4dF", "fudge dice"),
        ("3d{-1,0,1}", "your own faces (d{1..4,10}: a range; repeat a face to weight it)"),
        ("{2d6, 1d8}kh1", "the best of several rolls"),
        ("10% of 51", "a percentage, rounded up"),
        ("2d6[fire] + 1d4[cold]", "labels"),
        ("2d6 # torch", "a comment, shown with the roll"),
        ("d20 + STR", "names: let STR = 3, or load a character file"),
    ),
    "Modifiers apply in one order: re-roll, unique, explode, clamp, keep/drop, count\n"
    "(dicecli help grammar).",
)


@cache
def topics() -> dict[str, HelpTopic]:
    """Every topic by name: the notation, each game (by its first keyword), odds, the
    REPL."""
    games = registry.games()
    examples = ", ".join(("2d6+5", *(game.example for game in games)))
    odds_examples = [
        ("odds 2d6+3", "the chance of each total"),
        ("odds 4d6kh3", "keep and drop too"),
    ]
    for game in games:
        if game.odds_example is not None:
            line, what = game.odds_example
            odds_examples.append((f"odds {line}", what))
    odds = HelpTopic("Exact odds, computed, not sampled: odds and the roll:", tuple(odds_examples))
    found: dict[str, HelpTopic] = {"notation": NOTATION}
    found.update((game.topic, game.help) for game in games if game.help is not None)
    found["odds"] = odds
    more = ", ".join(f"help {name}" for name in (*found,))
    found["repl"] = HelpTopic(
        f"Type a roll ({examples}) or a command:",
        (),
        "{commands}\n"
        "An empty line does nothing. Tab completes words, Up/Down and Ctrl-R search the\n"
        "history, Ctrl-C clears the line, Ctrl-D leaves. After an error, Up brings the\n"
        f"line back to fix. More: {more}.",
    )
    return found


def topic_names() -> tuple[str, ...]:
    """The names ``help`` takes."""
    return tuple(topics())


def help_text(topic: str, commands: str) -> str:
    """The help of ``topic`` (one of :func:`topic_names`); ``commands`` lists the
    commands."""
    return topics()[topic].text().replace("{commands}", commands)
