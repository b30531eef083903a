"""``hiddenrole arena``: the arena's command-line arguments and entry point."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import hiddenrole as hr

from .arena import ArenaSpec, default_jobs, parse_seat_agents, run, summarize

__all__ = ["add_arena_arguments", "run_arena"]


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a catalog game: werewolf, missions, onenight, redblue, race")
    parser.add_argument("--games", type=int, default=100, help="how many games (ids game-SEED..)")
    parser.add_argument(
        "--seat-agents",
        default="random",
        help="an agent for every seat, or KEY=AGENT pairs by seat, role or camp, '*' for the rest "
        "(e.g. GOOD=heuristic,EVIL=random); agents: heuristic, random, pass, llm",
    )
    parser.add_argument("--seats", type=int, default=None, help="seats per table (default: the game's usual)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed SEED+i")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes (Ray workers with --ray)")
    parser.add_argument(
        "--ray", action="store_true", help="play the games as Ray tasks (the 'ray' extra); same results file"
    )
    parser.add_argument("--out", type=Path, default=Path("results.jsonl"), help="results file (appended, resumable)")
    parser.add_argument("--plot", type=Path, default=None, help="write PNG charts here (needs matplotlib)")
    parser.add_argument("--html", type=Path, default=None, help="write a self-contained HTML report here")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_arena(args: argparse.Namespace) -> int:
    from hiddenrole.host.catalog import get

    definition = get(args.game)
    texts = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            raise hr.InvalidArgument(f"--option {item!r}: use NAME=VALUE")
        texts[name] = value
    options = dict(definition.parse_options(texts)) if texts else {}
    spec = ArenaSpec(args.game, args.games, parse_seat_agents(args.seat_agents), args.seats, options, args.seed)
    results = run(spec, args.out, jobs=args.jobs, progress=not args.quiet, ray=args.ray)
    summary = summarize(results)
    print(json.dumps(summary.to_dict(), indent=1) if args.json else summary.text())
    if args.plot is not None:
        from .report import write_plot

        write_plot(summary, args.plot, args.game)
    if args.html is not None:
        from .report import write_html

        write_html(summary, results, args.html, args.game)
    return 0
