"""Arena throughput: games per second for random and heuristic agents on 1 and 2 worker processes.

Each configuration plays the same ``--games`` games (seeds 0..N-1) through
``hiddenrole.agents.arena.run`` (dealing, the seat runner, observations, agents, the
JSONL line with the whole log) into a fresh file. The ``x2/x1`` column is the speed-up
of two processes over one, measured in the same run.

    python benchmarks/arena_bench.py --games 60
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hiddenrole.agents.arena import ArenaSpec, run


def games_per_second(game: str, agent: str, games: int, jobs: int, where: Path) -> float:
    out = where / f"{game}-{agent}-{jobs}.jsonl"
    spec = ArenaSpec(game, games, {"*": agent})
    start = time.perf_counter()
    run(spec, out, jobs=jobs, progress=False)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    print(f"{'game':<10} {'agents':<10} {'1 proc g/s':>11} {'2 proc g/s':>11} {'x2/x1':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for game in ("werewolf", "missions", "onenight"):
            for agent in ("random", "heuristic"):
                one = games_per_second(game, agent, args.games, 1, Path(tmp))
                two = games_per_second(game, agent, args.games, 2, Path(tmp))
                print(f"{game:<10} {agent:<10} {one:>11.1f} {two:>11.1f} {two / one:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
