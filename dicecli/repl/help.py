"""The REPL's ``help`` texts: one topic per notation, game, odds and the REPL itself.

Each topic is data: a title, example lines with what they do, and a footer. The
examples are lines the REPL accepts as typed; ``tests/test_repl_help.py`` rolls every
one of them, so the help cannot drift from the grammar unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    title: str
    examples: tuple[tuple[str, str], ...]
    footer: str = ""

    def text(self) -> str:
        width = max((len(example) for example, _ in self.examples), default=0)
        lines = [self.title]
        lines += [f"  {example:<{width}}  {what}" for example, what in self.examples]
        if self.footer:
            lines.append(self.footer)
        return "\n".join(lines)


EXAMPLE_VALUES = {"STR": 3, "DEX": 2, "PER": 1}
"""Names the examples use (``age STR+2 vs 13``): set them before trying an example."""

NOTATION = Topic(
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
        ("6d10>=7f1", "count successes (7 or more) minus failures (ones)"),
        ("4dF", "fudge dice"),
        ("{2d6, 1d8}kh1", "the best of several rolls"),
        ("10% of 51", "a percentage, rounded up"),
        ("2d6[fire] + 1d4[cold]", "labels"),
        ("2d6 # torch", "a comment, shown with the roll"),
        ("d20 + STR", "names: let STR = 3, or load a character file"),
    ),
    "Modifiers apply in one order: re-roll, explode, keep/drop, count (docs/grammar.md).",
)

ALKEMY = Topic(
    "Alkemy: 2 dice + the characteristic, a success if the total reaches the difficulty:",
    (
        ("alkemy 8 vs 15", "a characteristic test: 8 against 15"),
        ("alkemy Mind 8 vs 15 yellow", "a label, and the health state: white, yellow, red"),
        ("alkemy 8 +1 bonus vs 15", "a bonus die: 3 dice, the best 2 kept"),
        ("alkemy 8 +1 bonus keep 1,3 vs 15", "keep the 1st and 3rd dice yourself"),
        ("alkemy 8 +2 penalty vs 15", "penalty dice: the lowest 2 kept"),
        ("alkemy 2 vs alkemy 5", "an opposed test"),
        ("alkemy 8", "just the total"),
    ),
    "After a roll with bonus dice, `keep 1 3` keeps its 1st and 3rd dice instead\n"
    "(`keep 1 3 on 2`: side 2 of an opposed test). More: docs/alkemy.md.",
)

WFB = Topic(
    "Warhammer Fantasy Battle (wfb, whfb or warhammer):",
    (
        ("wfb artillery", "the artillery die: 2 to 10, or MISFIRE"),
        ("wfb 2d6+artillery", "dice with the artillery die"),
        ("wfb scatter 2d6", "the scatter die and the distance (HIT: no move)"),
        ("wfb scatter artillery", "the artillery die as the distance"),
        ("wfb test 4", "a characteristic test: a d6 of 4 or less"),
        ("wfb ld 8", "a Leadership test: 2d6 of 8 or less"),
        ("wfb break 8 by 3", "a break test: Ld 8 less a combat result of 3"),
        ("wfb rolloff Alice Bob", "a roll-off; ties roll again"),
        ("wfb allocate 5", "random allocation among 5"),
    ),
    "`reroll` rolls the last roll again, all its dice; the new result stands (rule W5);\n"
    "the artillery and scatter dice may not be re-rolled (rule W4).",
)

AGE = Topic(
    "AGE system: 3d6, one of them the Dragon die, + the ability:",
    (
        ("age STR+2 vs 13", "a basic test against 13"),
        ("age DEX+1+focus vs hard", "+focus adds 2; a named difficulty"),
        ("age 3 vs nigh impossible", "a number in place of the ability"),
        ("age DEX+1 vs age PER+2", "an opposed test"),
        ("age STR+2 vs 13 until 15", "an advanced test: Dragon dice until 15"),
    ),
    "Difficulties: routine easy average challenging hard formidable imposing\n"
    "nigh-impossible. Abilities: STR DEX CON COM CUN MAG PER WIL ACC FGT INT (or the\n"
    "full names); their values come from `let STR = 3` or a character file (`load`).",
)

ODDS = Topic(
    "Exact odds, computed, not sampled: odds and the roll:",
    (
        ("odds 2d6+3", "the chance of each total"),
        ("odds 4d6kh3", "keep and drop too"),
        ("odds wfb ld 8", "the chance to pass"),
        ("odds alkemy 8 +1 bonus vs 15", "the chance of success"),
        ("odds age STR+2 vs 13", "success, stunt points, degree"),
    ),
)

REPL = Topic(
    "Type a roll (2d6+5, alkemy 8 vs 15, wfb ld 8, age STR+2 vs 13) or a command:",
    (),
    "{commands}\n"
    "An empty line does nothing. Tab completes words, Up/Down and Ctrl-R search the\n"
    "history, Ctrl-C clears the line, Ctrl-D leaves. After an error the line comes back\n"
    "to be fixed. More: help notation, help alkemy, help wfb, help age, help odds.",
)

TOPICS_BY_NAME = {
    "notation": NOTATION,
    "alkemy": ALKEMY,
    "wfb": WFB,
    "age": AGE,
    "odds": ODDS,
    "repl": REPL,
}
TOPICS = tuple(TOPICS_BY_NAME)


def help_text(topic: str, commands: str) -> str:
    """The help of ``topic`` (one of :data:`TOPICS`); ``commands`` lists the commands."""
    return TOPICS_BY_NAME[topic].text().replace("{commands}", commands)
