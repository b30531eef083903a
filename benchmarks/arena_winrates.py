"""Win rates of the heuristic agents against random, with Wilson 95% intervals (docs/AGENTS.md).

For each ruleset: random against random (the baseline), heuristic good side against
random evil, and heuristic evil side against random good, over ``--games`` games each
(the same seeds for every pairing). Results go to resumable JSONL files in ``--dir``;
the table printed is Markdown, ready for docs/AGENTS.md.

    python benchmarks/arena_winrates.py --games 1000 --jobs 2
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hiddenrole.agents.arena import ArenaSpec, run, summarize

GAMES = {
    "werewolf": ("GOOD", "EVIL"),
    "missions": ("GOOD", "EVIL"),
    "onenight": ("VILLAGE", "WOLF"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/hiddenrole-winrates"))
    parser.add_argument("--only", default="", help="comma list of games")
    args = parser.parse_args()
    wanted = [g for g in GAMES if not args.only or g in args.only.split(",")]
    print("| game | pairing | side measured | win rate | Wilson 95% | games |")
    print("|---|---|---|---|---|---|")
    for game in wanted:
        good, evil = GAMES[game]
        pairings = {
            "random vs random": {"*": "random"},
            f"heuristic {good} vs random": {good: "heuristic", "*": "random"},
            f"heuristic {evil} vs random": {evil: "heuristic", "*": "random"},
        }
        for label, seat_agents in pairings.items():
            spec = ArenaSpec(game, args.games, seat_agents)
            out = args.dir / f"{game}-{label.replace(' ', '_')}.jsonl"
            s = summarize(run(spec, out, jobs=args.jobs, progress=False))
            for camp in (good, evil):
                rate = s.by_camp.get(camp)
                if rate is None:
                    continue
                lo, hi = rate.interval
                row = f"| {game} | {label} | {camp} | {rate.rate:.1%} | {lo:.1%} to {hi:.1%} | {rate.games} |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
