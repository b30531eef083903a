"""Issue #11's speed goals in one table: every calibrated ratio, pure Python and compiled, from one run.

Runs ``werewolf_bench.py``, ``avalon_bench.py`` and ``onenight_bench.py`` (each pairs its
own games with the calibration reference, see ``calibration.paired``) once on the pure
tree and, with ``--compiled DIR`` (an unpacked compiled wheel, see README "Performance"),
once on the compiled one, and prints each goal's ratio against Go calibrated to this
machine (above 1: faster than Go). Usage::

    python benchmarks/goals.py [--seconds 5] [--compiled /tmp/hiddenrole-compiled]
    python benchmarks/goals.py --no-pure --runs 3 --compiled new=/tmp/new --compiled base=/tmp/base

The children get the tree first on ``PYTHONPATH``; the pure tree is this checkout's ``src``.
``--compiled`` may be given more than once (``NAME=DIR`` names a column), so two builds are
measured in the same run, benchmark by benchmark, back to back. ``--runs N`` repeats the whole
round N times and prints each cell's median with its range: a whole run of this machine moves by
5-10% (the reference and our builds do not slow down in step), so one run cannot settle a goal
within that margin; the median of interleaved runs, and the builds' ranges, say more.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
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


def table(
    results: dict[str, dict[str, dict[str, float]]],
    ranges: dict[str, dict[str, dict[str, tuple[float, float]]]] | None = None,
) -> str:
    """A markdown table: one row per goal, one column per tree measured (with ``ranges``, each
    cell's lowest and highest run after its median)."""
    trees = list(results)
    head = "| goal | target | " + " | ".join(trees) + " |"
    rows = [head, "|" + "---|" * (2 + len(trees))]
    for kind, key, what, goal in GOALS:
        cells = []
        for tree in trees:
            value = results[tree].get(kind, {}).get(key)
            cell = "-" if value is None else f"x{value:.2f}" + (" (met)" if value >= goal else "")
            spread = (ranges or {}).get(tree, {}).get(kind, {}).get(key)
            if value is not None and spread is not None:
                cell += f" [x{spread[0]:.2f}-x{spread[1]:.2f}]"
            cells.append(cell)
        rows.append(f"| {what} | >= x{goal:g} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def summarise(
    runs: dict[str, dict[str, list[dict[str, float]]]],
) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, dict[str, dict[str, tuple[float, float]]]]]:
    """Per tree, benchmark and key: the median of the runs, and their lowest and highest."""
    results: dict[str, dict[str, dict[str, float]]] = {}
    ranges: dict[str, dict[str, dict[str, tuple[float, float]]]] = {}
    for tree, kinds in runs.items():
        for kind, got in kinds.items():
            for key in sorted(set().union(*got)):
                values = [r[key] for r in got if key in r]
                results.setdefault(tree, {}).setdefault(kind, {})[key] = statistics.median(values)
                ranges.setdefault(tree, {}).setdefault(kind, {})[key] = (min(values), max(values))
    return results, ranges


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of games per benchmark")
    parser.add_argument(
        "--compiled",
        action="append",
        default=[],
        metavar="[NAME=]DIR",
        help="an unpacked compiled wheel (its hiddenrole/*.so); repeat to measure several builds side by side",
    )
    parser.add_argument("--no-pure", action="store_true", help="leave out the pure tree")
    parser.add_argument("--runs", type=int, default=1, help="rounds of every benchmark; cells show the median")
    args = parser.parse_args(argv)
    trees = {} if args.no_pure else {"pure": SRC}
    for given in args.compiled:
        name, _, path = given.rpartition("=")
        tree = Path(path)
        if not any((tree / "hiddenrole").glob("engine*.so")):
            raise SystemExit(f"{tree} holds no compiled hiddenrole (hiddenrole/engine*.so)")
        trees[name or ("compiled" if len(args.compiled) == 1 else f"compiled {tree.name}")] = tree
    if not trees or args.runs < 1:
        raise SystemExit("nothing to measure: give --compiled, or leave out --no-pure; --runs is at least 1")
    runs: dict[str, dict[str, list[dict[str, float]]]] = {name: {} for name in trees}
    order = list(trees.items())
    for r in range(args.runs):
        for kind in sorted({g[0] for g in GOALS}):
            # The trees back to back, benchmark by benchmark; every other round in reverse, so a drift
            # of the machine within a round favours no tree.
            for name, tree in order if r % 2 == 0 else order[::-1]:
                runs[name].setdefault(kind, []).append(run_bench(kind, args.seconds, tree))
    results, ranges = summarise(runs)
    print(table(results, ranges if args.runs > 1 else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
