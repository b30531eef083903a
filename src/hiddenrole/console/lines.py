"""Where the console's command lines come from: a line editor at a terminal, plain lines otherwise.

At a terminal the console reads with ``prompt_toolkit`` (line editing, arrow keys,
history of this session's commands); from a pipe or a file (scripts, tests) it reads
plain lines, so a script plays exactly as typed. Either way Ctrl-C never ends in a
traceback: at the prompt it cancels the line being typed; Ctrl-D (the end of input)
ends the session, and the console says goodbye.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

__all__ = ["Interrupted", "terminal_lines", "plain_lines", "PROMPT"]

PROMPT = "> "
"""What the console shows when it waits for a command at a terminal."""


class Interrupted:
    """Yielded for a line cancelled with Ctrl-C (the console says so and reads on)."""


INTERRUPTED = Interrupted()


def terminal_lines(session: Any | None = None) -> Iterator[str | Interrupted]:
    """Lines typed at a terminal, edited with ``prompt_toolkit``; stops at Ctrl-D.

    ``session`` is a ``prompt_toolkit.PromptSession`` (tests pass one reading a pipe
    input); by default a new one with an in-memory history.
    """
    if session is None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        session = PromptSession(history=InMemoryHistory())
    prompt: Callable[[str], str] = session.prompt
    while True:
        try:
            yield prompt(PROMPT)
        except KeyboardInterrupt:
            yield INTERRUPTED
        except EOFError:
            return


def plain_lines(stream: IO[str]) -> Iterator[str | Interrupted]:
    """Lines of ``stream`` as they come; stops at its end."""
    yield from stream
