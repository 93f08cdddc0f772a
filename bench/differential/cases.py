"""The differential run's cases: a seeded generator of what a player, a script or a
program asks of dicecli, in five kinds and a sample of real processes.

Case ``i`` of seed ``s`` depends on ``(s, i)`` alone (its own ``random.Random``), so a
run can be resumed, extended or cut into batches without changing any case. A case is
a plain JSON-able dict:

- ``api``: ``dicecli.roll`` (with a seed or given faces), ``parse``, ``odds`` or
  ``reroll``, called in a worker process (``op``, ``text``, keyword arguments);
- ``cli``: one argument vector run through the version's entry function, its stdout,
  stderr and exit status captured (``argv``, ``stdin``);
- ``pipe``: many lines piped into one run (``argv`` with no roll, ``stdin``);
- ``repl``: a script of REPL lines fed to ``dicecli repl`` through a pipe;
- ``odds``: an ``odds`` command line (``argv``);
- ``proc``: a ``cli``, ``pipe`` or ``odds`` case run as a real process.

Only the standard library: the driver imports this module under any interpreter.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent

Case = dict[str, Any]

KIND_WEIGHTS = (("api", 24), ("cli", 30), ("pipe", 12), ("repl", 10), ("odds", 24))
"""How often each kind is drawn (a case in every ``PROCESS_EVERY`` is a process)."""

PROCESS_EVERY = 125
"""Case ``i`` with ``i % PROCESS_EVERY == 0`` runs as a real process: 400 in 50,000."""

FILES = ("tables.toml", "genesys.toml", "character.toml", "average.toml", "d100.toml")
"""The fixtures (``fixtures/``) a case may name; the worker runs in a copy of them."""

OLD_GAMES = (
    "alkemy 8 vs 15",
    "alkemy {a} vs {t}",
    "alkemy {a} vs {t} +{s}bonus",
    "alkemy {a} vs {t} +{s}penalty",
    "alkemy {a} vs {t} yellow",
    "alkemy {a} red vs {t}",
    "alkemy {a} vs {t} +2bonus +1penalty",
    "alkemy {a} vs alkemy {b}",
    "alkemy Mind vs {t}",
    "alkemy {a} vs {t} # climb",
    "wfb ld {ld}",
    "wfb ld Ld",
    "wfb artillery",
    "wfb artillery + {s}",
    "wfb 2d6 + artillery",
    "wfb scatter",
    "wfb scatter 2d6",
    "wfb {p}% of {n}",
    "wfb allocate {s} among {b}",
    "wfb allocate Champion Musician Banner",
    "wfb break test ld {ld} - {s}",
    "wfb rolloff",
    "wfb 2D6/2",
    "wfb ld {ld} reroll",
    "age {m} vs {dc}",
    "age STR+{s} vs {dc}",
    "age {m} +focus vs {dc}",
    "age {m} vs hard",
    "age {m} vs {dc} until {s}",
    "age {m} vs age {b}",
    "age DEX+1+focus vs hard",
    "age {m} vs {dc} stunt",
    "age {m} vs {dc} max {s}",
)
"""Lines of the three games c457784 knows (``{x}`` filled with small numbers)."""

NEW_GAMES = (
    "dnd attack +{s} vs {dc}",
    "dnd attack +{s} adv vs {dc}",
    "dnd check +{s} vs {dc}",
    "dnd save +{s} vs {dc}",
    "dnd damage 2d6+{s} crit",
    "dnd death",
    "dnd stats",
    "dnd5e +{s} vs {dc}",
    "coc {pc}",
    "coc {pc} hard",
    "coc {pc} bonus",
    "coc {pc} vs coc {pc}",
    "coc7 {pc} penalty",
    "blades {b}",
    "blades resist {b}",
    "bitd {b}",
    "fate +{s}",
    "fate +{s} vs Good",
    "fate 4dF+{s}",
    "cod {b}",
    "cod {a} 9-again rote",
    "nwod {a}",
    "sr {a}",
    "sr {a} edge",
    "sr {a} vs {s} limit {b}",
    "sr{a}",
    "shadowrun {a}",
    "yz {b} {s} 1",
    "yz {b} {s} 1 push",
    "yze base {b} skill {s} gear 1",
    "ex {a}",
    "ex{a} vs {s}",
    "exalted {a}d10",
    "l5r {a}k{s}",
    "l5r {a}k{s} vs {dc} raises 1",
    "{a}cod",
)
"""Lines of the nine games that main added (issue 27): keywords c457784 refused or read
as names."""

HOSTILE = (
    "2d6 # \x1b[2J\x1b[H",
    "2d6[\x1bc]",
    "2d6 # \x1b]0;pwned\x07",
    "5\x1f% of 10",
    "5\x1c% of 10",
    "1d20 # \u009b31m red",
    "d6 # \x7f del",
    "3d6[\x1b[31mred\x1b[0m] + 2",
    "2d6 # caf\u00e9 \u2264 \u26a0",
    "help \x1b]0;x\x07",
)
"""Lines with control characters: issue 24 escapes what c457784 wrote raw."""

WORDS = (
    "help",
    "help notation",
    "help alkemy",
    "help wfb",
    "help age",
    "help odds",
    "help repl",
    "help dnd",
    "help nosuch",
    "vars",
    "history",
    "again",
    "!!",
    "reroll",
    "unlet x",
    "quit",
    "foo",
    "",
    "   ",
    "# only a comment",
    ";",
    "let",
    "let x",
    "let x = ",
    "odds",
)
"""Commands and odd words for REPL scripts and piped lines."""


def _peer_notations() -> tuple[str, ...]:
    """Other rollers' notations (``bench/peers/notations.tsv``) and the bench corpus."""
    lines: list[str] = []
    peers = BENCH / "peers" / "notations.tsv"
    if peers.exists():
        with peers.open(encoding="utf-8", newline="") as file:
            for row in csv.DictReader(file, delimiter="\t"):
                notation = (row.get("notation") or "").strip()
                if notation and "\n" not in notation:
                    lines.append(notation)
    corpus = BENCH / "corpus.txt"
    if corpus.exists():
        lines.extend(line for line in corpus.read_text(encoding="utf-8").splitlines() if line)
    return tuple(lines)


