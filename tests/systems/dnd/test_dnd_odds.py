"""Exact odds of ``dnd`` lines against brute-force enumeration written here, apart from
:mod:`dicecli.systems.dnd.odds`: every face of every die the line rolls, counted
(rules D1-D7).

Rule numbers (D1, D3 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli.probability import weights as weights_module
from dicecli.probability.distribution import Distribution
from dicecli.probability.engine import clear_caches
from dicecli.probability.weights import OddsTooBigError, Weights

D20 = range(1, 21)


def chances(text: str, **values: int) -> dict[str, Fraction]:
    return dict(dicecli.odds(text, values=values).chances)


def d20_rolls(edge: str) -> list[int]:
    """Every equally likely natural: one die, or the kept one of every pair (rule D3)."""
    if edge == "adv":
        return [max(a, b) for a, b in itertools.product(D20, D20)]
    if edge == "dis":
        return [min(a, b) for a, b in itertools.product(D20, D20)]
    return list(D20)


def attack_by_count(edge: str, modifier: int, ac: int) -> dict[str, Fraction]:
    naturals = d20_rolls(edge)
    count: Counter[str] = Counter()
    for natural in naturals:
        if natural == 20:  # rule D1
            count["critical_hit"] += 1
        elif natural != 1 and natural + modifier >= ac:
            count["hit"] += 1
        else:
            count["miss"] += 1
    found = {name: Fraction(count[name], len(naturals)) for name in ("critical_hit", "hit", "miss")}
    return {"success": found["critical_hit"] + found["hit"], **found}


EDGES = st.sampled_from(["", "adv", "dis"])


@settings(max_examples=examples(200))
@given(EDGES, st.integers(-10, 20), st.integers(-5, 40))
def test_attack_odds_equal_the_count(edge: str, modifier: int, ac: int) -> None:
    # rules D1, D3
    line = f"dnd attack {modifier:+d} {edge} vs {ac}"
    assert chances(line) == attack_by_count(edge, modifier, ac)


@settings(max_examples=examples(200))
@given(EDGES, st.sampled_from(["check", "save"]), st.integers(-10, 20), st.integers(-5, 40))
def test_check_odds_equal_the_count(edge: str, kind: str, modifier: int, dc: int) -> None:
    # rules D2, D3
    naturals = d20_rolls(edge)
    success = Fraction(sum(n + modifier >= dc for n in naturals), len(naturals))
    found = chances(f"dnd {kind} {modifier:+d} {edge} vs {dc}")
    assert found == {"success": success, "failure": 1 - success}


def test_advantage_and_disadvantage_together_are_one_die() -> None:
    # rule D3
    assert chances("dnd check +2 adv dis vs 12") == chances("dnd check +2 vs 12")


@settings(max_examples=examples(100))
@given(EDGES, st.integers(-3, 3))
def test_death_save_odds_equal_the_count(edge: str, modifier: int) -> None:
    # rules D3, D6
    naturals = d20_rolls(edge)
    count: Counter[str] = Counter()
    for natural in naturals:
        if natural == 20:
            count["regains_1_hit_point"] += 1
        elif natural == 1:
            count["two_failures"] += 1
        elif natural + modifier >= 10:
            count["plain_success"] += 1
        else:
            count["failure"] += 1
    n = len(naturals)
    expected = {
        "success": Fraction(count["plain_success"] + count["regains_1_hit_point"], n),
        "regains_1_hit_point": Fraction(count["regains_1_hit_point"], n),
        "failure": Fraction(count["failure"], n),
        "two_failures": Fraction(count["two_failures"], n),
    }
    assert chances(f"dnd death {modifier:+d} {edge}") == expected


def test_a_bless_die_mixes_over_its_faces() -> None:
    # rules D1, D4: +d4 is each of +1..+4 a quarter of the time
    mixed = chances("dnd attack +3 +d4 vs 16")
    for name in ("success", "critical_hit", "hit", "miss"):
        parts = [attack_by_count("", 3 + bless, 16)[name] for bless in range(1, 5)]
        assert mixed[name] == sum(parts, Fraction(0)) / 4


def test_a_named_modifier_takes_its_value() -> None:
    # rule D4
    assert chances("dnd attack +STR vs 14", STR=4) == attack_by_count("", 4, 14)


@settings(max_examples=examples(60))
@given(
    st.lists(st.tuples(st.integers(1, 2), st.sampled_from([4, 6, 8])), min_size=1, max_size=2),
    st.integers(-3, 6),
    st.booleans(),
)
def test_damage_odds_equal_the_count(terms: list[tuple[int, int]], bonus: int, crit: bool) -> None:
    # rule D5: every face of every die, doubled on a critical
    times = 2 if crit else 1
    ranges = [range(1, sides + 1) for count, sides in terms for _ in range(count * times)]
    totals = Counter(sum(faces) + bonus for faces in itertools.product(*ranges))
    whole = sum(totals.values())
    dice = " + ".join(f"{count}d{sides}" for count, sides in terms)
    line = f"dnd damage {dice} {bonus:+d}" + (" crit" if crit else "")
    found = dicecli.odds(line).distribution
    assert found is not None
    assert found.as_dict() == {t: Fraction(c, whole) for t, c in totals.items()}


def test_ability_score_odds_equal_the_count() -> None:
    # rule D7: all 1296 rolls of 4d6, the lowest dropped
    scores = Counter(sum(f) - min(f) for f in itertools.product(range(1, 7), repeat=4))
    odds = dicecli.odds("dnd stats")
    assert odds.distribution is not None
    assert odds.distribution.as_dict() == {s: Fraction(c, 1296) for s, c in scores.items()}
    assert dict(odds.expectations)["mean"] == Fraction(15869, 1296)


@pytest.mark.parametrize("line", ["dnd attack +5 vs 15", "dnd death", "dnd stats"])
def test_the_odds_are_exact(line: str) -> None:
    assert dicecli.odds(line).exact


def _d6_cut() -> Fraction:
    """The chance an exploding d6 followed as docs/odds.md says (until going further is
    less likely than 1e-12) leaves out: that of exploding once more at the last depth."""
    depth = 1
    while Fraction(1, 6**depth) >= Fraction(1, 10**12):
        depth += 1
    return Fraction(1, 6**depth)


def _exploding_d6(most: int) -> dict[int, Fraction]:
    """The exploding d6's values up to ``most``: 6k + j (j = 1..5) with chance 6^-(k+1)."""
    found = {}
    for sixes in range(most // 6 + 1):
        for face in range(1, 6):
            if 6 * sixes + face <= most:
                found[6 * sixes + face] = Fraction(1, 6 ** (sixes + 1))
    return found


def test_an_exploding_target_is_not_exact() -> None:
    # rules D2, D4: the DC's d6! is cut, so the answer says what it left out
    found = dicecli.odds("dnd check +d4 vs 10+d6!")
    assert not found.exact
    assert found.left_out == _d6_cut()
    # every total the check could pass with is counted: d20 + d4 is at most 24
    success = sum(
        (
            Fraction(1, 80) * p
            for n in D20
            for b in range(1, 5)
            for x, p in _exploding_d6(30).items()
            if n + b >= 10 + x
        ),
        Fraction(0),
    )
    chance = dict(found.chances)
    assert chance["success"] == success
    assert chance["success"] + chance["failure"] + found.left_out == 1
    assert any("finite depth" in note for note in found.notes)


def test_both_sides_exploding_leave_out_the_cut_of_either() -> None:
    # rule D4: the margin of two cut sums leaves out what either leaves out
    found = dicecli.odds("dnd attack +d6! vs 10+d6!")
    assert not found.exact
    assert found.left_out == 1 - (1 - _d6_cut()) ** 2
    assert len(found.notes) == len(set(found.notes))


def test_a_difference_too_big_is_refused_before_any_total(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/odds.md, "What is refused": the modifier less the target is estimated and
    # refused before the totals are worked out (that took 2 s for +1000d6 vs 1000d6)
    def no_totals(*args: object, **kwargs: object) -> None:
        raise AssertionError("totals worked out before the refusal")

    dicecli.odds("dnd check +1 vs 2")  # the game loaded, outside the patch
    generic = "1000d6 >= 1000d6"
    with pytest.raises(OddsTooBigError) as expected:
        dicecli.odds(generic)
    monkeypatch.setattr(Distribution, "combine", no_totals)
    monkeypatch.setattr(Distribution, "from_probabilities", no_totals)
    monkeypatch.setattr(Weights, "to_distribution", no_totals)
    monkeypatch.setattr(Distribution, "from_weights", no_totals)
    with pytest.raises(OddsTooBigError) as refused:
        dicecli.odds("dnd attack +1000d6 vs 1000d6")
    # the same estimate as the generic check's margin
    assert str(refused.value).split(": ", 1)[1] == str(expected.value).split(": ", 1)[1]


@pytest.mark.parametrize("size", [1, 40, 300])
def test_big_checks_are_the_generic_checks(size: int) -> None:
    # rule D2: a check's success is that of d20 + modifier >= target, which the generic
    # comparison works out on its own path
    line = f"dnd check +{size}d6 vs {size}d6"
    generic = dicecli.odds(f"d20 + {size}d6 >= {size}d6")
    found = dicecli.odds(line)
    assert dict(found.chances)["success"] == dict(generic.chances)["success"]
    assert found.distribution == generic.distribution


@pytest.mark.parametrize("modifier", ["5", "2d6+3", "d4!+d6", "3d6kh2*2", "40d100", "8d6!"])
@pytest.mark.parametrize("form", ["dnd attack +{}", "dnd death +{} adv", "dnd check +{} dis"])
def test_a_line_without_a_target_is_charged_as_its_modifier(
    monkeypatch: pytest.MonkeyPatch, modifier: str, form: str
) -> None:
    # docs/odds.md, "What is refused": the d20 adds no work the question is charged
    # for, so a line is answered exactly when its modifier alone is (+93d6! was
    # refused at the edge of the limit when the totals' own fractions were charged)
    charged: list[int] = []
    real = weights_module.charge

    def counted(work: int, what: str) -> None:
        charged.append(work)
        real(work, what)

    monkeypatch.setattr(weights_module, "charge", counted)
    spent = []
    for line in (modifier, form.format(modifier)):
        clear_caches()
        charged.clear()
        dicecli.odds(line)
        spent.append(sum(charged))
    assert spent[0] == spent[1] > 0
