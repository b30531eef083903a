"""What one pushed message costs the server, in isolation: Starlette -> uvicorn -> the transport.

A uvicorn server (on uvloop, as ``hiddenrole serve`` runs it) accepts ``--conns`` WebSocket
connections from a client process that only drains its sockets, then pushes the same
~200-byte update to every connection in rounds, by each path, and prints the server's CPU
time (user + system) per message:

- ``asgi, writer task``: the session's old path, a queue and a writer task per connection,
  each message one ``await websocket.send_text(data.decode())``;
- ``asgi, direct``: the same send, awaited in place (no task hand-off);
- ``push, 1 frame/write``: the push extension (``hiddenrole.server.pushws``), one write per message;
- ``push, all frames/write``: the extension, all of a round's messages for a connection in one write
  (``--per-conn`` messages each: a mover's ack and update leave like this).

Rounds run back to back (``gap 0``), or with ``--gap`` ms between rounds so that the client
falls asleep and every round's first write has to wake it, as under real load, where a fan-out
of a few writes follows each move (the figure then includes the server loop's own wake-up per
round). Each figure is the median of ``--repeat`` passes; compare the paths of one run with
each other, not with another machine's.

    python benchmarks/push_bench.py
    python benchmarks/push_bench.py --gap 2 --rounds 400
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import selectors
import socket
import statistics
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from hiddenrole.server.pushws import PushWebSocketProtocol, Write, push_writer
from hiddenrole.server.serve import event_loop_factory

MESSAGE = (
    b'{"type":"update","version":12,"deadline":1796164887570,"paused":false,"events":[],'
    b'"chat":[{"at":12,"source":"p3","text":"line 4 from p3","audience":"all","round":2,"phase":"DAY"}]}'
)
PATHS = ("asgi, writer task", "asgi, direct", "push, 1 frame/write", "push, all frames/write")


def drain(port: int, conns: int) -> None:
    """The client process: open ``conns`` WebSocket connections and read whatever arrives, forever."""
    socks = []
    for k in range(conns):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(
            b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: " + f"{k:022d}==".encode() + b"\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        s.setblocking(False)
        socks.append(s)
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            try:
                if not key.fileobj.recv(1 << 20):  # type: ignore[union-attr]
                    return
            except BlockingIOError:
                pass
            except OSError:
                return


class Conn:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        writer = push_writer(ws.scope)
        assert writer is not None, "the push extension is missing"
        self.write: Write = writer
        self.task = asyncio.get_running_loop().create_task(self._writer())

    async def _writer(self) -> None:
        while True:
            data = await self.queue.get()
            await self.ws.send_text(data.decode())


async def main(args: argparse.Namespace) -> None:
    conns: list[Conn] = []
    ready = asyncio.Event()

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        conns.append(Conn(ws))
        if len(conns) == args.conns:
            ready.set()
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, ws=PushWebSocketProtocol, ws_per_message_deflate=False, log_level="warning"
    )
    server = uvicorn.Server(config)
    serving = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    client = mp.get_context("spawn").Process(target=drain, args=(port, args.conns), daemon=True)
    client.start()
    await asyncio.wait_for(ready.wait(), 30)

    async def one(path: str) -> float:
        n = args.per_conn
        cpu0 = time.process_time()
        for _ in range(args.rounds):
            for c in conns:
                if path == "asgi, writer task":
                    for _ in range(n):
                        c.queue.put_nowait(MESSAGE)
                elif path == "asgi, direct":
                    for _ in range(n):
                        await c.ws.send_text(MESSAGE.decode())
                elif path == "push, 1 frame/write":
                    for _ in range(n):
                        c.write([MESSAGE])
                else:
                    c.write([MESSAGE] * n)
            await asyncio.sleep(args.gap / 1000)
            if args.gap == 0 and path == "asgi, writer task":
                while any(not c.queue.empty() for c in conns):
                    await asyncio.sleep(0)
        return float((time.process_time() - cpu0) / (args.rounds * len(conns) * n) * 1e6)

    print(
        f"{args.conns} connections, {args.per_conn} message(s) per connection per round, "
        f"{args.rounds} rounds, {args.gap} ms between rounds; server CPU per message:"
    )
    for path in PATHS:
        runs = [await one(path) for _ in range(args.repeat)]
        print(f"  {path:<24} {statistics.median(runs):7.1f} us   (runs: {', '.join(f'{r:.1f}' for r in runs)})")
    client.kill()
    server.should_exit = True
    await serving


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conns", type=int, default=9)
    ap.add_argument("--per-conn", type=int, default=1, help="messages per connection per round")
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--gap", type=float, default=0.0, help="milliseconds between rounds")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    factory: Any = event_loop_factory()
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main(args))


if __name__ == "__main__":
    cli()
