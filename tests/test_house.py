"""The shape of the house: no import cycles, no game named outside its package, trees that
stay plain values, one list of commands, and a fourth game that is one package plus one
registry line."""

from __future__ import annotations

import ast
import functools
import pickle
import re
import subprocess
import sys
import textwrap
import typing
from collections.abc import Iterator, Mapping, Set
from pathlib import Path
from typing import cast

import pytest

import dicecli
from dicecli.cli import command_names, typer_app
from dicecli.command_line import COMMANDS
from dicecli.frozen import field_names
from dicecli.notation.grammar import parse
from dicecli.notation.nodes import Expr, ExprNode
from dicecli.systems import registry

PACKAGE = Path(dicecli.__file__).parent


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed module at ``path``, parsed once for all the tests that read it."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _under_type_checking(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name | ast.Attribute)
        and "TYPE_CHECKING" in ast.unparse(node.test)
    )


@functools.cache
def _imports(path: Path, known: frozenset[str], run_time: bool = False) -> frozenset[str]:
    """The dicecli modules ``path`` imports anywhere in it: in functions, and under
    ``if TYPE_CHECKING`` too, since a cycle that only a type checker follows is still a
    cycle for a reader of the modules; with ``run_time``, those imported when it runs."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if run_time and _under_type_checking(node):
            for child in cast(ast.If, node).orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in known else node.module)
        for inner in ast.iter_child_nodes(node):
            visit(inner)

    visit(_tree(path))
    return frozenset(module for module in found if module in known)


def _cycles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The cycles of ``graph`` that a depth-first walk closes, each as the path that
    leads back to its start: none exactly when the graph has no cycle."""
    cycles: list[list[str]] = []
    done: set[str] = set()
    trail: list[str] = []

    def walk(name: str) -> None:
        trail.append(name)
        for target in sorted(graph.get(name, ())):
            if target in trail:
                cycles.append([*trail[trail.index(target) :], target])
            elif target not in done:
                walk(target)
        trail.pop()
        done.add(name)

    for start in sorted(graph):
        if start not in done:
            walk(start)
    return cycles


def test_frozen_values_come_from_dicecli_frozen_not_dataclasses() -> None:
    """Importing dataclasses (with inspect, ast and dis) and generating its code was
    nearly half of a plain roll's start-up: the package's frozen values are
    ``@dicecli.frozen.frozen`` (plug-ins may use what they like)."""
    importing = []
    for module, path in _modules():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {node.module or ""}
            else:
                continue
            if "dataclasses" in names:
                importing.append(module)
    assert importing == []


def test_no_import_cycles() -> None:
    modules = dict(_modules())
    known = frozenset(modules)
    # Importing a package's module runs the package's __init__ first: that is no edge.
    graph = {name: _imports(path, known) - {name} for name, path in modules.items()}
    assert _cycles(graph) == []


def test_a_cycle_is_found_however_long() -> None:
    ring = {str(number): {str((number + 1) % 60)} for number in range(60)}
    assert _cycles({**ring, "start": {"0"}}) == [[*map(str, range(60)), "0"]]
    assert _cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


SYSTEMS_CORE = ("registry", "declaration", "guard", "listing")
"""The modules of ``dicecli.systems`` that are no game."""


def _stage(module: str) -> str:
    """The part of the house a module belongs to: a stage folder (``dicecli.notation``),
    one game's package, or a top-level module on its own."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "systems" and parts[2] not in SYSTEMS_CORE:
        return ".".join(parts[:3])
    if len(parts) >= 2 and parts[1] in ("notation", "rolling", "probability", "render", "repl"):
        return ".".join(parts[:2])
    if len(parts) >= 2 and parts[1] == "systems":
        return "dicecli.systems"
    return module


def _stage_graph() -> dict[str, set[str]]:
    modules = dict(_modules())
    known = frozenset(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        for target in _imports(path, known):
            if _stage(name) != _stage(target):
                graph.setdefault(_stage(name), set()).add(_stage(target))
    return graph


def test_no_import_cycles_between_the_stages() -> None:
    """The same between stage folders, games and top-level modules, imports for type
    checkers included: data flows one way when the package runs, and a reader follows
    the types one way too. (The stages that hand a game's line to its game do not
    import the registry, whose declarations name their types: the games are handed to
    them, :mod:`dicecli.handed_games`.)"""
    assert _cycles(_stage_graph()) == []


def _game_words() -> dict[str, str]:
    """Words that name a game or its own things -> the package allowed to say them."""
    words: dict[str, str] = {}
    for game in registry.games():
        package = game.rules.__module__
        for word in (game.name, *game.keywords, *game.words):
            words[word.casefold()] = package
    return words


def test_no_module_outside_a_games_package_names_the_game() -> None:
    words = _game_words()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    found = []
    for name, path in _modules():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in pattern.finditer(line):
                package = words[match.group(1).casefold()]
                inside = name == package or name.startswith(package + ".")
                registry_line = name == registry.__name__ and line.strip() == f'"{package}",'
                if not inside and not registry_line:
                    found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_every_expression_node_is_in_the_union_the_walkers_match() -> None:
    assert set(typing.get_args(Expr)) == set(ExprNode.__subclasses__())


@pytest.mark.parametrize(
    "line", ["2d6+5", "4d6r1!kh3", "{2d6, d8}kh1 + STR", "10% of d20[fire]", "wfb ld 8"]
)
def test_a_rolled_tree_stays_a_plain_value(line: str) -> None:
    tree = parse(line)
    dicecli.roll(line, seed=1, values={"STR": 2})
    copy = pickle.loads(pickle.dumps(tree))
    assert copy == tree
    assert hash(copy) == hash(tree)
    fields = set(field_names(tree.body))
    assert vars(tree.body).keys() <= fields  # nothing cached on the node


def test_the_fast_path_knows_the_commands_of_the_typer_app() -> None:
    assert set(COMMANDS) == set(command_names())
    assert {command.name for command in typer_app().registered_commands} == set(COMMANDS)


FOURTH_GAME = '''
"""Coin: a fourth game, one package."""

from dicecli.game import Game, HelpTopic, Rules


def rules() -> Rules:
    from coin_game.system import CoinRules

    return CoinRules()


GAME = Game(
    api_version=1,
    name="coin",
    keywords=("coin",),
    example="coin flip",
    rules=rules,
    completions=("flip",),
    help=HelpTopic("Coin:", (("coin flip", "heads (1) or tails (0)"),)),
)
'''

FOURTH_SYSTEM = """
from dataclasses import dataclass
from typing import ClassVar