PEERS = _peer_notations()

SIDES = ("4", "6", "6", "8", "10", "12", "20", "20", "100", "%", "F", "2", "3", "7")


def _dice(rng: random.Random) -> str:
    """One dice term with perhaps a modifier."""
    count = rng.choice(("", "1", "2", "3", "4", "5", "6", "8", "10", str(rng.randint(1, 30))))
    die = rng.choice(("d", "d", "d", "D"))
    sides = rng.choice(SIDES)
    term = f"{count}{die}{sides}"
    if rng.random() < 0.1:
        term = f"({rng.randint(1, 3)}d{rng.choice((2, 3, 4))}){die}{rng.choice((4, 6, 8))}"
    if rng.random() < 0.45 and sides != "F":
        term += _modifier(rng)
        if rng.random() < 0.15:
            term += _modifier(rng)
    return term


def _condition(rng: random.Random) -> str:
    return rng.choice(("", "<", ">", "<=", ">=", "=", "!=")) + str(rng.randint(1, 7))


def _modifier(rng: random.Random) -> str:
    kind = rng.randrange(14)
    if kind == 0:
        return f"kh{rng.randint(1, 3)}"
    if kind == 1:
        return f"kl{rng.randint(1, 3)}"
    if kind == 2:
        return f"dl{rng.randint(1, 2)}"
    if kind == 3:
        return f"dh{rng.randint(1, 2)}"
    if kind == 4:
        return rng.choice(("!", "!!", "!p")) + rng.choice(("", "", ">5", "=6", ">=4"))
    if kind == 5:
        return rng.choice(("r", "ro", "r1", "ro1", "r<3", "ro<2", "rr1"))
    if kind == 6:
        return rng.choice((">=", ">", "<", "=", "<=")) + str(rng.randint(1, 12))
    if kind == 7:
        return f">={rng.randint(2, 8)}f1"
    if kind == 8:
        return rng.choice(("cs20", "cf1", "cs>=19", "cs>5"))
    if kind == 9:
        return rng.choice(("u", "uo", "u>=4"))
    if kind == 10:
        return rng.choice(("min2", "max5", "min3", "max4"))
    if kind == 11:
        return rng.choice(("k1", "d1", "k2"))
    if kind == 12:
        return " " + rng.choice(("kh3", "kl1", "dl1"))
    return rng.choice(("s", "sa", "sd", "ds6"))


