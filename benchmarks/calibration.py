"""Go's figures, calibrated to this machine in the same run, and the ratios against them.

The Go original's figures were measured on another machine; printed next to ours
they mean nothing. On that machine the peer ``werewolf-engine`` 0.1.0 (random
10-player games, ``werewolf_engine_ref.py``) ran at :data:`REFERENCE_RECORDED`
games/s. Every benchmark runs that reference in the same run (a child process, so
the peer's global ``random`` is its own) and scales the Go figures by its speed now::

    Go here ~ Go recorded x (reference games/s now / 1,753)     (a time: divided by it)

so a ratio of 1.0 means "as fast as Go would be on this machine, as loaded as it is
now". Without the ``bench`` extra (``pip install -e '.[bench]'``) there is no
reference: the benchmarks then print our numbers and no ratio at all.

The machine's speed drifts (on a shared VM, 1.7x from one second to the next), so the
game benchmarks *pair* the reference with their own work (:func:`paired`): the reference
stays up in one child process (:class:`ReferenceWorker`) and plays a short slice right
next to each slice of the benchmark, alternately before and after it; each round gives its
own ratio, and the ratio printed is the median of the rounds' (their spread is printed
too). Neighbours in time see the same machine; a run's ends need not.

Paired, from a benchmark whose work can be cut in slices::

    cal = calibration.paired(work, seconds)     # work(s): play s seconds, return {measure: value}
    print(cal.line("replay_us", ours_us, "replay_us"))   # the label names the per-round measure

Bracketing, from any benchmark (``host_bench.py`` too)::

    cal = calibration.measure(quick=args.quick, runs=2)
    ...                                            # the benchmark itself
    cal = calibration.measure(quick=args.quick, runs=1, before=cal)
    print(cal.describe())
    print(cal.line("replay_us", ours_us))          # one aligned row with the ratio
    summary |= cal.keys({"replay_us": ours_us}, {"replay_us": "replay_us"})  # ratio keys for a summary line
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

REFERENCE_RECORDED = 1753.0
"""werewolf-engine 0.1.0 random 10-player games/s on the machine of the Go figures."""

GO_RECORDED: Mapping[str, float] = {
    "werewolf_12p_games_per_s": 713.0,
    "avalon_7p_games_per_s": 1492.0,
    "onenight_6p_games_per_s": 6949.0,
    "player_view_us": 10.2,
    "snapshot_roundtrip_us": 387.0,
    "replay_us": 138.0,
    "submit_us": 1e6 / 713.0 / 103.7,
}
"""The Go original's figures, recorded once, on the reference's machine. Names ending in ``_us``
are times (smaller is faster); ``submit_us`` is its 12-player game time per submission
(103.7 submissions a game)."""

REFERENCE_SCRIPT = Path(__file__).resolve().parent / "werewolf_engine_ref.py"
REFERENCE_GAMES = 600
"""Games per reference run (about a second on a quiet machine); ``--quick`` plays 30."""
REFERENCE_RUNS = 3
"""Runs of the reference (before and after a benchmark: 2 + 1); the median is used (quick: one run)."""
PAIRED_ROUNDS = 41
"""Rounds of a paired run (:func:`paired`): an odd count, so the median is one round's ratio.

