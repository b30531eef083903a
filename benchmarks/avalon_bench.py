"""Full random 7-player Avalon games (Merlin, Percival, 2 servants, assassin, Morgana,
Oberon) under the shared random policy; a nomination is one submission of the mission's
team size of distinct living players, leader included.
Usage: ``python benchmarks/avalon_bench.py [seconds]`` (default 10)."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hiddenrole as hr
import random_policy
from hiddenrole.games import missions

GO = {"games_per_s": "avalon_7p_games_per_s"}
"""Our measure and the Go figure it is calibrated against (``calibration.GO_RECORDED``)."""

ROLES = ("percival", "morgana", "oberon")


def new_game(seed: int) -> tuple[hr.Rules, hr.Engine]:
    engine = missions.new_engine(missions.AVALON, 7, ROLES, seed, start=False)
    return engine.rules, engine


def choose(engine: hr.Engine, pid: str, skill: str, alive: Sequence[str], rng: random.Random) -> Sequence[str] | None:
    if skill != missions.NOMINATE:
        return None
    size = missions.team_size(engine.status())
    return random_policy.sample(rng.getrandbits, alive, size)  # the draws rng.sample makes


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    random_policy.run("avalon", new_game, seconds=seconds, chooser=choose, go=GO)


if __name__ == "__main__":
    main()
