"""Table files: the format of docs/tables.md, and one test per mistake a user makes,
each with its one-line error pinned (naming the file, the table and the entry), found
when the file is loaded, before anything is rolled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_counts import examples

from dicecli.errors import DiceError
from dicecli.notation.nodes import Check, Comparison
from dicecli.probability.engine import distribution
from dicecli.tables.load import MAX_DEPTH, MAX_ROLLS, load_book, parse_book, spans, user_table_file
from dicecli.tables.model import InlineRoll, TableBook, TableReference, Words

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tables.toml"


def book_error(text: str) -> str:
    with pytest.raises(DiceError) as raised:
        parse_book(text, "t.toml")
    message = raised.value.message
    assert "\n" not in message  # one line
    return message


def test_a_rolled_table_keys_entries_by_value_and_range() -> None:
    book = parse_book(
        '[e]\nroll = "d6"\n[e.entries]\n"4-6" = "c"\n"1" = "a"\n"2 - 3" = "b"\n', "t.toml"
    )
    table = book.table("E")  # names are matched in any case
    assert [(e.key, e.low, e.high) for e in table.entries] == [
        ("1", 1, 1),
        ("2 - 3", 2, 3),
        ("4-6", 4, 6),
    ]
    assert not table.weighted


def test_a_weighted_table_gives_each_entry_a_run_of_faces_in_file_order() -> None:
    book = parse_book(
        '[l.entries]\ncoins = { weight = 5, text = "gold" }\ngem = "a gem"\n'
        'map = { text = "a map" }\n',
        "t.toml",
    )
    table = book.table("l")
    assert table.weighted
    assert table.roll_text == "d7"
    assert [(e.key, e.low, e.high, e.weight) for e in table.entries] == [
        ("coins", 1, 5, 5),
        ("gem", 6, 6, 1),
        ("map", 7, 7, 1),
    ]


def test_negative_values_and_ranges_are_keys() -> None:
    book = parse_book(
        '[f]\nroll = "4dF"\n[f.entries]\n"-4--1" = "bad"\n"0" = "so-so"\n"1..4" = "good"\n',
        "t.toml",
    )
    assert [(e.low, e.high) for e in book.table("f").entries] == [(-4, -1), (0, 0), (1, 4)]


def test_an_entry_is_cut_into_words_inline_rolls_and_references() -> None:
    book = parse_book(
        '[a]\nroll = "d2"\n[a.entries]\n"1" = "[[2d4]] goblins and [[ Table: b ]]!"\n'
        '"2" = "none"\n[b]\nroll = "d1"\n[b.entries]\n"1" = "x"\n',
        "t.toml",
    )
    pieces = book.table("a").entries[0].pieces
    assert isinstance(pieces[0], InlineRoll)
    assert pieces[0].text == "2d4"
    assert pieces[1] == Words(" goblins and ")
    assert pieces[2] == TableReference("b")
    assert pieces[3] == Words("!")


def test_the_example_file_loads_with_ranges_weights_inline_rolls_and_a_nested_table() -> None:
    book = load_book(EXAMPLE)
    assert book.names() == ("encounters", "loot", "gems")
    assert book.table("loot").weighted
    assert not book.table("encounters").weighted
    pieces = [p for t in book.tables.values() for e in t.entries for p in e.pieces]
    assert any(isinstance(p, InlineRoll) for p in pieces)
    assert TableReference("gems") in pieces  # loot refers to gems: two levels down


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # The TOML itself.
        ("[a\n", "table file t.toml: not valid TOML: "),
        ("", "table file t.toml: no tables in it: write [NAME] with roll and entries"),
        ("a = 3\n", "table file t.toml: table 'a': not a table: write [NAME] with roll and "),
        # A table's keys.
        (
            '[a]\nrol = "d6"\n',
            "table file t.toml: table 'a': unknown key 'rol' (keys: roll, entries, description)",
        ),
        ('[a]\nroll = "d6"\n', "table file t.toml: table 'a': no entries: write [NAME.entries]"),
        ('[a]\nroll = 6\n[a.entries]\n"1" = "x"\n', "table 'a': roll: write a roll as a string"),
        ('[a]\ndescription = 3\n[a.entries]\nx = "y"\n', "table 'a': description: write a string"),
        (
            '[a.entries]\nx = "y"\n[A.entries]\nx = "z"\n',
            "table file t.toml: table 'A': the name is used twice (names are matched in any "
            "case: 'a')",
        ),
        # The roll.
        ('[a]\nroll = "2d"\n[a.entries]\n"1" = "x"\n', "table 'a': roll '2d': "),
        (
            '[a]\nroll = "d6!"\n[a.entries]\n"1" = "x"\n',
            "table 'a': roll 'd6!': it has no highest value (it explodes or re-rolls without "
            "end), so no table can cover it",
        ),
        (
            '[a]\nroll = "age 1 vs 10"\n[a.entries]\n"1" = "x"\n',
            "table 'a': roll 'age 1 vs 10': write a dice roll with a total, such as d100 or 2d6",
        ),
        # Keys and ranges.
        (
            '[a]\nroll = "d6"\n[a.entries]\n"one" = "x"\n',
            "table file t.toml: table 'a', entry 'one': a key is a value (7) or a range (1-3)",
        ),
        (
            '[a]\nroll = "d6"\n[a.entries]\n"6-1" = "x"\n',
            "table 'a', entry '6-1': the range runs backwards: write 1-6",
        ),
        (
            '[a]\nroll = "d6"\n[a.entries]\n"1-4" = "x"\n"3-6" = "y"\n',
            "table file t.toml: table 'a', entry '3-6': overlaps entry '1-4' at 3-4",
        ),
        (
            '[a]\nroll = "d6"\n[a.entries]\n"1-4" = "x"\n"4-6" = "y"\n',
            "table 'a', entry '4-6': overlaps entry '1-4' at 4",
        ),
        (
            '[a]\nroll = "d6"\n[a.entries]\n"1-2" = "x"\n"5-6" = "y"\n',
            "table file t.toml: table 'a': no entry for the values 3-4 (d6 gives 1-6; every "
            "value the roll can give needs an entry)",
        ),
        (
            '[a]\nroll = "2d6*2"\n[a.entries]\n"4-22" = "x"\n',
            "table 'a': no entry for the value 24 (2d6*2 gives 4, 6, 8, 10, 12, 14, …; every ",
        ),
        (
            '[a]\nroll = "2d6"\n[a.entries]\n"2-12" = "x"\n"13" = "y"\n',
            "table file t.toml: table 'a', entry '13': can never be rolled (2d6 gives 2-12)",
        ),
        (
            '[a]\nroll = "2d6*2"\n[a.entries]\n"4-24" = "x"\n"5" = "y"\n',
            "table 'a', entry '5': overlaps entry '4-24' at 5",
        ),
        (
            '[a]\nroll = "2d6*2"\n[a.entries]\n"1-3" = "x"\n"4-24" = "y"\n',
            "table 'a', entry '1-3': can never be rolled (2d6*2 gives 4, 6, 8, 10, 12, 14, …)",
        ),
        (
            '[a.entries]\n"1-3" = "x"\n"4-6" = "y"\n',
            "table file t.toml: table 'a', entry '1-3': a key that is a value or a range needs "
            'a roll for the table (roll = "d6"); a weighted table names its entries',
        ),
        # Entries' values.
        (
            '[a]\nroll = "d1"\n[a.entries]\n"1" = { weight = 2, text = "x" }\n',
            "table 'a', entry '1': write the entry's text as a string (weights are for tables "
            "without a roll)",
        ),
        ("[a.entries]\nx = 3\n", "table 'a', entry 'x': write a text, or { weight = 3, text"),
        ("[a.entries]\nx = { weight = 2 }\n", "table 'a', entry 'x': write a text, or {"),
        ('[a.entries]\nx = { text = "y", wieght = 2 }\n', "entry 'x': write a text, or {"),
        (
            '[a.entries]\nx = { weight = 0, text = "y" }\n',
            "table file t.toml: table 'a', entry 'x': weight: write a whole number of 1 or more "
            "(got 0)",
        ),
        ('[a.entries]\nx = { weight = 1.5, text = "y" }\n', "entry 'x': weight: write a whole"),
        (
            '[a.entries]\nx = { weight = 700000, text = "y" }\n'
            'y = { weight = 700000, text = "z" }\n',
            "table file t.toml: table 'a', entry 'x': weight: at most 10,000",
        ),
        (  # each weight within bounds, together past the sides of a die: refused on load
            '[a.entries]\nx = { weight = 6000, text = "y" }\ny = { weight = 6000, text = "z" }\n',
            "table file t.toml: table 'a': the weights add up to more than 10,000, the most "
            "sides of the die a weighted table is rolled with",
        ),
        # Inline rolls and references.
        (
            '[a.entries]\nx = "[[2d]] goblins"\n',
            "table file t.toml: table 'a', entry 'x': inline roll [[2d]]: ",
        ),
        (
            '[a.entries]\nx = "[[]] goblins"\n',
            "table 'a', entry 'x': inline roll [[]]: nothing to roll",
        ),
        (
            '[a.entries]\nx = "[[2d4 goblins"\n',
            "table 'a', entry 'x': '[[' at character 1 is not closed with ']]'",
        ),
        (
            '[a.entries]\nx = "[[table: ]]"\n',
            "table 'a', entry 'x': [[table: ]] names no table: write [[table: NAME]]",
        ),
        (
            '[a.entries]\nx = "[[table: lot]]"\n[loot.entries]\ny = "z"\n',
            "table file t.toml: table 'a', entry 'x': refers to table 'lot', which the file "
            "does not have (tables: a, loot)",
        ),
        (
            '[a.entries]\nx = "[[table: b]]"\n[b.entries]\ny = "[[table: A]]"\n',
            "table file t.toml: table 'b', entry 'y': tables refer to each other in a loop: "
            "a -> b -> a",
        ),
        (
            '[a.entries]\nx = "again: [[table: a]]"\n',
            "table 'a', entry 'x': tables refer to each other in a loop: a -> a",
        ),
    ],
)
def test_each_mistake_is_one_line_naming_file_table_and_entry(text: str, message: str) -> None:
    assert message in book_error(text)


def chain(length: int) -> str:
    """Tables t1 -> t2 -> ... -> t<length>, each drawing from the next."""
    parts = [f'[t{n}.entries]\nx = "[[table: t{n + 1}]]"\n' for n in range(1, length)]
    return "".join(parts) + f'[t{length}.entries]\nx = "end"\n'


def test_tables_may_refer_to_each_other_up_to_the_depth_limit() -> None:
    book = parse_book(chain(MAX_DEPTH), "t.toml")
    assert len(book.names()) == MAX_DEPTH == 8


def test_a_chain_deeper_than_the_limit_is_refused_on_loading() -> None:
    message = book_error(chain(MAX_DEPTH + 1))
    assert message.startswith("table file t.toml: table 't")
    assert "tables refer to each other more than 8 deep: " in message


def test_a_draw_may_make_up_to_the_limit_of_rolls() -> None:
    inline = "[[d4]]" * (MAX_ROLLS - 1)  # with the table's own roll: the limit
    assert parse_book(f'[a.entries]\nx = "{inline}"\n', "t.toml").names() == ("a",)
    message = book_error(f'[a.entries]\nx = "{inline}[[d4]]"\n')
    assert message == (
        "table file t.toml: table 'a', entry 'x': one draw could make more than 1,000 rolls "
        "(its inline rolls and draws from other tables)"
    )


def test_references_count_every_roll_of_the_tables_they_reach() -> None:
    """c makes 11 rolls, b 1 + 10 * 11 = 111, a 1 + 10 * 111 = 1,111: refused at a."""
    text = (
        f'[a.entries]\nx = "{"[[table: b]]" * 10}"\n'
        f'[b.entries]\nx = "{"[[table: c]]" * 10}"\n'
        f'[c.entries]\nx = "{"[[d6]]" * 10}"\n'
    )
    assert book_error(text).startswith(
        "table file t.toml: table 'a', entry 'x': one draw could make more than 1,000 rolls"
    )
    assert parse_book(text.replace("[[table: b]]" * 10, "[[table: b]]" * 9), "t.toml")


def test_a_tables_roll_may_use_a_name_checked_when_drawn() -> None:
    # its values depend on STR: the cover is checked when it is drawn from
    # (tests/tables/test_tables_named.py)
    book = parse_book('[a]\nroll = "d6+STR"\n[a.entries]\n"1" = "x"\n', "t.toml")
    assert book.table("a").named
    assert not parse_book('[a]\nroll = "d2"\n[a.entries]\n"1-2" = "x"\n', "t.toml").table("a").named


def test_spans_describes_values_as_runs() -> None:
    assert spans((2, 3, 4, 5)) == "2-5"
    assert spans((1, 2, 3, 5, 7, 8)) == "1-3, 5, 7-8"
    assert spans(tuple(range(0, 30, 2)), most=3) == "0, 2, 4, …"


def load_or_error(text: str) -> TableBook | str:
    """The tables of ``text``, or the message of the DiceError refusing it (any other
    exception fails the test)."""
    try:
        return parse_book(text, "t.toml")
    except DiceError as error:
        return error.message


TOML_TEXT = st.text(alphabet=st.sampled_from(list('[]"=-.{},\n abtroledwigh12345xyz:')))


@settings(max_examples=examples(300), deadline=None)
@given(TOML_TEXT)
def test_loading_any_text_gives_tables_or_a_one_line_error(text: str) -> None:
    loaded = load_or_error(text)
    assert isinstance(loaded, TableBook) or "\n" not in loaded


ENTRY_TEXT = st.lists(
    st.sampled_from(["[[", "]]", "table:", " a", "b", "d6", "2d", "+", "[[table: a]]", "x"]),
    max_size=8,
).map("".join)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(["d6", "2d4", "d%", "4dF", "d6!", "2d", "d6+X", "3d6kh1"]),
    st.dictionaries(st.text("0123456789-. ", max_size=6), ENTRY_TEXT, max_size=6),
)
def test_loading_near_valid_tables_gives_tables_or_a_one_line_error(
    roll: str, entries: dict[str, str]
) -> None:
    """Whatever the keys and texts, a file loads or is refused with a DiceError; one
    that loads has an entry for every value its roll can give."""
    text = f"[a]\nroll = {json.dumps(roll)}\n[a.entries]\n" + "".join(
        f"{json.dumps(key)} = {json.dumps(value)}\n" for key, value in entries.items()
    )
    book = load_or_error(text)
    if not isinstance(book, TableBook):
        assert "\n" not in book
        return
    table = book.table("a")
    body = table.roll.body
    assert not isinstance(body, (Check, Comparison))
    if "X" in roll:  # a roll with a name is checked when drawn from, its value known then
        return
    for value, _ in distribution(body).outcomes:
        assert sum(entry.covers(value) for entry in table.entries) == 1


def test_a_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(DiceError) as raised:
        load_book(tmp_path / "nope.toml")
    assert raised.value.message == f"table file {tmp_path / 'nope.toml'}: cannot read it: " + (
        "No such file or directory"
    )


@pytest.mark.parametrize(
    ("content", "says"),
    [(b"\xff\xfe", "cannot read it: not UTF-8 text"), (None, "cannot read it: is a folder")],
)
def test_an_unreadable_file_names_it(tmp_path: Path, content: bytes | None, says: str) -> None:
    path = tmp_path / "t.toml"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(DiceError) as raised:
        load_book(path)
    assert raised.value.message == f"table file {path}: {says}" + (
        ", not a file" if content is None else ""
    )


def test_the_user_file_is_found_under_the_config_folder(tmp_path: Path) -> None:
    assert user_table_file({"XDG_CONFIG_HOME": str(tmp_path)}) == (
        tmp_path / "dicecli" / "tables.toml"
    )
    assert user_table_file({"XDG_CONFIG_HOME": "relative"}) == (
        Path.home() / ".config" / "dicecli" / "tables.toml"
    )


def test_without_a_user_file_the_error_says_where_to_write_one() -> None:
    with pytest.raises(DiceError) as raised:
        load_book(None)
    assert raised.value.message.startswith("no table file: write ")
    assert raised.value.message.endswith(
        "dicecli/tables.toml or name one: dicecli table FILE NAME (see dicecli help tables)"
    )


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[a.entries]\nx = "one"\n')
    assert load_book(path).table("a").entries[0].text == "one"
    path.write_text('[a.entries]\nx = "two, longer"\n')
    assert load_book(path).table("a").entries[0].text == "two, longer"


def test_an_unknown_table_close_to_one_suggests_it() -> None:
    with pytest.raises(DiceError) as raised:
        load_book(EXAMPLE).table("Encounter")
    assert raised.value.message == (
        f"table file {EXAMPLE} has no table 'Encounter' (did you mean 'encounters'? "
        "tables: encounters, loot, gems)"
    )


def test_an_unknown_table_lists_the_tables() -> None:
    book = load_book(EXAMPLE)
    with pytest.raises(DiceError) as raised:
        book.table("dragons")
    assert raised.value.message == (
        f"table file {EXAMPLE} has no table 'dragons' (tables: encounters, loot, gems)"
    )


def test_the_rolls_of_a_files_tables_are_checked_as_one_question() -> None:
    # docs/limits.md: a hundred tables of 100dN took 50 s to load, each roll's values
    # under the bound alone; together they are refused within the bound of one question
    text = "".join(
        f'[t{i}]\nroll = "100d{1000 - i}"\n[t{i}.entries]\n"100-{100 * (1000 - i)}" = "x"\n'
        for i in range(100)
    )
    with pytest.raises(DiceError, match="one question may take"):
        parse_book(text, "slow.toml")
    assert parse_book(text.split("[t1]")[0], "one.toml").table("t0").name == "t0"
