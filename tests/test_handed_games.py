"""The notation, rolling and odds stages ask the games they are handed
(:mod:`dicecli.handed_games`), not the registry: the entry module hands them the
registry's games when the package is imported (docs/startup.md)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import pyparsing as pp
import pytest

from dicecli import handed_games
from dicecli.entry import stage_games
from dicecli.environment import EMPTY_ENVIRONMENT, Environment
from dicecli.notation import chat_text, common_lines, grammar
from dicecli.notation.nodes import Check
from dicecli.probability import report
from dicecli.probability.distribution import Odds
from dicecli.rolling import evaluate
from dicecli.rolling.games import CheckStep
from dicecli.rolling.sources import GivenSource, Roller
from dicecli.systems import registry

LINE = "wfb ld 8"
T = TypeVar("T")


class RecordingGames:
    """The registry's games, noting what each stage asks of them."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, object]] = []

    def may_be_keyword(self, word: str) -> bool:
        self.asked.append(("may_be_keyword", word))
        return registry.STAGE_GAMES.may_be_keyword(word)

    def claims(self, word: str) -> bool:
        self.asked.append(("claims", word))
        return registry.STAGE_GAMES.claims(word)

    def line_grammar(self, word: str) -> pp.ParserElement | None:
        self.asked.append(("line_grammar", word))
        return registry.STAGE_GAMES.line_grammar(word)

    def prepare(self, check: Check) -> CheckStep:
        self.asked.append(("prepare", check))
        return registry.STAGE_GAMES.prepare(check)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        self.asked.append(("odds", text))
        return registry.STAGE_GAMES.odds(check, env, text)


def test_the_entry_module_hands_the_stages_the_registry_s_games() -> None:
    assert handed_games.handed() is registry.STAGE_GAMES


def test_each_stage_asks_the_games_it_is_handed() -> None:
    recording = RecordingGames()

    def asked(step: Callable[[], T]) -> tuple[T, list[tuple[str, object]]]:
        recording.asked.clear()
        return step(), list(recording.asked)

    handed_games.hand(lambda: recording)
    try:
        common, by_common_lines = asked(lambda: common_lines.read_common_line(LINE))
        tree, by_grammar = asked(lambda: grammar.parse(LINE))  # not the reader's cache
        roller = Roller(GivenSource(["1", "6"]))
        result, by_rolling = asked(lambda: evaluate.roll(tree, roller, EMPTY_ENVIRONMENT, LINE))
        found, by_odds = asked(lambda: report.odds(LINE))
        claimed, by_chat_text = asked(lambda: chat_text.is_game_line(LINE))
    finally:
        handed_games.hand(stage_games)
    assert common is None  # a game's line is no common line
    assert by_common_lines == [("may_be_keyword", "wfb")]
    assert by_grammar == [("line_grammar", "wfb")]
    assert result.total == 7
    assert by_rolling == [("prepare", tree.body)]
    assert found.chances == (("success", Fraction(26, 36)),)  # 2d6 at most 8: 26 of 36
    # the odds read the line through the reader, whose cache may hold it already
    assert by_odds in ([("odds", LINE)], [("line_grammar", "wfb"), ("odds", LINE)])
    assert claimed is True
    assert by_chat_text == [("claims", "wfb")]
    assert handed_games.handed() is registry.STAGE_GAMES  # handed back


def test_a_stage_asking_before_any_games_were_handed_is_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(handed_games, "_give", None)
    monkeypatch.setattr(handed_games, "_games", None)
    with pytest.raises(LookupError, match="no games were handed to the stages"):
        handed_games.handed()
