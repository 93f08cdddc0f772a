"""Hypothesis properties of the Warhammer forms, over seeded rolls.

Rule numbers (N3, W5 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import dicecli
from dicecli.notation.nodes import Check
from dicecli.results import IGNORED, DiceShown, DieRoll, RollResult, Text
from dicecli.systems.warhammer.rules import AllocationPlan

seeds = st.integers(min_value=0, max_value=2**32)


def outcome_fields(result: RollResult) -> dict[str, object]:
    assert result.outcome is not None
    return dict(result.outcome.fields)


@given(players=st.integers(min_value=2, max_value=8), seed=seeds)
def test_rolloff_has_exactly_one_winner(players: int, seed: int) -> None:
    # rule W6: ties are re-rolled until exactly one player is highest
    result = dicecli.roll(f"wfb rolloff {players}", seed=seed)
    winner = outcome_fields(result)["winner"]
    assert isinstance(winner, int)
    assert 1 <= winner <= players
    assert result.total == winner
    rounds = outcome_fields(result)["rounds"]
    assert isinstance(rounds, int)
    last_round = _last_round(result)
    values = [die.value or 0 for die in last_round]
    assert values.count(max(values)) == 1  # one highest in the deciding round
    assert all(die.kept for die in last_round)
    assert sum(1 for die in result.dice if not die.kept) >= 2 * (rounds - 1)  # ties shown


def _last_round(result: RollResult) -> list[DieRoll]:
    """The dice shown after the last round separator."""
    segments = list(result.breakdown)
    separators = [i for i, s in enumerate(segments) if s == Text("; ", "side")]
    start = separators[-1] + 1 if separators else 0
    return [die for s in segments[start:] if isinstance(s, DiceShown) for die in s.dice]


@given(names=st.lists(st.sampled_from("ABCDEFGH"), min_size=2, max_size=8, unique=True), seed=seeds)
def test_rolloff_winner_is_a_player_as_typed(names: list[str], seed: int) -> None:
    # rule W6 with named players
    result = dicecli.roll("wfb rolloff " + " ".join(names), seed=seed)
    assert outcome_fields(result)["winner"] in names


@given(candidates=st.integers(min_value=1, max_value=500), seed=seeds)
def test_allocation_is_always_one_of_the_candidates(candidates: int, seed: int) -> None:
    # rule W7: the chosen candidate is always in 1..n; re-rolled rounds are discarded
    result = dicecli.roll(f"wfb allocate {candidates}", seed=seed)
    assert result.total is not None
    assert 1 <= result.total <= candidates
    plan = AllocationPlan.for_candidates(candidates)
    kept = [die for die in result.dice if die.kept]
    assert len(kept) == plan.dice
    assert plan.candidate(plan.number([die.value or 0 for die in kept])) == result.total


@given(seed=seeds, distance=st.sampled_from(["2d6", "artillery", "d6 + artillery", "3d6-3"]))
def test_scatter_hit_never_moves(seed: int, distance: str) -> None:
    # rule W3: on a HIT the distance dice are ignored (a MISFIRE still counts, by default)
    result = dicecli.roll(f"wfb scatter {distance}", seed=seed)
    fields = outcome_fields(result)
    if fields["hit"]:
        assert result.total in (0, None)
        assert all(IGNORED in d.marks or d.face == "MISFIRE" for d in result.dice[1:])
    else:
        assert all(d.kept for d in result.dice)
    assert (result.total is None) == (fields.get("misfire") is True)


@given(seed=seeds, characteristic=st.integers(min_value=-2, max_value=12))
def test_characteristic_exit_status_follows_the_verdict(seed: int, characteristic: int) -> None:
    # rule W8: pass iff a natural 1..characteristic, never on a 6 or characteristic <= 0
    result = dicecli.roll(f"wfb test {characteristic}", seed=seed)
    natural = result.total
    assert natural is not None
    expected = characteristic > 0 and natural != 6 and natural <= characteristic
    assert outcome_fields(result)["success"] is expected
    assert result.failed is (not expected)


@given(
    leadership=st.integers(min_value=0, max_value=12),
    lost_by=st.integers(min_value=0, max_value=8),
    seed=seeds,
)
def test_break_test_follows_the_rules(leadership: int, lost_by: int, seed: int) -> None:
    # rule W10: 2D6 <= Ld - combat result, or a natural double 1
    result = dicecli.roll(f"wfb break {leadership} lost by {lost_by}", seed=seed)
    a, b = (die.value or 0 for die in result.dice)
    expected = a + b <= leadership - lost_by or a == b == 1
    assert outcome_fields(result)["success"] is expected


forms = st.one_of(
    st.integers(0, 12).map(lambda n: f"wfb test {n}"),
    st.integers(0, 12).map(lambda n: f"wfb ld {n}"),
    st.tuples(st.integers(0, 12), st.integers(0, 6)).map(lambda t: f"wfb break {t[0]} by {t[1]}"),
    st.integers(2, 9).map(lambda n: f"wfb rolloff {n}"),
    st.integers(1, 99).map(lambda n: f"wfb allocate {n}"),
    st.sampled_from(["", " 2d6", " artillery", " d6*2"]).map(lambda d: f"wfb scatter{d}"),
    st.sampled_from(["artillery", "artillery + 2", "2d6 + artillery", "artillery/3"]).map(
        lambda e: f"wfb {e}"
    ),
)


@given(text=forms)
def test_canonical_text_round_trips(text: str) -> None:
    node = dicecli.parse(text).body
    assert isinstance(node, Check)
    assert dicecli.parse(str(node)).body == node


@given(text=forms, seed=seeds)
def test_given_faces_replay_a_roll(text: str, seed: int) -> None:
    # --given: the faces of a roll, typed back in roll order, give the same roll
    first = dicecli.roll(text, seed=seed)
    typed = ",".join(die.face for die in first.dice)
    again = dicecli.roll(text, given=typed)
    assert again.total == first.total
    assert again.outcome == first.outcome
    assert again.dice == first.dice
