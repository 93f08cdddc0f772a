"""Issue 26's review of the dialects: each finding reproduced, then held fixed.

A modifier written after a space is read by the grammar as one written against the
dice (``4d6 kh3`` is ``4d6kh3``), so each dialect must rewrite it too; RPG Dice
Roller's keep chains over exploding dice are refused as docs/grammar.md says.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from dialect_helpers import env_of
from hypothesis import given
from hypothesis import strategies as st
from processes import run_in_process

import dicecli
from dicecli.environment import Environment
from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.notation.reader import with_repeats
from dicecli.notation.translations import translated
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Message, ReplState, Rolled, start_state
from dicecli.rolling.sources import GivenSource, Roller


def chances(text: str, dialect: str) -> dict[int, Fraction]:
    found = dicecli.odds(text, environment=env_of(dialect)).distribution
    assert found is not None
    return dict(found.outcomes)


# Each dialect's rewrites, written against the dice and after a space.
SPACED = [
    ("foundry", "5d10x10", "5d10 x10"),
    ("foundry", "2d10x>=8", "2d10 x>=8"),
    ("foundry", "2d6xo", "2d6 xo"),
    ("foundry", "1d20r<10", "1d20 r<10"),
    ("foundry", "1d20rr<3", "1d20 rr<3"),
    ("foundry", "3d6cs>4", "3d6 cs>4"),
    ("foundry", "3d6cs>4df<2", "3d6 cs>4 df<2"),
    ("foundry", "3d6cf<3", "3d6 cf<3"),
    ("roll20", "3d6>3", "3d6 >3"),
    ("roll20", "3d10>6f<3", "3d10 >6 f<3"),
    ("roll20", "2d8r<2", "2d8 r<2"),
    ("roll20", "3d6!>4", "3d6 !>4"),
    ("roll20", "{3d6!!}>8", "{3d6!!} >8"),
    ("rdr", "4d6kh2dl1", "4d6 kh2 dl1"),
    ("rdr", "4d6kh2dl1", "4d6 kh2dl1"),
    ("d20", "0d6kh1+3", "0d6 kh1+3"),
    ("rolldice", "4d6s1", "4d6 s1"),
    ("dicemaiden", "4d6r2", "4d6 r2"),
]


@pytest.mark.parametrize(("dialect", "compact", "spaced"), SPACED)
def test_a_modifier_after_a_space_is_read_in_the_dialect(
    dialect: str, compact: str, spaced: str
) -> None:
    """``--dialect foundry '5d10 x10'`` multiplied by 10 (the grammar's reading of a
    spaced x), silently; it explodes on 10 as ``5d10x10`` does."""
    assert chances(spaced, dialect) == chances(compact, dialect)


def test_foundry_x10_after_a_space_explodes_with_given_dice() -> None:
    """Foundry, "Explode": given 10 then 4, ``1d10 x10`` is 14, not 100."""
    result = dicecli.roll("1d10 x10", given="10,4", environment=env_of("foundry"))
    assert result.total == 14


def test_rolldice_repeat_after_spaces_rolls_six_times() -> None:
    """The note on ``6 x 4d6`` says rolldice rolls it six times: so does its dialect."""
    assert with_repeats("6 x 4d6 s1", "rolldice") == "4d6 s1 -n 6"
    assert with_repeats("6x4d6s1", "rolldice") == "4d6s1 -n 6"
    assert with_repeats("6 x 2", "rolldice") == "6 x 2"  # no dice: a product


def test_a_dice_term_after_a_space_is_no_modifier() -> None:
    """``x d8r1``: d8 is the next dice term, not a modifier d with the condition 8,
    so its own r1 is read (Foundry: once) and noted without the dialect; a lone x
    between spaces stays a product."""
    assert translated("2d6 x d8r1", "foundry") == "2d6 x d8ro1"
    assert translated("2d6 x 3", "foundry") == "2d6 x 3"
    assert translated("40d6 x 1d3cf1 x dF.1r1kh1", "foundry") == "40d6 x 1d3=1 x dF.1ro1kh1"
    assert translated("4dF df<2", "foundry") == "4dF f<2"
    assert any("--dialect foundry" in note for note in dicecli.roll("2d6 + d8r1", seed=1).notes)


def test_spaces_are_kept_where_the_modifiers_stand() -> None:
    assert translated("1d20 r1 to hit", "foundry") == "1d20 ro1 to hit"
    assert translated("4d6 kh2 dl1 to hit", "rdr") == "4d6dl2 to hit"
    assert translated("d20 + 5 > 15", "roll20") == "d20 + 5 > 15"  # a check: left alone


def test_without_a_dialect_a_spaced_spelling_is_noted() -> None:
    """No silent surprise without a dialect either: ``5d10 x10`` multiplies and says
    Foundry explodes; ``3d6 >3`` is strict and says Roll20 is not."""
    assert any("--dialect foundry" in note for note in dicecli.roll("5d10 x10", seed=1).notes)
    assert any("--dialect roll20" in note for note in dicecli.roll("3d6 >3", seed=1).notes)
    assert any("--dialect rdr" in note for note in dicecli.roll("4d6 kh2 dl1", seed=1).notes)


# RPG Dice Roller's keeps over exploding dice (docs/grammar.md, rdr's table: refused).


@pytest.mark.parametrize("text", ["4d6!kh2dl1", "4d6! kh2 dl1", "4d6!!kh2dl1", "4d6!pkh3dl1"])
def test_rdr_refuses_a_keep_chain_over_exploding_dice(text: str) -> None:
    """The explosion was read as one word with the keep after it (``!kh2``), so the
    chain was rolled in dicecli's reading under ``--dialect rdr``."""
    with pytest.raises(DiceError, match="RPG Dice Roller"):
        dicecli.roll(text, seed=1, environment=env_of("rdr"))


