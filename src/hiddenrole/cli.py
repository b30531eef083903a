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
    serve = sub.add_parser("serve", help="run the game server (lobby over HTTP, play over WebSocket and TCP)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="HTTP/WebSocket port (default 8000; 0 picks one)")
    serve.add_argument("--db", default="hiddenrole.sqlite", help="SQLite file (default) or postgresql://... URL")
    serve.add_argument("--tcp", type=int, default=None, metavar="PORT", help="also serve the line-JSON TCP protocol")
    serve.add_argument("--origin", action="append", default=[], help="another browser origin allowed to connect")
    args = parser.parse_args(argv)
    if args.command == "arena":
        from hiddenrole.agents.cli import run_arena

        return run_arena(args)
    if args.command == "serve":
        try:
            from hiddenrole.server.serve import main_serve
        except ImportError:
            parser.error("the server needs the 'server' extra: pip install 'hiddenrole[server]'")
        return main_serve(args.host, args.port, args.db, args.tcp, args.origin)
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
