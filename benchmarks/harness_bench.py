"""What the enginetest harness costs on top of the games it checks, as a same-run ratio.

For each table (the fuzz game, default werewolf on 6 to 12 seats) the same seeds are
played three ways, each timed in CPU seconds (``time.process_time``, median of 3):
``bare`` (the harness's random policy and ``end_phase`` only, no checks), ``A-G``
(``enginetest.run`` with H off) and ``A-H`` (everything on). The ratios to ``bare`` do
not depend on how fast this machine is today, so they compare across runs and commits.
Usage: ``python benchmarks/harness_bench.py [games] [repeats]`` (default 40 games, 3 repeats).
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable

from hiddenrole import enginetest as et
from hiddenrole.enginetest import fuzzgame
from hiddenrole.games import werewolf as ww

REPEATS = 3
"""Timings per measure by default; the median is printed."""


def werewolf_spec(games: int) -> et.Spec:
    rules = ww.rules()

    def setup(rng: random.Random) -> et.Game:
        return et.Game(rules, et.deal(rng, list(ww.board(rng.randint(ww.MIN_PLAYERS, ww.MAX_PLAYERS)))))

    leaks = et.LeakCheck(roles=(), chat=et.default_chat, max_steps=60)
    return et.Spec(name="werewolf", setup=setup, games=games, max_steps=200, want_end=True, leaks=leaks)


def bare(spec: et.Spec) -> None:
    """The spec's games with no checks: deal, start, then act and end phases until the end."""
    act = spec.act or et.random_policy
    for seed in spec.seeds:
        rng = random.Random(seed)
        game = spec.setup(rng)
        engine = game.engine_type(game.rules)
        for pid, role in game.seats:
            engine.add_player(pid, role)
        engine.start()
        for step in range(spec.max_steps):
            if engine.status().over:
                break
            act(et.Turn(engine, rng, seed, step, game))
            engine.end_phase()


def cpu(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def measure(name: str, spec: et.Spec, repeats: int) -> dict[str, float]:
    ref = cpu(lambda: bare(spec), repeats)
    ag = cpu(lambda: et.run(dataclasses.replace(spec, leaks=None)), repeats)
    ah = cpu(lambda: et.run(spec), repeats)
    per_game = 1000 / spec.games
    print(
        f"{name}: {spec.games} games; bare {ref * per_game:.1f} ms/game, A-G {ag * per_game:.1f} ms/game "
        f"({ag / ref:.2f}x bare), A-H {ah * per_game:.1f} ms/game ({ah / ref:.2f}x bare)"
    )
    return {f"{name}_ag_vs_bare": ag / ref, f"{name}_ah_vs_bare": ah / ref}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else REPEATS
    fuzz = dataclasses.replace(fuzzgame.fuzz_spec(games=games, leak_games=None), must_see=())
    out = {**measure("fuzz", fuzz, repeats), **measure("werewolf", werewolf_spec(games), repeats)}
    print("kind=harness games=" + str(games) + "".join(f" {k}={v:.2f}" for k, v in out.items()))


if __name__ == "__main__":
    main()
