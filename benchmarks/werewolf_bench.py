"""Full random 12-player werewolf games, timed, against the Go original's numbers calibrated in the same run.

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
    "games_per_s": "werewolf_12p_games_per_s",
    "playerview_us": "player_view_us",
    "snapshot_roundtrip_us": "snapshot_roundtrip_us",
    "replay_us": "replay_us",
}
"""Our measures and the Go figures they are calibrated against (``calibration.GO_RECORDED``)."""


def new_game(seed: int) -> tuple[hr.Rules, hr.Engine]:
    engine = ww.new_game(12, seed, start=False)
    return engine.rules, engine


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    random_policy.run("werewolf", new_game, seconds=seconds, go=GO)


if __name__ == "__main__":
    main()
