"""``dicecli.probability.report``: the odds of a line, game dispatch, and the JSON object."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from dicecli.environment import Environment
from dicecli.errors import DiceError, DiceSyntaxError, UnknownNameError
from dicecli.notation.grammar import parse
from dicecli.notation.nodes import Check, Roll
from dicecli.probability import report as odds_module
from dicecli.probability.distribution import Distribution, Odds
from dicecli.probability.report import odds, odds_as_dict, odds_of_rolls, probability_object
from dicecli.systems import registry


def test_plain_roll_has_its_distribution_and_mean() -> None:
    found = odds("2d6")
    assert found.input == "2d6"
    assert found.distribution is not None
    assert found.distribution.as_dict()[7] == Fraction(1, 6)
    assert found.expectations == (("mean", Fraction(7)),)
    assert found.estimated is None
    assert found.notes == ()


def test_at_least_and_at_most() -> None:
    found = odds("2d6+8", at_least=15, at_most=11)
    # 2d6 + 8 >= 15 needs 7 or more on 2d6: 21 of 36; <= 11 needs 3 or less: 3 of 36.
    assert dict(found.chances) == {
        "at_least_15": Fraction(7, 12),
        "at_most_11": Fraction(1, 12),
    }


def test_named_values_and_saved_rolls() -> None:
    env = Environment(values={"STR": 3}, rolls={"hit": parse("d20 + STR").body})  # type: ignore[dict-item]
    found = odds("hit", env, at_least=23)
    assert dict(found.chances)["at_least_23"] == Fraction(1, 20)


def test_errors_point_into_the_text() -> None:
    with pytest.raises(UnknownNameError) as caught:
        odds("d20 + DEX")
    assert caught.value.text == "d20 + DEX"
    assert caught.value.position == 6
    with pytest.raises(DiceError, match="divides by zero") as division:
        odds("d6 / (d2 - 1)")
    assert division.value.text == "d6 / (d2 - 1)"
    with pytest.raises(DiceSyntaxError):
        odds("2d")


def test_explosions_are_cut_and_say_so() -> None:
    found = odds("d6!")
    assert found.distribution is not None
    assert 0 < found.distribution.residue < Fraction(1, 10**12)
    assert any("precision of 1e-12" in note for note in found.notes)
    data = odds_as_dict(found)
    assert data["exact"] is False
    residue = data["residue"]
    assert isinstance(residue, dict)
    assert 0 < Fraction(str(residue["fraction"])) < Fraction(1, 10**12)


@dataclass(frozen=True)
class _FakeCheck(Check):
    system: ClassVar[str] = "fake"


class _FakeSystem:
    name = "fake"
    keywords = ("fake",)

    def odds(self, check: Check, env: Environment, text: str) -> Odds:
        return Odds(
            input=text,
            expression="fake",
            chances=(("success", Fraction(1, 2)),),
            distribution=Distribution.uniform(range(1, 7)),
        )


def test_a_check_is_handed_to_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds_module, "parse_as", lambda text, dialect: Roll(_FakeCheck()))
    monkeypatch.setattr(registry, "system", lambda name: _FakeSystem())
    found = odds("fake check", at_least=5)
    assert dict(found.chances) == {"success": Fraction(1, 2), "at_least_5": Fraction(1, 3)}


# --- JSON ----------------------------------------------------------------------------


def test_probability_object() -> None:
    assert probability_object(Fraction(7, 12)) == {
        "fraction": "7/12",
        "float": pytest.approx(0.5833, abs=1e-4),
    }


def test_json_of_a_plain_roll() -> None:
    data = odds_as_dict(odds("2d6+8", at_least=15))
    assert json.loads(json.dumps(data)) == data  # plain JSON types only
    assert data["input"] == "2d6+8"
    assert data["expression"] == "2d6 + 8"
    distribution = data["distribution"]
    assert isinstance(distribution, dict)
    assert distribution["15"] == {"fraction": "1/6", "float": 1 / 6}
    assert len(distribution) == 11
    assert data["mean"] == {"fraction": "15", "float": 15.0}
    assert (data["min"], data["max"]) == (10, 20)
    assert data["stdev"] == pytest.approx((35 / 6) ** 0.5)
    assert data["at_least_15"] == {"fraction": "7/12", "float": 7 / 12}
    assert data["exact"] is True
    assert data["estimated"] is None
    assert data["notes"] == []
    assert data["residue"] == {"fraction": "0", "float": 0.0}


def test_json_of_a_game_check_with_wins_and_tables() -> None:
    found = Odds(
        input="age STR vs DEX",
        expression="age STR vs DEX",
        chances=(("success", Fraction(1, 2)), ("stunt", Fraction(2, 9)), ("mean", Fraction(1))),
        wins=(("STR", Fraction(11, 20)), ("DEX", Fraction(9, 20))),
        expectations=(("stunt_points", Fraction(7, 9)),),
        tables=(("degree", Distribution.uniform(range(1, 7))),),
        notes=("an assumption",),
    )
    data: dict[str, Any] = odds_as_dict(found)
    assert json.loads(json.dumps(data)) == data
    assert data["success"]["fraction"] == "1/2"
    assert data["stunt"]["fraction"] == "2/9"
    assert data["chance_mean"]["fraction"] == "1"  # a chance may not take a reserved key
    assert data["stunt_points"]["fraction"] == "7/9"
    assert data["win"] == [
        {"label": "STR", "probability": {"fraction": "11/20", "float": 0.55}},
        {"label": "DEX", "probability": {"fraction": "9/20", "float": 0.45}},
    ]
    assert data["tables"]["degree"]["6"]["fraction"] == "1/6"
    assert data["distribution"] is None
    assert data["mean"] is None
    assert data["min"] is None
    assert data["notes"] == ["an assumption"]
    assert data["exact"] is True


def test_json_of_an_estimate_is_not_exact() -> None:
    found = Odds(input="x", expression="x", estimated="sampled 100,000 rolls, +/- 0.3%")
    data = odds_as_dict(found)
    assert data["exact"] is False
    assert data["estimated"] == "sampled 100,000 rolls, +/- 0.3%"


def test_distribution_and_notes_for_game_modules() -> None:
    from dicecli.probability.engine import distribution_and_notes

    body = parse("d6! + 1").body
    found, notes = distribution_and_notes(body)  # type: ignore[arg-type]
    assert found.min == 2
    assert notes == ("d6!: explosions followed up to 15 extra dice per die",)


# --- odds that could not be written out are refused -------------------------------------


@pytest.mark.parametrize("text", ["6000d6kl1", "10000d6kl1"])
def test_fractions_past_pythons_text_limit_are_answered(text: str) -> None:
    # 6**6000 has 4,669 digits, more than Python writes as text at once: the JSON
    # writes it exactly all the same (distribution.exact_text)
    found = odds(text)
    assert found.distribution is not None
    assert json.dumps(odds_as_dict(found))


def test_fractions_just_short_of_the_limit_are_answered() -> None:
    found = odds("5000d6kl1")  # 6**5000 has 3,891 digits
    assert found.distribution is not None
    assert json.dumps(odds_as_dict(found))  # every fraction written out


def test_totals_cannot_pass_the_bound_on_digits() -> None:
    # a total of more than 100 digits cannot be asked (docs/limits.md), so the mean and
    # spread always fit a float
    with pytest.raises(DiceError, match="number too long"):
        odds("d6 * 1" + "0" * 300)
    found = odds(f"d2 * {10**99}")
    assert found.distribution is not None
    assert found.distribution.stdev() == pytest.approx(10**99 / 2)


def test_odds_of_a_line_of_several_rolls_are_each_rolls_odds() -> None:
    # docs/odds.md: any line you could roll, a line of several rolls too
    found = odds_of_rolls("1d20+5 >= 15; 2d6+3 # damage")
    assert found == (odds("1d20+5 >= 15"), odds("2d6+3 # damage"))
    assert dict(found[0].chances)["success"] == Fraction(11, 20)
    assert odds_of_rolls("d20; ;") == (odds("d20"),)  # empty pieces are skipped
    assert odds_of_rolls("2d6[a;b] + 1") == (odds("2d6[a;b] + 1"),)  # ';' in a label


def test_an_error_in_a_later_roll_points_into_the_whole_line() -> None:
    with pytest.raises(DiceError) as raised:
        odds_of_rolls("1d20+5 >= 15;  2d6+x")
    assert raised.value.text == "1d20+5 >= 15;  2d6+x"
    assert raised.value.position == 19
    with pytest.raises(DiceError, match="nothing to work out"):
        odds_of_rolls(" ; ")


@pytest.mark.parametrize("line", ["d6 <= d6!", "d20 >= d6!", "d6! vs d6"])
def test_a_check_whose_target_explodes_is_not_called_exact(line: str) -> None:
    # the margin's cut-off: d6 <= d6! is 7/12 less what the cut leaves out; it was
    # once 'exact' with a residue of 0 when only the right side exploded
    found = odds(line)
    assert not found.exact
    assert 0 < found.left_out < Fraction(1, 10**9)
    assert odds("d6 <= d6").exact
