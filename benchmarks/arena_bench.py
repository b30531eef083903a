"""Arena throughput: games per second for random and heuristic agents on 1 and 2 worker processes.

Each configuration plays the same ``--games`` games (seeds 0..N-1) through
``hiddenrole.agents.arena.run`` (dealing, the seat runner, observations, agents, the
JSONL line with the whole log) into a fresh file, median of ``--repeat`` runs.

* ``full 1p``: one process, observations rebuilt from each seat's whole view at every
  decision (the reference); ``1 proc`` / ``2 proc``: observations built incrementally
  from the pushed events (the default); ``inc/full`` is the speed-up in the same run,
  ``x2/x1`` the speed-up of two processes over one.
* With Ray installed (the ``ray`` extra), ``ray g/s/w``: games per second per Ray
  worker with 2 local workers (``--ray``), Ray's start-up excluded.

    python benchmarks/arena_bench.py --games 60
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import tempfile
import time
from pathlib import Path

from hiddenrole.agents.arena import ArenaSpec, run

RAY_WORKERS = 2


def games_per_second(
    game: str, agent: str, games: int, jobs: int, where: Path, *, incremental: bool = True, ray: bool = False
) -> float:
    out = where / f"{game}-{agent}-{jobs}-{incremental}-{ray}-{time.perf_counter_ns()}.jsonl"
    spec = ArenaSpec(game, games, {"*": agent}, incremental=incremental)
    start = time.perf_counter()
    run(spec, out, jobs=jobs, progress=False, ray=ray)
    return games / (time.perf_counter() - start)


def median(repeat: int, game: str, agent: str, games: int, jobs: int, where: Path, **kw: bool) -> float:
    """The median games/s of ``repeat`` runs of one cell."""
    return statistics.median(games_per_second(game, agent, games, jobs, where, **kw) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell (the median is shown)")
    parser.add_argument("--games-only", nargs="*", default=["werewolf", "missions", "onenight"])
    args = parser.parse_args()
    has_ray = importlib.util.find_spec("ray") is not None
    if has_ray:
        import ray

        ray.init(num_cpus=RAY_WORKERS, include_dashboard=False, log_to_driver=False, configure_logging=False)
    head = f"{'game':<10} {'agents':<10} {'full 1p':>8} {'1 proc':>8} {'inc/full':>8} {'2 proc':>8} {'x2/x1':>6}"
    print(head + (f" {'ray g/s/w':>9}" if has_ray else ""))
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        for game in args.games_only:
            for agent in ("random", "heuristic"):
                cell = (args.repeat, game, agent, args.games)
                full = median(*cell, 1, where, incremental=False)
                one = median(*cell, 1, where)
                two = median(*cell, 2, where)
                line = f"{game:<10} {agent:<10} {full:>8.1f} {one:>8.1f} {one / full:>8.2f} {two:>8.1f}"
                line += f" {two / one:>6.2f}"
                if has_ray:
                    per = median(*cell, RAY_WORKERS, where, ray=True)
                    line += f" {per / RAY_WORKERS:>9.1f}"
                print(line, flush=True)
    if has_ray:
        ray.shutdown()


if __name__ == "__main__":
    main()
