"""Compare the two sides of a differential run and write its report.

    python bench/differential/compare.py --store STORE_DIR [--report REPORT.md]

Each case whose results differ is explained in three steps:

1. **Rewrites**: each known, deliberate change of wording (``RULES``) rewrites both
   sides' text to one form; a rule that changed a side whose text still differed is
   credited with the case.
2. **A line read otherwise**: in a pipe, a REPL script or a roll, the first input
   line whose output differs is found (from ``line N:`` errors, and from the input
   echoed by each rolled line); a line that a deliberate change reads otherwise
   (``LINE_FEATURES``: a new game's keyword, a die name in lower case ...) explains
   the case, and the later lines whose dice come after it in the seeded stream.
3. What is left is **unexplained**, grouped by the kind of case, the output that
   differs and the shape of the first differing line (digits folded).

Only the standard library.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import json
import re
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import case as make_case  # noqa: E402 - this folder is not a package


@dataclass(frozen=True)
class Rule:
    """A deliberate change of wording: ``rewrite`` brings old and new text to one form.
    ``keys``: the outputs it applies to (all when empty); ``when``: it applies only to
    a pair of texts one of which holds this (a regular expression)."""

    name: str
    why: str
    rewrite: Callable[[str], str]
    keys: tuple[str, ...] = ()
    when: str = ""


def _sub(pattern: str, replacement: str, flags: int = 0) -> Callable[[str], str]:
    compiled = re.compile(pattern, flags)
    return lambda text: compiled.sub(replacement, text)


def _json_errors(text: str) -> str:
    """``--json`` errors: a JSON object per error (main) or text with a caret (c457784),
    both brought to ``error: MESSAGE`` lines (applied when one side has a JSON error)."""
    lines = []
    for line in text.split("\n"):
        if line.startswith('{"error":'):
            try:
                data = json.loads(line)
            except ValueError:
                lines.append(line)
                continue
            where = f"line {data['line']}: " if data.get("line") else ""
            lines.append(f"{where}error: {data['error']}")
        elif line.startswith("  ") and not line.startswith("  did you mean"):
            continue  # the echoed input and the caret of a text error
        else:
            lines.append(line)
    return "\n".join(lines)


RULES: tuple[Rule, ...] = (
    Rule(
        "worker folder in a message",
        "harness: each worker runs in a temporary folder of its own",
        _sub(r"[^\s'\"]*dicecli-differential-[A-Za-z0-9_]+/work", "<work>"),
    ),
    Rule(
        "odds --plain: the at-least field a percentage (#28)",
        "issue 28 item 6, commit 38946ac: `odds --plain`'s at-least column is a number, "
        "not `>= 100.00%`",
        _sub(r"\t>= (\d[\d.e+-]*%)", r"\t\1"),
    ),
    Rule(
        "guides named as help topics, not docs/*.md (#29)",
        "issue 29 item 3, commit b3902b9: installed from a wheel the docs are not there; "
        "messages point to `dicecli help TOPIC`",
        _sub(r"docs/(\w+)\.md", r"dicecli help \1"),
    ),
    Rule(
        "help topics list the nine new games (#27)",
        "issue 27: each new game has a help topic, named in the list of topics",
        _sub(r"try notation, [a-z0-9, ]*odds, repl", "try <topics>"),
    ),
    Rule(
        "the AGE Dragon die named in words (#28)",
        "issue 28 item 4, commit 12aff10: the Dragon die is said in words, not only in red",
        _sub(r"\bdragon (~?\d)", r"\1"),
    ),
    Rule(
        "--json errors as JSON objects (#28)",
        "issue 28 item 6, commit 8ab251e: with --json an error is a JSON object on stderr too",
        _json_errors,
        keys=("stderr",),
        when=r'(^|\n)\{"error":',
    ),
    Rule(
        "critical signs kept in plain text (#28)",
        "issue 28 item 4, commit 12aff10: a critical die keeps its mark (20*) in plain output too",
        _sub(r"(\d)\*(?=[,\]~])", r"\1"),
    ),
    Rule(
        "a table draw says an entry's text once (#28)",
        "issue 28 item 3, commit ffaa803: a table draw no longer repeats its text on each line",
        _sub(r"(→ [\w-]+): [^;)\"]*", r"\1"),
        keys=("stdout",),
    ),
    Rule(
        "REPL command list names the new games' topics (#27, #29)",
        "issue 27 (a help topic per game), issue 29 (guides as help topics)",
        _sub(r"Type a roll \(.*?\(also exit\)(\n  keep I J[^\n]*)?", "<repl commands>", re.S),
    ),
    Rule(
        "help notation lists checks and criticals (#28)",
        "issue 28 item 6: `help notation` lists checks and criticals",
        _sub(
            r"Dice notation \(d and D both work\):.*?\(dicecli help grammar\)\.", "<notation>", re.S
        ),
    ),
    Rule(
        "help odds gives an example for each new game (#27)",
        "issue 27: odds for each game, shown in `help odds`",
        _sub(r"(Exact odds, computed, not sampled: odds and the roll:)(\n  odds [^\n]*)+", r"\1"),
    ),
    Rule(
        "REPL help names the new games, wraps between words (#27, #28)",
        "issue 27 (a help topic per game) and issue 28 item 5 (help wraps between words "
        "at 80 columns)",
        _sub(r"An empty line does nothing\..*?help odds\.", "<repl help>", re.S),
    ),
    Rule(
        "a re-roll in the syntax tree says whether it takes the lowest face (#24)",
        "issue 24 (a bare r on a dice-file die re-rolls its lowest face), commit "
        "19e72fb: Reroll has a field `lowest`",
        _sub(r", lowest=False\)", ")"),
        keys=("repr",),
    ),
    Rule(
        "computed unique dice: the refusal checks every count first (#24)",
        "issue 24 (work that runs away), commit 30228cc: every count of computed unique "
        "dice is estimated before the work, the refusal names the largest",
        _sub(r"\d+(d\d+u\w*): \d+ unique dice need \d+", r"N\1: N unique dice need N"),
    ),
    Rule(
        "a missing option value told as such (#29)",
        "issue 29 item 4, commit b3902b9: `dicecli 2d6 --seed` said \"'--' is not a valid int\"",
        _sub(
            r"error: (Invalid value for '(--[\w-]+)': '[^']*' is not a valid int\. "
            r"\(see dicecli \w+ --help\)|(--[\w-]+) needs a value[^\n]*"
            r"|--set takes NAME=VALUE, e\.g\. --set STR=3 \(got '--[\w-]+'\))",
            "error: <missing value>",
        ),
    ),
    Rule(
        "a missing --character or --dice-file named by dicecli, not typer (#29)",
        "issue 29 item 3, commit b3902b9: an example's name stands for a file in "
        "--character and --dice-file, so the file is looked for by dicecli",
        lambda text: re.sub(
            r"(character|dice) file ([^:\n]+): (cannot read it: )?no such file",
            r"<no file \2>",
            re.sub(
                r"Invalid value for '--(character|dice-file)': File '([^']*)' does not "
                r"exist\. \(see dicecli \w+ --help\)",
                r"<no file \2>",
                text,
            ),
        ),
        keys=("stderr",),
    ),
    Rule(
        "the chance of a zero divisor written as odds tables write it (#24)",
        "issue 24 (`odds 1/9999d6kl<5` was exit 70), commit e27a17f: the chance is "
        "written by fraction_text (≈ a decimal when the fraction is long)",
        _sub(r"divides by zero with chance [^,]+, so", "divides by zero with chance C, so"),
    ),
    Rule(
        "rule W5's refusal names u and uo too (#24)",
        "issue 24 (rules and docs that disagree): rule W5 covers every re-roll (r, ro, "
        "u, uo), computed dice included",
        _sub(r"already re-rolled a die \((r/ro|r, ro, u, uo)\)", "already re-rolled a die"),
    ),
    Rule(
        "hints that point the way meant (#28)",
        "issue 28 item 6, commit 41015fc: reroll, scatter, stunt and max hints; "
        "commit 0a8b64f: a prefix of a die name hinted",
        _sub(r"\n  (did you mean|expected one of:)[^\n]*", ""),
    ),
    Rule(
        "REPL banner and help name the new games, wrap at 80 columns (#27, #28)",
        "issue 27 (new games' example lines), issue 28 item 5 (banner and help wrap "
        "between words at 80 columns), commit a0517a7 (three games and how many more)",
        _sub(r"Type a roll \([^\n]*\)[^\n]*", "Type a roll <examples>"),
    ),
)


LINE_FEATURES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    (
        "a line of one of the nine new games (#27)",
        "issue 27: dnd, coc, blades, fate, cod, sr, yz, ex, l5r and their aliases are "
        "games; c457784 refused the words or read them as names",
        re.compile(
            r"^[\s;]*(odds\s+|let \w+ = |help\s+)?"
            r"(dnd|dnd5e|coc|coc7|coc7e|blades|bitd|fate|cod|nwod|sr|sr5"
            r"|shadowrun|yz|yze|ex|exalted|l5r)\b|^\s*(odds\s+)?(sr|ex)\d|^\s*\d+cod\b",
            re.I,
        ),
    ),
    (
        "a die name in any case after a count (#28)",
        "issue 28 item 2, commit 0a8b64f: `2dability` names the Ability die",
        re.compile(r"\d+d(?!ice)[a-z]{3,}", re.I),
    ),
    (
        "a d100 table with 00 and 96-00 (#28)",
        "issue 28 item 2, commit bc370e4: `00` is 100 on a d100 roll, `96-00` a range",
        re.compile(r"d100\.toml"),
    ),
    (
        "control characters in a line (#24)",
        "issue 24: control characters that reached the terminal or crashed (\\x1c-\\x1f "
        "in a number) are escaped or refused with a caret",
        re.compile(r"[\x00-\x1f\x7f\u0080-\u009f]"),
    ),
    (
        "a bare r or ro on a dice-file die re-rolls its lowest face (#24)",
        "issue 24 (rules and docs that disagree), commit 19e72fb",
        re.compile(r"d[A-Z][a-z]+\s*ro?(?![\w<>=])"),
    ),
    (
        "a Genesys pool read as a check (#28)",
        "issue 28 item 2, commit 621bc38: a Genesys pool's net result first, pass or fail",
        re.compile(r"dAbility|dProficiency|dBoost|dSetback|dDifficulty|dChallenge", re.I),
    ),
)


OPTIONS_WITH_VALUES = frozenset(
    [
        "--seed",
        "--given",
        "-n",
        "--times",
        "--set",
        "--character",
        "--dice-file",
        "--setting",
        "--at-least",
        "--at-most",
        "--color",
        "--svg",
    ]
)


def roll_words(argv: list[str]) -> str:
    """The roll an argument vector carries: its words without options, command or
    option values."""
    words: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in OPTIONS_WITH_VALUES:
            skip = True
        elif arg.startswith("--") or arg in ("-h", "-V"):
            continue
        else:
            words.append(arg)
    if words and words[0] in ("roll", "odds"):
        words = words[1:]
    return " ".join(words)


CaseRule = tuple[str, str, Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], bool]]


def _help_asked(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    argv = case.get("argv") or []
    return case["kind"] in ("cli", "proc") and (
        "-h" in argv or "--help" in argv or (bool(argv) and argv[0] == "help")
    )


def _new_command_or_option(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    argv = case.get("argv") or []
    return case["kind"] in ("cli", "proc") and bool(
        {"-V", "--color", "--summary", "--svg"} & set(argv)
        or (argv and argv[0] in ("examples", "games"))
    )


def _missing_value(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    argv = case.get("argv") or []
    told = re.match(r"error: (--?[\w-]+) needs a value", case["raw_new"].get("stderr") or "")
    if told is None or told.group(1) not in argv:
        return False
    place = len(argv) - 1 - argv[::-1].index(told.group(1))
    return place == len(argv) - 1 or argv[place + 1].startswith("-")


def _old_internal_error(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    old = case["raw_old"]
    return (
        old.get("status") == 70
        and "internal error" in (old.get("stderr") or "")
        and new.get("status") != 70
        and re.search(r"[\x1c-\x1f]", case.get("stdin", "") + " ".join(case.get("argv", [])))
        is not None
    )


def _odds_of_several(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    argv = case.get("argv") or []
    lines = [" ".join(argv)] if argv[:1] == ["odds"] else []
    if case["kind"] == "repl":
        lines = [line for line in case["stdin"].split("\n") if line.startswith("odds")]
    if case["kind"] == "api" and case["op"] == "odds":
        lines = [case["text"]]
    refused = (old.get("stderr") or "") + (old.get("message") or "")
    return any(";" in line for line in lines) and re.search(r"'[^'\n]*;", refused) is not None


NEW_KEYWORDS = frozenset(
    [
        "dnd",
        "dnd5e",
        "coc",
        "coc7",
        "coc7e",
        "blades",
        "bitd",
        "fate",
        "cod",
        "nwod",
        "sr",
        "sr5",
        "shadowrun",
        "yz",
        "yze",
        "ex",
        "exalted",
        "l5r",
    ]
)
_WORD_HINT = re.compile(r"unknown word '([^']*)': did you mean '([^']*)'\?")


FINDING_HINT = "FINDING: an unset STR or DEX hinted as the keyword 'sr' or 'ex'"


DIE_NAME_REFUSAL = "both refuse letters after a die's d; main reads them as a die's name (#28)"
W5_EVERY_REROLL = "rule W5 covers u and uo, computed dice too (#24)"
NAMES_FIRST = "odds: unknown names told before any other refusal (#24)"


def pair_category(old_line: str, new_line: str, text: str = "") -> str | None:
    """The deliberate change (or the finding) that explains one pair of differing
    error lines about the same input line (``text``, when known), else None."""
    if not _same_line(old_line, new_line):
        return None
    if "re-rolls its own dice" in new_line and "rule W5" in new_line:
        return W5_EVERY_REROLL
    if (
        text.lstrip().startswith("odds")
        and "unknown name '" in new_line
        and "unknown name" not in old_line
    ):
        return NAMES_FIRST
    hint = _WORD_HINT.search(new_line)
    if hint and hint.group(2) in NEW_KEYWORDS:
        if hint.group(1).isupper():
            return FINDING_HINT
        return "a word close to a new game's keyword hinted (#27)"
    refused_otherwise = "unknown die '" in new_line and re.search(r"\bexpected\b", old_line)
    if ("error:" in new_line or not new_line.startswith("line")) and (
        _OLD_REFUSAL.search(old_line) or refused_otherwise
    ):
        return DIE_NAME_REFUSAL
    return None


_HINTED_NAME = re.compile(r"unknown word '([A-Z]+)': did you mean '(?:sr|ex)'\?")


def _undo_finding_hint(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the finding's hint put back as c457784 said it."""
    undone = dict(result)
    for key in ("stderr", "message"):
        text = result.get(key)
        if isinstance(text, str):
            undone[key] = _HINTED_NAME.sub(
                lambda m: f"unknown name '{m.group(1)}': set it with --set {m.group(1)}=N or let",
                text,
            )
    return undone


