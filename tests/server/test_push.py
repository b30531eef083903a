"""How a session's pushed messages reach its transport (``Session.push``, ``server/pushws.py``).

Messages queued in one turn of the event loop leave in one transport write, in order;
a later turn starts a new write; a client whose unsent backlog passes ``MAX_OUTBOX_BYTES``
is closed as too slow; without a frames writer (a plain ASGI server) a writer task sends
each message through ``send`` in order. The WebSocket endpoint under ``hiddenrole serve``
gets the frames writer from the push extension.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import pytest

from hiddenrole.server.limits import MAX_OUTBOX_BYTES
from hiddenrole.server.rooms import Hub
from hiddenrole.server.serve import Running
from hiddenrole.server.session import Session

from .support import Client, create, join


class Transport:
    """A fake transport: records every write (a list of frames) and every close."""

    def __init__(self, backlog: int | None = 0) -> None:
        self.writes: list[list[bytes]] = []
        self.sent: list[bytes] = []
        self.closed: list[tuple[int, str]] = []
        self.backlog = backlog

    def write(self, frames: Sequence[bytes]) -> int | None:
        self.writes.append(list(frames))
        return self.backlog

    async def send(self, data: bytes) -> None:
        self.sent.append(data)

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


class _Hub:
    def __init__(self) -> None:
        self.closing = False
        self.sessions: set[Any] = set()


def _session(t: Transport, frames: bool = True) -> Session:
    return Session(cast(Hub, _Hub()), t.send, t.close, t.write if frames else None)


def test_messages_of_one_loop_turn_leave_in_one_write_in_order() -> None:
    async def go() -> list[list[bytes]]:
        t = Transport()
        s = _session(t)
        for m in (b"ack", b"update 1", b"update 2"):
            s.push(m, {})
        assert t.writes == []  # nothing is written inside the room's own step
        await asyncio.sleep(0)
        s.push(b"update 3", {})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return t.writes

    assert asyncio.run(go()) == [[b"ack", b"update 1", b"update 2"], [b"update 3"]]


def test_a_client_whose_backlog_passes_the_limit_is_closed_and_sent_nothing_more() -> None:
    async def go() -> Transport:
        t = Transport(backlog=MAX_OUTBOX_BYTES + 1)
        s = _session(t)
        s.push(b"one", {})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        s.push(b"two", {})  # after the close: dropped
        await asyncio.sleep(0)
        return t

    t = asyncio.run(go())
    assert t.writes == [[b"one"]]
    assert t.closed == [(1008, "too slow: reconnect and resync")]


def test_a_backlog_at_the_limit_is_kept_and_a_gone_connection_is_not_an_error() -> None:
    async def go() -> Transport:
        t = Transport(backlog=MAX_OUTBOX_BYTES)
        s = _session(t)
        s.push(b"one", {})
        await asyncio.sleep(0)
        t.backlog = None  # the connection is closing: the writer says so
        s.push(b"two", {})
        await asyncio.sleep(0)
        return t

    t = asyncio.run(go())
    assert t.writes == [[b"one"], [b"two"]] and t.closed == []


def test_without_a_frames_writer_a_writer_task_sends_each_message_in_order() -> None:
    async def go() -> Transport:
        t = Transport()
        s = _session(t, frames=False)

        async def nothing() -> Any:
            await asyncio.sleep(0.05)
            return
            yield b""

        run = asyncio.get_running_loop().create_task(s.run(nothing()))
        await asyncio.sleep(0)
        for m in (b"a", b"b", b"c"):
            s.push(m, {})
        await asyncio.sleep(0.01)
        await run
        return t

    t = asyncio.run(go())
    assert t.sent == [b"a", b"b", b"c"] and t.writes == []


def test_graceful_close_writes_what_is_queued_then_closes() -> None:
    async def go() -> Transport:
        t = Transport()
        s = _session(t)
        s.push(b"last update", {})
        await s.close_gracefully(1001, "bye")
        s.push(b"too late", {})
        await asyncio.sleep(0)
        return t

    t = asyncio.run(go())
    assert t.writes == [[b"last update"]] and t.closed == [(1001, "bye")]


def test_websocket_sessions_under_serve_write_frames_through_the_push_extension(server: Running) -> None:
    table = create(server, "race", seats=2, timeout=600)["table"]
    token = join(server, table, "p1")["token"]

    async def writers() -> list[bool]:
        return [s._write is not None for s in server.hub.sessions]

    async def go() -> tuple[list[dict[str, Any]], list[bool]]:
        c = await Client.ws(server)
        await c.send(type="hello", table=table, token=token)
        got = [await c.recv()]
        await c.send(type="ping")
        got.append(await c.recv())
        return got, await asyncio.to_thread(server.call, writers())

    got, frames_writers = asyncio.run(go())
    assert [m["type"] for m in got] == ["welcome", "pong"]
    assert frames_writers == [True]


def test_a_pushed_frame_is_the_frame_websockets_would_make() -> None:
    """``text_frame`` is websockets' own unmasked text frame, at every length encoding's edges."""
    from websockets.frames import Frame, Opcode

    from hiddenrole.server.pushws import text_frame

    for n in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        payload = bytes(ord("a") + i % 26 for i in range(n))
        assert b"".join(text_frame(payload)) == Frame(Opcode.TEXT, payload).serialize(mask=False), n


def _burst(server: Running, n: int) -> list[dict[str, Any]]:
    """Hello, then ``n`` pings sent at once (more than the inbox holds before it pauses reading)."""
    table = create(server, "race", seats=2, timeout=600)["table"]
    token = join(server, table, "p1")["token"]

    async def go() -> list[dict[str, Any]]:
        c = await Client.ws(server)
        await c.send(type="hello", table=table, token=token)
        got = [await c.recv()]
        for _ in range(n):
            await c.send(type="ping")
        got += [await c.recv() for _ in range(n)]
        await c.send(type="view")
        got.append(await c.recv())
        await c.close()
        return got

    return asyncio.run(go())


@pytest.mark.parametrize("inbox", [True, False], ids=["protocol-inbox", "plain-asgi"])
def test_a_burst_of_messages_is_read_in_order_with_or_without_the_inbox(
    server: Running, monkeypatch: pytest.MonkeyPatch, inbox: bool
) -> None:
    """Under ``serve`` a session reads the protocol's inbox (no ASGI receive); without the extension's
    reader, through Starlette's ``receive``. Either way every message is answered, in order, and
    reading resumes after the inbox paused it."""
    from hiddenrole.server import pushws

    opened: list[bool] = []
    real = pushws.PushWebSocketProtocol.messages

    def counting(self: pushws.PushWebSocketProtocol) -> Any:
        opened.append(True)
        return real(self)

    monkeypatch.setattr(pushws.PushWebSocketProtocol, "messages", counting)
    if not inbox:
        monkeypatch.setattr("hiddenrole.server.app.push_messages", lambda scope: None)
    n = 3 * pushws.INBOX_PAUSE
    got = _burst(server, n)
    assert [m["type"] for m in got] == ["welcome", *["pong"] * n, "view"]
    assert opened == ([True] if inbox else [])
