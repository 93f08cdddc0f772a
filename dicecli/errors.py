"""The error types of dicecli.

Every error a user can cause derives from :class:`DiceError`. An error knows its
message and, when it points into the typed text, the text and the position, so that
the CLI and the REPL can underline it with a caret in one place (:meth:`DiceError.show`).
"""

from __future__ import annotations

from dicecli.escape import escaped as escaped  # what show() writes is escaped


class DiceError(Exception):
    """Root of every error that bad input, bad dice or a rule can cause."""

    hint: str | None = None
    """A line shown under the caret that leads to the right form (``did you mean
    'history'?``), added by :func:`dicecli.hints.advise` when the error is reported."""

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position

    def reported(self, json: bool = False, line: int | None = None) -> str:
        """What stderr gets, newline included: :meth:`show` (after ``line N: `` for a
        line of a piped script), or with ``json`` (``--json``) one JSON object:
        ``{"error": ..., "input": ..., "position": ..., "hint": ..., "line": ...}``, the
        last four null when they do not apply."""
        if not json:
            where = f"line {line}: " if line is not None else ""
            return f"{where}{self.show()}\n"
        import json as json_module  # only --json errors need it (docs/startup.md)

        fields = {
            "error": self.message,
            "input": self.text,
            "position": self.position,
            "hint": self.hint,
            "line": line,
        }
        from dicecli.escape import json_escaped  # docs/startup.md

        # unprintable characters JSON leaves raw (DEL, C1, bidi) as \u escapes
        return json_escaped(json_module.dumps(fields, ensure_ascii=False)) + "\n"

    def with_hint(self, hint: str) -> DiceError:
        """The same error with ``hint`` shown under it."""
        copy = type(self)(self.message, self.text, self.position)
        copy.hint = hint
        return copy

    def at(self, text: str, position: int | None = None) -> DiceError:
        """The same error, pointing into ``text`` (kept when it already points)."""
        if self.text is not None:
            return self
        return type(self)(self.message, text, position if position is not None else self.position)

    def show(self) -> str:
        """The message, and under the input a caret at the position when there is one;
        then the hint, if any.

        Control characters (a tab, a carriage return, NUL ...) are shown escaped, so the
        error stays on its lines; a long input is shown around the position only."""
        message = _shortened(escaped(self.message))
        hint = f"\n  {_shortened(escaped(self.hint))}" if self.hint else ""
        if self.text is None or self.position is None:
            return f"error: {message}{hint}"
        start = max(0, min(self.position - SHOWN_AROUND, len(self.text) - 2 * SHOWN_AROUND))
        end = start + 2 * SHOWN_AROUND
        before = ("…" if start else "") + escaped(self.text[start : self.position])
        after = escaped(self.text[self.position : end]) + ("…" if end < len(self.text) else "")
        return f"error: {message}\n  {before}{after}\n  {' ' * _cells(before)}^{hint}"


def _cells(text: str) -> int:
    """The columns ``text`` takes at a terminal: a wide character (``日``, ``１``, most
    emoji) two, a combining mark none, any other one; so that the caret stands under
    the position. (The text is escaped: it holds no control nor zero-width character.)"""
    if text.isascii():
        return len(text)
    from unicodedata import combining, east_asian_width  # docs/startup.md

    return sum(
        0 if combining(char) else 2 if east_asian_width(char) in ("W", "F") else 1 for char in text
    )


LONGEST_MESSAGE = 400
"""Characters of a message or a hint shown: past that, its middle is cut."""


def _shortened(text: str) -> str:
    """``text`` with its middle cut past :data:`LONGEST_MESSAGE` characters: a message or
    a hint that quotes something huge the user gave (another roller's reading of a
    line of thousands of characters)."""
    if len(text) <= LONGEST_MESSAGE:
        return text
    return text[: LONGEST_MESSAGE - 60] + "…" + text[-59:]


SHOWN_AROUND = 60
"""Characters of the input shown on each side of an error's caret."""


class DiceSyntaxError(DiceError):
    """The text is not valid dice notation or game form."""


class RollLimitError(DiceError):
    """A roll would need more dice than the roll budget allows."""


class GivenFacesError(DiceError):
    """The faces given with ``--given`` do not fit the roll."""


class NotAFaceError(GivenFacesError):
    """A face given with ``--given`` is not a face of the die it went to: the face is
    used up all the same (:meth:`dicecli.rolling.sources.Roller.give_back`), so the
    rolls after it go on with the faces after it."""


class RuleError(DiceError):
    """A game rule forbids what was asked (for example re-rolling a die twice)."""


class UnknownNameError(DiceError):
    """A name in the expression has no value."""

    @classmethod
    def unset(cls, name: str, position: int) -> UnknownNameError:
        """``name`` has neither a value nor a saved roll; ``position`` is -1 if unknown."""
        return cls(
            f"unknown name '{name}': set it with --set {name}=N or let {name} = N",
            position=position if position >= 0 else None,
        )


class PluginError(Exception):
    """A fault inside a game plug-in: its code raised an exception that is no
    :class:`DiceError`, or gave back a value of the wrong type. Not the user's input
    and not a bug in dicecli, so it is no :class:`DiceError`: it is reported as the
    plug-in's, naming the game, its distribution and its version, on one line, with
    its own exit status (:attr:`~dicecli.status.ExitStatus.PLUGIN_FAILED`)."""

    def __init__(self, game: str, distribution: str, version: str, problem: str) -> None:
        super().__init__(problem)
        self.game = game
        self.distribution = distribution
        self.version = version
        self.problem = problem

    @property
    def message(self) -> str:
        """What went wrong, and whose fault it is."""
        where = f"{self.distribution} {self.version}"
        return (
            f"the game plug-in '{self.game}' ({where}) failed: {self.problem}; "
            "report it to the plug-in's authors"
        )

    def show(self) -> str:
        """The one line that reports the fault (control characters escaped)."""
        return f"error: {escaped(self.message)}"

    def reported(self, json: bool = False, line: int | None = None) -> str:
        """What stderr gets, newline included: :meth:`show` (after ``line N: `` for a
        line of a piped script), or with ``json`` (``--json``) the JSON object of every
        error (:meth:`DiceError.reported`), which points into no input."""
        if json:
            return DiceError(self.message).reported(json=True, line=line)
        where = f"line {line}: " if line is not None else ""
        return f"{where}{self.show()}\n"