def test_rdr_still_reads_one_keep_over_exploding_dice() -> None:
    """One keep is read alike by both (nothing to apply in another order)."""
    result = dicecli.roll("2d6!kh1", given="6,2,3", environment=env_of("rdr"))
    assert result.total == 6


# Saved rolls and the dialect in force; which dialect wins (docs/grammar.md, "Asking for
# a dialect"): the command line, then a character file's key, then the setting.

FOUNDRY_SHEET = 'dialect = "foundry"\n[rolls]\nblast = "1d10x10"\n'
PLAIN_SHEET = '[rolls]\nblast = "1d10x10"\n'


def sheet(tmp_path: Path, text: str) -> str:
    path = tmp_path / "hero.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def total(*args: str) -> str:
    done = run_in_process("--plain", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\t")[0]


@pytest.mark.parametrize("first", [(), ("--seed", "1")])  # the fast path, the typer app
def test_set_saves_a_roll_read_in_the_dialect(first: tuple[str, ...]) -> None:
    """``--set blast=1d10x10 --dialect foundry`` saved 1d10*10: given 10 then 4, the
    explosion makes 14 where the product made 100."""
    args = ("--set", "blast=1d10x10", "--dialect", "foundry", "--given", "10,4", "blast")
    assert total(*first, *args) == "14"
    setting = ("--set", "blast=1d10x10", "--setting", "dialect=foundry", "--given", "10,4")
    assert total(*setting, "blast") == "14"


@pytest.mark.parametrize("first", [(), ("--seed", "1")])
def test_the_command_line_dialect_reads_the_character_files_rolls(
    tmp_path: Path, first: tuple[str, ...]
) -> None:
    """A sheet without a dialect, rolled with ``--dialect foundry``: its saved roll is
    read in Foundry's dialect (14), not dicecli's (100)."""
    path = sheet(tmp_path, PLAIN_SHEET)
    assert (
        total(*first, "--character", path, "--dialect", "foundry", "--given", "10,4", "blast")
        == "14"
    )


def test_the_command_line_dialect_wins_over_the_files(tmp_path: Path) -> None:
    """The sheet says foundry, the command line roll20: its saved roll ``1d10x10`` is
    read as Roll20 reads it (a product: 100), and so is a typed line."""
    path = sheet(tmp_path, FOUNDRY_SHEET)
    assert total("--character", path, "--dialect", "roll20", "--given", "10", "blast") == "100"
    assert total("--character", path, "--dialect", "roll20", "--given", "3", "1d6>3") == "1"


def test_the_files_dialect_wins_over_the_setting(tmp_path: Path) -> None:
    path = sheet(tmp_path, FOUNDRY_SHEET)
    args = ("--setting", "dialect=roll20", "--character", path, "--given", "10,4", "blast")
    assert total(*args) == "14"
    without = sheet(tmp_path, PLAIN_SHEET)
    args = ("--setting", "dialect=foundry", "--character", without, "--given", "10,4", "blast")
    assert total(*args) == "14"  # a file naming none: the setting reads its rolls


@pytest.mark.parametrize("first", [(), ("--seed", "1")])
def test_dialect_off_on_the_command_line(tmp_path: Path, first: tuple[str, ...]) -> None:
    """``--dialect off`` was refused ("no dialect 'off'"): it is dicecli's own reading,
    over a character file's dialect and the setting."""
    path = sheet(tmp_path, FOUNDRY_SHEET)
    assert total(*first, "--dialect", "off", "--given", "3", "1d6>3") == "0"
    assert total(*first, "--character", path, "--dialect", "off", "--given", "10", "blast") == "100"
    args = ("--setting", "dialect=foundry", "--dialect", "OFF", "--given", "10", "1d10x10")
    assert total(*first, *args) == "100"
    assert total("--setting", "dialect=off", "--given", "3", "1d6>3") == "0"


def test_the_refusal_names_off() -> None:
    done = run_in_process("--dialect", "nope", "2d6")
    assert done.stderr.splitlines() == [
        "error: no dialect 'nope' (dialects: roll20, foundry, rdr, d20, dicemaiden, "
        "rolldice; off: dicecli's own)"
    ]


def repl_state(faces: str) -> ReplState:
    return start_state(Roller(GivenSource.from_text(faces)), Environment(), 1)


def rolled_total(state: ReplState, line: str) -> tuple[ReplState, int]:
    state, output = handle_line(state, line)
    assert isinstance(output[0], Rolled), output
    found = output[0].result.total
    assert found is not None
    return state, found


def test_let_in_the_repl_reads_the_roll_in_the_dialect() -> None:
    state = repl_state("10,4")
    state, _ = handle_line(state, "dialect foundry")
    state, output = handle_line(state, "let blast = 1d10x10")
    assert isinstance(output[0], Message)
    assert output[0].text.startswith("blast = d10!10")
    assert rolled_total(state, "blast")[1] == 14


def test_load_in_the_repl_reads_the_rolls_in_the_chosen_dialect(tmp_path: Path) -> None:
    """``dialect foundry`` then ``load`` of a sheet without a dialect: Foundry's reading;
    a sheet naming its own dialect after ``dialect roll20``: the chosen one stays."""
    state = repl_state("10,4,10,4")
    state, _ = handle_line(state, "dialect foundry")
    state, _ = handle_line(state, f"load {sheet(tmp_path, PLAIN_SHEET)}")
    assert rolled_total(state, "blast")[1] == 14
    state = repl_state("10")
    state, _ = handle_line(state, "dialect roll20")
    state, _ = handle_line(state, f"load {sheet(tmp_path, FOUNDRY_SHEET)}")
    assert state.env.dialect == "roll20"
    assert rolled_total(state, "blast")[1] == 100


def test_load_in_the_repl_takes_the_files_dialect_when_none_was_chosen(tmp_path: Path) -> None:
    state = repl_state("10,4")
    state, _ = handle_line(state, f"load {sheet(tmp_path, FOUNDRY_SHEET)}")
    assert state.env.dialect == "foundry"
    assert rolled_total(state, "blast")[1] == 14


# --given errors in JSON name what they are about.


@pytest.mark.parametrize(
    ("args", "stdin", "given"),
    [
        (("--given", "1,2,3", "2d6"), "", "1,2,3"),  # left over after one roll
        (("--given", "1,2,3", "--seed", "1", "2d6"), "", "1,2,3"),  # the typer app
        (("--given", "1,2,3,4,5"), "2d6\n1d4\n", "1,2,3,4,5"),  # after piped lines
        (("--given", "3,,4", "2d6"), "", "3,,4"),  # an empty place
    ],
)
def test_a_given_error_in_json_has_an_input(args: tuple[str, ...], stdin: str, given: str) -> None:
    """Its ``input`` was null: an error about the ``--given`` faces as a whole points
    into no roll's line, so it names the ``--given`` text."""
    done = run_in_process("--json", *args, stdin=stdin)
    assert done.returncode == 2
    error = json.loads(done.stderr.splitlines()[-1])
    assert error["input"] == given
    assert "given" in error["error"]


# A caret never splits a word (issue 26, "Errors that keep words whole").


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("2d20 keep -1", "unexpected 'keep'", 5),
        ("4d6kh3 STR", "unexpected 'STR'", 7),
        ("4d6 s1", "unexpected 's1'", 4),  # s sorts; the word is s1 (rolldice's drop)
        ("4d6s1", "unexpected 's1'", 3),
        ("1d20 s1x", "unexpected 's1x'", 5),
        ("2d6 ab3", "unexpected 'ab3'", 4),
        # // lacks its right side: the caret after the pair, not between its slashes
        ("1d6 //", "expected a number, dice such as 2d6, '(' or a name at the end", 6),
        ("1d6 ///3", "expected a number, dice such as 2d6, '(' or a name, found '/3'", 6),
        # a run is read in pairs from its left: ** then *, >= then =
        ("2d6***3", "expected a number, dice such as 2d6, '(' or a name, found '*3'", 5),
        ("2d6 >==3", "expected a number, dice such as 2d6, '(' or a name, found '=3'", 6),
        ("1d20 >=", "expected a number, dice such as 2d6, '(' or a name at the end", 7),
    ],
)
def test_the_caret_marks_the_whole_word(text: str, message: str, position: int) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse(text)
    assert (caught.value.message, caught.value.position) == (message, position)


