"""Instructions per random game, counted by valgrind: a speed measure the machine's load cannot move.

On a shared machine wall-clock figures swing several-fold between runs (the calibrated
ratios too, when the load changes between the reference and the games); the number of
machine instructions a game executes does not. This plays ``games`` seeded games of each
kind under the shared random policy (``random_policy.play``, no views or snapshots) inside
``valgrind --tool=callgrind``, subtracts a run that plays none (start-up and imports), and
prints instructions per game. The garbage collector is off and the hash seed fixed in the
counted runs, so two trees compare like for like (a full collection otherwise lands at a
different moment and moves a 30-game count by about 1%).

Usage: ``python benchmarks/instructions.py [games] [werewolf,avalon,onenight] [part] [warm]`` (default
30, all three, ``play``, 0). Needs ``valgrind``; the tree measured is the ``hiddenrole`` Python
imports (put another tree's ``src`` first on ``PYTHONPATH`` to measure it, or a compiled build).

``part`` other than ``play`` counts one durable-record step per game instead, as the game
benchmarks time it (:data:`PARTS`), by subtracting the same games played without it:
``roundtrip`` (snapshot -> JSON bytes -> verified restore, after phase 5), ``replay`` (of the
finished game's log object), ``replay_json`` (the log encoded afresh, decoded and replayed),
in the steady state: both runs first play :data:`WARMUP_GAMES` games with the step done.

``warm`` games (other seeds) are played first in both runs and not counted: the steady state of a
long timed run, whose kernel and rules memos (kept seatings, remembered writes, dealt centres) are
filled; a short count of fresh games also pays their first fills. Steady counts used in the notes:
``500 onenight play 3000``, ``100 avalon play 300``, ``50 werewolf play 700`` (werewolf's memos full).
"""

from __future__ import annotations

import gc
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hiddenrole as hr  # noqa: E402
import random_policy  # noqa: E402

KINDS = random_policy.KINDS
DEFAULT_GAMES = 30
PARTS = ("play", "roundtrip", "replay", "replay_json")
ROUNDTRIP_PHASE = 5
"""The phase after which ``roundtrip`` saves and restores (as ``random_policy.play`` does)."""
WARMUP_GAMES = 2
"""Games played, and their ``part`` done, before the counted ones in both runs of a ``part`` count:
the first save, restore or replay in a process compiles the record readers and writers (about
22 M instructions, once), which the timed benchmarks amortise over hundreds of games; counting
it would add 22/``games`` M to every game's figure."""
WARMUP_SEED = 10_000
"""The warm-up games' first seed (none of the counted games')."""
_REFS = re.compile(r"refs:\s*([\d,]+)")


def play(kind: str, games: int, part: str = "play", extra: bool = True, warm_games: int = 0) -> None:
    """The counted part: ``games`` seeded games of ``kind``, as the benchmarks play them, and
    (``extra``) the step ``part`` names once per game, after ``warm_games`` games not counted."""
    new_game, chooser = random_policy.game_of(kind)
    gc.disable()
    tally = random_policy.Tally()
    # play: the warm games in both runs (the counted one and the empty one); a part: in its two runs
    n_warm = warm_games if part == "play" else max(warm_games, WARMUP_GAMES) if games else 0
    warm = range(WARMUP_SEED, WARMUP_SEED + n_warm)
    for seed in [*warm, *range(games)]:
        rules, engine = new_game(seed)
        engine.start()
        phases = ROUNDTRIP_PHASE if part == "roundtrip" else 200
        random_policy.play(engine, rules, random.Random(seed), tally, chooser=chooser, extras=(), max_phases=phases)
        if part == "play" or (not extra and seed not in warm):
            continue
        if part == "roundtrip":
            hr.Engine.restore(rules, engine.snapshot().to_json())
        elif part == "replay":
            hr.Engine.replay(rules, engine.log())
        else:
            log = engine.log()
            hr.Engine.replay(rules, hr.GameLog(log.rules_name, log.rules_version, log.effects).to_json())


def count(kind: str, games: int, part: str = "play", extra: bool = True, warm_games: int = 0) -> int:
    """Instructions valgrind counts for a child that plays ``games`` games of ``kind`` (see :func:`play`)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    cmd += [sys.executable, str(Path(__file__).resolve()), "--play", kind, str(games), part, str(int(extra))]
    cmd.append(str(warm_games))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    found = _REFS.search(done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + done.stderr[-2000:])
    return int(found.group(1).replace(",", ""))


def main(argv: Sequence[str]) -> None:
    if len(argv) >= 5 and argv[0] == "--play":
        play(argv[1], int(argv[2]), argv[3], argv[4] == "1", int(argv[5]) if len(argv) > 5 else 0)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind (apt-get install valgrind)")
    games = int(argv[0]) if argv else DEFAULT_GAMES
    kinds = argv[1].split(",") if len(argv) > 1 else list(KINDS)
    part = argv[2] if len(argv) > 2 else "play"
    warm_games = int(argv[3]) if len(argv) > 3 else 0
    if part not in PARTS:
        raise SystemExit(f"unknown part {part!r}; one of {', '.join(PARTS)}")
    out = {}
    for kind in kinds:
        if part == "play":
            with_games = count(kind, games, warm_games=warm_games)
            per_game = (with_games - count(kind, 0, warm_games=warm_games)) / games
        else:
            with_part = count(kind, games, part, warm_games=warm_games)
            per_game = (with_part - count(kind, games, part, False, warm_games)) / games
        out[kind] = per_game
        after = f" after {warm_games} warm" if warm_games else ""
        print(f"{kind:>9}: {per_game / 1e6:8.3f} M instructions/{part} ({games} games{after})", flush=True)
    suffix = "game" if part == "play" else part
    print(" ".join(f"{k}_minstr_per_{suffix}={v / 1e6:.3f}" for k, v in out.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
