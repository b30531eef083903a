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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["PUSH_EXTENSION", "PushWebSocketProtocol", "Write", "push_writer"]

PUSH_EXTENSION = "hiddenrole.push"

Write = Callable[[Sequence[bytes]], "int | None"]
"""Write text frames in order, at once; the transport's backlog in bytes, or ``None`` if the connection is done."""


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
        if self.conn.state.name != "OPEN":  # the client began closing: websockets would refuse to send
            return None
        for p in payloads:
            self.conn.send_text(p)
        self.transport.write(b"".join(self.conn.data_to_send()))
        return int(self.transport.get_write_buffer_size())


def push_writer(scope: Any) -> Write | None:
    """The scope's push extension, if the server offers it."""
    ext = scope.get("extensions") or {}
    found = ext.get(PUSH_EXTENSION)
    return None if found is None else found["write"]