def test_the_caret_stands_under_the_first_character_of_s1() -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        dicecli.parse("4d6 s1")
    assert caught.value.show().splitlines()[1:] == ["  4d6 s1", "      ^"]


_PIECES = ["2d6", "d20", "kh", "s", "1", "3", "x", " ", "/", "//", ">", "=", "+", "r", "e"]


_OPERATOR_PAIRS = ("//", ">=", "<=", "!=", "<>", "**", "==")


def _pair_insides(text: str) -> set[int]:
    """The positions between the two characters of an operator pair, the line read
    from its left as a tokenizer does: ``///`` is ``//`` then ``/``."""
    insides, at = set(), 0
    while at < len(text):
        if text[at : at + 2] in _OPERATOR_PAIRS:
            insides.add(at + 1)
            at += 2
        else:
            at += 1
    return insides


def _inside_a_word(text: str, where: int) -> bool:
    """Whether ``where`` splits a word of letters and the digits after them, or a
    pair ``//``, ``>=``."""
    here, before = text[where : where + 1], text[where - 1 : where] if where else ""
    if here.isalpha() and before.isalpha():
        return True
    if here.isdigit() and (before.isdigit() or before.isalpha()):
        return True
    return where in _pair_insides(text)


@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_a_syntax_error_never_stands_inside_a_word(text: str) -> None:
    found: DiceSyntaxError | None = None
    try:
        dicecli.parse(text)
    except DiceSyntaxError as error:
        found = error
    except DiceError:
        pass  # refused otherwise (a name that means nothing): not a syntax error
    if found is None or found.position is None:
        return
    if found.message.startswith("unexpected") or ", found '" in found.message:
        assert not _inside_a_word(text, found.position), (text, found.position)


