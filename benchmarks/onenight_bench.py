"""Full random 6-player One Night games from a 9-card deck (2 werewolves, seer, robber,
troublemaker, drunk, insomniac, hunter, tanner) under the shared random policy.
Usage: ``python benchmarks/onenight_bench.py [seconds]`` (default 10)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hiddenrole as hr
import random_policy
from hiddenrole.games import onenight as on

GO = {"games_per_s": "onenight_6p_games_per_s"}
"""Our measure and the Go figure it is calibrated against (``calibration.GO_RECORDED``)."""

DECK = (
    on.WEREWOLF,
    on.WEREWOLF,
    on.SEER,
    on.ROBBER,
    on.TROUBLEMAKER,
    on.DRUNK,
    on.INSOMNIAC,
    on.HUNTER,
    on.TANNER,
)


def new_game(seed: int) -> tuple[hr.Rules, hr.Engine]:
    engine = on.new_engine(DECK, 6, seed, start=False)
    return engine.rules, engine


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    random_policy.run("onenight", new_game, seconds=seconds, go=GO)


if __name__ == "__main__":
    main()
