"""What the extras timed apart from play (views, a snapshot round trip, replays) do to the play.

The game benchmarks time play alone and the extras apart (``random_policy``). An extra can still
reach the play's clock: an engine that released the views inside the next move made werewolf's
timed play 1.6x slower when views were built, though no view was built on the clock. This plays
the same seeded games with no extra, with each extra alone and with all of them, in interleaved
rounds in one process (every other round in reverse order), and prints the play's time per game
in each against the run with none: ``x1.00`` means the extras leave the play alone. The ratios are
of one run against itself, so the machine's speed cancels; what remains once every extra's own
instructions are out of the move is the memory and caches the extras used (see docs/DESIGN.md,
"A move pays for the move").

Usage: ``python benchmarks/extras_bench.py [seconds] [werewolf,avalon,onenight]`` (default 6 s per
kind, werewolf).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import random_policy

SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("none", ()),
    *((extra, (extra,)) for extra in random_policy.EXTRAS),
    ("all", random_policy.EXTRAS),
)
"""Each column: its name and the extras played with it."""
ROUNDS = 5
"""Interleaved rounds per kind; each set gets an equal share of the seconds in every round."""
WARM_GAMES = 100
"""Games played with every extra before the rounds (the rules' and the kernel's memos filled)."""


def run(kind: str, seconds: float) -> dict[str, float]:
    """Median timed-play µs per game of each set over :data:`ROUNDS` rounds; printed with ratios."""
    new_game, chooser = random_policy.game_of(kind)
    for seed in range(WARM_GAMES):  # a game each (no time given: one game)
        random_policy.play_for(new_game, 0, 10**6 + seed, chooser=chooser)
    share = seconds / ROUNDS / len(SETS)
    per_set: dict[str, list[float]] = {name: [] for name, _ in SETS}
    for r in range(ROUNDS):
        order = SETS if r % 2 == 0 else tuple(reversed(SETS))
        for name, extras in order:
            # The same games (seed 0 on) in every set.
            part = random_policy.play_for(new_game, share, 0, chooser=chooser, extras=extras)
            per_set[name].append(part.play_ns / part.games / 1000)
    out = {name: statistics.median(values) for name, values in per_set.items()}
    base = out["none"]
    print(f"{kind}: timed play, us per game (median of {ROUNDS} interleaved rounds) and against no extras")
    for name, _ in SETS:
        lo, hi = min(per_set[name]), max(per_set[name])
        print(f"  {name:>9}: {out[name]:8.1f} us  x{out[name] / base:.2f}  (rounds {lo:.1f}-{hi:.1f})")
    print(f"kind={kind} " + " ".join(f"{name}_vs_none={out[name] / base:.2f}" for name, _ in SETS), flush=True)
    return out


def main(argv: Sequence[str]) -> None:
    seconds = float(argv[0]) if argv else 6.0
    kinds = argv[1].split(",") if len(argv) > 1 else ["werewolf"]
    for kind in kinds:
        run(kind, seconds)


if __name__ == "__main__":
    main(sys.argv[1:])