# Errors show the line as typed, not as a dialect rewrote it.


@pytest.mark.parametrize(
    ("dialect", "typed", "position"),
    [
        ("foundry", "5d10x10 +", 9),  # rewritten 5d10!10 +
        ("foundry", "1d20 r1 + (0)d6", 10),  # an error of rolling, at the ( as typed
        ("roll20", "{5d6!!}>8 +", 11),  # rewritten 5d6!!6>=8 +
        ("dicemaiden", "attack +5 +", 11),  # an alias: rewritten 1d20 +5 +
    ],
)
def test_an_error_shows_the_line_as_typed(dialect: str, typed: str, position: int) -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.roll(typed, seed=1, environment=env_of(dialect))
    assert (caught.value.text, caught.value.position) == (typed, position)
    assert caught.value.show().splitlines()[1] == f"  {typed}"


def test_odds_errors_show_the_line_as_typed() -> None:
    with pytest.raises(DiceError) as caught:
        dicecli.odds("1d20r1 + (0)d6", environment=env_of("foundry"))
    assert (caught.value.text, caught.value.position) == ("1d20r1 + (0)d6", 9)


def test_a_json_error_has_the_typed_input_escaped() -> None:
    done = run_in_process("--json", "--dialect", "roll20", "{5d6!!}>8 +\x07")
    assert done.returncode == 2
    assert '"input": "{5d6!!}>8 +\\u0007"' in done.stderr
    error = json.loads(done.stderr)
    assert (error["input"], error["position"]) == ("{5d6!!}>8 +\x07", 11)
    text = run_in_process("--dialect", "foundry", "5d10x10 +")
    assert text.stderr.splitlines()[1:] == ["  5d10x10 +", "           ^"]


