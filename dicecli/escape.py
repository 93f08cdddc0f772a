"""Text that came from a user or a file, made safe to show: every character that could
drive a terminal written as a visible escape.

A comment, a label, a table entry, a dice-file symbol, a character's name or a name
typed at the prompt can hold an escape sequence (``ESC [2J`` clears the screen, ``ESC ]
0;... BEL`` sets the window title, ``U+009B`` is an 8-bit CSI). The writers (the rich
terminal renderer, the plain and JSON renderers, the REPL's messages and the error
writer) pass such text through the functions here as they write it, and nowhere else,
so a shared table or dice file cannot drive the player's terminal.

What is escaped is every character Python does not call printable: the C0 controls
(tab, newline and carriage return included: a shown field is one line), DEL, the C1
controls U+0080 to U+009F, format characters (the bidirectional overrides U+202A to
U+202E and U+2066 to U+2069, which reorder what a line seems to say; zero-width
characters), line and paragraph separators, spaces other than the ASCII space, private-use
and unassigned code points, and lone surrogates (bytes that were not UTF-8). The
spelling is Python's: ``\\x1b``, ``\\t``, ``\\u202e``, ``\\U000e0001``; a byte that was
not UTF-8 is shown as itself, ``\\xff``. Printable text comes back as it is.
"""

from __future__ import annotations

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}

_ASCII_CONTROLS = bytes(range(0x20)) + b"\x7f"


SHORT_TEXT = 64
"""Text up to this long is checked with ``str.isprintable`` itself: a lookup per
character costs less than the two byte strings of the ASCII check."""


def _printable(text: str) -> bool:
    """``text.isprintable()``; for longer ASCII text without a Unicode lookup per
    character: its bytes less the controls are as many."""
    if len(text) > SHORT_TEXT and text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _ASCII_CONTROLS)) == len(data)
    return text.isprintable()


def escaped(text: str) -> str:
    """``text`` as one line of printable characters: every other character written as
    an escape (``\\x1b``, ``\\u202e``)."""
    if text.isprintable() if len(text) <= SHORT_TEXT else _printable(text):
        return text  # (short text checked here: no call of _printable for it)
    return "".join(
        character if character.isprintable() else _escape(character) for character in text
    )


def escaped_lines(text: str) -> str:
    """``text`` escaped line by line: its newlines are the writer's own (a message of
    several lines), every other unprintable character is escaped."""
    if _printable(text):
        return text
    return "\n".join(escaped(line) for line in text.split("\n"))


def readable(arg: str) -> str:
    """An argument or a typed line with the bytes that were not UTF-8 (which Python
    keeps as lone surrogates) written as ``\\xff`` escapes: text every output can
    write."""
    if arg.isascii():
        return arg
    try:
        return arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that was not a byte
        return arg.encode("utf-8", "backslashreplace").decode("utf-8")


def clipped(text: str, most: int = 300) -> str:
    """``text`` escaped, and cut in the middle (``…``) to ``most`` characters: a
    message that quotes what a plug-in or a file said, however long."""
    shown = escaped(text)
    if len(shown) <= most:
        return shown
    half = (most - 1) // 2
    return shown[:half] + "…" + shown[len(shown) - (most - 1 - half) :]


def json_escaped(encoded: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every
    unprintable character, which JSON leaves raw outside the C0 controls (DEL, the C1
    controls, the bidirectional overrides), written as a JSON ``\\uXXXX`` escape: the
    same JSON value, safe in a terminal."""
    if encoded.isascii():  # JSON escapes the C0 controls: DEL is the one left
        return encoded.replace("\x7f", "\\u007f") if "\x7f" in encoded else encoded
    if encoded.isprintable():
        return encoded
    return "".join(
        character if character.isprintable() else _json_escape(character) for character in encoded
    )


def _escape(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    named = _NAMED.get(character)
    if named is not None:
        return named
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _json_escape(character: str) -> str:
    code = ord(character)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # outside the basic plane: a surrogate pair, as JSON spells it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
