"""What clients send, as typed messages (msgspec), and how a bad one is answered.

Every message is one JSON object with a ``type``. Decoding checks shape, types and
sizes before anything reaches a table; a message that fails gets a typed ``error``
back and the connection stays open.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

from .limits import MAX_ID_CHARS, MAX_TARGETS, MAX_TEXT_CHARS, MAX_TOKEN_CHARS

__all__ = [
    "Hello",
    "MoveMsg",
    "ViewReq",
    "Ping",
    "ClientMessage",
    "WireError",
    "decode",
    "encode",
    "error",
    "BAD_MESSAGE",
    "MALFORMED",
    "TOO_LARGE",
    "RATE_LIMITED",
    "UNAUTHORIZED",
    "NOT_JOINED",
    "NO_SPECTATORS",
    "TABLE_NOT_FOUND",
    "TABLE_PAUSED",
    "TABLE_NOT_STARTED",
    "TABLE_NOT_OVER",
    "FORBIDDEN_ORIGIN",
    "SEAT_TAKEN",
    "SPECTATOR_CANNOT_ACT",
    "INTERNAL",
    "SHUTTING_DOWN",
]

BAD_MESSAGE: Final = "BAD_MESSAGE"
"""Valid JSON of the wrong shape (unknown type, missing or extra field, wrong type, too long)."""
MALFORMED: Final = "MALFORMED"
"""Not JSON, or not UTF-8."""
TOO_LARGE: Final = "TOO_LARGE"
RATE_LIMITED: Final = "RATE_LIMITED"
UNAUTHORIZED: Final = "UNAUTHORIZED"
"""No such table, or the token is not this table's seat (or host) token: the two are not told apart."""
NOT_JOINED: Final = "NOT_JOINED"
NO_SPECTATORS: Final = "NO_SPECTATORS"
TABLE_NOT_FOUND: Final = "TABLE_NOT_FOUND"
TABLE_PAUSED: Final = "TABLE_PAUSED"
TABLE_NOT_STARTED: Final = "TABLE_NOT_STARTED"
TABLE_NOT_OVER: Final = "TABLE_NOT_OVER"
FORBIDDEN_ORIGIN: Final = "FORBIDDEN_ORIGIN"
SEAT_TAKEN: Final = "SEAT_TAKEN"
SPECTATOR_CANNOT_ACT: Final = "SPECTATOR_CANNOT_ACT"
INTERNAL: Final = "INTERNAL"
SHUTTING_DOWN: Final = "SHUTTING_DOWN"
"""The server is shutting down: the message was not handled (reconnect, then send it again)."""

MoveId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS)]
Version = Annotated[int, msgspec.Meta(ge=0)]


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    """First message on a connection: a seat token, or ``spectate`` for the public view.

    ``since``: the last version this client saw (a reconnect); the answer carries what came after.
    ``views``: also push the full view with every update (simple clients; it grows with the game).
    ``board``: push, with an update, the view without its history (``events`` and ``chat``, which
    the update itself carries) whenever it differs from the last one this connection was sent.
    """

    table: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
    token: Annotated[str, msgspec.Meta(max_length=MAX_TOKEN_CHARS)] = ""
    spectate: bool = False
    since: Version | None = None
    views: bool = False
    board: bool = False


class MoveMsg(msgspec.Struct, tag="move", tag_field="type", forbid_unknown_fields=True):
    """A move for the connection's seat, made against the seat's ``against`` version."""

    id: MoveId
    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    against: Version | None = None
    skill: Annotated[str, msgspec.Meta(max_length=MAX_ID_CHARS)] = ""
    targets: Annotated[list[Name], msgspec.Meta(max_length=MAX_TARGETS)] = msgspec.field(default_factory=list)
    text: Annotated[str, msgspec.Meta(max_length=MAX_TEXT_CHARS)] = ""


class ViewReq(msgspec.Struct, tag="view", tag_field="type", forbid_unknown_fields=True):
    """Ask for the seat's current view."""


class Ping(msgspec.Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    """Keep-alive; answered with ``pong``."""


ClientMessage = Hello | MoveMsg | ViewReq | Ping

_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


class WireError(Exception):
    """A message refused before it reached a table: ``code`` and ``message`` go back to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(raw: bytes | str) -> ClientMessage:
    """The typed message, or :class:`WireError` (``MALFORMED`` / ``BAD_MESSAGE``)."""
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise WireError(BAD_MESSAGE, str(exc)) from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise WireError(MALFORMED, "not a JSON object") from None


def encode(message: dict[str, Any]) -> bytes:
    return _encoder.encode(message)


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}
