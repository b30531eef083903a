"""The ``hiddenrole`` command."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddenrole", description="Hidden-role game engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="play one scripted red/blue game and print it")
    play = sub.add_parser("play", help="host a table of a catalog game at the terminal, or play one seat against bots")
    try:
        from hiddenrole.console.app import add_play_arguments

        add_play_arguments(play)
        has_console = True
    except ImportError:  # the console needs the 'cli' extra
        has_console = False
    arena = sub.add_parser("arena", help="play many games with chosen agents in parallel; win rates with intervals")
    from hiddenrole.agents.cli import add_arena_arguments

    add_arena_arguments(arena)
    args = parser.parse_args(argv)
    if args.command == "arena":
        from hiddenrole.agents.cli import run_arena

        return run_arena(args)
    if args.command == "demo":
        from hiddenrole.games.redblue.__main__ import main as demo

        demo()
        return 0
    if not has_console:
        parser.error("the console needs the 'cli' extra: pip install 'hiddenrole[cli]'")
    from hiddenrole.console.app import run_play

    return run_play(args)


if __name__ == "__main__":
    raise SystemExit(main())
