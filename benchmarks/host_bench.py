"""Host benchmark: does replaying a table log take time linear in its length?

Run ``python benchmarks/host_bench.py`` (a few seconds; ``--quick`` for a smoke run).
It plays race tables of 250, 500, 1000 and 2000 moves (four racers, target 100 on
the long track; 24 taunts, which draw nothing, then one die roll, which draws
once, so that nobody finishes before move 2000), then times, for each log, the best of several runs of:

* ``decode``: ``TableLog.from_json`` on the log's JSON bytes;
* ``replay``: ``Table.replay`` of the decoded log (setup, every move, the end check);
* ``encode``: ``TableLog.to_json``.

It prints one row per size with the time per move, and the ratio of each replay
time to the previous size's (about 2.0 when linear, about 4.0 if quadratic).

A second table times what a hostile seat can make a table do at 100, 1000 and 4000
moves (issue 8, finding 6): a move refused *after* its random draws (a race roll
aimed at nobody: the die is cast, then the kernel refuses the target; the table
rolls back from a checkpoint), an ordinary refusal (someone else's turn), and an
``undo`` of a pending vote (red/blue, 64 seats voting for themselves, so the rounds
tie and the game goes on). It prints the ratio per doubling of the log (1.0 =
flat: the cost does not grow with the log; 2.0 = linear). A third line counts what
one act costs at nine seats. The last line is a machine-readable summary::

    kind=host replay_1000_ms=... us_per_move_1000=... ratio_2000_1000=... json_share=...
    refused_draw_4000_us=... refused_draw_doubling=... undo_4000_us=... undo_doubling=...

``json_share`` is encode+decode over replay at 1000 moves: it is what a faster codec
could save at most, which is why table logs stay JSON.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hiddenrole import GameError
from hiddenrole.host import Table, TableLog
from hiddenrole.host.catalog import get

RACE = get("race")
REDBLUE = get("redblue")
SIZES = (250, 500, 1000, 2000)
HOSTILE_SIZES = (100, 1000, 4000)


def race_table(moves: int, seed: int = 5, every: int = 25) -> Table:
    """A race of exactly ``moves`` moves: ``every - 1`` taunts, then a roll, and again."""
    t = Table.open(RACE, 4, {"target": 100, "track": "long"}, seed=seed)
    while t.seq < moves:
        if t.over:
            raise SystemExit(f"the race ended after {t.seq} moves; pick another seed")
        if t.seq % every == every - 1:
            t.act(t.readiness().turn, "ROLL")
        else:
            t.act(t.seats[t.seq % 4], "TAUNT", [t.seats[(t.seq + 1) % 4]])
    return t


def race_log(moves: int, seed: int = 5) -> bytes:
    """A race log of exactly ``moves`` moves: 24 taunts, then a roll, and again."""
    return race_table(moves, seed).log().to_json()


def redblue_table(moves: int) -> Table:
    """Red/blue at 64 seats after ``moves`` self-votes (every round ties, nobody is out)."""
    t = Table.open(REDBLUE, 64, seed=1)
    while t.seq < moves:
        seat = t.seats[t.seq % 64]
        t.act(seat, "VOTE", [seat])
    return t


def refused_after_draw(t: Table) -> None:
    turn = t.readiness().turn
    try:
        t.act(turn, "ROLL", ["nobody"])
    except GameError:
        return
    raise SystemExit("the roll aimed at nobody was accepted")


def refused_plainly(t: Table) -> None:
    turn = t.readiness().turn
    other = next(s for s in t.seats if s != turn)
    try:
        t.act(other, "ROLL")
    except GameError:
        return
    raise SystemExit("a roll out of turn was accepted")


def per_call(fn: Callable[[], object], tries: int, calls: int) -> float:
    """Best over ``tries`` of the mean time of ``calls`` calls, in microseconds."""
    return best(lambda: [fn() for _ in range(calls)], tries) * 1e6 / calls


def undo_cost(t: Table, tries: int, calls: int) -> float:
    """Microseconds per undo of a pending vote (the vote that re-arms it is not timed)."""
    seat = t.seats[t.seq % 64]
    total = float("inf")
    for _ in range(tries):
        spent = 0.0
        for _ in range(calls):
            t.act(seat, "VOTE", [seat])
            start = time.perf_counter()
            t.undo(seat)
            spent += time.perf_counter() - start
        total = min(total, spent)
    return total * 1e6 / calls


def doubling(costs: dict[int, float]) -> float:
    """The cost ratio per doubling of the log, from the smallest to the largest size."""
    lo, hi = min(costs), max(costs)
    return float((costs[hi] / costs[lo]) ** (1 / math.log2(hi / lo)))


def act_at_nine(tries: int) -> tuple[float, dict[str, int]]:
    """One day vote at a nine-seat werewolf table: its time, and the views, board copies and status calls it costs."""
    import hiddenrole as hr

    counts = {"views": 0, "clones": 0, "status": 0}
    t = Table.open(get("werewolf"), 9, seed=1)
    while t.status().phase != "VOTE":
        t.end_phase()
    alive = [p.seat for p in t.view(None).players if p.alive]
    real_core, real_view, real_status = Table._core, hr.Engine.view, hr.Engine.status

    def core(self: Table, *args: object) -> object:
        counts["views"] += 1
        return real_core(self, *args)  # type: ignore[arg-type]

    def view(self: hr.Engine) -> hr.GameView:
        counts["clones"] += 1
        return real_view(self)

    def status(self: hr.Engine) -> hr.Status:
        counts["status"] += 1
        return real_status(self)

    patched: list[tuple[Any, str, Any]] = [
        (Table, "_core", core),
        (hr.Engine, "view", view),
        (hr.Engine, "status", status),
    ]
    real: list[tuple[Any, str, Any]] = [
        (Table, "_core", real_core),
        (hr.Engine, "view", real_view),
        (hr.Engine, "status", real_status),
    ]
    for owner, name, fn in patched:
        setattr(owner, name, fn)
    try:
        t.act(alive[0], "VOTE", [alive[1]])
    finally:
        for owner, name, fn in real:
            setattr(owner, name, fn)
    spent = per_call(lambda: t.view(alive[2]), tries, 1)
    return spent, counts


def best(fn: Callable[[], object], tries: int) -> float:
    """Best wall time of ``tries`` runs, in seconds (the least disturbed run)."""
    out = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - start)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="one try per measure (smoke test)")
    args = parser.parse_args(argv)
    tries = 1 if args.quick else 7

    print(f"race, 4 seats, Python {sys.version.split()[0]}; best of {tries}")
    head = ("moves", 6), ("bytes", 8), ("decode ms", 10), ("replay ms", 10), ("encode ms", 10), ("us/move", 8)
    print(" ".join(f"{name:>{width}}" for name, width in head), f"{'ratio':>6}")
    replay_ms: dict[int, float] = {}
    json_share = 0.0
    for n in SIZES:
        data = race_log(n)
        log = TableLog.from_json(data)
        decode = best(partial(TableLog.from_json, data), tries)
        replay = best(partial(Table.replay, RACE, log), tries)
        encode = best(log.to_json, tries)
        replay_ms[n] = replay * 1000
        prev = replay_ms.get(n // 2)
        ratio = f"{replay_ms[n] / prev:6.2f}" if prev else f"{'-':>6}"
        print(
            f"{n:>6} {len(data):>8} {decode * 1000:>10.2f} {replay * 1000:>10.2f} {encode * 1000:>10.2f} "
            f"{replay * 1e6 / n:>8.1f} {ratio}"
        )
        if n == 1000:
            json_share = (decode + encode) / replay
    print("ratio: replay time over the previous size's (2.0 = linear, 4.0 = quadratic)")

    print()
    print("hostile moves at a long table (microseconds per call)")
    print(f"{'moves':>6} {'refused after draw':>19} {'plain refusal':>14} {'undo':>8}")
    drawn: dict[int, float] = {}
    plain: dict[int, float] = {}
    undo: dict[int, float] = {}
    calls = 3 if args.quick else 20
    for n in HOSTILE_SIZES:
        race = race_table(n, every=50)
        drawn[n] = per_call(partial(refused_after_draw, race), tries, calls)
        plain[n] = per_call(partial(refused_plainly, race), tries, calls)
        undo[n] = undo_cost(redblue_table(n), tries, calls)
        print(f"{n:>6} {drawn[n]:>19.1f} {plain[n]:>14.1f} {undo[n]:>8.1f}")
    print(
        f"per doubling of the log: refused after draw {doubling(drawn):.2f}, plain refusal {doubling(plain):.2f}, "
        f"undo {doubling(undo):.2f} (1.0 = flat, 2.0 = linear)"
    )
    _, counts = act_at_nine(tries)
    print(
        f"one day vote at nine werewolf seats: {counts['views']} views computed, {counts['clones']} board copies, "
        f"{counts['status']} status calls"
    )
    print(
        f"kind=host replay_1000_ms={replay_ms[1000]:.2f} us_per_move_1000={replay_ms[1000] * 1000 / 1000:.1f} "
        f"ratio_2000_1000={replay_ms[2000] / replay_ms[1000]:.2f} json_share={json_share:.3f}"
    )
    print(
        f"refused_draw_4000_us={drawn[4000]:.1f} refused_draw_doubling={doubling(drawn):.2f} "
        f"undo_4000_us={undo[4000]:.1f} undo_doubling={doubling(undo):.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
