"""Roll tables: random encounters, loot, wild magic (``docs/tables.md``).

A table file (TOML) holds tables, each rolled with a die expression of dicecli's own
notation (``d100``, ``2d6``) or drawn by weights, with entries that may roll dice inline
(``[[2d4]] goblins``) and draw from another table (``[[table: loot]]``). One job per
module:

- :mod:`~dicecli.tables.model`: the frozen values a file becomes;
- :mod:`~dicecli.tables.load`: finding, reading and checking a file, every mistake found
  before anything is rolled;
- :mod:`~dicecli.tables.draw`: drawing from a table with the session's dice;
- :mod:`~dicecli.tables.odds`: each entry's exact chance;
- :mod:`~dicecli.tables.command`: ``dicecli table`` and the REPL's ``table``.

Nothing here is imported by a plain roll.
"""
