"""Host benchmark: does replaying a table log take time linear in its length?

Run ``python benchmarks/host_bench.py`` (a few seconds; ``--quick`` for a smoke run).
It plays race tables of 250, 500, 1000 and 2000 moves (four racers, target 100 on
the long track; 24 taunts, which draw nothing, then one die roll, which draws
once, so that nobody finishes before move 2000), then times, for each log, the best of several runs of:

* ``decode``: ``TableLog.from_json`` on the log's JSON bytes;
* ``replay``: ``Table.replay`` of the decoded log (setup, every move, the end check);
* ``encode``: ``TableLog.to_json``.

It prints one row per size with the time per move, and the ratio of each replay
time to the previous size's (about 2.0 when linear, about 4.0 if quadratic). The
last line is a machine-readable summary::

    kind=host replay_1000_ms=... us_per_move_1000=... ratio_2000_1000=... json_share=...

``json_share`` is encode+decode over replay at 1000 moves: it is what a faster codec
could save at most, which is why table logs stay JSON.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

from hiddenrole.host import Table, TableLog
from hiddenrole.host.catalog import get

RACE = get("race")
SIZES = (250, 500, 1000, 2000)


def race_log(moves: int, seed: int = 5) -> bytes:
    """A race log of exactly ``moves`` moves: 24 taunts, then a roll, and again."""
    t = Table.open(RACE, 4, {"target": 100, "track": "long"}, seed=seed)
    while t.seq < moves:
        if t.over:
            raise SystemExit(f"the race ended after {t.seq} moves; pick another seed")
        if t.seq % 25 == 24:
            t.act(t.readiness().turn, "ROLL")
        else:
            t.act(t.seats[t.seq % 4], "TAUNT", [t.seats[(t.seq + 1) % 4]])
    return t.log().to_json()


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
    print(
        f"kind=host replay_1000_ms={replay_ms[1000]:.2f} us_per_move_1000={replay_ms[1000] * 1000 / 1000:.1f} "
        f"ratio_2000_1000={replay_ms[2000] / replay_ms[1000]:.2f} json_share={json_share:.3f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
