"""The fuzz profile across every way in (tests/fuzz/every_way_in.py): its checks, a
short run in the quick suite, a longer one with real processes under ``slow``. The long
profile itself (a million inputs) is run as a script; see its docstring."""

from __future__ import annotations

import re

import pytest

from fuzz.every_way_in import (
    PAYLOADS,
    Case,
    Figures,
    Files,
    Outcome,
    judge,
    machine_time,
    make_case,
    memory_stall,
    payload_marks,
    pty_process,
    raw_controls,
    record,
    replayed_answer,
    run_cases,
    run_main,
    toml_string,
    worker_folder,
)

# --- the checks can fail -----------------------------------------------------------------


@pytest.mark.parametrize("payload", [p for p in PAYLOADS if p not in "\t\n\u2028\u200b\ue000"])
def test_every_payload_written_raw_counts_as_a_raw_control(payload: str) -> None:
    for terminal in (False, True):
        assert raw_controls(f"2d6: 7  # {payload}x\n", terminal) != []


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_payload_written_escaped_does_not_count(payload: str) -> None:
    from dicecli.escape import escaped

    assert raw_controls(f"2d6: 7  # {escaped(payload)}\n", terminal=False) == []


def test_the_renderers_colours_are_allowed_at_a_terminal_only() -> None:
    styled = "\x1b[1;32m7\x1b[0m  [3, 4]\n"
    assert raw_controls(styled, terminal=True) == []
    assert raw_controls(styled, terminal=False) != []
    assert raw_controls("\x1b[1337m7\n", terminal=True) != []  # the payloads' own colour


def test_in_a_pseudo_terminal_the_payloads_own_sequences_count() -> None:
    drawn = "\x1b[?2004h\x1b[0mdice> \x1b[6C\x1b[?25h"  # the line editor's drawing
    assert payload_marks(drawn) == []
    assert payload_marks(drawn + "\x1b]0;pwned\x07") != []


def test_an_internal_error_or_a_traceback_is_caught() -> None:
    assert judge(70, "", "internal error (KeyError: 1); please report it\n", False).internal
    assert judge(1, "", "Traceback (most recent call last):\n", False).internal
    assert not judge(2, "", "error: unexpected 'x'\n", False).internal


def test_toml_strings_hold_every_payload() -> None:
    from dicecli.files import loads_toml

    for payload in PAYLOADS:
        text = f"a = {toml_string(payload)}\n"
        read = loads_toml(text)["a"]
        assert read == payload or (read == "\ufffd" and 0xD800 <= ord(payload) <= 0xDFFF)


def test_a_case_is_the_same_whatever_ran_before_it() -> None:
    with worker_folder() as folder:
        files = Files(folder)
        first = make_case(3, 41, files, 0).describe
        for index in range(40):
            make_case(3, index, files, 0)
    with worker_folder() as folder:
        again = make_case(3, 41, Files(folder), 0).describe
    assert first.split("every-way-in-")[0] == again.split("every-way-in-")[0]


# --- runs --------------------------------------------------------------------------------


def check(inputs: int, seed: int, process_every: int) -> None:
    figures = run_cases(seed, inputs, process_every=process_every)
    assert figures.internal == [], figures.internal[:3]
    assert figures.raw == [], figures.raw[:3]
    assert sum(figures.inputs.values()) >= inputs
    assert max(figures.peak_rss_kib, figures.children_peak_rss_kib) < 500 * 1024


def test_editor_keys_in_a_line_pasted_at_a_real_prompt_are_text() -> None:
    """Ctrl-R (history search), Ctrl-X (a chord), Ctrl-V (quote) and ESC in a generated
    line used to be typed as keys: the line editor searched and never drew the next
    prompt, and the case timed out as an internal error (cases 3:47301, 3:73436 and
    3:142395 of the 10^6 run). Pasted, they are the line's text."""
    pytest.importorskip("pexpect")
    outcome = pty_process(["repl"], ["2d6 # \x12\x18\x16\x1b[1337m note", "odds \x12 x", "1d4"])
    assert outcome.internal == []
    assert outcome.raw == []
    assert outcome.status == 0


def test_a_scripts_slowest_answer_is_measured_not_its_whole_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A REPL script's answers are timed one by one (between writes of output): one
    line that burns CPU shows as that answer's time, and a script of many quick answers
    adding up to over 1 s is not flagged, while one slow answer is."""
    import time

    from dicecli.repl import prompt

    handle = prompt._handle

    def slow_on_burn(state: object, line: str, debug: bool) -> object:
        if line == "burn":
            until = time.process_time() + 0.2
            while time.process_time() < until:
                pass
        return handle(state, line, debug)  # type: ignore[arg-type]

    monkeypatch.setattr(prompt, "_handle", slow_on_burn)
    run_main(["repl"], "2d6\n")  # the REPL's first use loads its modules
    outcome = run_main(["repl"], "2d6\nburn\n3d6\n")
    assert outcome.longest_answer is not None
    assert outcome.longest_answer >= 0.2

    case = Case("repl", 40, lambda: outcome, "a script")
    figures = Figures()
    record(figures, case, Outcome(longest_answer=0.3), 2.0, 2.0, "1:1", timed=True)
    assert figures.slow_cpu == []
    record(figures, case, Outcome(longest_answer=1.5), 1.6, 1.6, "1:2", timed=True)
    assert len(figures.slow_cpu) == 1
    assert figures.worst_answer[0] == 1.5


def test_a_slow_case_shows_how_the_machine_spent_its_time() -> None:
    """A slow answer's example says its user and system CPU time and the machine's
    memory stall (a machine short of memory charges reclaim as system time), and its
    time when replayed alone in a fresh process."""
    import resource
    import time

    before, stall = resource.getrusage(resource.RUSAGE_SELF), memory_stall()
    until = time.process_time() + 0.05
    while time.process_time() < until:
        pass
    shown = machine_time(before, stall)
    # the kernel splits CPU time into user and system by samples: only their sum is exact
    user, system = (
        float(shown.split(f"{part} ", 1)[1].split(" s", 1)[0]) for part in ("user", "system")
    )
    assert user + system >= 0.04
    assert ("memory stall" in shown) == (stall is not None)
    assert re.fullmatch(r"[0-9]+\.[0-9]{3} s", replayed_answer(24, 3))

    figures = Figures()
    record(
        figures,
        Case("pipe", 2, lambda: Outcome(), "2d6"),
        Outcome(longest_answer=1.5, machine="user 0.10 s, system 1.40 s"),
        1.6,
        1.6,
        "1:2",
        timed=True,
    )
    assert figures.slow_cpu[0].endswith("1.60 s all; user 0.10 s, system 1.40 s)")


def test_a_short_profile_in_process() -> None:
    check(inputs=300, seed=24, process_every=0)


@pytest.mark.slow
def test_a_longer_profile_with_real_processes() -> None:
    check(inputs=20_000, seed=2024, process_every=300)
