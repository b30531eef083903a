"""Drivers the console tests share: the ``play`` command on a script, a console on a string buffer."""

from __future__ import annotations

import argparse
import io

from hiddenrole.console import Console
from hiddenrole.console.app import add_play_arguments, run_play


def run(argv: list[str], script: str = "") -> tuple[int, str, str]:
    """``hiddenrole play ARGV`` with ``script`` on stdin: exit code, output, errors."""
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    code = run_play(parser.parse_args(argv), stdin=io.StringIO(script), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def console(game: str, players: int | None = None, seed: int = 1, **kwargs: object) -> Console:
    """A console writing into a string buffer (read it back with :func:`text`)."""
    options = kwargs.pop("options", None)
    return Console.open(game, players, seed, options, out=io.StringIO(), **kwargs)  # type: ignore[arg-type]


def text(c: Console) -> str:
    """Everything a :func:`console` has printed so far."""
    return c.out.file.getvalue()  # type: ignore[attr-defined, no-any-return]
