"""Run the peer-notation corpus (``notations.tsv``) through dicecli and classify each row.

Each row is a notation as another roller's own tests or docs write it, that roller's
meaning in words and, where dicecli has one, an equivalent dicecli expression. For every
row dicecli reads the notation as written:

- **refused**: ``dicecli.parse`` (or the odds) raises a ``DiceError``;
- **same**: accepted, and its exact distribution (``dicecli.odds``) equals the
  equivalent's; when odds cannot be had for both, the two parse to the same tree;
- **different**: accepted, but the distribution (or tree) differs from the equivalent's;
  counted **noted** when the result carries a note naming another reading, else
  **silent**;
- **unknown**: accepted, but no equivalent is recorded to compare with.

Rows the source itself refuses (``refused-by-source``) are counted apart: the aim of
issue 26 is about what the sources accept. Each row runs in a worker process with a
time limit, so no notation can hang the run.

With ``--dialect own`` each row of a roller that dicecli has a dialect for (Roll20,
Foundry VTT, RPG Dice Roller, d20, Dice Maiden, rolldice) is read in that dialect
(``--dialect roll20``): the figures then show whether the dialect reads the roller's
notation as the roller does. ``--dialect NAME`` reads every row in one dialect.

Usage: ``python bench/peers/corpus_run.py [--timeout S] [--details FILE] [--dialect own]``
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

CORPUS = Path(__file__).with_name("notations.tsv")

OTHER_READING = re.compile(
    r"roll20|foundry|avrae|d20 reads|dice maiden|rolldice|rpg dice roller|dialect|"
    r"other reading|another reading|elsewhere|other rollers?|to roll .* times|reads? .* as",
    re.IGNORECASE,
)
"""What a note must mention to count as naming another reading of the line."""

OWN_DIALECT = {
    "Roll20": "roll20",
    "Foundry VTT": "foundry",
    "RPG Dice Roller": "rdr",
    "d20 (Avrae)": "d20",
    "Dice Maiden": "dicemaiden",
    "rolldice": "rolldice",
}
"""Each source's own dicecli dialect, where dicecli has one (``--dialect own``)."""


@dataclass(frozen=True)
class Row:
    """One line of the corpus."""

    source: str
    where: str
    notation: str
    meaning: str
    equivalent: str | None
    source_accepts: bool


@dataclass(frozen=True)
class Verdict:
    """How dicecli read one row: ``kind`` is same, different, refused or unknown."""

    kind: str
    noted: bool = False
    detail: str = ""


