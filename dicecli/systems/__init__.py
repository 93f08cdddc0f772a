"""The games: one package per game, and the registry that finds them.

- :mod:`dicecli.systems.registry`: what a game declares (:class:`~.registry.Game`), the
  protocol its ``SYSTEM`` object satisfies, the list of built-in games and the plug-ins
  found through the ``dicecli.games`` entry point;
- one package per built-in game (listed in :data:`~.registry.BUILT_IN`), on one
  template (``nodes``, ``grammar``, ``rules``, ``roll``, ``odds``, ``system``, and
  ``dice`` where the game has its own). Each package's ``__init__`` is the game's
  declaration.

Nothing outside a game's package names that game: the grammar, the CLI, the REPL and the
renderers read the registry. How to write a game: ``docs/games.md``.
"""