def _atom(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if roll < 0.55:
        return _dice(rng)
    if roll < 0.75:
        return str(rng.choice((0, 1, 2, 3, 5, 10, rng.randint(0, 100))))
    if roll < 0.82:
        return rng.choice(("STR", "DEX", "Ld", "Mind", "attack", "x", "bonus", "CRITS"))
    if roll < 0.9 and depth < 2:
        return f"({_arithmetic(rng, depth + 1)})"
    if roll < 0.95 and depth < 2:
        inner = ", ".join(_arithmetic(rng, depth + 1) for _ in range(rng.randint(1, 3)))
        return "{" + inner + "}" + rng.choice(("", "kh1", "kl1", ">=10", "dl1"))
    return f"{rng.randint(1, 100)}% of {rng.randint(1, 200)}"


def _arithmetic(rng: random.Random, depth: int = 0) -> str:
    text = _atom(rng, depth)
    for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 3))):
        op = rng.choice(("+", "+", "-", "*", "/", " + ", " - "))
        text += op + _atom(rng, depth)
    return text


def expression(rng: random.Random) -> str:
    """A line of the core notation: arithmetic on dice, perhaps a label, a check, a
    repetition, several rolls or a comment."""
    text = _arithmetic(rng)
    if rng.random() < 0.08:
        text += f"[{rng.choice(('fire', 'cold', 'hit', 'x y'))}]"
    if rng.random() < 0.2:
        target = rng.randint(1, 30)
        text += rng.choice((f" >= {target}", f" vs {target}", f" > {target}", f">={target}"))
    if rng.random() < 0.06:
        text = f"{rng.randint(1, 6)} x {text}"
    if rng.random() < 0.06:
        text += "; " + _arithmetic(rng)
    if rng.random() < 0.06:
        text += " # " + rng.choice(("climb", "attack roll", "é ≤ 3", "a # b"))
    if rng.random() < 0.05:
        text = text.upper()
    return text


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        a=rng.randint(1, 12),
        b=rng.randint(0, 6),
        s=rng.randint(0, 5),
        t=rng.randint(5, 25),
        ld=rng.randint(2, 12),
        p=rng.choice((10, 25, 50, 90)),
        n=rng.randint(1, 60),
        m=rng.randint(-2, 5),
        dc=rng.randint(5, 25),
        pc=rng.randint(1, 99),
    )


def _mutate(rng: random.Random, text: str) -> str:
    """The line with a typing slip: a character added, dropped, doubled or cut short."""
    if not text:
        return rng.choice("d6+-x%!")
    place = rng.randrange(len(text) + 1)
    kind = rng.randrange(5)
    if kind == 0:
        extra = rng.choice("d+-*/()[]{}<>=!%#;,.kKhHlLrRx vs0123456789\t")
        return text[:place] + extra + text[place:]
    if kind == 1:
        return text[:place] + text[place + 1 :]
    if kind == 2:
        return text[:place] + text[place:][:1] * 2 + text[place + 1 :]
    if kind == 3:
        return text[:place]
    return text[place:] + text[:place]


def line(rng: random.Random) -> str:
    """One line of any sort a roll may carry."""
    roll = rng.random()
    if roll < 0.42:
        text = expression(rng)
    elif roll < 0.56:
        text = _fill(rng, rng.choice(OLD_GAMES))
    elif roll < 0.64:
        text = _fill(rng, rng.choice(NEW_GAMES))
    elif roll < 0.8 and PEERS:
        text = rng.choice(PEERS)
    elif roll < 0.83:
        text = rng.choice(HOSTILE)
    elif roll < 0.87:
        text = rng.choice(("2dAbility + 1dDifficulty", "2dability + 1dProficiency", "3dBoost"))
        text += rng.choice(("", " + 2dSetback", " + 1dChallenge", "", " >= 1"))
    elif roll < 0.9:
        text = rng.choice(("2dAverage + 1", "4dAverage kh2", "3dAverage r", "dAverage ro"))
    else:
        text = _mutate(
            rng, expression(rng) if rng.random() < 0.6 else _fill(rng, rng.choice(OLD_GAMES))
        )
    if rng.random() < 0.06:
        text = _mutate(rng, text)
    return text


def _words(rng: random.Random, text: str) -> list[str]:
    """``text`` as the shell passes it: one quoted argument, or split at spaces."""
    if rng.random() < 0.55:
        return [text]
    return [word for word in text.split(" ") if word] or [text]


