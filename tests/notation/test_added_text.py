"""Text a player adds around a roll, as other rollers allow (issue 26, part 1): chat
prefixes, ``//`` and ``/* */`` comments, Dice Maiden's ``! comment`` and ``(label)``,
free words after the roll. Read only when the line as written is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicecli
from dicecli import DiceSyntaxError, parse


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("/r 1d20 + 5 # Attack", "d20 + 5 # Attack"),  # Foundry, Roll20
        ("/roll 2d6", "2d6"),
        ("!r 4d6kh3", "4d6kh3"),  # Discord bots
        ("!roll d20", "d20"),
        ("3d6 // fire", "3d6 # fire"),  # RPG Dice Roller
        ("{4dF} /* This is a multi-line comment */", "{4dF} # This is a multi-line comment"),
        ("1d20+5 to hit", "d20 + 5 # to hit"),  # d20 (Avrae)
        ("1d20+5 Roll for Initiative", "d20 + 5 # Roll for Initiative"),  # Roll20
        ("1d20 I rolled a d20", "d20 # I rolled a d20"),
        ("2d6 ! Fire damage", "2d6 # Fire damage"),  # Dice Maiden
        ("(Attack) 1d20 + 5 ! With sword", "d20 + 5 # Attack: With sword"),
        ("(Stealth Check) 1d20 - 2", "d20 - 2 # Stealth Check"),
        ("( ) 1d20", "d20"),
        ("(Save) 1d20 !", "d20 # Save"),  # after a label, a lone ! is an empty comment
        ("/r wfb ld 8", "wfb ld 8"),  # a game's line takes a chat prefix too
    ],
)
def test_added_text_is_left_out_of_the_roll(line: str, canonical: str) -> None:
    roll = parse(line)
    assert str(roll) == canonical
    assert parse(canonical) == roll


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("4d6kh3 STR", "unexpected 'STR'"),  # one word: more likely a forgotten +
        ("2d20 keep -1", "unexpected 'keep'"),
        ("d20 vs DC 15", "unexpected '15'"),  # vs is notation, never free words
        ("(1+2) d6", "unexpected 'd6'"),  # brackets of notation are no label
        ("(STR) d6", "unexpected 'd6'"),
        ("wfb ld 8 9", "unexpected '9'"),  # a game's line keeps its own errors
        ("4d10 z f1 t8", "unexpected 'z'"),  # a letter and modifiers: no words
        ("p q 2d6", "unexpected 'q'"),  # Dice Maiden's flags are p, s, nr and ul only
        ("pp 2d6", "unexpected '2d6'"),  # words before the roll: no roll before them
    ],
)
def test_lines_that_stay_refused(line: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(line)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        # another roller's spelling in the comment is the player's text, kept as typed
        ("(Attack) 2d6 # 6d6 v 3 and 2u6", "2d6 # Attack: 6d6 v 3 and 2u6"),
        ("(Attack) 6d6 v 3 # 6d6 v 3", "6d6kl3 # Attack: 6d6 v 3"),
        ("(2d6 + 6) ^+ 2 # twice", "2d6 + 6 + (2d6 + 6) # twice"),  # caith: as with ": twice"
        ("10d10 t7 tt9 # wod", "10d10>=7ds>=9 # wod"),  # as without the comment
        ("(Attack) fitd1 # x", "blades 1 # Attack: x"),  # the space before # stays
        ("ul (Chaos) 10d6 e6 ! Wild # 2x3d6", "10d6!o>=6 # Chaos: Wild # 2x3d6"),
    ],
)
def test_other_spellings_are_read_before_the_comment_only(line: str, canonical: str) -> None:
    assert str(parse(line)) == canonical


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # fuzz seed 11, case 133212: a 5,002-digit number in the comment of a refused
        # line was read as python-dice's count (an internal error: Python reads no
        # number past 4,300 digits)
        (
            "[6kl 2#2d6 v 3" + "1" * 5000,
            "expected a number, dice such as 2d6, '(' or a name, found '[6kl'",
        ),
        ("2d6 ) [" + "1" * 5000 + "d6 v 3]", "unexpected ')'"),
    ],
)
def test_a_number_past_the_limit_is_never_read_as_another_spelling(line: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse(line)
    assert caught.value.message == message


def test_an_exploding_bang_stays_an_explosion() -> None:
    # "!" then words is a comment only where the line would be refused otherwise
    assert str(parse("2d6 !")) == "2d6!"
    assert str(parse("d6 ! + 3")) == "d6! + 3"


_ROLLS = ["2d6", "d20 + 5", "4d6kh3", "3d6 >= 10", "{2d6, d8}kh1", "2d6[fire] + 1"]
_WORDS = st.lists(st.sampled_from(["to", "hit", "Fire", "damage", "for", "the", "ogre"]))


@given(
    st.sampled_from(_ROLLS),
    st.sampled_from(["", "/r ", "/roll ", "!r ", "!roll "]),
    _WORDS.filter(lambda words: len(words) >= 2).map(" ".join),
    st.sampled_from(["{} {}", "{} // {}", "{} /* {} */", "{} ! {}"]),
)
def test_added_text_never_changes_the_roll(roll: str, prefix: str, words: str, form: str) -> None:
    line = prefix + form.format(roll, words)
    read = parse(line)
    assert read.body == parse(roll).body
    assert read.comment == words
    assert dicecli.odds(line).distribution == dicecli.odds(roll).distribution