# A refusal says which dialect reads the line.


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        (  # d20's README, "Unary Operations": +X does nothing; Dice Maiden's advantage
            "+d20",
            "d20 (Avrae) reads it: --dialect d20 rolls d20; "
            "Dice Maiden reads it: --dialect dicemaiden rolls 2d20kh1",
        ),
        ("1d20 ms>=10", "Foundry VTT reads it: --dialect foundry rolls (1d20 - 10)"),
        ("4d6 s1", "rolldice reads it: --dialect rolldice rolls 4d6 dl1"),
    ],
)
def test_a_refusal_names_the_dialect_that_reads_it(line: str, hint: str) -> None:
    done = run_in_process(line)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"  {hint}"
    json_done = run_in_process("--json", line)
    assert json.loads(json_done.stderr)["hint"] == hint


def test_no_dialect_hint_when_no_dialect_reads_it() -> None:
    done = run_in_process("2d6 foo")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 3  # the message, the line, the caret


def test_no_dialect_hint_for_the_dialect_in_force() -> None:
    """Under --dialect dicemaiden, 4d6 i1 is refused by Dice Maiden's reading itself."""
    done = run_in_process("--dialect", "dicemaiden", "+d20 +")
    assert done.returncode == 2
    assert "--dialect dicemaiden" not in done.stderr


# d20 (Avrae) reads no dice as 0, a count worked out as 0 too (its test suite: 0d6).


@pytest.mark.parametrize("line", ["0d6", "(0)d6", "((0))d6", "(0)d(6)", "(1-1)d6", "(STR)d6"])
def test_d20_reads_a_count_of_zero_as_no_dice(line: str) -> None:
    """``(0)d6`` and ``(1d2-1)d6`` were refused while ``0d6`` was 0."""
    env = Environment(values={"STR": 0}, settings={"dialect": "d20"})
    assert dicecli.roll(line + " + 3", seed=1, environment=env).total == 3
    found = dicecli.odds(line + " + 3", environment=env).distribution
    assert found is not None
    assert dict(found.outcomes) == {3: 1}


def test_d20_rolled_count_of_zero_with_given_dice() -> None:
    """Given 1: the count 1d2-1 is 0, no d6 is rolled, the total is 2."""
    result = dicecli.roll("(1d2-1)d6 + 2", given="1", environment=env_of("d20"))
    assert result.total == 2
    assert [rolled.value for rolled in result.dice] == [1]  # the d2 alone


def brute_computed(count_sides: int, offset: int, sizes: list[int]) -> dict[int, Fraction]:
    """The distribution of ``(1d{count_sides}-offset)d(size)``, size drawn evenly from
    ``sizes``, a count of 0 worth 0, by every way the dice fall."""
    import itertools

    found: dict[int, Fraction] = {}
    for first in range(1, count_sides + 1):
        dice = first - offset
        for size in sizes:
            share = Fraction(1, count_sides * len(sizes))
            ways = list(itertools.product(range(1, size + 1), repeat=dice))
            for faces in ways:
                total = sum(faces)
                found[total] = found.get(total, Fraction(0)) + share / len(ways)
    return dict(sorted(found.items()))


def test_d20_odds_of_a_count_that_may_be_zero_match_brute_force() -> None:
    assert chances("(1d2-1)d6", "d20") == brute_computed(2, 1, [6])
    assert chances("(1d3-1)d(1d2+2)", "d20") == brute_computed(3, 1, [3, 4])


def test_d20_critical_chance_over_a_count_that_may_be_zero() -> None:
    """A d20 marks a critical success on 20; half the time no d20 is rolled."""
    found = dict(dicecli.odds("(1d2-1)d20", environment=env_of("d20")).chances)
    assert found["critical_success"] == Fraction(1, 40)


def test_without_the_dialect_a_count_of_zero_is_still_refused() -> None:
    for line in ("(0)d6", "(1-1)d6"):
        with pytest.raises(DiceError):
            dicecli.roll(line, seed=1)
        with pytest.raises(DiceError):
            dicecli.odds(line)