def _roll_options(rng: random.Random, seeded: bool = True) -> list[str]:
    options: list[str] = []
    if seeded:
        options += ["--seed", str(rng.randint(0, 10**6))]
    if rng.random() < 0.15:
        options += ["-n" if rng.random() < 0.5 else "--times", str(rng.choice((2, 3, 5, 10)))]
    if rng.random() < 0.2:
        options.append(rng.choice(("--plain", "--json")))
    if rng.random() < 0.1:
        options += ["--set", rng.choice(("STR=3", "x=2", "attack=1d20+5", "Ld=8", "CRITS=10"))]
    if rng.random() < 0.06:
        options += ["--character", "character.toml"]
    if rng.random() < 0.06:
        options += ["--dice-file", rng.choice(("genesys.toml", "average.toml"))]
    if rng.random() < 0.02:
        options += ["--setting", rng.choice(("age.max_rolls=200", "nosuch.x=1", "age.max_rolls=x"))]
    if rng.random() < 0.03:
        options.append("--odds")
    rng.shuffle(options) if rng.random() < 0.1 else None
    return options


def _given(rng: random.Random) -> str:
    return ",".join(str(rng.randint(1, 6)) for _ in range(rng.randint(1, 8)))


BAD_ARGVS = (
    ["--seed"],
    ["2d6", "--seed"],
    ["2d6", "--seed", "x"],
    ["2d6", "--times", "0"],
    ["2d6", "--times", "-1"],
    ["2d6", "-n"],
    ["--nosuch", "2d6"],
    ["2d6", "--given"],
    ["--help"],
    ["-h"],
    ["roll", "--help"],
    ["odds", "--help"],
    ["table", "--help"],
    ["repl", "--help"],
    ["help"],
    ["--version"],
    ["-V"],
    ["roll"],
    ["odds"],
    ["table"],
    ["table", "nosuch"],
    ["table", "tables.toml"],
    ["table", "nosuch.toml", "x"],
    ["examples"],
    ["help", "grammar"],
    ["help", "dice"],
    ["help", "tables"],
    ["help", "json"],
    ["help", "dnd"],
    ["help", "coc"],
    ["help", "nosuch"],
    ["--color", "never", "2d6", "--seed", "1"],
    ["--summary", "-n", "5", "2d6", "--seed", "1"],
    ["2d6", "--json", "--seed"],
    ["--json", "2d6+"],
    ["--json", "nosuch"],
    ["--plain", "2d6+"],
    ["--", "-15"],
    ["--15"],
    ["-15"],
    ["1d20+5", "=", "15"],
    ["--character", "nosuch.toml", "STR"],
    ["--dice-file", "nosuch.toml", "2d6"],
    ["--set", "x", "2d6"],
    ["--set", "x=", "2d6"],
    ["--given", "7", "2d6"],
    ["--given", "3,4,5", "2d6"],
    ["--given", "a", "2d6"],
)
"""Argument vectors that end in help, a version, a guide or an error."""


def _cli(rng: random.Random) -> Case:
    roll = rng.random()
    if roll < 0.12:
        return {"argv": list(rng.choice(BAD_ARGVS)), "stdin": ""}
    if roll < 0.22:
        name = rng.choice(("encounters", "loot", "gems", "nosuch"))
        source = rng.choice((["tables.toml", name], ["tables.toml", name], ["d100.toml", "wild"]))
        argv = ["table", *source, "--seed", str(rng.randint(0, 10**6))]
        if rng.random() < 0.25:
            argv.append("--odds")
        if rng.random() < 0.2:
            argv += ["-n", str(rng.randint(2, 4))]
        if rng.random() < 0.2:
            argv.append(rng.choice(("--plain", "--json")))
        return {"argv": argv, "stdin": ""}
    text = line(rng)
    if roll < 0.32:
        options = ["--given", _given(rng)] + (["--plain"] if rng.random() < 0.3 else [])
    else:
        options = _roll_options(rng)
    words = _words(rng, text)
    if rng.random() < 0.15:
        argv = ["roll", *words, *options]
    elif rng.random() < 0.5:
        argv = [*options, *words]
    else:
        argv = [*words, *options]
    return {"argv": argv, "stdin": ""}


