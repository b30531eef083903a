"""Full random 12-player werewolf games, timed, against the Go original's numbers.

Board: 4 wolves, seer, witch, hunter, guard, 4 villagers; default switches. Policy: see
``random_policy``. Usage: ``python benchmarks/werewolf_bench.py [seconds]`` (default 10).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hiddenrole as hr
import random_policy
from hiddenrole.games import werewolf as ww

GO = {
    "games_per_s": 713.0,
    "phases_per_s": 41469.0,
    "submits_per_s": 73991.0,
    "playerview_us": 10.2,
    "snapshot_roundtrip_us": 387.0,
    "replay_us": 138.0,
}
"""The Go original on this machine class (58.1 phases, 103.7 submits per game; evil wins ~88%)."""


def new_game(seed: int) -> tuple[hr.Rules, hr.Engine]:
    engine = ww.new_game(12, seed, start=False)
    return engine.rules, engine


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    random_policy.run("werewolf", new_game, seconds=seconds, go=GO)


if __name__ == "__main__":
    main()
