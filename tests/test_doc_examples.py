"""The Python examples in the docs run as written (the docs are part of the product)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[1] / "docs"
EXAMPLE = re.compile(r"```python\n(>>> .*?)```", re.S)


def _examples() -> list[tuple[str, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for number, block in enumerate(EXAMPLE.findall(page.read_text(encoding="utf-8"))):
            found.append((f"{page.name}[{number}]", block))
    return found


@pytest.mark.parametrize(("name", "block"), _examples(), ids=[name for name, _ in _examples()])
def test_a_doc_example_gives_what_it_shows(name: str, block: str) -> None:
    test = doctest.DocTestParser().get_doctest(block, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries > 0


def test_the_odds_example_uses_the_public_api_only() -> None:
    (_, block) = next(example for example in _examples() if example[0].startswith("odds.md"))
    imported = re.findall(r"(?:from|import) (dicecli[.\w]*)", block)
    assert imported == ["dicecli"]
