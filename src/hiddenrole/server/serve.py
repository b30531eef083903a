"""``hiddenrole serve``: open the store, serve the lobby, WebSocket and (optionally) TCP play.

:class:`Running` starts the same server on a thread for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import uvicorn

from .app import Lobby, ServerConfig, create_app
from .gcpolicy import timed_full_collections
from .limits import MAX_FRAME_BYTES, SHUTDOWN_GRACE, STORAGE_THREADS, SWITCH_INTERVAL
from .pushws import PushWebSocketProtocol
from .rooms import Clock, Hub
from .storage import Store, open_store
from .tcp import serve_tcp

__all__ = ["serve", "Running", "JsonLogs", "main_serve"]

_log = logging.getLogger("hiddenrole.server")


class JsonLogs(logging.Formatter):
    """One JSON object per log line (structured logs). Only named fields are kept: no token ever."""

    FIELDS = ("table", "game", "seat")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for f in self.FIELDS:
            if f in record.__dict__:
                out[f] = record.__dict__[f]
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(out, sort_keys=True)


class _Server(uvicorn.Server):
    """uvicorn, with our own first step of shutting down: ``drain`` finishes the moves in flight and
    closes every connection with a reason, before uvicorn drops what is left (1012, no reason)."""

    drain: Callable[[], Awaitable[None]] | None = None

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.drain is not None:
            for server in self.servers:  # accept no new connection meanwhile
                server.close()
            try:
                await asyncio.wait_for(self.drain(), SHUTDOWN_GRACE * 2)
            except Exception:
                _log.exception("graceful shutdown did not finish")
        await super().shutdown(sockets)


def _uvicorn(app: Any, host: str, port: int) -> _Server:
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        # websockets-sansio, plus the push extension: a session's frames leave in one write (pushws).
        ws=PushWebSocketProtocol,
        ws_max_size=MAX_FRAME_BYTES,
        # No permessage-deflate: compressing every pushed update took about a quarter of the
        # event loop under load (benchmarks/server_load.py), for messages of a few hundred bytes.
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=int(SHUTDOWN_GRACE),
    )
    return _Server(config)


async def serve(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 8000,
    tcp: int | None = None,
    config: ServerConfig | None = None,
    clock: Clock | None = None,
    started: threading.Event | None = None,
    box: dict[str, Any] | None = None,
) -> None:
    """Run until told to stop (SIGINT/SIGTERM, or ``box['server'].should_exit``)."""
    # Storage calls run on threads; PostgreSQL commits in parallel (and shares WAL flushes), so
    # give it more than the default handful of threads.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(STORAGE_THREADS, "hiddenrole-store"))
    hub = Hub(store, clock)
    app = create_app(store, config, hub)
    server = _uvicorn(app, host, port)
    box = box if box is not None else {}
    box["server"], box["hub"], box["loop"] = server, hub, asyncio.get_running_loop()
    box["lobby"] = app.state.lobby
    task = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
            return
        await asyncio.sleep(0.01)
    box["port"] = server.servers[0].sockets[0].getsockname()[1]
    tcp_server = None
    if tcp is not None:
        tcp_server = await serve_tcp(hub, host, tcp)
        box["tcp_port"] = tcp_server.sockets[0].getsockname()[1]

    async def drain() -> None:
        if tcp_server is not None:
            tcp_server.close()  # accept no new connection
        await hub.drain()

    server.drain = drain
    if started is not None:
        started.set()
    try:
        await task
    finally:
        if tcp_server is not None:
            tcp_server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(tcp_server.wait_closed(), SHUTDOWN_GRACE)


@dataclass
class Running:
    """A server on a background thread (tests, benchmarks): ``url``, ``ws``, ``tcp_port``; ``stop()``."""

    store: Store
    tcp: bool = True
    config: ServerConfig | None = None
    clock: Clock | None = None

    def __post_init__(self) -> None:
        self._box: dict[str, Any] = {}
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="hiddenrole-serve")
        self._error: BaseException | None = None
        self._thread.start()
        if not self._started.wait(20) or self._error is not None:
            raise RuntimeError(f"the server did not start: {self._error!r}")
        self.port: int = self._box["port"]
        self.tcp_port: int | None = self._box.get("tcp_port")
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"

    def _run(self) -> None:
        try:
            asyncio.run(
                serve(
                    self.store,
                    "127.0.0.1",
                    0,
                    0 if self.tcp else None,
                    self.config,
                    self.clock,
                    self._started,
                    self._box,
                )
            )
        except BaseException as exc:  # reported by __post_init__ or stop
            self._error = exc
            self._started.set()

    @property
    def hub(self) -> Hub:
        return self._box["hub"]  # type: ignore[no-any-return]

    @property
    def lobby(self) -> Lobby:
        return self._box["lobby"]  # type: ignore[no-any-return]

    def call(self, coro: Any, timeout: float = 10.0) -> Any:
        """Run a coroutine on the server's loop (tests poke at the hub this way)."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop()).result(timeout)

    def _loop(self) -> asyncio.AbstractEventLoop:
        return self._box["loop"]  # type: ignore[no-any-return]

    def stop(self, timeout: float = 15.0) -> None:
        server = self._box.get("server")
        if server is not None:
            server.should_exit = True
        self._thread.join(timeout)

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (``uvicorn[standard]`` brings it), else asyncio's own.

    Why: under the load benchmark the server's time goes to many small socket writes, task
    switches and thread hand-backs, which uvloop does in C (benchmarks/server_load.py measures it).
    """
    try:
        import uvloop
    except ImportError:  # e.g. on Windows, where uvloop does not exist
        return None
    return uvloop.new_event_loop


def main_serve(host: str, port: int, db: str, tcp: int | None, origins: list[str], json_logs: bool = True) -> int:
    """The CLI entry: print the URL, serve until SIGINT/SIGTERM, shut down gracefully."""
    handler = logging.StreamHandler(sys.stderr)
    if json_logs:
        handler.setFormatter(JsonLogs())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    # Storage calls finish on worker threads; with the default 5 ms GIL switch interval each
    # hand-back to the busy event loop can wait that long, which dominated acknowledgement latency.
    sys.setswitchinterval(SWITCH_INTERVAL)
    # uvicorn handles SIGTERM like SIGINT (graceful shutdown), then raises the signal again with
    # the handler it found: make that a KeyboardInterrupt too, so SIGTERM also exits 0.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    store = open_store(db)
    started = threading.Event()
    box: dict[str, Any] = {}

    async def run() -> None:
        loop = asyncio.get_running_loop()
        undo_gc = timed_full_collections(loop)  # no full collection in the middle of play (gcpolicy)
        try:
            task = loop.create_task(
                serve(store, host, port, tcp, ServerConfig(allowed_origins=tuple(origins)), None, started, box)
            )
            while not started.is_set() and not task.done():
                await asyncio.sleep(0.01)
            if task.done():
                task.result()
                return
            shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
            print(f"hiddenrole serving on http://{shown}:{box['port']}/ (store {store.url})", flush=True)
            if "tcp_port" in box:
                print(f"reference TCP protocol on {shown}:{box['tcp_port']}", flush=True)
            await task
        finally:
            undo_gc()

    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(run())
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    return 0


@contextlib.contextmanager
def running(store: Store, **kw: Any) -> Iterator[Running]:
    r = Running(store, **kw)
    try:
        yield r
    finally:
        r.stop()
