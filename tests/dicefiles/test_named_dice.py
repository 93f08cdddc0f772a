"""Rolling dice named in a dice file (docs/dice.md): the spelling in the notation,
symbol counts and their net, --given by face or symbol, --seed, JSON, the files it
loads from (--dice-file, the per-user file, the REPL's load, a character file), and
Alkemy reading its colours from it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from processes import run_in_process

import dicecli
from dicecli import DiceError, Environment
from dicecli.dicefiles.load import combined, parse_book, read_book
from dicecli.dicefiles.model import DiceBook
from dicecli.frozen import replace
from dicecli.notation.nodes import Dice
from dicecli.notation.sides import DieName
from dicecli.repl.commands import handle_line
from dicecli.repl.state import Message, Problem, Rolled, start_state
from dicecli.rolling.sources import GivenSource, Roller

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENESYS = EXAMPLES / "genesys-dice.toml"
AVERAGE = EXAMPLES / "averaging-die.toml"


@pytest.fixture(scope="module")
def genesys() -> Environment:
    return Environment(dice=read_book(GENESYS))


@pytest.fixture(scope="module")
def average() -> Environment:
    return Environment(dice=read_book(AVERAGE))


# -- the spelling in the notation -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "name"),
    [("3dBoost", 3, "Boost"), ("dAbility", 1, "Ability"), ("dFate", 1, "Fate")],
)
def test_a_capital_after_d_names_a_die(text: str, count: int, name: str) -> None:
    body = dicecli.parse(text).body
    assert body == Dice(count, DieName(name))
    assert str(body) == text.removeprefix("1")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("dF", "dF"),
        ("4dF", "4dF"),
        ("dF.1", "dF.1"),
        ("4dFr", "4dFr<0"),
        ("3dFkh1", "3dFkh1"),
        ("4dFxd6", "4dF*d6"),
        ("d%", "d%"),
        ("d6", "d6"),
        ("dex", "dex"),  # a lower-case letter after d: a name, as before
        ("DMG", "DMG"),
    ],
)
def test_fudge_percent_numbers_and_names_keep_their_meaning(text: str, canonical: str) -> None:
    body = dicecli.parse(text).body
    assert not (isinstance(body, Dice) and isinstance(body.sides, DieName))
    assert str(body) == canonical


def test_modifiers_follow_a_named_die_after_a_space_and_print_back_so() -> None:
    body = dicecli.parse("4dAverage kh2").body
    assert str(body) == "4dAverage kh2"
    assert dicecli.parse(str(body)).body == body


def test_an_unknown_die_names_the_dice_and_the_close_one(genesys: Environment) -> None:
    with pytest.raises(DiceError) as raised:
        dicecli.roll("2dAbility + dBost", environment=genesys)
    assert raised.value.message == (
        "unknown die 'dBost' (dice: Boost, Setback, Ability, Difficulty, Proficiency, "
        "Challenge); did you mean dBoost?"
    )
    assert raised.value.position == 12  # the caret under dBost


def test_an_unknown_die_without_any_dice_file_says_how_to_load_one() -> None:
    with pytest.raises(DiceError) as raised:
        dicecli.roll("3dBoost")
    assert raised.value.message == (
        "unknown die 'dBoost': no dice file is loaded (--dice-file PATH, load PATH in the "
        "REPL, or ~/.config/dicecli/dice.toml; see dicecli help dice)"
    )


# -- symbols --------------------------------------------------------------------------


def test_symbol_dice_count_each_symbol_and_net_the_cancelling_pairs(
    genesys: Environment,
) -> None:
    result = dicecli.roll(
        "2dAbility + 1dProficiency + 1dDifficulty",
        given="success+advantage,success+success,triumph+success,failure+threat",
        environment=genesys,
    )
    assert result.total is None  # symbols alone have no total
    assert result.outcome is not None
    facts = dict(result.outcome.fields)
    assert facts["symbols"] == {
        "success": 4,
        "advantage": 1,
        "failure": 1,
        "threat": 1,
        "triumph": 1,
    }
    assert facts["net"] == {"success": 3, "advantage": 0, "triumph": 1}
    assert result.outcome.verdict == (
        # the net result first (the file's succeeds = "success"), then each symbol in
        # the order the file first shows it
        "success with 1 triumph; 4 success, 1 advantage, 1 failure, 1 threat, 1 triumph"
    )
    assert result.outcome.passed is True  # 3 successes left: a success (issue 28)


def test_failures_that_outnumber_successes_are_what_is_left(genesys: Environment) -> None:
    result = dicecli.roll(
        "dBoost + 2dSetback", given="advantage,failure,threat", environment=genesys
    )
    assert result.outcome is not None
    assert dict(result.outcome.fields)["net"] == {"failure": 1, "advantage": 0}


def test_blank_faces_show_no_symbols(genesys: Environment) -> None:
    result = dicecli.roll("2dBoost", given="blank,blank", environment=genesys)
    assert [die.face for die in result.dice] == ["blank", "blank"]
    assert result.outcome is not None
    assert result.outcome.verdict == "failure; no symbols"  # no success left: a failure


def test_a_seed_reproduces_a_roll(genesys: Environment) -> None:
    text = "3dAbility + 2dDifficulty + dChallenge"
    first = dicecli.roll(text, seed=11, environment=genesys)
    again = dicecli.roll(text, seed=11, environment=genesys)
    assert first == again
    assert len(first.dice) == 6


def test_given_takes_a_face_by_value_or_by_symbol() -> None:
    book = Environment(dice=read_book_text('[Axe]\nfaces = [1, {value = 2, symbol = "⚔"}, 3]\n'))
    by_symbol = dicecli.roll("dAxe", given="⚔", environment=book)
    by_name = dicecli.roll("dAxe", given="2-⚔", environment=book)
    by_value = dicecli.roll("dAxe", given="2", environment=book)
    assert by_symbol.dice[0].face == by_name.dice[0].face == by_value.dice[0].face == "2-⚔"
    assert by_symbol.dice[0].symbols == ("⚔",)
    assert by_symbol.total == 2
    # a face printed "2" is the one "2" gives, before a face worth 2 with a symbol
    twice = Environment(dice=read_book_text('[Axe]\nfaces = [{value = 2, symbol = "⚔"}, 2]\n'))
    assert dicecli.roll("dAxe", given="2", environment=twice).dice[0].face == "2"
    with pytest.raises(DiceError, match="given face #1 '4' is not a face of Axe"):
        dicecli.roll("dAxe", given="4", environment=book)


def read_book_text(text: str) -> DiceBook:
    return parse_book(text, "mine.toml")


# -- numbers --------------------------------------------------------------------------


def test_a_numbered_die_rolls_with_every_modifier(average: Environment) -> None:
    result = dicecli.roll("4dAverage kh2 + 1", given="2,5,3,4", environment=average)
    assert result.total == 10  # 5 + 4 kept, + 1
    assert [die.kept for die in result.dice] == [False, True, False, True]
    assert result.outcome is None  # no symbols, nothing to count
    counted = dicecli.roll("3dAverage >=4", given="4,3,5", environment=average)
    assert counted.total == 2
    exploded = dicecli.roll("dAverage !", given="5,2", environment=average)
    assert exploded.total == 7


def test_a_modifier_that_would_never_end_is_refused(average: Environment) -> None:
    with pytest.raises(DiceError) as raised:
        dicecli.roll("dAverage r<6", environment=average)
    assert raised.value.message == "dAverage r<6: every face re-rolls, so the roll would never end"


def test_modifiers_on_symbol_dice_are_refused(genesys: Environment) -> None:
    with pytest.raises(DiceError) as raised:
        dicecli.roll("3dAbility kh1", environment=genesys)
    assert raised.value.message == (
        "dAbility has faces without a number: modifiers (keep, re-roll, explode, count) "
        "need a number on every face"
    )


def test_the_dice_in_force_are_looked_up_at_each_roll() -> None:
    # one parsed line, two environments: the die comes from each one's dice file
    low = Environment(dice=read_book_text("[Die]\nfaces = [1]\n"))
    high = Environment(dice=read_book_text("[Die]\nfaces = [9]\n"))
    assert dicecli.roll("2dDie", seed=1, environment=low).total == 2
    assert dicecli.roll("2dDie", seed=1, environment=high).total == 18


# -- where the dice come from ---------------------------------------------------------


def test_the_per_user_file_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config"
    (config / "dicecli").mkdir(parents=True)
    (config / "dicecli" / "dice.toml").write_text("[Coin]\nfaces = [0, 1]\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    assert dicecli.roll("3dCoin", given="1,0,1").total == 2


def test_dice_file_on_the_command_line_plain_and_json() -> None:
    done = run_in_process(
        "--dice-file", str(GENESYS), "--given", "success+advantage,failure", "--plain",
        "dAbility + dDifficulty",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # no success left: a failed check
    assert done.stdout == (
        "-\tdAbility + dDifficulty\t[success+advantage] + [failure] => "
        "failure with 1 advantage; 1 success, 1 advantage, 1 failure\n"
    )
    done = run_in_process(
        "--dice-file", str(GENESYS), "--given", "success+advantage,blank", "--json",
        "dAbility + dBoost",
    )  # fmt: skip
    data = json.loads(done.stdout)
    assert data["total"] is None
    assert data["dice"][0] == {
        "die": "Ability",
        "face": "success+advantage",
        "value": None,
        "kept": True,
        "marks": [],
        "symbols": ["success", "advantage"],
    }
    assert data["dice"][1]["face"] == "blank"
    assert data["outcome"]["symbols"] == {"success": 1, "advantage": 1}
    assert data["outcome"]["net"] == {"success": 1, "advantage": 1}


def test_a_bad_dice_file_on_the_command_line_is_one_line_status_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[Boost]\nfaces = [1, true]\n")
    done = run_in_process("--dice-file", str(path), "dBoost")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: dice file {path}, line 2: die 'Boost': face 2 (true): a face is a whole "
        'number, symbols in quotes ("success+advantage"), or a table\n'
    )


def test_an_unknown_die_on_the_command_line_has_a_caret() -> None:
    done = run_in_process("--dice-file", str(GENESYS), "2dAbility+dBost")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: unknown die 'dBost' (dice: Boost, Setback, Ability, Difficulty, "
        "Proficiency, Challenge); did you mean dBoost?",
        "  2dAbility+dBost",
        "            ^",
    ]


def test_the_repl_loads_a_dice_file_and_keeps_the_session_on_a_bad_one(
    tmp_path: Path,
) -> None:
    state = start_state(Roller(GivenSource.from_text("triumph+success")))
    state, output = handle_line(state, f"load {GENESYS}")
    assert output == (
        Message("loaded dice Boost, Setback, Ability, Difficulty, Proficiency, Challenge"),
    )
    state, output = handle_line(state, "dProficiency")
    (rolled,) = output
    assert isinstance(rolled, Rolled)
    assert rolled.result.outcome is not None
    assert rolled.result.outcome.verdict == "success with 1 triumph; 1 success, 1 triumph"
    bad = tmp_path / "bad.toml"
    bad.write_text("[Boost]\nfaces = [1]\n")  # a name the session has from another file
    after, output = handle_line(state, f"load {bad}")
    (problem,) = output
    assert isinstance(problem, Problem)
    assert problem.error.message == (
        f"dice file {bad}, line 1: die 'Boost': the name is taken by the die 'Boost' "
        f"of {GENESYS}, line 16"
    )
    assert after == state


def test_a_character_file_names_its_dice_file(tmp_path: Path) -> None:
    (tmp_path / "dice.toml").write_text("[Average]\nfaces = [2, 3, 3, 4, 4, 5]\n")
    sheet = tmp_path / "hero.toml"
    sheet.write_text('dice = "dice.toml"\n[rolls]\nshoot = "2dAverage + 1"\n')
    done = run_in_process("--character", str(sheet), "--given", "5,4", "shoot", "--plain")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\t")[0] == "10"


def test_a_character_file_with_a_bad_dice_path_is_an_error(tmp_path: Path) -> None:
    sheet = tmp_path / "hero.toml"
    sheet.write_text("dice = 3\n")
    done = run_in_process("--character", str(sheet), "d6")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: character file {sheet}: 'dice' must be the path of a dice file, "
        'e.g. dice = "dice.toml"\n'
    )


# -- Alkemy reads its colours from the dice file in force -----------------------------


def test_alkemy_takes_its_colours_from_the_dice_file(tmp_path: Path) -> None:
    # rule A8: the faces of the white die are the player's; A9: no assumption then
    path = tmp_path / "mine.toml"
    path.write_text(
        '[white]\nfaces = [1, 2, 3, 4, 5, 6]\nsymbols = ["sword", "axe", "mace", '
        '"sword", "axe", "mace"]\n[Average]\nfaces = [2, 3, 3, 4, 4, 5]\n'
    )
    env = Environment(dice=read_book(path))
    result = dicecli.roll("alkemy 0", given="4,2", environment=env)
    assert [die.face for die in result.dice] == ["4-sword", "2-axe"]
    assert dicecli.roll("dAverage", given="5", environment=env).total == 5


def test_alkemy_checks_its_colours_in_a_dice_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[red]\nfaces = [1, 2, 3]\n")
    env = Environment(dice=read_book(path))
    with pytest.raises(DiceError) as raised:
        dicecli.roll("alkemy 0 red", environment=env)
    assert raised.value.message == (
        f"alkemy dice file {path}: [red] faces: give 6 whole numbers, one per face"
    )


def test_the_alkemy_setting_wins_over_the_dice_file(tmp_path: Path) -> None:
    general = tmp_path / "general.toml"
    general.write_text("[white]\nfaces = [1, 1, 1, 1, 1, 1]\n")
    own = tmp_path / "alkemy.toml"
    own.write_text("[white]\nfaces = [6, 6, 6, 6, 6, 6]\n")
    env = replace(Environment(settings={"alkemy.dice_file": str(own)}), dice=read_book(general))
    assert dicecli.roll("alkemy 0", given="6,6", environment=env).total == 12


def test_a_name_spelled_like_a_die_is_still_the_name_when_no_die_has_it() -> None:
    # dex = -1 typed dEX: no dice file defines EX, so it is the name, as before
    assert dicecli.roll("dEX + 3", values={"dex": -1}).total == 2
    found = dicecli.odds("d4 + dEX", values={"dex": -1})
    assert found.distribution is not None
    assert [value for value, _ in found.distribution.outcomes] == [0, 1, 2, 3]
    # a die EX wins over the name
    env = Environment(values={"dex": -1}, dice=read_book_text("[EX]\nfaces = [7]\n"))
    assert dicecli.roll("dEX + 3", environment=env).total == 10


def test_several_dice_files_on_the_command_line(tmp_path: Path) -> None:
    done = run_in_process(
        "--dice-file", str(GENESYS), "--dice-file", str(AVERAGE), "--given", "5,advantage",
        "--plain", "dAverage + dBoost",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # the Genesys file's rule: no success, failed
    assert done.stdout.startswith(
        "5\tdAverage + dBoost\t[5] + [advantage] => failure with 1 advantage; 1 advantage"
    )
    clash = tmp_path / "clash.toml"
    clash.write_text("[average]\nfaces = [1]\n")
    done = run_in_process("--dice-file", str(AVERAGE), "--dice-file", str(clash), "dAverage")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: dice file {clash}, line 1: die 'average': the name is taken by the die "
        f"'Average' of {AVERAGE}, line 7\n"
    )


@pytest.mark.parametrize(
    "text", ["{2dAbility}k1", "{2dAbility, 3}kh1", "dAbility * 2", "dAbility >= 1", "2dAbility + 3"]
)
def test_dice_without_numbers_are_only_added(genesys: Environment, text: str) -> None:
    with pytest.raises(DiceError) as raised:
        dicecli.roll(text, seed=1, environment=genesys)
    assert raised.value.message == (
        "dAbility has faces without a number: add it to other dice (2dAbility + ...) to "
        "count its symbols; it has no total to keep, compare or work out"
    )


def test_symbol_dice_beside_numbered_dice_keep_the_total(genesys: Environment) -> None:
    env = replace(genesys, dice=combined(read_book(GENESYS), read_book(AVERAGE)))
    result = dicecli.roll("dAbility[skill] + 2dAverage kh1", given="success,5,4", environment=env)
    assert result.total == 5
    assert result.outcome is not None
    assert dict(result.outcome.fields)["symbols"] == {"success": 1}


def test_the_repl_completes_the_dice_in_force() -> None:
    from dicecli.repl.completion import completions

    state = start_state(Roller(GivenSource.from_text("1")))
    assert completions(state, "2dAb") == []  # no dice file yet
    state, _ = handle_line(state, f"load {GENESYS}")
    assert completions(state, "2dAb") == ["dAbility"]
    assert completions(state, "dBoost + dse") == ["dSetback"]
    assert completions(state, "odds 2dPro") == ["dProficiency"]
    assert completions(state, "alkemy 8 vs dAb") == []  # a game's line: its words only
    assert completions(state, "load dAb") == []


@pytest.mark.parametrize(
    ("line", "why", "where"),
    [
        ("5dAverage u", "5dAverage u: 5 unique dice need 5 different values", 0),
        ("1 + dAverage r<=5", "dAverage r<=5: every face re-rolls", 4),
    ],
)
def test_dice_of_a_file_that_would_roll_forever_are_one_error_in_rolls_and_odds(
    line: str, why: str, where: int
) -> None:
    """The odds of ``5dAverage u`` were an internal error (a division by zero) while the
    roll said why: both now refuse it at the term, with its position."""
    env = Environment(dice=parse_book("[Average]\nfaces = [2, 3, 3, 4, 4, 5]\n", "avg.toml"))
    with pytest.raises(DiceError, match=why) as rolled:
        dicecli.roll(line, seed=1, environment=env)
    with pytest.raises(DiceError, match=why) as weighed:
        dicecli.odds(line, environment=env)
    assert rolled.value.position == weighed.value.position == where


@pytest.mark.parametrize(
    ("line", "given", "faces", "total"),
    [
        ("dAverage r", "2,2,4", ["2", "2", "4"], 4),  # r: until it is not the lowest, 2
        ("dAverage ro", "2,2", ["2", "2"], 2),  # ro: once, the second face stands
        ("2dAverage r + 1", "3,2,5", ["3", "2", "5"], 9),
    ],
)
def test_a_bare_reroll_on_a_dice_file_die_rerolls_its_lowest_face(
    average: Environment, line: str, given: str, faces: list[str], total: int
) -> None:
    # docs/grammar.md: a bare r/ro re-rolls the die's lowest face; dAverage's is 2
    # (faces 2, 3, 3, 4, 4, 5), which it has no 1 to re-roll
    result = dicecli.roll(line, given=given, environment=average)
    assert [die.face for die in result.dice] == faces
    assert result.total == total
    assert str(dicecli.parse(line)) == line  # the text stays bare: the die is known later


def test_the_odds_of_a_bare_reroll_on_a_dice_file_die() -> None:
    average = Environment(dice=read_book(AVERAGE))
    # dAverage r never stands on 2: 3, 3, 4, 4, 5 are left, alike
    odds = dicecli.odds("dAverage r", environment=average)
    assert odds.distribution is not None
    assert odds.distribution.outcomes == (
        (3, Fraction(2, 5)),
        (4, Fraction(2, 5)),
        (5, Fraction(1, 5)),
    )
    once = dicecli.odds("dAverage ro", environment=average)
    assert once.distribution is not None
    assert dict(once.distribution.outcomes)[2] == Fraction(1, 36)  # 2, then 2 again
