"""The sums inside the odds of ``dnd`` lines, against the plain way of working them out
written here: the natural d20 added to the modifier by running sums, against adding
pair by pair (the engine's ``added``); each verdict's weight by the two sides of the
target, against the count over every pair (rules D1-D3, D6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.probability.weights import Weights, added
from dicecli.systems.dnd.odds import verdict_counts, with_natural
from dicecli.systems.dnd.rules import attack_verdict, check_verdict, d20_chances, death_verdict


@settings(max_examples=examples(200))
@given(
    st.sampled_from([None, "advantage", "disadvantage"]),
    st.dictionaries(st.integers(-30, 60), st.integers(0, 10**30), min_size=1, max_size=40),
    st.lists(st.integers(1, 9), min_size=20, max_size=20),
    st.booleans(),
)
def test_the_natural_is_added_as_any_sum(
    which: str | None, modifier: dict[int, int], uneven: list[int], shaped: bool
) -> None:
    # the running sums give what adding pair by pair gives (weights.added), for the
    # d20's weights of rule D3 and, pair by pair, weights of no such shape
    d20 = d20_chances(which)
    faces = (
        Weights({face: int(p * 400) for face, p in d20.items()}, 400)
        if shaped
        else Weights(dict(zip(range(1, 21), uneven, strict=True)), sum(uneven))
    )
    mod = Weights(modifier, sum(modifier.values()) + 1)
    found = with_natural(faces, mod)
    expected = added(faces, mod)
    assert found.denominator == expected.denominator
    assert {k: v for k, v in found.counts.items() if v} == {
        k: v for k, v in expected.counts.items() if v
    }


@settings(max_examples=examples(200))
@given(
    st.sampled_from([None, "advantage", "disadvantage"]),
    st.dictionaries(st.integers(-40, 40), st.integers(0, 10**20), min_size=1, max_size=30),
    st.sampled_from(["attack", "check", "death"]),
)
def test_each_verdict_weighs_what_its_pairs_weigh(
    which: str | None, others: dict[int, int], kind: str
) -> None:
    # rules D1, D2, D6: counting by the two sides of the target gives the pair-by-pair
    # count of each verdict
    naturals = {face: int(p * 400) for face, p in d20_chances(which).items()}
    judges: dict[str, tuple[int, Callable[[int, int], str]]] = {
        "attack": (0, lambda natural, total: attack_verdict(natural, total, 0)[0]),
        "check": (0, lambda natural, total: check_verdict(total, 0)[0]),
        "death": (10, lambda natural, total: death_verdict(natural, total)[0]),
    }
    target, judge = judges[kind]
    expected: Counter[str] = Counter()
    for natural, p in naturals.items():
        for value, q in others.items():
            if p * q:
                expected[judge(natural, natural + value)] += p * q
    found = verdict_counts(Weights(naturals, 400), Weights(others, 1), target, judge)
    assert found == dict(expected)
