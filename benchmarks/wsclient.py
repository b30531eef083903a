"""A minimal asyncio WebSocket client (RFC 6455, client side) for the load benchmark's seats.

Why not ``websockets``: ``server_load.py`` runs its 450 seat clients on the same 2-core machine as
the server it measures, so every CPU-second they spend is taken from the server. In the clients'
profile the ``websockets`` library was about half of their CPU (its frame reader, its asyncio
protocol and a task per connection). This client does only what the seats need, each frame read
straight from the buffer in ``data_received``, with no task per connection and at most one future
per awaited message:

- the HTTP/1.1 Upgrade handshake, checking the server's ``Sec-WebSocket-Accept``;
- text frames out, masked with a fresh random key each (RFC 6455 5.3: a client masks every frame);
- unmasked, unfragmented text (and binary) frames in; ping answered by pong; the close handshake.

What it does not support it refuses loudly (:class:`ProtocolError`) instead of misreading: a
fragmented message, a reserved bit (no extension is negotiated), a masked server frame, a message
past ``max_size``. It is a benchmark tool, not part of the package: the server's own tests talk to
the server through ``websockets``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import struct
from collections import deque
from typing import Final, cast
from urllib.parse import urlsplit

__all__ = ["Closed", "ProtocolError", "WebSocket", "accept_key", "connect", "encode_frame", "mask"]

_GUID: Final = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""The fixed key suffix of RFC 6455, 1.3 (the server proves it read the request's key)."""
OP_CONT: Final = 0x0
OP_TEXT: Final = 0x1
OP_BINARY: Final = 0x2
OP_CLOSE: Final = 0x8
OP_PING: Final = 0x9
OP_PONG: Final = 0xA
MAX_HANDSHAKE_BYTES: Final = 16384
"""The longest handshake response read before giving up (a server's is a few hundred bytes)."""
CLOSE_TIMEOUT: Final = 5.0
"""Seconds :meth:`WebSocket.close` waits for the server's close frame before dropping the connection."""
_SHORT = struct.Struct("!H")
_LONG = struct.Struct("!Q")


class Closed(Exception):
    """The connection is closed (by either side, or lost): nothing more can be sent or received."""


class ProtocolError(Exception):
    """The server sent something this client does not support or RFC 6455 forbids."""


def accept_key(key: bytes) -> bytes:
    """The ``Sec-WebSocket-Accept`` value a server must answer to the request's ``key``."""
    return base64.b64encode(hashlib.sha1(key + _GUID).digest())


