"""Graceful shutdown: the move in flight is stored and acknowledged, then every socket closes with a reason.

SIGTERM and SIGINT both shut ``hiddenrole serve`` down this way and it exits 0.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hiddenrole.server.bots import choices
from hiddenrole.server.rooms import SHUTDOWN_CODE, SHUTDOWN_REASON
from hiddenrole.server.serve import Running
from hiddenrole.server.storage import Store

from .procs import Server
from .support import TIMEOUT, Client, config_of, create, join


async def _until_closed(c: Client) -> tuple[list[dict[str, Any]], Any]:
    """Every message until the server closes the connection, and the WebSocket close frame it sent."""
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(await c.recv())
    except ConnectionClosed as exc:
        return got, exc.rcvd
    except ConnectionError:
        return got, None


def test_shutdown_finishes_the_move_in_flight_then_closes_with_a_reason(store: Store) -> None:
    entered, release = threading.Event(), threading.Event()
    append = store.append_move
    submit = store.append_move_future  # type: ignore[attr-defined]

    def held(*args: Any, **kw: Any) -> Any:  # the move under test stays in its commit until released
        if kw.get("client_move_id") == "in-flight":
            entered.set()
            release.wait(TIMEOUT)
        return append(*args, **kw)

    def held_future(*args: Any, **kw: Any) -> Future[Any] | None:
        """The same hold on the committer path (the rooms hand SQLite's committer the move directly)."""
        if kw.get("client_move_id") != "in-flight":
            return submit(*args, **kw)  # type: ignore[no-any-return]
        out: Future[Any] = Future()

        def later() -> None:
            entered.set()
            release.wait(TIMEOUT)
            inner = submit(*args, **kw)
            try:
                out.set_result(append(*args, **kw) if inner is None else inner.result(TIMEOUT))
            except Exception as exc:
                out.set_exception(exc)

        threading.Thread(target=later, daemon=True).start()
        return out

    srv = Running(store)
    try:
        made = create(srv, "werewolf", 9, bots=[], timeout=30.0)
        table = made["table"]
        game = srv.hub.rooms[table].game
        mine = next(s for s in game.seats if game.view(s)["me"]["allowed_skills"])
        me = join(srv, table, mine)
        for s in game.seats:
            if s != mine:
                join(srv, table, s)  # idle humans: nothing else moves
        store.append_move = held  # type: ignore[method-assign]
        store.append_move_future = held_future  # type: ignore[attr-defined]

        async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
            ws, tcp = await Client.ws(srv), await Client.tcp(srv)
            welcome = await ws.hello(table, me["token"], views=True)
            assert (await tcp.hello(table, spectate=True))["type"] == "welcome"
            option = choices(config_of(srv, table), welcome["view"], random.Random(1))[0]
            await ws.send(type="move", id="in-flight", against=welcome["version"], **option)
            while not entered.is_set():
                await asyncio.sleep(0.01)
            stopper = threading.Thread(target=srv.stop)
            stopper.start()  # what SIGTERM does: uvicorn's should_exit
            await asyncio.sleep(0.3)  # shutdown is now waiting for the move
            release.set()
            (seat_msgs, close), (spec_msgs, _) = await asyncio.gather(_until_closed(ws), _until_closed(tcp))
            await asyncio.to_thread(stopper.join, TIMEOUT)
            return seat_msgs, spec_msgs, close

        seat_msgs, spec_msgs, close = asyncio.run(go())
    finally:
        release.set()
        srv.stop()
    acks = [m for m in seat_msgs if m["type"] == "ack" and m["id"] == "in-flight"]
    assert acks, f"the move in flight was not acknowledged: {seat_msgs}"
    assert close is not None and (close.code, close.reason) == (SHUTDOWN_CODE, SHUTDOWN_REASON)
    assert spec_msgs[-1] == {"type": "bye", "code": SHUTDOWN_CODE, "reason": SHUTDOWN_REASON}
    stored = store.load_table(table).moves
    assert [m.client_move_id for m in stored] == ["in-flight"], "the acknowledged move is not stored once"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_closes_every_socket_with_a_reason_and_exits_0(tmp_path: Path, sig: signal.Signals) -> None:
    srv = Server(tmp_path / "s.sqlite", tcp=True)
    srv.start()
    try:
        url = f"http://127.0.0.1:{srv.port}"
        made = httpx.post(f"{url}/api/tables", json={"game": "werewolf", "timeout": 30.0}, timeout=TIMEOUT).json()
        token = httpx.post(f"{url}/api/tables/{made['table']}/join", json={}, timeout=TIMEOUT).json()["token"]

        async def go() -> tuple[Any, str]:
            async with connect(f"ws://127.0.0.1:{srv.port}/ws", open_timeout=TIMEOUT) as ws:
                await ws.send(json.dumps({"type": "hello", "table": made["table"], "token": token}))
                assert json.loads(await ws.recv())["type"] == "welcome"
                assert srv.tcp_port is not None
                reader, writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port)
                writer.write(json.dumps({"type": "hello", "table": made["table"], "spectate": True}).encode() + b"\n")
                assert json.loads(await reader.readline())["type"] == "welcome"
                assert srv.proc is not None
                srv.proc.send_signal(sig)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), TIMEOUT)
                last = b""
                while line := await asyncio.wait_for(reader.readline(), TIMEOUT):
                    last = line
                writer.close()
                return closed.value.rcvd, last.decode()

        close, last = asyncio.run(go())
        assert srv.proc is not None
        assert srv.proc.wait(TIMEOUT) == 0
    finally:
        srv.stop()
    assert close is not None and (close.code, close.reason) == (SHUTDOWN_CODE, SHUTDOWN_REASON)
    assert json.loads(last) == {"type": "bye", "code": SHUTDOWN_CODE, "reason": SHUTDOWN_REASON}