def _ability_hinted_as_keyword(
    case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]
) -> bool:
    """FINDING: an unset name such as STR or DEX (AGE's abilities) hinted as a misspelt
    new keyword ('sr', 'ex'), where c457784 said how to set it."""
    for old_line, new_line in _error_pairs(old, new):
        hint = _WORD_HINT.search(new_line)
        if hint and hint.group(2) in NEW_KEYWORDS and _same_line(old_line, new_line):
            return hint.group(1).isupper()
    return False


def _same_line(old_line: str, new_line: str) -> bool:
    """Two error lines about the same input line (``line N:``, or neither numbered)."""
    if not old_line or not new_line:
        return True  # one side has no error there
    number_old = _LINE_ERROR.match(old_line)
    number_new = _LINE_ERROR.match(new_line)
    return (number_old and number_old.group(1)) == (number_new and number_new.group(1))


def _keyword_misspelling(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    for old_line, new_line in _error_pairs(old, new):
        hint = _WORD_HINT.search(new_line)
        if hint and hint.group(2) in NEW_KEYWORDS and not hint.group(1).isupper():
            return _same_line(old_line, new_line)
    return False


def _error_pairs(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    """The first pair of differing error lines, as ``(old, new)``."""
    text_a = old.get("stderr") or old.get("message") or ""
    text_b = new.get("stderr") or new.get("message") or ""
    by_line_a, by_line_b = _errors_by_line(text_a), _errors_by_line(text_b)
    if by_line_a or by_line_b:  # a pipe or a REPL script: the first line whose error differs
        for number in sorted(set(by_line_a) | set(by_line_b)):
            x, y = by_line_a.get(number, ""), by_line_b.get(number, "")
            if x != y:
                return [(x.split("\n")[0], y.split("\n")[0])]
    a, b = text_a.split("\n"), text_b.split("\n")
    for x, y in zip(a, b, strict=False):
        if x != y:
            return [(x, y)]
    return []


_OLD_REFUSAL = re.compile(
    r"(unexpected|found) '[^']*\dd[a-zA-Z%][^']*'|(unexpected|found) 'd[a-zA-Z%]"
)


def _die_name_refusal(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Both refuse a line that has letters after a die's d, worded otherwise: main reads
    the letters as a die's name (0a8b64f) and refuses it for that."""
    for old_line, new_line in _error_pairs(old, new):
        return pair_category(old_line, new_line) == DIE_NAME_REFUSAL
    return False


def _work_budget(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    """One side refuses odds for the work they would take, the other answers."""
    said = [(side.get("stderr") or "") + (side.get("message") or "") for side in (old, new)]
    return any(
        re.search(
            r"one question may take|steps of exact arithmetic|more than the [\d,]+ million"
            r"|possible totals, more than the",
            text,
        )
        for text in said
    )


def _names_first(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Odds name an unknown name before refusing for anything else."""
    asked = case["kind"] == "odds" or (case["kind"] == "api" and case["op"] == "odds")
    said_old = (old.get("stderr") or "") + (old.get("message") or "")
    said_new = (new.get("stderr") or "") + (new.get("message") or "")
    name = re.search(r"unknown name '(\w+)'", said_new)
    return asked and name is not None and "unknown name" not in said_old and bool(said_old)


def _pair_rule(
    category: str,
) -> Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], bool]:
    """A case rule: the first differing pair of error lines is explained as
    ``category`` (:func:`pair_category`)."""

    def applies(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
        lines = _input_lines(case)
        for old_line, new_line in _error_pairs(old, new):
            found = _LINE_ERROR.match(new_line) or _LINE_ERROR.match(old_line)
            number = int(found.group(1)) if found else 1
            text = lines[number - 1] if 0 < number <= len(lines) else ""
            return pair_category(old_line, new_line, text) == category
        return False

    return applies


def _other_option_first(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Two bad options: c457784 (typer) told the missing file first, main the other."""
    said_old, said_new = old.get("stderr") or "", new.get("stderr") or ""
    return said_old.startswith("error: <no file") and said_new.startswith(
        ("error: <missing value>", "error: Invalid value")
    )


def _minus_first(case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> bool:
    argv = case.get("argv") or []
    return (
        case["kind"] in ("cli", "proc") and bool(argv) and re.match(r"--?\d", argv[0]) is not None
    )


CASE_RULES: tuple[CaseRule, ...] = (
    (
        "FINDING: an unset STR or DEX hinted as the keyword 'sr' or 'ex'",
        "not deliberate: issue 27's short keywords (sr, ex) meet the misspelt-word hint; "
        "c457784 said `set it with --set STR=N or let`",
        _ability_hinted_as_keyword,
    ),
    (
        "a word close to a new game's keyword hinted (#27)",
        "issue 27 (new keywords) with the misspelt-keyword hint that c457784 had for its "
        "three games",
        _keyword_misspelling,
    ),
    (
        "both refuse letters after a die's d; main reads them as a die's name (#28)",
        "issue 28 item 2, commit 0a8b64f: dice names in any case after a count, so "
        "`1dk1r` is the unknown die 'dk1r', not an unexpected word",
        _die_name_refusal,
    ),
    (
        "odds: the work of the whole question checked before any of it (#24)",
        "issue 24 (work and memory that run away): every question's work is estimated "
        "first against one budget, so some answers c457784 gave slowly are refused and "
        "some refusals are answers",
        _work_budget,
    ),
    (
        W5_EVERY_REROLL,
        "issue 24 (rule W5 misses computed dice; u and uo undocumented), commit "
        "19e72fb: a line that re-rolls its own dice (r, ro, u, uo) is not re-rolled "
        "again",
        _pair_rule(W5_EVERY_REROLL),
    ),
    (
        "odds: unknown names told before any other refusal (#24)",
        "issue 24 (work that runs away): `(20d%)d5-attack` worked 28 s before saying "
        "`attack` is unknown; every question's names are checked first",
        _names_first,
    ),
    (
        NAMES_FIRST,
        "issue 24 (work that runs away): names are checked before any work",
        _pair_rule(NAMES_FIRST),
    ),
    (
        "two bad options: another told first (#29)",
        "issue 29 item 3, commit b3902b9: --character and --dice-file are looked for "
        "by dicecli after typer's checks of the other options",
        _other_option_first,
    ),
    (
        "a roll that starts with a minus (#24)",
        "issue 24 (rules and docs that disagree): `dicecli --15` was refused as an "
        "option, though the README says such a roll works",
        _minus_first,
    ),
    (
        "help text names the new games, -V, examples and games (#27, #29)",
        "issue 27 (each game in the help and its topic), issue 29 items 3-4 (`-V`, "
        "`dicecli examples`, `dicecli help GUIDE`), issue 23 (`dicecli games`)",
        _help_asked,
    ),
    (
        "new options and commands: -V, --color, --summary, --svg, examples, games (#29)",
        "issue 29 item 4 and commit b3902b9; `games` from issue 23 item 3",
        _new_command_or_option,
    ),
    (
        "a missing option value told as such (#29)",
        "issue 29 item 4: `dicecli 2d6 --seed` said \"'--' is not a valid int\"; the "
        "missing value is now found before other faults of the line",
        _missing_value,
    ),
    (
        "an internal error of c457784 on a control character; the lines after it lost (#24)",
        "issue 24: `5\\x1f% of 10` was exit 70 at grammar.py _unary_action, and piped, "
        "the lines after it were never rolled",
        _old_internal_error,
    ),
    (
        "odds of a line of several rolls (#24)",
        "issue 24 (rules and docs that disagree), commit d6279a2: odds of `a; b` gives "
        "each roll's odds",
        _odds_of_several,
    ),
)


def load(store: Path) -> dict[int, dict[str, Any]]:
    connection = sqlite3.connect(f"file:{store / 'results.sqlite'}?mode=ro", uri=True, timeout=120)
    seed = int(connection.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone()[0])
    rows: dict[int, dict[str, Any]] = collections.defaultdict(dict)
    for index, side, kind, result in connection.execute("SELECT * FROM results"):
        rows[index][side] = json.loads(result)
        rows[index]["kind"] = kind
    for index, row in rows.items():
        row["seed"] = seed
        row["id"] = index
    return {index: row for index, row in rows.items() if "old" in row and "new" in row}


WEIGHTS = "an odds table's weights, a cache outside equality, filled (#23)"


def _drop_key(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        return {k: _drop_key(v, key) for k, v in value.items() if k != key}
    if isinstance(value, list):
        return [_drop_key(item, key) for item in value]
    return value


def _drop_rerollable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_rerollable(v) for k, v in value.items() if k != "rerollable"}
    if isinstance(value, list):
        return [_drop_rerollable(item) for item in value]
    return value


def _texts(result: dict[str, Any]) -> dict[str, Any]:
    return dict(result)


def apply_rules(old: dict[str, Any], new: dict[str, Any]) -> tuple[Any, Any, list[str]]:
    """Both results with every rule's rewrite applied; the rules credited."""
    credited: list[str] = []
    dropped_old, dropped_new = _drop_key(old, "weights"), _drop_key(new, "weights")
    if "tables" in new and (dropped_old != old or dropped_new != new):
        old, new = dropped_old, dropped_new
        credited.append(WEIGHTS)
    if "breakdown" in new and _drop_rerollable(new) != new:
        new = _drop_rerollable(new)
        credited.append("rerollable: rule W4 carried by each die in the API (#23)")
    for rule in RULES:
        changed = False
        for key in set(old) | set(new):
            a, b = old.get(key), new.get(key)
            if not (isinstance(a, str) and isinstance(b, str)) or a == b:
                continue
            if rule.keys and key not in rule.keys:
                continue
            if rule.when and not (re.search(rule.when, a) or re.search(rule.when, b)):
                continue
            ra, rb = rule.rewrite(a), rule.rewrite(b)
            if ra != a or rb != b:
                changed = True
                old = {**old, key: ra}
                new = {**new, key: rb}
        if changed:
            credited.append(rule.name)
    return old, new, credited


def _input_lines(case: dict[str, Any]) -> list[str]:
    if case["kind"] in ("pipe", "repl") or (case["kind"] == "proc" and case.get("stdin")):
        stdin: str = case["stdin"]
        return stdin.split("\n")
    if "argv" in case:
        return [roll_words(case["argv"])]
    return [case.get("text", "")]


_LINE_ERROR = re.compile(r"^line (\d+): ")


def _echoed(line: str) -> str | None:
    """The input a rolled output line echoes: plain ``total\\tinput\\t...`` or JSON."""
    if line.startswith("{"):
        try:
            data = json.loads(line)
        except ValueError:
            return None
        return data.get("input") if isinstance(data, dict) else None
    parts = line.split("\t")
    return parts[1] if len(parts) >= 3 else None


def first_divergent_line(
    case: dict[str, Any], old: dict[str, Any], new: dict[str, Any]
) -> int | None:
    """The index of the first input line whose output differs, when it can be found:
    an error's ``line N:``, or the input a rolled line echoes; a differing output line
    that echoes nothing (help, a list) only says the line comes after the last echo."""
    lines = _input_lines(case)
    if len(lines) == 1:
        return 0
    exact: list[int] = []
    a = (old.get("stderr") or "").split("\n")
    b = (new.get("stderr") or "").split("\n")
    for x, y in zip([*a, ""], [*b, ""], strict=False):
        if x != y:
            found = [int(m.group(1)) for m in (_LINE_ERROR.match(x), _LINE_ERROR.match(y)) if m]
            if found:
                exact.append(min(found) - 1)
            break
    lower = 0
    a, b = (old.get("stdout") or "").split("\n"), (new.get("stdout") or "").split("\n")
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, _i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for line in a[:i1]:
            echoed = _echoed(line)
            if echoed is not None:
                for index in range(lower, len(lines)):
                    if lines[index].strip() == echoed.strip():
                        lower = index + 1
                        break
        for line in a[i1 : i1 + 1] + b[j1 : j1 + 1]:
            echoed = _echoed(line)
            if echoed is None:
                continue
            for index in range(lower, len(lines)):
                if lines[index].strip() == echoed.strip():
                    exact.append(index)
                    break
        break
    return min(exact) if exact else lower


def _errors_by_line(text: str) -> dict[int, str]:
    """A piped run's or a REPL script's errors by input line (``line N: ...`` and the
    lines that follow it)."""
    errors: dict[int, str] = {}
    number = None
    for line in text.split("\n"):
        found = _LINE_ERROR.match(line)
        if found:
            number = int(found.group(1))
            errors[number] = line
        elif number is not None and line.startswith("  ") and errors[number].count("\n") < 2:
            errors[number] += "\n" + line  # the line echoed, and the caret
    return errors


def _later_error_differs(
    lines: list[str], old: dict[str, Any], new: dict[str, Any]
) -> tuple[str, str] | None:
    """After a line that a deliberate change reads otherwise, the dice of the later
    lines differ, but an error rarely depends on the dice: the first later error that
    differs on a line with no deliberate change of its own, else None."""
    if len(lines) < 2:
        return None
    a = _errors_by_line(old.get("stderr") or "")
    b = _errors_by_line(new.get("stderr") or "")
    for number in sorted(set(a) | set(b)):
        if a.get(number) == b.get(number) or not 0 < number <= len(lines):
            continue
        line = lines[number - 1]
        if any(pattern.search(line) for _name, _why, pattern in LINE_FEATURES):
            continue
        if _STATE_DEPENDENT.search((a.get(number) or "") + (b.get(number) or "")):
            continue
        first_a = (a.get(number) or "").split("\n")[0]
        first_b = (b.get(number) or "").split("\n")[0]
        category = pair_category(first_a, first_b, line)
        if category == FINDING_HINT:
            return category, ""
        if category is not None:
            continue
        return a.get(number) or "<none>", b.get(number) or "<none>"
    return None


_STATE_DEPENDENT = re.compile(
    r"roll limit|division by zero|never end|at most [\d,]+ dice|nothing rolled yet"
    r"|no name '\w+' to forget|already re-rolled|not a draw from a table"
)
"""Errors that depend on the dice rolled before them (a computed count, a divisor) or
on what earlier lines did (a roll to repeat, a name to forget)."""


def _fold(text: str) -> str:
    return re.sub(r"\d+", "#", text)[:90]


def first_difference(old: dict[str, Any], new: dict[str, Any]) -> tuple[str, str, str]:
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, str) and isinstance(b, str):
            for x, y in zip([*a.split("\n"), "<end>"], [*b.split("\n"), "<end>"], strict=False):
                if x != y:
                    return key, x, y
        return key, json.dumps(a)[:200], json.dumps(b)[:200]
    return "", "", ""


BOTH_LATE = "both sides ran past the 30 s limit: not compared"
OLD_LATE = "c457784 ran past the 30 s limit, main answered or refused in time (#24)"


def _timed_out(result: dict[str, Any]) -> bool:
    """The case ran past the worker's limit (main's entry function turns the worker's
    alarm into an internal error, c457784's does not catch it)."""
    return bool(result.get("timeout")) or "CaseTimeout" in (result.get("stderr") or "")


@dataclass
class Verdict:
    category: str
    explained: bool
    detail: str = ""
    rewrites: tuple[str, ...] = ()


SEVERAL = "several wording changes together (see the rewrites table)"


def classify(row: dict[str, Any]) -> Verdict:
    case = make_case(row["seed"], row["id"])
    old, new = row["old"], row["new"]
    if old == new:
        return Verdict("identical", True)
    if any(key in side for side in (old, new) for key in ("worker_died", "harness_error")):
        return Verdict("harness: a worker died or failed on the case", False)
    old_late, new_late = _timed_out(old), _timed_out(new)
    if old_late and new_late:
        return Verdict(BOTH_LATE, True)
    if old_late:
        return Verdict(OLD_LATE, True)
    if new_late:
        return Verdict("unexplained: main ran past the 30 s limit, c457784 did not", False)
    old2, new2, credited = apply_rules(old, new)
    if old2 == new2:
        category = credited[0] if len(credited) == 1 else SEVERAL
        return Verdict(category, True, rewrites=tuple(credited))
    unhinted = _undo_finding_hint(new2)
    had_finding = unhinted != new2
    if had_finding:
        if unhinted == old2:
            return Verdict(FINDING_HINT, False)
        new2 = unhinted  # the rest is classified; if nothing explains it, the finding
    verdict = _classify_rest(case, old, new, old2, new2)
    if had_finding and not verdict.explained:
        return Verdict(FINDING_HINT, False)
    return verdict


def _classify_rest(
    case: dict[str, Any],
    old: dict[str, Any],
    new: dict[str, Any],
    old2: dict[str, Any],
    new2: dict[str, Any],
) -> Verdict:
    """The verdict on a case that the rewrites left different."""
    case = {**case, "raw_old": old, "raw_new": new}
    for name, _why, applies in CASE_RULES:
        if applies(case, old2, new2):
            return Verdict(name, not name.startswith("FINDING"))
    index = first_divergent_line(case, old2, new2)
    lines = _input_lines(case)
    if index is not None and 0 <= index < len(lines):
        for name, _why, pattern in LINE_FEATURES:
            if pattern.search(lines[index]):
                later = _later_error_differs(lines, old2, new2)
                if later is not None and later[0] == FINDING_HINT:
                    return Verdict(FINDING_HINT, False, lines[index])
                if later is not None:
                    return Verdict(
                        f"unexplained: {case['kind']}: a later line's error differs: "
                        f"{_fold(later[0])} | {_fold(later[1])}",
                        False,
                    )
                return Verdict(name, True, lines[index])
    key, x, y = first_difference(old2, new2)
    return Verdict(f"unexplained: {case['kind']}: {key}: {_fold(x)} | {_fold(y)}", False)


WHY: dict[str, str] = {
    "identical": "",
    "rerollable: rule W4 carried by each die in the API (#23)": (
        "issue 23 item 5, commit 9878d9e: whether a die may be re-rolled travels with "
        "the die (`DieRoll.rerollable`), a field the API's result now has"
    ),
    BOTH_LATE: "both sides took longer than the worker allows a case (30 s, under load)",
    OLD_LATE: "issue 24 (work and memory that run away): every question's work checked "
    "first, names first",
    SEVERAL: "each rewrite below, all deliberate",
    WEIGHTS: "`Distribution.weights` (integer counts kept beside the fractions, declared "
    "compare=False) is filled where c457784 left it None: the refactor of issue 23; "
    "the chances themselves are equal",
    **{rule.name: rule.why for rule in RULES},
    **{name: why for name, why, _ in CASE_RULES},
    **{name: why for name, why, _ in LINE_FEATURES},
}

FINDINGS = {
    FINDING_HINT: (
        "Bug in main (a regression from c457784, caused by issue 27's short keywords): "
        "an unset name that starts a line and is close to `sr` or `ex` (AGE's `STR`, "
        "`DEX`) is answered `unknown word 'STR': did you mean 'sr'?`. c457784 said "
        "`unknown name 'STR': set it with --set STR=N or let`, the way out. The hint "
        "also hides a real fault further on (`STR s 8`: c457784 pointed at `s`). "
        "Reproducer: `dicecli 'STR+2'` (or `dicecli odds 'DEX + 10'`, or `STR+2` "
        "piped). `hints._misspelt_first_word` offers any keyword within difflib's "
        "0.75 ratio; three-letter upper-case names are all within reach of the "
        "two-letter keywords. Not fixed here: where to draw the line (upper case, "
        "length) is the hints' owner's call."
    ),
}

NOTES = (
    "Seen while investigating, not a difference between the versions: `dicecli odds "
    "'10d100kl2!>=4'` takes about 20 s of CPU in both c457784 and main (issue 24 "
    "promises an answer or a refusal within about a second), and `dicecli odds "
    "'(3d3/22% of 11 - 6d2+10d100kl2!>=4)*6D%[hit] vs 23'` is refused by main (\"an "
    'estimated 1,057 million steps ... about half a second") only after 20 s of CPU, '
    "where c457784 answered after 22 s: the estimate that refuses it comes after the "
    "work it was meant to spare (case 34148 above, past the 30 s limit on both "
    "sides under load).",
)


RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A control character a terminal would act on (a newline and a tab excepted)."""


def describe(case: dict[str, Any]) -> str:
    """A case in one line for the report."""
    if case["kind"] == "api":
        extra = {k: v for k, v in case.items() if k not in ("id", "kind", "op", "text")}
        return f"`dicecli.{case['op']}({case['text']!r})` {json.dumps(extra)}"
    text = "dicecli " + " ".join(
        json.dumps(arg) if " " in arg or not arg else arg for arg in case["argv"]
    )
    if case.get("stdin"):
        lines = case["stdin"].split("\n")
        text = f"{len(lines)} lines into {text}: " + json.dumps("\n".join(lines[:3]))[:120]
    return "`" + text.replace("`", "'")[:200] + "`"


def write_report(
    path: Path,
    store: Path,
    by_kind: dict[str, collections.Counter[str]],
    categories: collections.Counter[tuple[str, bool]],
    examples: dict[str, list[int]],
    seed: int,
    anywhere: int,
    rewrites: collections.Counter[str],
    rewrite_examples: dict[str, int],
    raw_controls: collections.Counter[str],
    how: str = "",
) -> None:
    total = sum(sum(counter.values()) for counter in by_kind.values())
    out = [
        "# Differential run: c457784 against main",
        "",
        "Generated by `bench/differential/compare.py` from the results that "
        "`bench/differential/run.py` stored (README.md there says how to run both). "
        f"Seed {seed}; {total:,} cases run on both versions.",
        "",
        *([how, ""] if how else []),
        "## Cases per kind",
        "",
        "| kind | cases | identical | different, explained | different, unexplained |",
        "|---|---:|---:|---:|---:|",
    ]
    sums = collections.Counter[str]()
    for kind in ("api", "cli", "pipe", "repl", "odds", "proc"):
        counter = by_kind.get(kind, collections.Counter())
        sums.update(counter)
        out.append(
            f"| {kind} | {sum(counter.values()):,} | {counter['identical']:,} | "
            f"{counter['explained']:,} | {counter['unexplained']:,} |"
        )
    out.append(
        f"| **all** | **{sum(sums.values()):,}** | **{sums['identical']:,}** | "
        f"**{sums['explained']:,}** | **{sums['unexplained']:,}** |"
    )
    out += [
        "",
        f"Cases whose stdout or stderr holds a raw control character (other than a "
        f"newline or a tab; issue 24): c457784 {raw_controls['old']:,}, main "
        f"{raw_controls['new']:,}.",
        "",
        "`proc` cases are cli, pipe and odds cases run as real processes "
        "(`python -m dicecli`); the others run in a worker process per batch, through "
        "the same entry function with the standard streams replaced.",
        "",
        "## Categories",
        "",
        "A case is counted once, under the first explanation that covers all of its differences.",
        "",
        "| cases | category | explained by | example |",
        "|---:|---|---|---|",
    ]
    for (category, explained), count in categories.most_common():
        if category == "identical":
            continue
        why = WHY.get(category, "")
        if not explained:
            why = "**unexplained**" + (f": see Findings. {why}" if category in FINDINGS else "")
        example = examples[category][0]
        out.append(
            f"| {count:,} | {category.replace('|', '/')} | {why.replace('|', '/')} | "
            f"case {example}: {describe(make_case(seed, example)).replace('|', '/')} |"
        )
    out += [
        "",
        "## Rewrites",
        "",
        "Deliberate changes of wording, each a rewrite of both sides' text to one form "
        "(`RULES` in compare.py); a case counts under each rewrite that changed text "
        "that still differed. A case whose differences all go with rewrites is explained "
        "by them.",
        "",
        "| cases | rewrite | explained by | example |",
        "|---:|---|---|---|",
    ]
    for name, count in rewrites.most_common():
        example = rewrite_examples[name]
        out.append(
            f"| {count:,} | {name} | {WHY.get(name, '').replace('|', '/')} | case {example}: "
            f"{describe(make_case(seed, example)).replace('|', '/')} |"
        )
    out += [
        "",
        "## What the comparison cannot see",
        "",
        "- After the first line that a deliberate change reads otherwise (a new game's "
        "line rolled where c457784 refused it, a d100 table ...), the later lines of a "
        "pipe or REPL script roll other dice from the seeded stream: their results are "
        "not compared, only their errors (an error that differs there is reported, unless "
        "it depends on the dice or on what earlier lines did).",
        "- Help asked for (`-h`, `--help`, `help TOPIC` on the command line) is counted "
        "as changed by the issues that added games, options and guides, as a whole.",
        "- A rewrite applies to the whole of a case's text: a second, undeliberate change "
        "of the same wording in the same case would go with it.",
        "- No terminal: every run is piped (the REPL reads its script from a pipe); "
        "colour, widths and the prompt_toolkit session are not compared.",
        "",
        "## Findings",
        "",
    ]
    for category, text in FINDINGS.items():
        count = sum(n for (name, _), n in categories.items() if name == category)
        out.append(
            f"- **{category}** ({count:,} cases that nothing else explains, "
            f"{anywhere:,} where it shows anywhere). {text}"
        )
    out += [f"- {note}" for note in NOTES]
    out.append("")
    path.write_text("\n".join(out), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--report", type=Path, help="write the report here (Markdown)")
    parser.add_argument("--how", default="", help="how the run was made, for the report")
    args = parser.parse_args()
    rows = load(args.store)
    by_kind: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    categories: collections.Counter[tuple[str, bool]] = collections.Counter()
    examples: dict[str, list[int]] = collections.defaultdict(list)
    anywhere = 0
    seed = 0
    rewrites: collections.Counter[str] = collections.Counter()
    rewrite_examples: dict[str, int] = {}
    raw_controls: collections.Counter[str] = collections.Counter()
    for index in sorted(rows):
        row = rows[index]
        seed = row["seed"]
        verdict = classify(row)
        kind = row["kind"]
        if verdict.category == "identical":
            outcome = "identical"
        else:
            outcome = "explained" if verdict.explained else "unexplained"
        by_kind[kind][outcome] += 1
        categories[(verdict.category, verdict.explained)] += 1
        if len(examples[verdict.category]) < 3:
            examples[verdict.category].append(index)
        for name in verdict.rewrites:
            rewrites[name] += 1
            rewrite_examples.setdefault(name, index)
        for side in ("old", "new"):
            shown = (row[side].get("stdout") or "") + (row[side].get("stderr") or "")
            if RAW_CONTROL.search(shown):
                raw_controls[side] += 1
        new_text = json.dumps(row["new"])
        if re.search(r"unknown word '[A-Z]+': did you mean '(sr|ex)'", new_text):
            anywhere += 1
    for kind, counter in sorted(by_kind.items()):
        print(kind, dict(counter))
    for (category, explained), count in categories.most_common():
        print(count, "OK " if explained else "?? ", category, examples[category])
    if args.report:
        write_report(
            args.report,
            args.store,
            by_kind,
            categories,
            examples,
            seed,
            anywhere,
            rewrites,
            rewrite_examples,
            raw_controls,
            args.how,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
