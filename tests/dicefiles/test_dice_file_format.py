"""Dice files: the format of docs/dice.md, and one test per mistake a user makes, each
with its one-line error pinned (naming the file, the line and the die), found when the
file is loaded, before anything is rolled."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from property_counts import examples

import dicecli
from dicecli import Environment, parse
from dicecli.dicefiles.load import DiceFileError, combined, parse_book, read_book
from dicecli.dicefiles.model import BLANK, face_name, has_numbers
from dicecli.errors import DiceError, DiceSyntaxError
from dicecli.notation.nodes import Dice
from dicecli.notation.sides import DieName
from dicecli.systems.alkemy.dice import SHIPPED_DICE

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def book_error(text: str) -> str:
    with pytest.raises(DiceFileError) as raised:
        parse_book(text, "d.toml")
    message = raised.value.message
    assert "\n" not in message  # one line
    return message


def test_faces_are_numbers_symbols_or_both() -> None:
    book = parse_book(
        "[Mixed]\n"
        'faces = [3, "sword", "", "success+success", {value = 2, symbol = "⚔"},'
        ' {symbols = ["success", "advantage"]}, {value = -1}]\n',
        "d.toml",
    )
    die = book.die("mixed")  # names are matched in any case
    assert die is not None
    assert [(f.name, f.value, f.symbols) for f in die.faces] == [
        ("3", 3, ()),
        ("sword", None, ("sword",)),
        (BLANK, None, ()),
        ("success+success", None, ("success", "success")),
        ("2-⚔", 2, ("⚔",)),
        ("success+advantage", None, ("success", "advantage")),
        ("-1", -1, ()),
    ]
    assert book.symbols == ("sword", "success", "⚔", "advantage")
    assert not has_numbers(die)


def test_a_symbols_list_beside_numbers_is_alkemys_form() -> None:
    book = parse_book('[white]\nfaces = [1, 2]\nsymbols = ["sword", ""]\n', "d.toml")
    die = book.die("WHITE")
    assert die is not None
    assert [f.name for f in die.faces] == ["1-sword", "2"]
    assert has_numbers(die)


def test_the_shipped_alkemy_dice_are_a_dice_file() -> None:
    # Alkemy's dice are one user of the general format (rule A8: white 1-6): its shipped
    # tables, written out as TOML, read as a general dice file
    text = "".join(
        f"[{colour}]\n" + "".join(f"{key} = {_toml(value)}\n" for key, value in table.items())
        for colour, table in SHIPPED_DICE.items()
    )
    book = parse_book(text, "shipped.toml")
    assert book.names() == ("white", "yellow", "red")
    white = book.die("white")
    assert white is not None
    assert [f.value for f in white.faces] == [1, 2, 3, 4, 5, 6]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_the_alkemy_example_is_a_dice_file() -> None:
    book = read_book(EXAMPLES / "alkemy-dice.toml")
    assert set(book.names()) <= {"white", "yellow", "red"}


def test_the_genesys_example_has_the_real_face_layouts() -> None:
    # Boost d6, Setback d6, Ability d8, Difficulty d8, Proficiency d12, Challenge d12,
    # as printed on the dice: the count of each symbol over all faces
    book = read_book(EXAMPLES / "genesys-dice.toml")

    def tally(name: str) -> dict[str, int]:
        die = book.die(name)
        assert die is not None
        counts: dict[str, int] = {"faces": len(die.faces)}
        for each in die.faces:
            for symbol in each.symbols:
                counts[symbol] = counts.get(symbol, 0) + 1
        return counts

    assert tally("Boost") == {"faces": 6, "success": 2, "advantage": 4}
    assert tally("Setback") == {"faces": 6, "failure": 2, "threat": 2}
    assert tally("Ability") == {"faces": 8, "success": 5, "advantage": 5}
    assert tally("Difficulty") == {"faces": 8, "failure": 4, "threat": 6}
    # a triumph counts as a success too, a despair as a failure
    assert tally("Proficiency") == {"faces": 12, "success": 10, "advantage": 8, "triumph": 1}
    assert tally("Challenge") == {"faces": 12, "failure": 9, "threat": 8, "despair": 1}
    assert book.cancels == (("success", "failure"), ("advantage", "threat"))


def test_the_averaging_example() -> None:
    book = read_book(EXAMPLES / "averaging-die.toml")
    die = book.die("Average")
    assert die is not None
    assert sorted(f.value for f in die.faces if f.value is not None) == [2, 3, 3, 4, 4, 5]


def test_face_names() -> None:
    assert face_name(4, ()) == "4"
    assert face_name(4, ("sword",)) == "4-sword"
    assert face_name(None, ("success", "advantage")) == "success+advantage"
    assert face_name(None, ()) == BLANK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[Boost\nfaces = [1]",
            "dice file d.toml: not valid TOML: Expected ']' at the end of a table "
            "declaration (at line 1, column 7)",
        ),
        (
            "Boost = 3\n",
            "dice file d.toml, line 1: die 'Boost': not a table: write [Boost] with faces = [...]",
        ),
        (
            "[Boost]\nface = [1, 2]\n",
            "dice file d.toml, line 2: die 'Boost': unknown key 'face' "
            "(keys: faces, symbols, description, note, assumption)",
        ),
        (
            "[Boost]\ndescription = 'x'\n",
            "dice file d.toml, line 1: die 'Boost': no faces: write faces = [...], "
            "one item per face",
        ),
        (
            "[Boost]\nfaces = []\n",
            "dice file d.toml, line 2: die 'Boost': faces: write a list with one item per "
            "face, e.g. [1, 2, 3]",
        ),
        (
            "[Boost]\nfaces = 3\n",
            "dice file d.toml, line 2: die 'Boost': faces: write a list with one item per "
            "face, e.g. [1, 2, 3]",
        ),
        (
            "[Boost]\nfaces = [1, 2, true]\n",
            "dice file d.toml, line 2: die 'Boost': face 3 (true): a face is a whole number, "
            'symbols in quotes ("success+advantage"), or a table',
        ),
        (
            "[Boost]\nfaces = [1, 2.5]\n",
            "dice file d.toml, line 2: die 'Boost': face 2 (2.5): a face is a whole number, "
            'symbols in quotes ("success+advantage"), or a table',
        ),
        (
            "[Boost]\nfaces = [\n  'success',\n  'success++advantage',\n]\n",
            "dice file d.toml, line 4: die 'Boost': face 2 (\"success++advantage\"): "
            'an empty symbol: join symbols with one "+"',
        ),
        (
            "[Boost]\nfaces = ['3']\n",
            "dice file d.toml, line 2: die 'Boost': face 1 (\"3\"): write a number without "
            "quotes: 3",
        ),
        (
            "[Boost]\nfaces = [{value = 2, symbl = 'x'}]\n",
            "dice file d.toml, line 2: die 'Boost': face 1 ({value = 2, symbl = \"x\"}): "
            "unknown key 'symbl' (keys: value, symbol, symbols)",
        ),
        (
            "[Boost]\nfaces = [{}]\n",
            "dice file d.toml, line 2: die 'Boost': face 1 ({}): give a value, a symbol or both",
        ),
        (
            "[Boost]\nfaces = [{value = 'two'}]\n",
            "dice file d.toml, line 2: die 'Boost': face 1 ({value = \"two\"}): value: write "
            "a whole number",
        ),
        (
            "[Boost]\nfaces = [{value = 1, symbol = 'a', symbols = ['b']}]\n",
            "dice file d.toml, line 2: die 'Boost': face 1 ({value = 1, symbol = \"a\", "
            'symbols = ["b"]}): give symbol or symbols, not both',
        ),
        (
            "[Boost]\nfaces = ['a', {symbol = 3}]\n",
            "dice file d.toml, line 2: die 'Boost': face 2 ({symbol = 3}): symbol: write the "
            "symbol in quotes",
        ),
        (
            "[Boost]\nfaces = [1, 2]\nsymbols = ['a']\n",
            "dice file d.toml, line 3: die 'Boost': symbols: give 2 symbols, one per face",
        ),
        (
            "[Boost]\nfaces = ['a', 'b']\nsymbols = ['a', 'b']\n",
            "dice file d.toml, line 3: die 'Boost': face 1 has symbols already: give them "
            "in one place",
        ),
        (
            "[2x]\nfaces = [1]\n",
            "dice file d.toml, line 1: die '2x': not a die name: a letter, then letters, "
            "digits or _ (rolled as 3dName)",
        ),
        (
            "[Fr]\nfaces = [1]\n",
            "dice file d.toml, line 1: die 'Fr': 'dFr' reads as the Fudge die dF and "
            "modifiers: choose another name",
        ),
        (
            "[F]\nfaces = [1]\n",
            "dice file d.toml, line 1: die 'F': 'dF' is the Fudge die: choose another name",
        ),
        (
            "[Boost]\nfaces = [1]\n[boost]\nfaces = [2]\n",
            "dice file d.toml, line 3: die 'boost': the name is used twice (names are "
            "matched in any case: 'Boost' is on line 1)",
        ),
        (
            "cancel = [['success', 'failur']]\n[Boost]\nfaces = ['success', 'failure']\n",
            "dice file d.toml, line 1: cancel: no face shows 'failur' (symbols: success, failure)",
        ),
        (
            "cancel = ['success']\n[Boost]\nfaces = ['success', 'failure']\n",
            "dice file d.toml, line 1: cancel: write pairs of symbols, e.g. "
            'cancel = [["success", "failure"]]',
        ),
        (
            "cancel = [['success', 'failure'], ['success', 'threat']]\n"
            "[Boost]\nfaces = ['success', 'failure', 'threat']\n",
            "dice file d.toml, line 1: cancel: 'success' is in two pairs",
        ),
        (
            "cancel = [['success', 'success']]\n[Boost]\nfaces = ['success']\n",
            "dice file d.toml, line 1: cancel: 'success' cannot cancel itself",
        ),
        (
            "description = 'only'\n",
            "dice file d.toml: no dice in it: write [NAME] with faces = [...] "
            "(see dicecli help dice)",
        ),
        (
            "[Boost]\nfaces = [1]\nassumption = 'yes'\n",
            "dice file d.toml, line 3: die 'Boost': assumption: write true or false",
        ),
        (
            "[Boost]\nfaces = [1, 2]\nnote = 3\n",
            "dice file d.toml, line 3: die 'Boost': note: write a string",
        ),
        (
            "[Boost]\nfaces = [1, 1" + "0" * 100 + "]\n",
            "dice file d.toml, line 2: die 'Boost': face 2 (1" + "0" * 100 + "): a number "
            "of at most 100 digits",
        ),
        (
            "[Boost]\nfaces = [" + "1, " * 1001 + "]\n",
            "dice file d.toml, line 2: die 'Boost': faces: at most 1,000 faces",
        ),
    ],
)
def test_each_mistake_is_one_error_naming_the_file_line_and_die(text: str, message: str) -> None:
    assert book_error(text) == message


def test_a_missing_file_is_one_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(DiceFileError) as raised:
        read_book(path)
    assert raised.value.message == f"dice file {path}: cannot read it: no such file"


def test_a_name_taken_by_another_file_is_an_error_naming_both() -> None:
    first = parse_book("[Boost]\nfaces = [1]\n", "a.toml")
    second = parse_book("# mine\n[Setback]\nfaces = [2]\n[boost]\nfaces = [3]\n", "b.toml")
    with pytest.raises(DiceError) as raised:
        combined(first, second)
    assert raised.value.message == (
        "dice file b.toml, line 4: die 'boost': the name is taken by the die 'Boost' "
        "of a.toml, line 1"
    )


def test_a_file_loaded_again_replaces_its_own_dice() -> None:
    first = parse_book("[Boost]\nfaces = [1]\n[Old]\nfaces = [1]\n", "a.toml")
    again = parse_book("[Boost]\nfaces = [6]\n", "a.toml")
    both = combined(first, again)
    boost = both.die("boost")
    assert boost is not None
    assert [f.value for f in boost.faces] == [6]
    assert both.die("old") is None


def test_cancelling_pairs_of_two_files_must_agree() -> None:
    first = parse_book("cancel = [['a', 'b']]\n[X]\nfaces = ['a', 'b', 'c']\n", "a.toml")
    second = parse_book("cancel = [['a', 'c']]\n[Y]\nfaces = ['a', 'c']\n", "b.toml")
    with pytest.raises(DiceError) as raised:
        combined(first, second)
    assert raised.value.message == (
        "dice file b.toml: cancel: 'a' cancels 'b' in a file loaded before"
    )


@settings(max_examples=examples(200), deadline=None)
@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True), st.integers(1, 20))
@example("F", 1)
@example("fr", 2)
@example("Fkh1", 3)
@example("Fate", 4)
@example("FF0", 1)
@example("FX0", 1)
def test_a_name_the_loader_takes_is_rolled_by_its_spelling(name: str, count: int) -> None:
    # the loader refuses exactly the names the notation would read otherwise (dF...)
    typed = f"{count}d{name[0].upper()}{name[1:]}"
    try:
        body = parse(typed).body
    except DiceSyntaxError:  # dF and modifiers that do not go together (dFF0: f0 alone)
        with pytest.raises(DiceFileError, match="Fudge"):
            parse_book(f"[{name}]\nfaces = [1, 2]\n", "d.toml")
        return
    # dF and modifiers, or dF times a number (1dFX0 is dF x 0): refused by the loader
    if not isinstance(body, Dice) or not isinstance(body.sides, DieName):
        with pytest.raises(DiceFileError, match="Fudge"):
            parse_book(f"[{name}]\nfaces = [1, 2]\n", "d.toml")
        return
    book = parse_book(f"[{name}]\nfaces = [1, 2]\n", "d.toml")
    assert body == Dice(count, DieName(f"{name[0].upper()}{name[1:]}"))
    assert parse(str(body)).body == body
    total = dicecli.roll(typed, seed=count, environment=Environment(dice=book)).total
    assert total is not None
    assert count <= total <= 2 * count


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_line_numbers_count_newlines_only(separator: str) -> None:
    # A TOML comment may hold a line separator: the file's lines are still its \n
    # lines, as the TOML reader and `wc -l` count them (docs/limits.md).
    text = f"# note{separator}more{separator}more\n[Bad]\nfaces = []\n"
    with pytest.raises(DiceError, match=r"^dice file x\.toml, line 3: die 'Bad': faces:"):
        parse_book(text, "x.toml")
