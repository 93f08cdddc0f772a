"""``dicecli table [FILE] NAME`` (``docs/tables.md``); the REPL's ``table`` is in
:mod:`dicecli.repl.commands`.

The command line draws through a :class:`~dicecli.app.Session` as a roll does, so
``--times``, ``--seed``, ``--given``, ``--plain`` and ``--json`` work the same way, and
the exit status is 2 for a bad file, table or option. ``--odds`` gives each entry's
exact chance instead of drawing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from dicecli.app import ALIGNED_PART, FLUSH_EVERY, RunOptions, Session, Streams, open_session
from dicecli.bundled import example_or_path
from dicecli.errors import DiceError
from dicecli.escape import json_escaped
from dicecli.status import ExitStatus, Terminated
from dicecli.tables.draw import draw
from dicecli.tables.load import check_named_cover, load_book
from dicecli.tables.model import Table, TableBook
from dicecli.tally import Tally

if TYPE_CHECKING:
    from dicecli.results import RollResult

USAGE = "give a table's name (dicecli table NAME), or a table file and a name (FILE NAME)"


def book_and_name(words: list[str]) -> tuple[TableBook, str]:
    """``[NAME]`` (the per-user file) or ``[FILE, NAME]``: the tables and the name."""
    words = [word for word in words if word.strip()]
    if len(words) == 1:
        return load_book(None), words[0]
    if len(words) == 2:
        return load_book(example_or_path(words[0])), words[1]
    got = f" (got {len(words)} words)" if words else ""
    raise DiceError(f"table: {USAGE}{got}")


def run_table(words: list[str], options: RunOptions, streams: Streams, odds: bool) -> ExitStatus:
    """``dicecli table [FILE] NAME``: draw ``times`` times, or show the odds."""
    try:
        book, name = book_and_name(words)
        table = book.table(name)
    except DiceError as error:
        streams.stderr.write(error.reported(options.json))
        return ExitStatus.BAD_INPUT
    typed = "table " + " ".join(words)
    if odds:
        return _show_odds(book, table, options, streams)
    session = open_session(options, streams)
    if session is None:
        return ExitStatus.BAD_INPUT
    tally = Tally()  # running counts for the summary: memory stays flat
    aligned: list[RollResult] = []  # at a terminal, draws are laid out alike in parts
    aligning = session.mode == "terminal" and options.times > 1 and not options.summary
    try:
        for count in range(1, options.times + 1):
            result = draw(book, table.name, session.roller, session.environment, typed)
            if aligning:
                aligned.append(result)
                if len(aligned) == ALIGNED_PART:
                    _write_aligned(session, aligned)
            elif not options.summary:
                session.write_result(result)
            tally.add(result)
            if count % FLUSH_EVERY == 0:
                session.flush()
    except DiceError as error:
        _write_aligned(session, aligned)
        session.report(error)
        return ExitStatus.BAD_INPUT
    except (KeyboardInterrupt, Terminated):
        _write_aligned(session, aligned)
        session.flush()
        raise
    _write_aligned(session, aligned)
    if options.summary or (options.times > 1 and session.mode == "terminal"):
        session.renderer.summary(tally)
    return session.finish()


def _write_aligned(session: Session, results: list[RollResult]) -> None:
    """Write ``results`` laid out alike (badges in a column), and forget them."""
    if results:
        session.renderer.align(results)
        for result in results:
            session.write_result(result)
        results.clear()


def _show_odds(book: TableBook, table: Table, options: RunOptions, streams: Streams) -> ExitStatus:
    from dicecli.tables.odds import table_odds, table_odds_as_dict  # docs/startup.md

    env = options.environment
    try:
        check_named_cover(book.source, table, env)  # d100+CRITS, with --set CRITS=10
    except DiceError as error:
        streams.stderr.write(error.reported(options.json))
        return ExitStatus.BAD_INPUT
    mode = options.mode(streams)
    if mode == "json":
        encoded = json.dumps(table_odds_as_dict(table, env), ensure_ascii=False)
        streams.stdout.write(json_escaped(encoded) + "\n")
        return ExitStatus.OK
    from dicecli.render import make_renderer  # docs/startup.md

    make_renderer(mode, streams.stdout, options.colour()).odds(table_odds(table, env))
    return ExitStatus.OK