def mask(data: bytes, key: bytes) -> bytes:
    """``data`` XOR the 4-byte ``key`` repeated (masking and unmasking are the same), as one big-int XOR."""
    n = len(data)
    if n == 0:
        return b""
    stream = (key * ((n + 3) // 4))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(stream, "little")).to_bytes(n, "little")


def encode_frame(opcode: int, payload: bytes, key: bytes) -> bytes:
    """A whole (FIN) client frame: header, the masking ``key``, the masked payload."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + _SHORT.pack(n)
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + _LONG.pack(n)
    return head + key + mask(payload, key)


class WebSocket(asyncio.Protocol):
    """One client connection; made by :func:`connect`. ``send``/``recv``/``close`` as ``websockets`` spells them."""

    def __init__(self, key: bytes, max_size: int) -> None:
        self._key = key
        self._max_size = max_size
        self._buf = bytearray()
        self._handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._messages: deque[str | bytes] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._transport: asyncio.Transport | None = None
        self._open = False
        self._closed = False
        self._close_sent = False
        self._close_seen: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None
        self.close_reason = ""

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # (uvloop's transports are not its subclasses)

    def data_received(self, data: bytes) -> None:
        self._buf += data
        try:
            if not self._open and not self._read_handshake():
                return
            self._read_frames()
        except ProtocolError as err:
            self._fail(err)

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        if not self._handshake.done():
            self._handshake.set_exception(Closed("the connection closed during the handshake"))
        if not self._close_seen.done():
            self._close_seen.set_result(None)
        self._wake()

    # -- reading

    def _read_handshake(self) -> bool:
        end = self._buf.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buf) > MAX_HANDSHAKE_BYTES:
                raise ProtocolError("the handshake response is too long")
            return False
        head = bytes(self._buf[:end]).decode("latin-1").split("\r\n")
        del self._buf[: end + 4]
        status = head[0].split(" ", 2)
        if len(status) < 2 or status[1] != "101":
            raise ProtocolError(f"the server refused the upgrade: {head[0]!r}")
        fields = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        if fields.get("upgrade", "").lower() != "websocket":
            raise ProtocolError("the response does not upgrade to websocket")
        if fields.get("sec-websocket-accept", "").encode() != accept_key(self._key):
            raise ProtocolError("the server's Sec-WebSocket-Accept does not match the key")
        if fields.get("sec-websocket-extensions"):
            raise ProtocolError("the server negotiated an extension this client did not offer")
        self._open = True
        self._handshake.set_result(None)
        return True

    def _read_frames(self) -> None:
        buf = self._buf
        got = False
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            if b0 & 0x70:
                raise ProtocolError("a reserved bit is set (no extension was negotiated)")
            if b1 & 0x80:
                raise ProtocolError("a server frame is masked (RFC 6455 5.1 forbids it)")
            n = b1 & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n = _SHORT.unpack_from(buf, 2)[0]
                at = 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n = _LONG.unpack_from(buf, 2)[0]
                at = 10
            if n > self._max_size:
                raise ProtocolError(f"a {n}-byte message is past the {self._max_size}-byte limit")
            if len(buf) < at + n:
                break
            payload = bytes(buf[at : at + n])
            del buf[: at + n]
            op = b0 & 0x0F
            if not b0 & 0x80 or op == OP_CONT:
                raise ProtocolError("fragmented messages are not supported")
            if op == OP_TEXT:
                self._messages.append(payload.decode())
                got = True
            elif op == OP_BINARY:
                self._messages.append(payload)
                got = True
            elif op == OP_PING:
                self._write(OP_PONG, payload)
            elif op == OP_CLOSE:
                self._on_close(payload)
                return
            elif op != OP_PONG:
                raise ProtocolError(f"unknown opcode {op}")
        if got:
            self._wake()

    def _on_close(self, payload: bytes) -> None:
        if len(payload) >= 2:
            self.close_code = _SHORT.unpack_from(payload)[0]
            self.close_reason = payload[2:].decode(errors="replace")
        if not self._close_sent:  # the server began it: answer, then the server closes TCP
            self._write(OP_CLOSE, payload[:2])
        self._finish(abort=False)

    def _fail(self, err: ProtocolError) -> None:
        """A protocol error: close with 1002 and make every waiter raise ``err``'s message as :class:`Closed`."""
        self.close_reason = str(err)
        if self._open and not self._close_sent:
            with contextlib.suppress(Closed):
                self._write(OP_CLOSE, _SHORT.pack(1002))
        if not self._handshake.done():
            self._handshake.set_exception(err)
        self._finish(abort=True)

    def _finish(self, *, abort: bool) -> None:
        """The connection is over: nothing more is read, waiters are woken, the socket is closed
        (``abort``: at once, dropping what is unsent, after a protocol error)."""
        self._closed = True
        if not self._close_seen.done():
            self._close_seen.set_result(None)
        if self._transport is not None:
            if abort:
                self._transport.abort()
            else:
                self._transport.close()
        self._wake()

    def _wake(self) -> None:
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    # -- the seats' API

    def _write(self, opcode: int, payload: bytes) -> None:
        if self._transport is None or self._transport.is_closing():
            raise Closed("the connection is closed")
        if opcode == OP_CLOSE:
            self._close_sent = True
        self._transport.write(encode_frame(opcode, payload, os.urandom(4)))

    async def send(self, text: str) -> None:
        """Send one text message (async only to be called as ``websockets`` is; it never waits)."""
        if self._closed or self._close_sent:
            raise Closed("the connection is closed")
        self._write(OP_TEXT, text.encode())

    async def recv(self) -> str | bytes:
        """The next message, in order; :class:`Closed` once the connection is closed and nothing is left."""
        while not self._messages:
            if self._closed:
                raise Closed(self.close_reason or f"closed ({self.close_code})")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._messages.popleft()

    async def close(self, code: int = 1000) -> None:
        """The close handshake: send a close frame, wait (bounded) for the server's, drop the connection."""
        if not self._closed and not self._close_sent and self._transport is not None:
            self._write(OP_CLOSE, _SHORT.pack(code))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._close_seen), CLOSE_TIMEOUT)
        if self._transport is not None:
            self._transport.close()
        self._closed = True


async def connect(url: str, *, max_size: int = 2**20, open_timeout: float = 10.0) -> WebSocket:
    """Open ``ws://host:port/path`` and complete the handshake (``wss`` is not supported)."""
    parts = urlsplit(url)
    hostname = parts.hostname
    if parts.scheme != "ws" or hostname is None:
        raise ValueError(f"only ws:// URLs are supported, not {url!r}")
    port = parts.port or 80
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16))
    loop = asyncio.get_running_loop()

    async def opened() -> WebSocket:
        _, ws = await loop.create_connection(lambda: WebSocket(key, max_size), hostname, port)
        assert ws._transport is not None
        host = hostname if port == 80 else f"{hostname}:{port}"
        ws._transport.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await ws._handshake
        return ws

    return await asyncio.wait_for(opened(), open_timeout)