# Odds of a repeated line: those of one roll, and a note of how many times.


@pytest.mark.parametrize(
    ("line", "dialect", "one_roll"),
    [
        ("6 4d6", None, "4d6"),
        ("repeat(4d6kh3, 6)", None, "4d6kh3"),
        ("4d6kh3 -n 6", None, "4d6kh3"),
        ("dndstats", "dicemaiden", "4d6kh3"),
        ("6 4d6 k3", "dicemaiden", "4d6kh3"),
        ("6x4d6s1", "rolldice", "4d6dl1"),
    ],
)
def test_odds_of_a_repeat_are_those_of_one_roll(
    line: str, dialect: str | None, one_roll: str
) -> None:
    """``odds '6 4d6'`` was refused, and ``odds --dialect rolldice 6x4d6`` gave the odds
    of six times one roll, where the roll says six rolls."""
    env = Environment() if dialect is None else env_of(dialect)
    found = dicecli.odds(line, environment=env)
    single = dicecli.odds(one_roll)
    assert found.distribution == single.distribution
    assert "repeated 6 times (-n 6): the odds of one roll" in found.notes
    assert found.input == line


def test_odds_of_a_repeat_on_the_command_line() -> None:
    done = run_in_process("odds", "--plain", "6 4d6")
    assert done.returncode == 0, done.stderr
    assert "note\trepeated 6 times (-n 6): the odds of one roll" in done.stdout.splitlines()
    assert "range\t4..24\tstdev 3.4157" in done.stdout.splitlines()


def test_a_product_is_still_a_product_in_odds() -> None:
    """Without the dialect, 6x4d6 multiplies (a seed rule), in odds as in rolls."""
    found = dicecli.odds("6x4d6")
    assert found.distribution is not None
    assert max(value for value, _ in found.distribution.outcomes) == 144


@pytest.mark.parametrize("dialect", ["roll20", "foundry", "rdr", "d20", "dicemaiden", "rolldice"])
def test_a_line_of_many_free_words_is_read_one_way(dialect: str) -> None:
    """The modifiers' pattern could split a word or an explosion many ways, and a
    pattern that needs more after them (rolldice's ``3d6-1*10``) tried every split of
    ``... ! Large roll set with exploding dice`` before failing: this line did not end
    (each word more doubled the work). Read one way, it is rewritten at once."""
    words = " ".join(["Large", "roll", "set", "with", "exploding", "dice"] * 6)
    line = f"20 (Set) 10d6 e6 kh5 ! {words}"
    code = translated(line, dialect).partition("#")[0]
    assert code.startswith("20 (Set) 10d6 ")


@pytest.mark.parametrize(("line", "mean"), [("d%", 45), ("1d%", 45), ("2d%", 90), ("0d%", 0)])
def test_d20_reads_its_percentile_die_as_a_tens_die(line: str, mean: int) -> None:
    """d20's d% is a tens die, 00 to 90 (its tests: 0 <= d% <= 90, d% % 10 == 0);
    dicecli's own d% is a d100, the seed rule."""
    env = Environment().with_dialect("d20")
    found = dicecli.odds(line, environment=env).distribution
    assert found is not None
    assert found.mean() == mean
    assert all(value % 10 == 0 for value, _ in found.outcomes)
    rolled = dicecli.roll(f"{line} + 1d6 # d% stays in the comment", environment=env, seed=4)
    assert "read as d20 (Avrae) reads it" in rolled.notes[0]
    own = dicecli.odds("d%").distribution
    assert own is not None
    assert own.mean() == Fraction(101, 2)


@pytest.mark.parametrize("dialect", [None, "rdr", "roll20", "foundry", "d20", "dicemaiden"])
def test_a_number_past_the_digits_limit_is_refused_in_every_dialect(dialect: str | None) -> None:
    """The fuzz profile (seed 9) found ``4d6kh`` and 5,000 digits an internal error:
    the dialect hint read the number with int(), past Python's 4,300-digit limit."""
    line = "4d6kh" + "1" * 5000
    env = Environment() if dialect is None else Environment().with_dialect(dialect)
    with pytest.raises(DiceError, match="number too long: 5,000 digits"):
        dicecli.roll(line, environment=env, seed=1)
