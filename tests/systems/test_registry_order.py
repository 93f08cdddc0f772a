"""The registry imports built-in games' declarations in ``BUILT_IN`` order, only until a
line's keyword is found: a game added at the end costs nothing to the lines of the games
before it (their start-up stays as it was)."""

from __future__ import annotations

import subprocess
import sys

from dicecli.systems import registry


def modules_after(code: str) -> set[str]:
    program = f"import sys\n{code}\nprint(*sorted(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_a_keyword_imports_the_declarations_up_to_its_game_only() -> None:
    first, *later = registry.BUILT_IN
    keyword = registry.game_named(registry.games()[0].name).keywords[0]
    loaded = modules_after(
        f"from dicecli.systems import registry\nregistry.game_for_keyword({keyword!r})"
    )
    assert first in loaded
    assert loaded.isdisjoint(later)


def test_an_unknown_word_still_reads_every_declaration() -> None:
    loaded = modules_after(
        "from dicecli.systems import registry\nassert registry.game_for_keyword('nosuch') is None"
    )
    assert set(registry.BUILT_IN) <= loaded


def test_the_order_of_lookups_does_not_change_the_answers() -> None:
    every = {keyword: game.name for keyword, game in registry.keywords().items()}
    registry.reset()
    try:
        for keyword in reversed(list(every)):
            game = registry.game_for_keyword(keyword)
            assert game is not None
            assert game.name == every[keyword]
        assert registry.game_named(registry.games()[-1].name).name == registry.games()[-1].name
    finally:
        registry.reset()


def test_a_joined_keyword_needs_digits_after_it() -> None:
    joined = [(game, word) for game in registry.games() for word in game.joined]
    assert joined  # some built-in game declares one
    game, word = joined[0]
    found = registry.game_for_keyword(f"{word}12")
    assert found is not None
    assert found.name == game.name
    assert registry.game_for_keyword(f"{word}x12") is None
    assert registry.game_for_keyword(f"{word}12x") is None


def test_a_counted_keyword_follows_digits() -> None:
    # Dice Maiden's 4cod: the pool's count, then the keyword and what the game reads
    counted = [(game, word) for game in registry.games() for word in game.counted]
    assert counted  # some built-in game declares one
    game, word = counted[0]
    for first in (f"4{word}", f"12{word}8", f"4{word.upper()}r"):
        found = registry.game_for_keyword(first)
        assert found is not None
        assert found.name == game.name
    assert registry.game_for_keyword(f"x4{word}") is None
    assert registry.game_for_keyword(f"4x{word}") is None
    assert registry.game_for_keyword("4d6") is None
