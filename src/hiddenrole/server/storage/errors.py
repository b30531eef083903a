"""Typed errors of the storage layer, each with a stable code.

They extend :class:`hiddenrole.GameError` like the host's errors, so the server
catches one base class and can send ``err.code`` to a client. :class:`Conflict`
is the one the server must handle: another writer committed that sequence number
first, and the loser rebuilds from the log (``current`` says how far it is).
"""

from __future__ import annotations

import hiddenrole as hr

__all__ = ["StorageError", "Conflict", "TableNotFound", "TableExists", "SeatUnavailable", "InvalidRecord"]


class StorageError(hr.GameError):
    """The database could not be reached or answered something the store cannot use."""

    code = "STORAGE_ERROR"


class Conflict(StorageError):
    """Appending move ``seq`` lost the compare-and-set: the table is at ``current``, not ``seq - 1``."""

    code = "SEQ_CONFLICT"

    def __init__(self, message: str = "", table: str = "", seq: int = 0, current: int = 0) -> None:
        super().__init__(message or f"table {table!r} is at {current}; move {seq} was not appended")
        self.table = table
        self.seq = seq
        self.current = current


class TableNotFound(StorageError):
    """No table with that id is stored."""

    code = "TABLE_NOT_FOUND"


class TableExists(StorageError):
    """A table with that id is already stored."""

    code = "TABLE_EXISTS"


class SeatUnavailable(StorageError):
    """The seat does not exist at that table, or is taken (or there is no free seat left)."""

    code = "SEAT_UNAVAILABLE"


class InvalidRecord(StorageError):
    """A value handed to the store breaks a documented limit (an id, a JSON document, a status...)."""

    code = "INVALID_RECORD"
