"""One client connection, whatever carries it (WebSocket frames or TCP lines).

The transport hands raw messages in and takes encoded messages out; everything else
(hello and authentication, rate limits, validation, moves, views) happens here, so the
WebSocket and TCP protocols have exactly the same semantics.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from . import wire
from .limits import (
    HELLO_TIMEOUT,
    MAX_FRAME_BYTES,
    MAX_OUTBOX,
    MAX_OUTBOX_BYTES,
    MAX_STRIKES,
    RATE_BURST,
    RATE_PER_SECOND,
    SHUTDOWN_GRACE,
)
from .pushws import Write
from .rooms import Hub, Room
from .storage import TableNotFound

__all__ = ["Session", "RateLimit"]

_log = logging.getLogger("hiddenrole.server")


class RateLimit:
    """A token bucket: ``RATE_PER_SECOND`` on average, bursts of ``RATE_BURST``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Session:
    """Reads a client's messages, answers them, and carries what its room pushes.

    ``send`` writes one encoded message to the transport; ``close`` ends it with a reason.
    """

    def __init__(
        self,
        hub: Hub,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        write: Write | None = None,
    ) -> None:
        self.hub = hub
        self._send = send
        self._close = close
        self._write = write
        """Writes several frames at once, synchronously (``pushws``; TCP): messages queued in one
        turn of the event loop leave in one transport write. Without it, a writer task sends each."""
        self._pending: list[bytes] = []
        self._armed = False
        self._loop = asyncio.get_running_loop()
        self.reader: str | None = None
        self.wants_views = False
        self.wants_board = False
        self.board_sent: dict[str, Any] | None = None
        """The last board this connection was sent (a ``board`` update is sent only when it changes)."""
        self.room: Room | None = None
        self.spectator = False
        self.outbox: asyncio.Queue[bytes | tuple[int, str] | None] = asyncio.Queue(MAX_OUTBOX)
        self.limit = RateLimit()
        self.strikes = 0
        self.closing = False
        self.handling = False
        """A message is being answered (graceful shutdown waits for it)."""
        self._writer_task: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ pushing (called by the room)

    def push(self, data: bytes, message: dict[str, Any]) -> None:
        """Queue one encoded message; what is queued in this turn of the event loop leaves together."""
        if self.closing:
            return
        self._pending.append(data)
        if not self._armed:
            self._armed = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Hand the queued messages, in order, to the transport (one write) or to the writer task."""
        self._armed = False
        frames, self._pending = self._pending, []
        if not frames:
            return
        if self._write is not None:
            backlog = self._write(frames)
            if backlog is not None and backlog > MAX_OUTBOX_BYTES and not self.closing:
                self._drop_slow()
            return
        for data in frames:
            try:
                self.outbox.put_nowait(data)
            except asyncio.QueueFull:
                self._drop_slow()
                return

    async def _close_slow(self) -> None:
        await self._close(1008, "too slow: reconnect and resync")

    def _drop_slow(self) -> None:
        """A client this slow is closed (it reconnects and resyncs) rather than buffered without bound."""
        self.closing = True
        _log.info("slow client dropped", extra={"table": self.room.id if self.room else ""})
        if self._write is not None:
            self._closer = self._loop.create_task(self._close_slow())
            return
        self.outbox = asyncio.Queue(1)
        self.outbox.put_nowait(None)

    def reply(self, message: dict[str, Any]) -> None:
        self.push(wire.encode(message), message)

    async def _writer(self) -> None:
        while True:
            data = await self.outbox.get()
            if data is None:
                await self._close(1008, "too slow: reconnect and resync")
                return
            if isinstance(data, tuple):  # close, once everything queued before has been sent
                await self._close(*data)
                return
            await self._send(data)

    async def close_gracefully(self, code: int, reason: str, timeout: float = SHUTDOWN_GRACE) -> None:
        """Send everything already queued, then close with ``code`` and ``reason`` (graceful shutdown)."""
        if self.closing:
            return
        self.closing = True
        if self._write is not None:
            self._flush()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._close(code, reason), timeout)
            return
        writer = self._writer_task
        try:
            if writer is None or writer.done():
                raise asyncio.QueueFull
            self.outbox.put_nowait((code, reason))
            await asyncio.wait_for(asyncio.shield(writer), timeout)
        except (asyncio.QueueFull, TimeoutError):
            with contextlib.suppress(Exception):
                await self._close(code, reason)

    # ------------------------------------------------------------------ reading

    async def run(self, messages: AsyncIterator[bytes | str]) -> None:
        writer = None if self._write is not None else self._loop.create_task(self._writer())
        self._writer_task = writer
        self.hub.sessions.add(self)
        try:
            await self._read(messages)
        finally:
            self.hub.sessions.discard(self)
            if self.room is not None:
                self.room.detach(self)
            self._flush()
            if writer is not None:
                if not self.closing:
                    self.outbox.put_nowait(None) if self.outbox.empty() else None
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await writer

    async def _read(self, messages: AsyncIterator[bytes | str]) -> None:
        it = messages.__aiter__()
        hello_by = time.monotonic() + HELLO_TIMEOUT
        while not self.closing:
            try:
                if self.room is None:
                    raw = await asyncio.wait_for(it.__anext__(), max(0.0, hello_by - time.monotonic()))
                else:
                    raw = await it.__anext__()
            except (TimeoutError, StopAsyncIteration):
                return
            self.handling = True
            try:
                await self.handle(raw)
            finally:
                self.handling = False
            if self.strikes > MAX_STRIKES:
                await self.flush_and_close(1008, "too many refused messages")
                return

    async def flush_and_close(self, code: int, reason: str) -> None:
        self.closing = True
        self._flush()
        while not self.outbox.empty():
            data = self.outbox.get_nowait()
            if isinstance(data, bytes):
                await self._send(data)
        await self._close(code, reason)

    def _strike(self, code: str, message: str) -> None:
        self.strikes += 1
        self.reply(wire.error(code, message))

    async def handle(self, raw: bytes | str) -> None:
        if not self.limit.allow():
            self._strike(wire.RATE_LIMITED, f"more than {RATE_PER_SECOND:g} messages per second")
            return
        if len(raw) > MAX_FRAME_BYTES:
            self._strike(wire.TOO_LARGE, f"a message is at most {MAX_FRAME_BYTES} bytes")
            return
        try:
            msg = wire.decode(raw)
        except wire.WireError as exc:
            self._strike(exc.code, exc.message)
            return
        if self.hub.closing:
            self.reply(wire.error(wire.SHUTTING_DOWN, "the server is shutting down: reconnect and retry"))
            return
        try:
            if isinstance(msg, wire.Hello):
                await self._hello(msg)
            elif self.room is None:
                self._strike(wire.NOT_JOINED, "say hello with your table and token first")
            elif isinstance(msg, wire.Ping):
                self.reply({"type": "pong"})
            elif isinstance(msg, wire.ViewReq):
                self.reply(self.room.view_message(self.reader))
                if self.wants_board:
                    self.board_sent = self.room.game.board(self.reader)
            elif isinstance(msg, wire.MoveMsg):
                await self._move(msg)
        except wire.WireError as exc:
            self._strike(exc.code, exc.message)
        except Exception:
            _log.exception("message failed")
            self.reply(wire.error(wire.INTERNAL, "the server could not handle this message"))

    async def _hello(self, msg: wire.Hello) -> None:
        if self.room is not None:
            raise wire.WireError(wire.BAD_MESSAGE, "already joined; open another connection for another seat")
        try:
            room = await self.hub.room(msg.table)
        except TableNotFound:
            raise wire.WireError(wire.UNAUTHORIZED, "no such table, or not your token") from None
        if msg.spectate:
            if msg.token:
                raise wire.WireError(wire.BAD_MESSAGE, "spectate without a token")
            if not room.settings.spectators:
                raise wire.WireError(wire.NO_SPECTATORS, "this table does not allow spectators")
            seat = None
        else:
            found = await asyncio.to_thread(self.hub.store.seat_for_token, room.id, msg.token) if msg.token else None
            if found is None:
                raise wire.WireError(wire.UNAUTHORIZED, "no such table, or not your token")
            seat = found
        async with room.lock:
            try:
                welcome = room.welcome(_Probe(seat), msg.since)
            except Exception as exc:
                raise wire.WireError("STALE_MOVE", f"cannot resync from version {msg.since}") from exc
            self.reader = seat
            self.spectator = seat is None
            self.wants_views = msg.views
            self.wants_board = msg.board and not msg.views
            if self.wants_board:
                self.board_sent = room.game.board(seat)
            self.room = room
            self.reply(welcome)
            room.attach(self)

    async def _move(self, msg: wire.MoveMsg) -> None:
        assert self.room is not None
        if self.reader is None:
            self.reply(
                {
                    "type": "refused",
                    "id": msg.id,
                    "code": wire.SPECTATOR_CANNOT_ACT,
                    "message": "a spectator cannot move",
                    "version": self.room.game.version(None),
                }
            )
            return
        reply = await self.room.submit(self, self.reader, msg)
        if reply.get("duplicate") or reply["type"] == "refused":
            self.reply(reply)


class _Probe:
    """Stands for a connection while its welcome is built (before it is attached)."""

    wants_views = False
    wants_board = False
    board_sent: dict[str, Any] | None = None

    def __init__(self, reader: str | None) -> None:
        self.reader = reader

    def push(self, data: bytes, message: dict[str, Any]) -> None:  # pragma: no cover - never attached
        pass