def _pipe(rng: random.Random) -> Case:
    lines = [
        line(rng) if rng.random() < 0.9 else rng.choice(WORDS) for _ in range(rng.randint(4, 30))
    ]
    argv = ["--seed", str(rng.randint(0, 10**6))]
    if rng.random() < 0.3:
        argv.append(rng.choice(("--plain", "--json")))
    if rng.random() < 0.1:
        argv += ["--set", "STR=2"]
    if rng.random() < 0.1:
        argv = ["roll", *argv]
    ending = "" if rng.random() < 0.1 else "\n"
    return {"argv": argv, "stdin": "\n".join(lines) + ending}


REPL_COMMANDS = (
    "let x = {n}",
    "let attack = 1d20+{n}",
    "let hit = alkemy 8 vs 15",
    "let STR = {n}",
    "attack",
    "x + 2d6",
    "hit",
    "vars",
    "unlet x",
    "again",
    "!!",
    "reroll",
    "history",
    "odds 2d6+{n}",
    "odds {line}",
    "odds {line} --full",
    "load character.toml",
    "load genesys.toml",
    "load nosuch.toml",
    "table tables.toml encounters",
    "table odds tables.toml loot",
    "help",
    "help {topic}",
    "?",
    "STR+2",
    "age STR+2 vs 13",
    "quit",
)


def _repl(rng: random.Random) -> Case:
    script = []
    for _ in range(rng.randint(3, 18)):
        if rng.random() < 0.5:
            script.append(line(rng))
        else:
            command = rng.choice(REPL_COMMANDS)
            script.append(
                command.format(
                    n=rng.randint(0, 9),
                    line=expression(rng),
                    topic=rng.choice(
                        ("notation", "alkemy", "wfb", "age", "odds", "repl", "dnd", "x")
                    ),
                )
            )
    argv = ["repl", "--seed", str(rng.randint(0, 10**6))]
    if rng.random() < 0.2:
        argv.append(rng.choice(("--plain", "--json")))
    if rng.random() < 0.1:
        argv += ["--character", "character.toml"]
    return {"argv": argv, "stdin": "\n".join(script) + "\n"}


def _odds(rng: random.Random) -> Case:
    roll = rng.random()
    if roll < 0.1:
        source = rng.choice(
            (["tables.toml", "encounters"], ["tables.toml", "loot"], ["d100.toml", "wild"])
        )
        argv = ["table", *source, "--odds"]
    else:
        text = line(rng) if rng.random() < 0.7 else expression(rng)
        argv = ["odds", *_words(rng, text)]
        if rng.random() < 0.15:
            argv += ["--at-least", str(rng.randint(1, 20))]
        if rng.random() < 0.08:
            argv += ["--at-most", str(rng.randint(1, 20))]
        if rng.random() < 0.25:
            argv.append(rng.choice(("--plain", "--json", "--full")))
        if rng.random() < 0.06:
            argv += ["--set", rng.choice(("STR=3", "x=2", "attack=1d20+5"))]
        if rng.random() < 0.04:
            argv += ["--dice-file", "genesys.toml"]
    return {"argv": argv, "stdin": ""}


def _api(rng: random.Random) -> Case:
    op = rng.choices(("roll", "parse", "odds", "reroll", "given"), (40, 20, 25, 5, 10))[0]
    text = line(rng) if rng.random() < 0.8 else expression(rng)
    case: Case = {"op": op, "text": text, "seed": rng.randint(0, 10**6)}
    if op == "given":
        case["given"] = _given(rng)
    if rng.random() < 0.1:
        case["values"] = {rng.choice(("STR", "x", "Ld", "Mind")): rng.randint(-2, 9)}
    if op == "odds" and rng.random() < 0.2:
        case["at_least"] = rng.randint(1, 20)
    return case


def case(seed: int, index: int) -> Case:
    """Case ``index`` of the run seeded with ``seed``."""
    rng = random.Random(f"{seed}:{index}")
    if index % PROCESS_EVERY == 0:
        inner = rng.choice((_cli, _cli, _pipe, _odds))(rng)
        return {"id": index, "kind": "proc", **inner}
    kind = rng.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
    maker = {"api": _api, "cli": _cli, "pipe": _pipe, "repl": _repl, "odds": _odds}[kind]
    return {"id": index, "kind": kind, **maker(rng)}
