"""At a terminal the console edits lines with prompt_toolkit; Ctrl-C and Ctrl-D never end in a traceback."""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable, Iterable, Iterator

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from hiddenrole.console import app
from hiddenrole.console.app import add_play_arguments, run_play
from hiddenrole.console.lines import Interrupted, terminal_lines


def args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    return parser.parse_args(argv)


class _Typist:
    """A prompt session that types the next chunk of keys each time it is asked for a line."""

    def __init__(self, session: PromptSession[str], send: Callable[[str], None], chunks: list[str]) -> None:
        self.session, self.send, self.chunks = session, send, chunks

    def prompt(self, message: str) -> str:
        if self.chunks:
            self.send(self.chunks.pop(0))
        return self.session.prompt(message)


def play_typed(chunks: list[str], argv: list[str]) -> tuple[int, str]:
    """``hiddenrole play ARGV`` reading keys typed at a terminal (a pipe input, no real screen), a chunk per prompt."""
    out = io.StringIO()
    with create_pipe_input() as pipe:
        session: PromptSession[str] = PromptSession(input=pipe, output=DummyOutput(), history=InMemoryHistory())
        typist = _Typist(session, pipe.send_text, list(chunks))
        code = run_play(args(argv), out=out, err=io.StringIO(), lines=terminal_lines(typist))
    return code, out.getvalue()


def test_arrow_up_recalls_the_last_command_and_ctrl_d_says_goodbye() -> None:
    code, out = play_typed(["status\r", "\x1b[A\r", "\x04"], ["race", "--players", "3"])
    assert code == 0
    assert out.count("race · move 0 · Round 1 · The race, p1's turn") == 2  # typed once, recalled once
    assert out.rstrip().endswith("Goodbye.") and "Traceback" not in out


def test_ctrl_c_cancels_the_line_being_typed_and_the_console_reads_on() -> None:
    code, out = play_typed(["act p1 roll\x03", "status\r", "\x04"], ["race", "--players", "3"])
    assert code == 0
    assert "(cancelled; type quit or press Ctrl-D to leave)" in out
    assert "race · move 0" in out  # the cancelled roll never reached the table
    assert out.rstrip().endswith("Goodbye.")


def test_ctrl_c_while_a_command_runs_stops_only_that_command(monkeypatch: pytest.MonkeyPatch) -> None:
    real = app.Console.handle
    calls = []

    def interrupted_once(self: app.Console, line: str) -> bool:
        calls.append(line)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(self, line)

    monkeypatch.setattr(app.Console, "handle", interrupted_once)
    out = io.StringIO()
    code = run_play(args(["race", "--players", "3"]), out=out, lines=iter(["run", "status"]))
    assert code == 0 and calls == ["run", "status"]
    assert "(interrupted)" in out.getvalue() and "race · move 0" in out.getvalue()


def test_ctrl_c_while_reading_a_pipe_exits_quietly() -> None:
    def lines() -> Iterator[str]:
        yield "status"
        raise KeyboardInterrupt

    out = io.StringIO()
    assert run_play(args(["race", "--players", "3"]), out=out, lines=lines()) == 130
    assert out.getvalue().rstrip().endswith("Goodbye.") and "Traceback" not in out.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_line_editor_and_a_pipe_gets_plain_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []

    def fake_terminal_lines() -> Iterable[str | Interrupted]:
        used.append("editor")
        return iter(["status"])

    monkeypatch.setattr(app, "terminal_lines", fake_terminal_lines)
    out = io.StringIO()
    assert run_play(args(["race", "--players", "3"]), stdin=_Terminal(""), out=out) == 0
    assert used == ["editor"] and "Ctrl-D leaves" in out.getvalue() and "race · move 0" in out.getvalue()
    out = io.StringIO()
    assert run_play(args(["race", "--players", "3"]), stdin=io.StringIO("status\n"), out=out) == 0
    assert used == ["editor"] and "race · move 0" in out.getvalue()
