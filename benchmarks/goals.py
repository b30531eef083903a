"""Issue #11's speed goals in one table: every calibrated ratio, pure Python and compiled, from one run.

Runs ``werewolf_bench.py``, ``avalon_bench.py`` and ``onenight_bench.py`` (each pairs its
own games with the calibration reference, see ``calibration.paired``) once on the pure
tree and, with ``--compiled DIR`` (an unpacked compiled wheel, see README "Performance"),
once on the compiled one, and prints each goal's ratio against Go calibrated to this
machine (above 1: faster than Go). Usage::

    python benchmarks/goals.py [--seconds 5] [--compiled /tmp/hiddenrole-compiled]

The children get the tree first on ``PYTHONPATH``; the pure tree is this checkout's ``src``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

GOALS: tuple[tuple[str, str, str, float], ...] = (
    ("werewolf", "games_per_s_vs_go", "random 12p werewolf game", 0.85),
    ("avalon", "games_per_s_vs_go", "random 7p Avalon game", 0.6),
    ("onenight", "games_per_s_vs_go", "random 6p One Night game", 0.6),
    ("werewolf", "playerview_us_vs_go", "player view, 12p", 1.0),
    ("werewolf", "snapshot_roundtrip_us_vs_go", "snapshot JSON round trip", 1.0),
    ("werewolf", "replay_us_vs_go", "replay from the log object", 1.0),
)
"""(benchmark, summary key, what, goal): the issue's goals, each a ratio against Go here (1.0: as fast)."""

_PAIR = re.compile(r"(\w+)=(\d+(?:\.\d+)?)")


def run_bench(kind: str, seconds: float, tree: Path) -> dict[str, float]:
    """One benchmark on ``tree`` (first on ``PYTHONPATH``); the keys of its summary line."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [sys.executable, str(HERE / f"{kind}_bench.py"), str(seconds)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or not lines[-1].startswith(f"kind={kind} "):
        raise RuntimeError(f"{kind}_bench.py failed on {tree}: {done.stderr.strip()[-800:]}")
    return {k: float(v) for k, v in _PAIR.findall(lines[-1])}


def table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """A markdown table: one row per goal, one column per tree measured."""
    trees = list(results)
    head = "| goal | target | " + " | ".join(trees) + " |"
    rows = [head, "|" + "---|" * (2 + len(trees))]
    for kind, key, what, goal in GOALS:
        cells = []
        for tree in trees:
            value = results[tree].get(kind, {}).get(key)
            cells.append("-" if value is None else f"x{value:.2f}" + (" (met)" if value >= goal else ""))
        rows.append(f"| {what} | >= x{goal:g} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of games per benchmark")
    parser.add_argument("--compiled", type=Path, help="an unpacked compiled wheel (its hiddenrole/*.so)")
    args = parser.parse_args(argv)
    trees = {"pure": SRC}
    if args.compiled is not None:
        if not any((args.compiled / "hiddenrole").glob("engine*.so")):
            raise SystemExit(f"{args.compiled} holds no compiled hiddenrole (hiddenrole/engine*.so)")
        trees["compiled"] = args.compiled
    results: dict[str, dict[str, dict[str, float]]] = {name: {} for name in trees}
    for kind in sorted({g[0] for g in GOALS}):
        for name, tree in trees.items():  # pure and compiled back to back, benchmark by benchmark
            results[name][kind] = run_bench(kind, args.seconds, tree)
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