def load(path: Path = CORPUS) -> list[Row]:
    """The corpus rows, in file order."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        return [
            Row(
                source=line["source"],
                where=line["where"],
                notation=line["notation"],
                meaning=line["meaning"],
                equivalent=_equivalent(line["dicecli_equivalent"]),
                source_accepts=line["source_accepts"] == "accepted",
            )
            for line in reader
        ]


def _equivalent(cell: str) -> str | None:
    """The equivalent dicecli expression of a row; ``-`` means none is recorded."""
    return None if cell == "-" else cell


def _notes_of(*results: object) -> list[str]:
    """Every note any of ``results`` carries (a ``notes`` attribute, when there is one)."""
    found: list[str] = []
    for result in results:
        notes = getattr(result, "notes", None)
        if isinstance(notes, str):
            found.append(notes)
        elif notes:
            found.extend(str(note) for note in notes)
    return found


def _fingerprint(odds: object) -> tuple[object, ...]:
    """What two lines must share for their chances to be the same."""
    chances = dict(getattr(odds, "chances", ()))
    return (
        getattr(odds, "distribution", None),
        chances.get("success"),
        getattr(odds, "passing", None),
    )


def classify(notation: str, equivalent: str | None, dialect: str | None = None) -> Verdict:
    """dicecli's reading of ``notation`` (in ``dialect``, when given) against
    ``equivalent`` (runs in a worker). The line is taken as the command line takes it:
    a repeat (``6 4d6``, ``4d6 -n 6``) is judged by the roll it repeats, and a line of
    several rolls (``2d6 ; 3d8``) is accepted when each of them is."""
    import dicecli
    from dicecli.environment import Environment
    from dicecli.errors import DiceError, UnknownNameError

    env = Environment(settings={"dialect": dialect} if dialect else {})
    try:
        rolled = _as_rolled(notation, dialect)
        trees = [_parse(text, dialect) for text in rolled]
    except DiceError as error:
        return Verdict("refused", detail=str(error).splitlines()[0] if str(error) else "")
    results: list[object] = list(trees)
    try:
        results.extend(dicecli.roll(text, seed=1, environment=env) for text in rolled)
    except UnknownNameError as error:  # read as a name that means nothing: not accepted
        return Verdict("refused", detail="roll: " + str(error).splitlines()[0])
    except DiceError:  # a roll that fails otherwise (a division by zero) is judged by odds
        pass
    noted = any(OTHER_READING.search(note) for note in _notes_of(*results))
    if equivalent is None or len(rolled) != 1:
        return Verdict("unknown", noted=noted)
    text, tree = rolled[0], trees[0]
    try:
        mine = dicecli.odds(text, environment=env)
        theirs = dicecli.odds(equivalent)
    except DiceError as error:
        if _too_big(error):
            same = str(tree) == str(dicecli.parse(equivalent))
            return Verdict("same" if same else "different", noted=noted, detail="by parse")
        return Verdict("refused", detail="odds: " + str(error).splitlines()[0])
    noted = noted or any(OTHER_READING.search(note) for note in _notes_of(mine))
    if _fingerprint(mine) == _fingerprint(theirs):
        return Verdict("same", noted=noted)
    return Verdict("different", noted=noted, detail=_mean_pair(mine, theirs))


def _as_rolled(notation: str, dialect: str | None) -> list[str]:
    """The rolls the command line makes of ``notation`` (``dicecli.app``): a repeat's
    one roll, each roll of a line of several, else the line itself."""
    from dicecli.errors import DiceError
    from dicecli.notation.lines import split_rolls
    from dicecli.notation.reader import with_repeats
    from dicecli.times import other_repeat, repeat_count

    text = with_repeats(notation, dialect)
    if ";" in text:
        return [piece.strip() for _, piece in split_rolls(text)]
    text, _ = repeat_count(text)
    try:
        _parse(text, dialect)
    except DiceError:
        repeated = other_repeat(text)
        if repeated is None:
            raise
        text, _ = repeat_count(repeated)
    return [text]


def _parse(notation: str, dialect: str | None) -> object:
    """The tree of ``notation`` as read in ``dialect`` (dicecli's own when None)."""
    try:
        from dicecli.notation.reader import parse_as
    except ImportError:  # a dicecli before dialects
        import dicecli

        return dicecli.parse(notation)
    return parse_as(notation, dialect)


def _too_big(error: Exception) -> bool:
    """Whether the odds were refused only for the work they would take."""
    from dicecli.errors import RollLimitError
    from dicecli.probability.weights import OddsTooBigError

    return isinstance(error, (OddsTooBigError, RollLimitError)) or "steps of exact" in str(error)


def _mean_pair(mine: object, theirs: object) -> str:
    """``mean A, expected B`` for a report line, when both have a distribution."""

    def mean(odds: object) -> str:
        dist = getattr(odds, "distribution", None)
        if dist is None:
            return "?"
        total = sum(value * chance for value, chance in dist.outcomes)
        return f"{float(total):.3g}"

    return f"dicecli mean {mean(mine)}, the source's meaning {mean(theirs)}"


def _worker(task: tuple[str, str | None, str | None]) -> Verdict:
    return classify(*task)


def run(rows: list[Row], timeout: float, dialect: str | None = None) -> list[Verdict]:
    """Classify every row in a pool of one worker at a time per row, each with a limit."""
    verdicts: list[Verdict] = []
    ctx = mp.get_context("spawn")
    pool = ctx.Pool(1, maxtasksperchild=200)
    try:
        for row in rows:
            chosen = OWN_DIALECT.get(row.source) if dialect == "own" else dialect
            pending = pool.apply_async(_worker, ((row.notation, row.equivalent, chosen),))
            try:
                verdicts.append(pending.get(timeout))
            except mp.TimeoutError:
                pool.terminate()
                pool = ctx.Pool(1, maxtasksperchild=200)
                verdicts.append(Verdict("timeout"))
            except Exception as error:  # a crash is worth reporting, not fatal to the run
                verdicts.append(Verdict("crash", detail=repr(error)))
    finally:
        pool.terminate()
    return verdicts


BY_ERROR = [
    ("several modifiers of one kind on a term", r"a second \w+ modifier"),
    ("sort on a group", r"group cannot sort"),
    ("decimals", r"decimals are not supported"),
    ("operator (power, modulo)", r"power operator|no modulo"),
    (
        "limits (sides, count, never-ending)",
        r"1 to 10,000|at least one die|would never end|too many",
    ),
]
"""Kinds told by dicecli's own error message (checked first)."""

BY_FORM = [
    (
        "comments, labels, free text, chat prefixes",
        r"#|//|/\*|^/r|\s!(\s|$)|:\s|^\(\s*[A-Za-z][^)]*\)|^(p|s|nr|ul)\s|\s[A-Za-z]{3,}",
    ),
    ("repeats and roll sets", r"^\d+\s+[(+\-]?[\ddD(]|^\d+#|^\d+x\d|\)\s*\^|repeat\("),
    ("sets and lists ( , )", r"\([^()]*,[^()]*\)|^[^{}]*,[^{}]*$|\|"),
    ("operator (power, modulo)", r"(?<![dD])%|\*\*|\^|=="),
    ("clamps (mi/ma)", r"\d(mi|ma)\d"),
    ("explode spellings (e, ie, x, xo, E)", r"(?<![a-z])(e|ie|x|xo|E)(\d|>|<|=|\s|$)"),
    ("re-roll spellings (rr, ra, ir, rg, several)", r"rr|ra|ir|rg|ro[hl]|r\d.*r\d"),
    (
        "keep/drop spellings (d, h, l, p, K, D, km, spaced k)",
        r"\d[dD](\d+|%|F)\S*?(d|D|h|H|l|L|p|v|K|km)\d|\s(k|kl|km|d|K|D)\d|[dD](\d+|%)\s*(k|kl)\d",
    ),
    (
        "counting and targets (t, cs, cf, df, c, >>, even, m, mt)",
        r"\bt\d|tl\d|tt\d|t\[|cs|cf|df|sf|ms|>>|<<|c\b|c[<>=]|even|odd|\bb\d|\sf\d|mt|\dm\b",
    ),
    ("game aliases and words", r"^[+\-]?[A-Za-z]|[A-Za-z]{3,}"),
]
"""Rough kinds of form, for grouping what dicecli refuses (first match wins)."""


def kind_of(notation: str, error: str = "") -> str:
    for name, pattern in BY_ERROR:
        if re.search(pattern, error):
            return name
    for name, pattern in BY_FORM:
        if re.search(pattern, notation):
            return name
    return "other"


def report(rows: list[Row], verdicts: list[Verdict], out: TextIO = sys.stdout) -> float:
    """Print the per-source table and the work lists; return the refused share."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for row, verdict in zip(rows, verdicts, strict=True):
        counts = table[row.source]
        if not row.source_accepts:
            counts["refused-by-source"] += 1
            counts["src-refused, dicecli " + verdict.kind] += 1
            continue
        counts["accepted-by-source"] += 1
        key = verdict.kind
        if key == "different":
            key = "different-noted" if verdict.noted else "different-silent"
        counts[key] += 1
    columns = [
        "accepted-by-source",
        "same",
        "different-noted",
        "different-silent",
        "refused",
        "unknown",
        "timeout",
        "crash",
        "refused-by-source",
    ]
    labels = {
        "accepted-by-source": "accepted",
        "different-noted": "diff-noted",
        "different-silent": "diff-silent",
        "refused-by-source": "src-refuses",
    }
    head = f"{'source':24}" + "".join(f"{labels.get(c, c):>12}" for c in columns)
    print(head, file=out)
    totals: Counter[str] = Counter()
    for source in sorted(table, key=lambda s: -table[s]["accepted-by-source"]):
        counts = table[source]
        totals.update(counts)
        print(f"{source:24}" + "".join(f"{counts[c]:>12}" for c in columns), file=out)
    print(f"{'TOTAL':24}" + "".join(f"{totals[c]:>12}" for c in columns), file=out)
    accepted = totals["accepted-by-source"]
    share = totals["refused"] / accepted if accepted else 0.0
    print(
        f"\nrefused by dicecli: {totals['refused']} of {accepted} notations their own roller "
        f"accepts ({share:.1%}; issue 26 aims at 10% or less)",
        file=out,
    )
    aliases = sum(
        1
        for row, verdict in zip(rows, verdicts, strict=True)
        if row.source_accepts
        and verdict.kind == "refused"
        and kind_of(row.notation, verdict.detail) == "game aliases and words"
    )
    if accepted > aliases:
        print(
            f"without the {aliases} game aliases and words (a roller's own shortcuts such as "
            f"Dice Maiden's sw8): {(totals['refused'] - aliases) / (accepted - aliases):.1%}",
            file=out,
        )
    print(
        f"of the {totals['refused-by-source']} the sources refuse themselves, dicecli accepts "
        f"{totals['refused-by-source'] - totals['src-refused, dicecli refused']}",
        file=out,
    )
    return share


def work_lists(rows: list[Row], verdicts: list[Verdict], out: TextIO = sys.stdout) -> None:
    """The refused forms grouped by kind, and every silent difference with its meaning."""
    refused: dict[str, list[Row]] = defaultdict(list)
    silent: list[tuple[Row, Verdict]] = []
    for row, verdict in zip(rows, verdicts, strict=True):
        if not row.source_accepts:
            continue
        if verdict.kind == "refused":
            refused[kind_of(row.notation, verdict.detail)].append(row)
        elif verdict.kind == "different" and not verdict.noted:
            silent.append((row, verdict))
    print("\nrefused forms by kind (count, then examples)", file=out)
    for kind, group in sorted(refused.items(), key=lambda item: -len(item[1])):
        examples = ", ".join(sorted({f"`{r.notation}` ({r.source})" for r in group})[:12])
        print(f"  {kind}: {len(group)} -- {examples}", file=out)
    print(f"\nsilent differences ({len(silent)})", file=out)
    for row, verdict in silent:
        print(
            f"  [{row.source}] `{row.notation}`: {row.meaning} (equivalent `{row.equivalent}`; "
            f"{verdict.detail})",
            file=out,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a row may take")
    parser.add_argument("--details", type=Path, help="write one verdict per row here (TSV)")
    parser.add_argument("--source", help="only the rows of this source")
    parser.add_argument(
        "--dialect",
        help="read the rows in this dialect, or 'own': each source's own dialect, where "
        "dicecli has one",
    )
    args = parser.parse_args(argv)
    rows = load()
    if args.source:
        rows = [row for row in rows if row.source == args.source]
    verdicts = run(rows, args.timeout, args.dialect)
    report(rows, verdicts)
    work_lists(rows, verdicts)
    if args.details:
        with args.details.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["source", "notation", "source_accepts", "verdict", "noted", "detail"])
            for row, verdict in zip(rows, verdicts, strict=True):
                writer.writerow(
                    [
                        row.source,
                        row.notation,
                        "accepted" if row.source_accepts else "refused-by-source",
                        verdict.kind,
                        verdict.noted,
                        verdict.detail,
                    ]
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
