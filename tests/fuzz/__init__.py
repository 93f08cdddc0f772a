"""The fuzzing suite (docs/limits.md): hostile inputs for the API, the command line,
the REPL and the file loaders. The short profile runs with the tests; the long one is
``python tests/fuzz/long.py`` (see its docstring)."""
