"""Typed errors of the host layer, each with a stable code.

They extend the kernel's :class:`hiddenrole.GameError`, so a host catches one base
class for both layers and sends ``err.code`` and ``err.message`` to the seat whose
move was refused. Two families matter: a *refusal* is the player's (or client's)
problem and leaves the table unchanged; :class:`InvalidGame` is the game author's
problem (a definition or hook that does not hold together).
"""

from __future__ import annotations

import hiddenrole as hr

__all__ = [
    "InvalidGame",
    "InvalidOptions",
    "InvalidPreferences",
    "InvalidSeats",
    "SeatNotFound",
    "InvalidMove",
    "MoveRefused",
    "StaleMove",
    "UndoRefused",
    "TooManyTargets",
    "ChatLimitReached",
    "InvalidTableLog",
    "LogMismatch",
    "HOST_ERROR_CODES",
    "error_for_code",
]


class InvalidGame(hr.GameError):
    """A game definition, or what one of its hooks returned, does not hold together."""

    code = "INVALID_GAME"


class InvalidOptions(hr.GameError):
    """A table option is unknown or has a value the game does not allow.

    ``option`` names the culprit (``""`` when the options as a whole are malformed).
    """

    code = "INVALID_OPTIONS"

    def __init__(self, message: str = "", option: str = "") -> None:
        super().__init__(message)
        self.option = option


class InvalidPreferences(InvalidOptions):
    """A player preference is unknown or has a value the game does not allow."""

    code = "INVALID_PREFERENCES"


class InvalidSeats(hr.GameError):
    """Too few or too many seats for the game, or a seat name that cannot be used."""

    code = "INVALID_SEATS"


class SeatNotFound(hr.PlayerNotFound):
    """The move names a seat that is not at this table."""

    code = "SEAT_NOT_FOUND"


class InvalidMove(hr.GameError):
    """The move itself is malformed: an unknown kind, a missing skill, a bad payload."""

    code = "INVALID_MOVE"


class MoveRefused(hr.GameError):
    """The table or the game refuses this move now (e.g. only the host ends a phase)."""

    code = "MOVE_REFUSED"


class StaleMove(hr.GameError):
    """The move was made against an older version than the mover's (optimistic concurrency).

    A seat's move is checked against that seat's own view version, a host move
    against the table's sequence number. The client should re-read and decide again.
    """

    code = "STALE_MOVE"

    def __init__(self, message: str = "", expected: int = 0, current: int = 0) -> None:
        super().__init__(message)
        self.expected = expected
        self.current = current


class UndoRefused(hr.GameError):
    """Undo is not allowed here: the game forbids it, nothing is left, chance was drawn, ..."""

    code = "UNDO_REFUSED"


class TooManyTargets(InvalidMove):
    """An act names more targets than any table allows (``MAX_TARGETS``); refused before it is read."""

    code = "TOO_MANY_TARGETS"


class ChatLimitReached(MoveRefused):
    """The seat has said ``MAX_SAYS_PER_PHASE`` lines in this phase already; it may speak again next phase."""

    code = "CHAT_LIMIT"


class InvalidTableLog(hr.InvalidLog):
    """A table log that cannot be read or replayed."""

    code = "INVALID_TABLE_LOG"


class LogMismatch(InvalidTableLog):
    """Replaying the log does not reach the end it records."""

    code = "LOG_MISMATCH"


def _codes() -> dict[str, type[hr.GameError]]:
    table: dict[str, type[hr.GameError]] = {}
    for name in __all__:
        obj = globals().get(name)
        if isinstance(obj, type) and issubclass(obj, hr.GameError):
            table[obj.code] = obj
    return dict(sorted(table.items()))


HOST_ERROR_CODES: dict[str, type[hr.GameError]] = _codes()
"""Every host code mapped to its class (the kernel's are in ``hiddenrole.ERROR_CODES``)."""


def error_for_code(code: str, message: str = "") -> hr.GameError:
    """Rebuild a typed error of either layer from its code (e.g. one received over the wire)."""
    cls = HOST_ERROR_CODES.get(code)
    if cls is None:
        return hr.error_for_code(code, message)
    return cls(message)
