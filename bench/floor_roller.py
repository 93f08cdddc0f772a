"""The floor for a Python roller of piped ``NdS+k`` lines: a regular expression, a
random source and an output line, nothing else (no checks, no errors, no tree), writing
what ``dicecli`` writes into a pipe (total, line, dice). ``bench_issue25`` times it
beside dicecli on the same lines in the same run: how far dicecli is from what any
Python roller pays. Usage: ``python floor_roller.py [--seed N] < lines``."""

import random
import re
import sys

TERM = re.compile(r"([-+]?)\s*(?:(\d*)[dD](\d+)|(\d+))")


def main() -> None:
    seed = int(sys.argv[2]) if sys.argv[1:2] == ["--seed"] else None
    draw = random.Random(seed).choices
    write = sys.stdout.write
    for line in sys.stdin:
        text, total, shown = line.strip(), 0, ""
        for sign, count, sides, number in TERM.findall(text):
            if sides:
                faces = draw(range(1, int(sides) + 1), k=int(count or 1))
                value = sum(faces)
                term = f"[{', '.join(map(str, faces))}]"
            else:
                value = int(number)
                term = number
            total += -value if sign == "-" else value
            shown += f" {sign} {term}" if sign else term
        write(f"{total}\t{text}\t{shown}\n")


if __name__ == "__main__":
    main()
