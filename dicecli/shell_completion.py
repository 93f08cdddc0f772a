"""``dicecli --install-completion``: the completion script and the shell's start-up file
written so that each is whole or untouched, even on a full disk.

typer's own installer rewrites ``~/.bashrc`` in place, before it writes the script the
new line sources; a write that fails part way leaves a cut start-up file, or a line
sourcing an empty script. Here the script is written first, then the start-up file,
each to a temporary file in its folder that replaces the old one in one step
(``os.replace``), keeping its permissions; a start-up file that is a symbolic link (a
dotfiles repository) is written where it points. The lines added are typer's, so a
shell set up by either installer looks the same.

bash, zsh and fish are installed here; any other shell typer knows (PowerShell) by
typer's installer.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer.completion

from dicecli.command_line import PROGRAM

_typer: Any = typer.completion
"""typer's completion module, whose installer this one stands in for."""


def install(
    shell: str | None = None, prog_name: str | None = None, complete_var: str | None = None
) -> tuple[str, Path]:
    """Install completion for ``shell`` (None: the shell running dicecli); the shell
    and the script's path, as typer's ``install`` answers."""
    prog_name = prog_name or PROGRAM
    complete_var = complete_var or "_{}_COMPLETE".format(prog_name.replace("-", "_").upper())
    detect: Callable[[], str | None] | None = getattr(_typer, "_get_shell_name", None)
    if shell is None and detect is not None:
        shell = detect()
    installer = _INSTALLERS.get(shell or "")
    if installer is None:  # typer detects the shell itself, or says it is not supported
        answer: tuple[str, Path] = _TYPER_INSTALL(
            shell=shell, prog_name=prog_name, complete_var=complete_var
        )
        return answer
    assert shell is not None
    script = _typer.get_completion_script(
        prog_name=prog_name, complete_var=complete_var, shell=shell
    )
    return shell, installer(prog_name, script)


def _install_bash(prog_name: str, script: str) -> Path:
    home = Path.home()
    script_path = home / ".bash_completions" / f"{prog_name}.sh"
    replace_file(script_path, script)
    rc_path = home / ".bashrc"
    rc = _read(rc_path)
    line = f"source '{script_path}'"
    if line not in rc:
        rc += f"\n{line}"
    replace_file(rc_path, rc + "\n")
    return script_path


def _install_zsh(prog_name: str, script: str) -> Path:
    home = Path.home()
    script_path = home / ".zfunc" / f"_{prog_name}"
    replace_file(script_path, script)
    rc_path = home / ".zshrc"
    rc = _read(rc_path)
    completion_line = "fpath+=~/.zfunc; autoload -Uz compinit; compinit"
    if completion_line not in rc:
        rc += f"\n{completion_line}\n"
    if "zstyle" not in rc:  # the user's own menu style stays
        rc += "\nzstyle ':completion:*' menu select\n"
    replace_file(rc_path, f"{rc.strip()}\n")
    return script_path


def _install_fish(prog_name: str, script: str) -> Path:
    script_path = Path.home() / ".config" / "fish" / "completions" / f"{prog_name}.fish"
    replace_file(script_path, f"{script}\n")
    return script_path


_INSTALLERS: dict[str, Callable[[str, str], Path]] = {
    "bash": _install_bash,
    "zsh": _install_zsh,
    "fish": _install_fish,
}
_TYPER_INSTALL = _typer.install


def _read(path: Path) -> str:
    """The text of the file at ``path``; empty when there is none."""
    if not path.is_file():
        return ""
    return path.read_text(encoding="utf-8", errors="surrogateescape")  # every byte kept


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` as the file at ``path`` (where it points, if a symbolic link): to a
    temporary file in the same folder, then put in its place in one step, with the
    permissions of the file it replaces. A failed write leaves the old file as it was."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", errors="surrogateescape") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def use_for_typer() -> None:
    """Make typer's ``--install-completion`` option call :func:`install` (its callback
    looks the installer up in :mod:`typer.completion` when called)."""
    _typer.install = install
