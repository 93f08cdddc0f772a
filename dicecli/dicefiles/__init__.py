"""Dice files: dice of your own, by name, with numbers or symbols (``docs/dice.md``).

A dice file (TOML) defines dice by name (``[Boost]``, rolled with ``3dBoost``), their
faces numbers, symbols or both, and which symbols cancel each other. One job per
module:

- :mod:`~dicecli.dicefiles.model`: the frozen values a file becomes;
- :mod:`~dicecli.dicefiles.load`: finding, reading and checking a file, every mistake
  one error naming the file, the line and the die;
- :mod:`~dicecli.dicefiles.symbols`: counting and netting the symbols a roll shows.

The exact chances of each symbol count are the odds stage's
(:mod:`dicecli.probability.symbols`).

The rolling itself is the evaluator's (:mod:`dicecli.rolling.evaluate`): a die of a
dice file is a :class:`~dicecli.notation.dice.Die` like any other. A game may read its
own dice from the dice in force (:attr:`dicecli.environment.Environment.dice`).
"""
