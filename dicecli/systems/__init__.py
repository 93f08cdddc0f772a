"""The games: one package per game, and the registry that finds them.

- :mod:`dicecli.systems.declaration`: what a game declares (:class:`~.declaration.Game`)
  and the protocol its ``SYSTEM`` object satisfies;
- :mod:`dicecli.systems.registry`: the list of built-in games, the plug-ins found
  through the ``dicecli.games`` entry point, and looking them up;
- one package per built-in game (listed in :data:`~.registry.BUILT_IN`), on one
  template (``nodes``, ``grammar``, ``rules``, ``roll``, ``odds``, and ``dice`` where the
  game has its own). Each package's ``__init__`` holds the game's declaration ``GAME``
  and its ``SYSTEM``.

Nothing outside a game's package names that game: the CLI, the REPL and the renderers read
the registry, and the grammar, rolling and odds stages are handed the games
(:mod:`dicecli.handed_games`). How to write a game: ``docs/games.md``.
"""