Many short rounds rather than a few long ones: this machine class changes speed within seconds
(the reference's own rounds ranged 2,900-5,500 games/s in one 10 s run), so a slice of ours is
compared with a reference slice taken close beside it. Measured on one build, three 10 s werewolf
runs each: 7 rounds gave x0.66-0.93 from run to run, 41 rounds x0.75-0.81."""
REFERENCE_SLICE_S = 0.4
"""Seconds of reference play per round: a few hundred games, long enough to average the game mix."""
_LAST_LINE = re.compile(r"games_per_s=(\d+(?:\.\d+)?) actions_per_s=(\d+(?:\.\d+)?)")


def is_time(name: str) -> bool:
    return name.endswith("_us") or name.endswith("_ms")


@dataclass(frozen=True, slots=True)
class Calibration:
    """The reference's speed in this run (``None``: not installed) and what it makes of Go's figures."""

    reference_games_per_s: float | None
    runs: tuple[float, ...] = ()
    rounds: tuple[Mapping[str, float], ...] = ()
    """Paired runs only: the benchmark's measures in each round, next to ``runs[i]`` in time."""

    @property
    def factor(self) -> float | None:
        """This machine now, relative to the machine of the Go figures (0.5: half as fast)."""
        if self.reference_games_per_s is None:
            return None
        return self.reference_games_per_s / REFERENCE_RECORDED

    def go_here(self, name: str) -> float | None:
        """The Go figure ``name`` as it would be measured here, now."""
        f = self.factor
        if f is None:
            return None
        go = GO_RECORDED[name]
        return go / f if is_time(name) else go * f

    def ratio(self, name: str, ours: float, key: str | None = None) -> float | None:
        """Ours against Go here: above 1 is faster than Go (for times and rates alike).

        In a paired run, the median of the rounds' ratios of measure ``key`` instead (``ours``
        is then only the whole run's figure, printed beside it)."""
        spread = self.round_ratios(name, key)
        if spread:
            return statistics.median(spread)
        go = self.go_here(name)
        if go is None or ours <= 0:
            return None
        return go / ours if is_time(name) else ours / go

    def round_ratios(self, name: str, key: str | None) -> list[float]:
        """Each round's own ratio of measure ``key`` to Go figure ``name`` (empty: not a paired run)."""
        if key is None or not self.rounds or self.reference_games_per_s is None:
            return []
        out = []
        for ref, mine in zip(self.runs, self.rounds, strict=True):
            value = mine.get(key, 0.0)
            if value > 0:
                r = Calibration(ref).ratio(name, value)
                if r is not None:
                    out.append(r)
        return out

    def describe(self) -> str:
        if self.reference_games_per_s is None:
            return (
                "calibration: werewolf-engine is not installed (pip install -e '.[bench]'): "
                "no Go figure for this machine, so no ratio is printed"
            )
        runs = ", ".join(f"{r:.0f}" for r in self.runs)
        if self.rounds:
            return (
                f"calibration: werewolf-engine 0.1.0, random 10p games, paired with ours in {len(self.rounds)} "
                f"rounds: {self.reference_games_per_s:.0f} games/s median (rounds {runs}; "
                f"{REFERENCE_RECORDED:,.0f} where Go was measured) -> this machine x{self.factor:.2f}; "
                "each ratio is the median of the rounds' ratios"
            )
        return (
            f"calibration: werewolf-engine 0.1.0, random 10p games: {self.reference_games_per_s:.0f} games/s "
            f"now (runs {runs}; {REFERENCE_RECORDED:,.0f} where Go was measured) -> this machine x{self.factor:.2f}"
        )

    def line(self, name: str, ours: float, label: str | None = None) -> str:
        """``label: ours <v>   Go here ~<g>   ours/Go x<r>`` (Go and the ratio only when calibrated)."""
        unit = " us" if name.endswith("_us") else " ms" if name.endswith("_ms") else "/s"
        text = f"  {label or name:>30}: ours {ours:11.1f}{unit}"
        go, r = self.go_here(name), self.ratio(name, ours, label)
        if go is not None and r is not None:
            text += f"   Go here ~{go:10.1f}{unit}   ours/Go x{r:.2f}"
            spread = self.round_ratios(name, label)
            if len(spread) > 1:
                text += f" (rounds x{min(spread):.2f}-x{max(spread):.2f})"
        return text

    def keys(self, ours: Mapping[str, float], go: Mapping[str, str]) -> dict[str, float]:
        """Summary-line keys: ``ref_games_per_s`` and ``<key>_vs_go`` for each of ``ours`` that ``go``
        maps to a Go figure's name (empty when uncalibrated)."""
        if self.reference_games_per_s is None:
            return {}
        out = {"ref_games_per_s": self.reference_games_per_s}
        for key, value in ours.items():
            r = self.ratio(go[key], value, key) if key in go else None
            if r is not None:
                out[f"{key}_vs_go"] = r
        return out


def reference_installed() -> bool:
    return find_spec("werewolf_engine") is not None


def run_reference(games: int) -> float:
    """One run of the reference in a child process; its games/s."""
    done = subprocess.run(
        [sys.executable, str(REFERENCE_SCRIPT), "--games", str(games)],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    found = _LAST_LINE.fullmatch(lines[-1]) if done.returncode == 0 and lines else None
    if found is None:
        raise RuntimeError(f"the reference benchmark failed: {done.stderr.strip() or done.stdout.strip()}")
    return float(found.group(1))


def measure(quick: bool = False, runs: int = REFERENCE_RUNS, before: Calibration | None = None) -> Calibration:
    """Run the reference now (``runs`` times; quick: once, 30 games); uncalibrated if it is not installed.

    Pass the calibration made ``before`` a benchmark to add runs after it: the median
    of all runs then brackets the benchmark, whose load may have changed meanwhile.
    """
    if not reference_installed():
        return Calibration(None)
    got = tuple(run_reference(30 if quick else REFERENCE_GAMES) for _ in range(1 if quick else runs))
    if before is not None:
        got = before.runs + got
    return Calibration(statistics.median(got), got)


class ReferenceWorker:
    """The reference in one long-lived child process, played in slices on request
    (``werewolf_engine_ref.py --serve``): no slice pays the child's start or imports."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, str(REFERENCE_SCRIPT), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def slice(self, seconds: float = REFERENCE_SLICE_S) -> float:
        """Play whole games for about ``seconds``; their games/s."""
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{seconds}\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().split()
        if len(answer) != 2:
            raise RuntimeError(f"the reference worker stopped (exit {proc.poll()})")
        games, took = int(answer[0]), float(answer[1])
        return games / took

    def close(self) -> None:
        proc = self._proc
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def paired(work: Callable[[float], Mapping[str, float]], seconds: float, rounds: int = PAIRED_ROUNDS) -> Calibration:
    """Run ``work`` for ``seconds`` in ``rounds`` slices, each next to a reference slice.

    ``work(s)`` does about ``s`` seconds of the benchmark and returns its measures for that
    slice (``{"games_per_s": ..., "replay_us": ...}``). The reference plays before the
    benchmark's slice in even rounds and after it in odd ones, so a steady drift in the
    machine's speed favours neither. Without the reference installed, the work still runs
    (in the same slices) and the calibration is empty.
    """
    rounds = max(1, rounds)
    share = seconds / rounds
    if not reference_installed():
        for _ in range(rounds):
            work(share)
        return Calibration(None)
    worker = ReferenceWorker()
    refs: list[float] = []
    mine_l: list[Mapping[str, float]] = []
    try:
        for i in range(rounds):
            if i % 2 == 0:
                refs.append(worker.slice(min(REFERENCE_SLICE_S, max(share, 0.05))))
                mine_l.append(work(share))
            else:
                mine_l.append(work(share))
                refs.append(worker.slice(min(REFERENCE_SLICE_S, max(share, 0.05))))
    finally:
        worker.close()
    return Calibration(statistics.median(refs), tuple(refs), tuple(mine_l))
