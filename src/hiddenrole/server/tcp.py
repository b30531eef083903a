"""The reference TCP protocol: one JSON object per line, both ways; playable with ``nc``.

The messages and their meaning are the WebSocket protocol's (docs/PROTOCOL.md): the
same :class:`~hiddenrole.server.session.Session` handles both.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

from . import wire
from .limits import MAX_FRAME_BYTES
from .rooms import Hub
from .session import Session

__all__ = ["serve_tcp"]


async def serve_tcp(hub: Hub, host: str, port: int) -> asyncio.Server:
    """Listen on ``host:port``; each connection is a session."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async def send(data: bytes) -> None:
            writer.write(data + b"\n")
            await writer.drain()

        async def close(code: int, reason: str) -> None:
            with contextlib.suppress(Exception):
                writer.write(wire.encode({"type": "bye", "code": code, "reason": reason}) + b"\n")
                await writer.drain()
                writer.close()

        async def lines() -> AsyncIterator[bytes | str]:
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    if exc.partial.strip():
                        yield exc.partial
                    return
                except asyncio.LimitOverrunError:
                    # Too long: say so, then skip to the end of that line and go on.
                    await send(wire.encode(wire.error(wire.TOO_LARGE, f"a line is at most {MAX_FRAME_BYTES} bytes")))
                    while True:
                        try:
                            await reader.readuntil(b"\n")
                            break
                        except asyncio.LimitOverrunError as again:
                            await reader.readexactly(again.consumed)
                        except asyncio.IncompleteReadError:
                            return
                    continue
                except (ConnectionError, OSError):
                    return
                if line.strip():
                    yield line

        def write(frames: Sequence[bytes]) -> int | None:
            """The session's queued lines, in one write (their backlog, or ``None`` once closing)."""
            if writer.is_closing():
                return None
            writer.write(b"\n".join(frames) + b"\n")
            return writer.transport.get_write_buffer_size()

        session = Session(hub, send, close, write)
        try:
            await session.run(lines())
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    return await asyncio.start_server(handle, host, port, limit=MAX_FRAME_BYTES + 1)
