"""uvicorn's WebSocket protocol, plus one ASGI extension: write several text frames at once, synchronously.

Through ASGI, every pushed message is its own ``await send(...)`` (Starlette, then uvicorn,
then one ``transport.write``), and a session needed a writer task woken once per message.
Under the load benchmark those writes were about a quarter of the event loop's time: on
loopback each ``write`` runs the receiver's side of TCP and wakes the client. The
extension lets a session hand the frames it queued during one turn of the event loop to
the transport in one ``write``, from the room's own call, with no task in between.

The frames, their bytes and their order are exactly what the ASGI path would send; only
how many frames share one ``write`` differs, and a WebSocket client never sees that (it
reads frames, not TCP segments).

The extension is offered in the scope as ``scope["extensions"][PUSH_EXTENSION]["write"]``:
``write(payloads) -> int | None`` frames each payload (UTF-8 JSON) as a text frame, writes
them all, and returns the bytes the transport still holds (the session closes a client whose
backlog grows past ``MAX_OUTBOX_BYTES``), or ``None`` when the connection can take no more
frames (closing or gone). A server without it is served through plain ASGI sends.

A pushed frame is framed here (:func:`text_frame`), not by websockets' ``send_text``: a
server's text frame is a fixed header and the payload (no mask, no extension: pushes are
sent without permessage-deflate), and websockets built each through a ``Frame``, checks, a
``BytesIO`` and a ``struct`` call, about a third of a push's framing and queueing time in
the server's profile. When the connection negotiated an extension, or websockets logs its
frames (debug), the frames go through ``send_text`` as before.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["PUSH_EXTENSION", "PushWebSocketProtocol", "Write", "push_messages", "push_writer", "text_frame"]

PUSH_EXTENSION = "hiddenrole.push"

Write = Callable[[Sequence[bytes]], "int | None"]
"""Write text frames in order, at once; the transport's backlog in bytes, or ``None`` if the connection is done."""


_TEXT_FIN: Final = 0x81
"""The first header byte of a whole text frame: FIN, no RSV bit, opcode 1 (RFC 6455, 5.2)."""
_MID = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")


def text_frame(payload: bytes) -> list[bytes]:
    """A server's unmasked, unfragmented text frame of ``payload``: its header, then the payload itself.

    The very bytes websockets' ``Frame(OP_TEXT, payload).serialize(mask=False)`` makes (the
    push tests compare them), as two pieces, so the payload is copied once, into the write.
    """
    n = len(payload)
    if n < 126:
        return [bytes((_TEXT_FIN, n)), payload]
    if n < 65536:
        return [_MID.pack(_TEXT_FIN, 126, n), payload]
    return [_LONG.pack(_TEXT_FIN, 127, n), payload]


INBOX_PAUSE: Final = 8
"""Client messages the inbox holds before the protocol stops reading the socket (ASGI holds one)."""


class _Queue(asyncio.Queue[Any]):
    """uvicorn's ASGI receive queue, which also tells the protocol's inbox when the client is gone.

    uvicorn queues ``websocket.disconnect`` from many places (a close frame, a lost connection,
    a parser error, shutdown); watching the queue catches every one of them in one place.
    """

    def __init__(self, proto: PushWebSocketProtocol) -> None:
        super().__init__()
        self._proto = proto

    def put_nowait(self, item: Any) -> None:
        super().put_nowait(item)
        if item.get("type") == "websocket.disconnect":
            self._proto._gone = True
            self._proto._wake_inbox()


class PushWebSocketProtocol(WebSocketsSansIOProtocol):
    """``ws="websockets-sansio"`` with the push extension in every WebSocket scope."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Queue(self)
        self._inbox: deque[str | bytes] | None = None
        """Client messages not yet read, once the app reads them here (``messages``) instead of through ASGI."""
        self._inbox_waiter: asyncio.Future[None] | None = None
        self._gone = False
        """uvicorn queued ``websocket.disconnect``: the client's messages end after those already received."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][PUSH_EXTENSION] = {"write": self.write_frames, "messages": self.messages}

    # ------------------------------------------------------------------ receiving

    def send_receive_event_to_app(self) -> None:
        """A whole client message: into the inbox once the app reads there (else uvicorn's ASGI queue).

        As uvicorn does: a message after the server's close is dropped, and a text message that is
        not UTF-8 closes the connection with 1007.
        """
        inbox = self._inbox
        if inbox is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return
        msg: str | bytes = data
        if self.curr_msg_data_type == "text":
            try:
                msg = data.decode()
            except UnicodeDecodeError:
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        inbox.append(msg)
        if len(inbox) >= INBOX_PAUSE and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
        self._wake_inbox()

    def _wake_inbox(self) -> None:
        waiter = self._inbox_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def messages(self) -> AsyncIterator[str | bytes]:
        """The client's messages, in order, until it disconnects: ASGI's ``websocket.receive`` without
        the queue, Starlette and the ASGI receive in between (the app has accepted the connection).

        Only the path differs: the same messages, in the same order, under the same size limit
        (websockets' parser enforces ``ws_max_size``); reading pauses while ``INBOX_PAUSE`` wait.
        """
        inbox = self._inbox = deque()
        while not self.queue.empty():  # what uvicorn queued before the switch comes first
            item = self.queue.get_nowait()
            if item["type"] == "websocket.receive":
                text: str | None = item.get("text")
                inbox.append(text if text is not None else item.get("bytes") or b"")
        loop = asyncio.get_running_loop()
        while True:
            while inbox:
                msg = inbox.popleft()
                if self.read_paused and len(inbox) < INBOX_PAUSE and not self._gone:
                    self.read_paused = False
                    self.transport.resume_reading()
                yield msg
            if self._gone:
                return
            if self.read_paused:  # (uvicorn pauses after each message it queues for ASGI)
                self.read_paused = False
                self.transport.resume_reading()
            waiter = self._inbox_waiter = loop.create_future()
            await waiter
            self._inbox_waiter = None

    def write_frames(self, payloads: Sequence[bytes]) -> int | None:
        """Frame and write ``payloads`` (the ASGI ``websocket.send`` of each, in one transport write)."""
        if not self.handshake_complete or self.close_sent or self.disconnected or self.transport.is_closing():
            return None
        conn = self.conn
        if conn.state.name != "OPEN":  # the client began closing: websockets would refuse to send
            return None
        if conn.extensions or conn.debug or conn.expect_continuation_frame:
            for p in payloads:
                conn.send_text(p)
            out = conn.data_to_send()
        else:
            out = conn.data_to_send()  # what websockets queued first (a pong, say) leaves first, as before
            for p in payloads:
                out += text_frame(p)
        self.transport.write(b"".join(out))
        return int(self.transport.get_write_buffer_size())


def _extension(scope: Any) -> dict[str, Any] | None:
    """The scope's push extension, if the server offers it."""
    found: dict[str, Any] | None = (scope.get("extensions") or {}).get(PUSH_EXTENSION)
    return found


def push_writer(scope: Any) -> Write | None:
    """The push extension's writer of frames, if the server offers it."""
    found = _extension(scope)
    return None if found is None else found["write"]


def push_messages(scope: Any) -> Callable[[], AsyncIterator[str | bytes]] | None:
    """The push extension's reader of the client's messages (after ``accept``), if the server offers it."""
    found = _extension(scope)
    return None if found is None else found.get("messages")
