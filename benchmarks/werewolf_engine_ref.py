"""The calibration reference: random 10-player games of the PyPI package ``werewolf-engine`` 0.1.0.

Not our engine: a peer whose speed on the machine where the Go original's figures
were recorded is known (1,753 games/s), so its speed here, measured in the same run,
says how fast that machine's Go figures would be here (see ``calibration.py``).
The workload must stay exactly the recorded one: 3 werewolves, seer, doctor, witch,
hunter and 3 villagers; every decision a uniformly random legal choice from the
peer's own legal-target API (night: the current actor acts on a random available
target, or skips when none; day: every living voter, in the peer's order, votes for
a random other living player); no observation is rendered.

Installed by the ``bench`` extra (``pip install -e '.[bench]'``). Usage:
``python benchmarks/werewolf_engine_ref.py [--games N] [--seed S]``. The last line is
``games_per_s=<x> actions_per_s=<y>``. With ``--serve`` it stays up and plays on request
(:func:`serve`): ``calibration.ReferenceWorker`` interleaves short slices of it with the
benchmark's own.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from werewolf_engine import Game, GameConfig, Phase

PLAYERS = 10
"""The recorded reference is a 10-player game."""


def role_counts(players: int) -> dict[str, int]:
    """The peer's board: 3 wolves from 9 players on (else 2), four specials, villagers."""
    wolves = 3 if players >= 9 else 2
    return {"werewolf": wolves, "seer": 1, "doctor": 1, "witch": 1, "hunter": 1, "villager": players - wolves - 4}


def play_one(rng: random.Random, players: int) -> tuple[int, Any]:
    """One game to its end; returns the decisions made and the winner."""
    game = Game([f"P{i}" for i in range(players)], GameConfig(role_counts=role_counts(players)))
    game.start()
    decisions = 0
    while game.phase != Phase.END:
        if game.phase == Phase.NIGHT:
            night = game.night_manager
            actor = night.current_actor
            targets = night.get_available_targets(actor)
            if targets:
                game.night_action(actor.id, rng.choice(targets).id)
            else:
                game.night_skip(actor.id)
            decisions += 1
        elif game.phase == Phase.DAY:
            day = game.day_manager
            # The peer has no "whose turn" by day: every living player votes once (its
            # private voter list gives the order); a legal target is any other living player.
            for voter in list(day._voters):
                targets = [p for p in game.players if p.alive and p.id != voter.id]
                game.day_vote(voter.id, rng.choice(targets).id)
                decisions += 1
                if game.phase != Phase.DAY or game.day_manager is not day:
                    break
        else:
            raise RuntimeError(f"unexpected phase {game.phase}")
    return decisions, game._winner


def run(games: int, seed: int = 1, players: int = PLAYERS) -> tuple[float, float]:
    """Play ``games`` games; returns (games/s, decisions/s) in wall time.

    The peer deals roles and picks a dying hunter's victim with the global ``random``
    module, so that is seeded too (this process exists for the peer alone).
    """
    random.seed(seed)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        decisions += play_one(rng, players)[0]
    seconds = time.perf_counter() - start
    return games / seconds, decisions / seconds


def serve(seed: int = 1, players: int = PLAYERS) -> None:
    """Answer slices: each stdin line is a duration in seconds; play whole games for at least that
    long (the seeded sequence goes on from slice to slice) and answer ``<games> <seconds>``.

    One process for every slice, so no slice pays the import, and a slice can sit right next to
    the benchmark's own work in time: on a machine whose speed drifts, only neighbours compare.
    """
    random.seed(seed)
    rng = random.Random(seed)
    clock = time.perf_counter
    for line in sys.stdin:
        wanted = float(line)
        games = 0
        start = clock()
        while True:
            play_one(rng, players)
            games += 1
            took = clock() - start
            if took >= wanted:
                break
        sys.stdout.write(f"{games} {took:.9f}\n")
        sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help="play slices on request (see serve)")
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.seed)
        return 0
    games_per_s, decisions_per_s = run(args.games, args.seed)
    print(f"package=werewolf-engine players={PLAYERS} games={args.games}")
    print(f"games_per_s={games_per_s:.2f} actions_per_s={decisions_per_s:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