import pyparsing as pp

from dicecli.game import (
    Check, DiceShown, Die, Distribution, Face, Odds, RollResult, Rules, keyword, whole_line,
)


@dataclass(frozen=True)
class Flip(Check):
    system: ClassVar[str] = "coin"

    def __str__(self) -> str:
        return "coin flip"


COIN = Die("coin", (Face("tails", 0), Face("heads", 1)))


class CoinRules(Rules):
    def line_grammar(self):
        form = pp.Suppress(keyword("coin")) - keyword("flip")
        form.set_parse_action(lambda t: Flip())
        return whole_line(form)

    def roll(self, check, roller, env, text):
        die = roller.roll(COIN)
        return RollResult(text, str(check), die.value, (die,), (DiceShown((die,)),))

    def odds(self, check, env, text):
        return Odds(text, str(check), Distribution.uniform([0, 1]))

"""


def test_a_fourth_game_is_one_package_and_one_registry_line(tmp_path: Path) -> None:
    package = tmp_path / "coin_game"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(FOURTH_GAME))
    (package / "system.py").write_text(textwrap.dedent(FOURTH_SYSTEM))
    script = textwrap.dedent(
        """
        import sys
        from dicecli.systems import registry
        registry.BUILT_IN = (*registry.BUILT_IN, "coin_game")  # the one registry line
        from dicecli.__main__ import main
        from dicecli.repl.completion import completions
        from dicecli.repl.commands import handle_line
        from dicecli.repl.state import start_state
        from dicecli.rolling.sources import GivenSource, Roller
        main(["--given", "heads", "coin flip"])
        main(["odds", "--plain", "coin flip"])
        state = start_state(Roller(GivenSource([])))
        print("completion:", completions(state, "coi"), completions(state, "coin f"))
        print("help:", handle_line(state, "help coin")[1][0].text)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "1\tcoin flip\t[heads]"
    assert "0\t1/2\t50.00%\t100.00%" in lines
    assert any(line.startswith("completion: ['coin'] [") and "'flip'" in line for line in lines)
    assert "help: Coin:" in lines


def test_the_package_imports_its_api_on_first_use() -> None:
    # dicecli/__init__.py loads nothing of the stages (the program pauses the collector
    # first, docs/startup.md); the public names, and the submodules as attributes, come
    # when asked.
    code = (
        "import sys, dicecli\n"
        "print('dicecli.rolling.evaluate' in sys.modules)\n"
        "print(dicecli.roll('2d6', given='1,2').total, dicecli.errors.DiceError.__name__)\n"
        "try:\n    dicecli.rol\nexcept AttributeError as error:\n    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines() == [
        "False",
        "3 DiceError",
        "module 'dicecli' has no attribute 'rol'",
    ]


STARTUP_PAGE = "docs/startup.md"


def _unexplained_imports_on_first_use(source: str) -> list[int]:
    """Lines of imports inside functions that point to no explanation: each such import
    (or the group of imports it starts) says ``docs/startup.md`` on its line or on the
    line above, where the page says why a module waits for its first use."""
    lines = source.splitlines()
    found: set[tuple[int, int]] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found.add((inner.lineno, inner.end_lineno or inner.lineno))
    unexplained = []
    previous_end = -1
    for start, end in sorted(found):
        in_group = start == previous_end + 1
        previous_end = end
        if in_group:
            continue
        near = "\n".join(lines[max(start - 2, 0) : end])
        if STARTUP_PAGE not in near:
            unexplained.append(start)
    return unexplained


def test_every_import_on_first_use_points_to_the_startup_page() -> None:
    unexplained = [
        f"{module}:{line}"
        for module, path in _modules()
        for line in _unexplained_imports_on_first_use(path.read_text(encoding="utf-8"))
    ]
    assert unexplained == []


def test_an_unexplained_import_on_first_use_is_found() -> None:
    source = "def f():\n    import json\n\n\ndef g():\n    import csv  # docs/startup.md\n"
    assert _unexplained_imports_on_first_use(source) == [2]
