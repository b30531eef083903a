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

import struct
from collections.abc import Callable, Sequence
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["PUSH_EXTENSION", "PushWebSocketProtocol", "Write", "push_writer", "text_frame"]

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


class PushWebSocketProtocol(WebSocketsSansIOProtocol):
    """``ws="websockets-sansio"`` with the push extension in every WebSocket scope."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][PUSH_EXTENSION] = {"write": self.write_frames}

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


def push_writer(scope: Any) -> Write | None:
    """The scope's push extension, if the server offers it."""
    ext = scope.get("extensions") or {}
    found = ext.get(PUSH_EXTENSION)
    return None if found is None else found["write"]
