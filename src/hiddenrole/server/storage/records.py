"""What the store hands back: frozen records, plus the statuses and limits of what it accepts.

JSON documents (a table's header and settings, each move) are stored as compact text
and handed back as fresh ``dict`` objects; the store never looks inside a move.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "OPEN",
    "PLAYING",
    "PAUSED",
    "FINISHED",
    "STATUSES",
    "ARMED_STATUSES",
    "MAX_ID_LENGTH",
    "MAX_TOKEN_LENGTH",
    "MAX_MOVE_BYTES",
    "MAX_HEADER_BYTES",
    "MAX_SETTINGS_BYTES",
    "MAX_SEATS",
    "Keep",
    "KEEP",
    "TableInfo",
    "SeatRecord",
    "StoredMove",
    "StoredTable",
    "Appended",
]

OPEN: Final = "open"
"""Waiting for players to take seats."""
PLAYING: Final = "playing"
PAUSED: Final = "paused"
"""Stopped by the host: its deadline is not armed."""
FINISHED: Final = "finished"
"""Over: its full log may be shown."""
STATUSES: Final = frozenset({OPEN, PLAYING, PAUSED, FINISHED})
ARMED_STATUSES: Final = (OPEN, PLAYING)
"""Statuses whose deadline runs (and is re-armed after a restart)."""

MAX_ID_LENGTH: Final = 64
"""Longest table id, seat name or client move id."""
MAX_TOKEN_LENGTH: Final = 128
"""A presented token longer than this is refused unhashed."""
MAX_MOVE_BYTES: Final = 16 * 1024
"""Largest move, as compact JSON (a chat line is at most 2000 characters)."""
MAX_HEADER_BYTES: Final = 256 * 1024
MAX_SETTINGS_BYTES: Final = 16 * 1024
MAX_SEATS: Final = 64


class Keep(enum.Enum):
    """Type of :data:`KEEP`: "leave this field as it is" where ``None`` already means "clear it"."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One table's row: everything but its header and moves. ``seq`` is its last move's number (0 before any)."""

    id: str
    game: str
    rules_version: str
    status: str
    deadline: float | None
    created: float
    seq: int
    settings: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat: ``taken`` when a player holds a token for it, ``bot`` when a server-side bot plays it."""

    seat: str
    taken: bool
    bot: bool

    @property
    def free(self) -> bool:
        return not self.taken and not self.bot


@dataclass(frozen=True, slots=True)
class StoredMove:
    """A committed move. ``seat`` is ``None`` for the host's own moves (end-phase on a timer)."""

    seq: int
    move: dict[str, Any]
    seat: str | None
    client_move_id: str | None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its row, header, seats in order, and every move in sequence order."""

    info: TableInfo
    header: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    moves: tuple[StoredMove, ...]


@dataclass(frozen=True, slots=True)
class Appended:
    """The answer to an append: the move's number, and whether it was already stored under that client move id.

    On a duplicate, ``seq`` and ``move`` are the first attempt's, so a retry gets the first result.
    """

    seq: int
    duplicate: bool
    move: dict[str, Any]
