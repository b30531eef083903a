"""The ``hiddenrole`` command: demos and, later, hosted games at the terminal."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddenrole", description="Hidden-role game engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="play one scripted red/blue game and print it")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from hiddenrole.games.redblue.__main__ import main as demo

        demo()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
