"""The one interface every storage backend implements.

Why a small synchronous interface: the server holds the truth of each table in its
log, and the store only has to keep that log safe, answer "is move N still free?"
atomically, and say when a table changed. Every method is thread-safe and blocks
until the database has answered; an asyncio server calls it through
``asyncio.to_thread`` (SQLite's calls take well under a millisecond plus the fsync).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from hiddenrole.host.publisher import Changed

from .records import KEEP, OPEN, Appended, Keep, SeatRecord, StoredMove, StoredTable, TableInfo

__all__ = ["Store", "Listener"]

Listener = Callable[[Changed], object]
"""Called with ``Changed(table, seq)`` on the store's notice thread after a change is committed."""


@runtime_checkable
class Store(Protocol):
    """Durable tables and their move logs (SQLite or PostgreSQL)."""

    @property
    def url(self) -> str:
        """Where the data lives (``sqlite:///path`` or the PostgreSQL URL without its password)."""
        ...

    @property
    def schema_version(self) -> int:
        """The schema version the database is at (migrations run when the store opens)."""
        ...

    def create_table(
        self,
        table_id: str,
        *,
        game: str,
        rules_version: str,
        header: Mapping[str, Any],
        seats: Sequence[str],
        bots: Collection[str] = (),
        settings: Mapping[str, Any] | None = None,
        status: str = OPEN,
        deadline: float | None = None,
    ) -> str:
        """Store a new table at seq 0 with the given seats (``bots`` among them); return its host token.

        The token is returned once and stored only as a hash. Raises :class:`TableExists`.
        """
        ...

    def load_table(self, table_id: str) -> StoredTable:
        """The table's row, header, seats and every move in order. Raises :class:`TableNotFound`."""
        ...

    def table_info(self, table_id: str) -> TableInfo:
        """The table's row alone (cheap). Raises :class:`TableNotFound`."""
        ...

    def moves(self, table_id: str, after: int = 0) -> tuple[StoredMove, ...]:
        """The moves numbered above ``after``, in order: what another process missed since ``after``."""
        ...

    def append_move(
        self,
        table_id: str,
        seq: int,
        move: Mapping[str, Any],
        *,
        seat: str | None = None,
        client_move_id: str | None = None,
        status: str | Keep = KEEP,
        deadline: float | Keep | None = KEEP,
    ) -> Appended:
        """Commit ``move`` as number ``seq`` if the table is at ``seq - 1`` (compare-and-set), durably.

        A ``client_move_id`` already stored for this table and seat returns the first
        result (``duplicate=True``) and stores nothing. ``status`` and ``deadline``, if
        given, change in the same transaction. Raises :class:`Conflict` (with
        ``current``) when another move holds that number, :class:`TableNotFound`.
        """
        ...

    def list_tables(self, status: str | None = None) -> tuple[TableInfo, ...]:
        """Every table (with that status), oldest first."""
        ...

    def set_status(self, table_id: str, status: str) -> TableInfo:
        """Change a table's status (e.g. paused, finished)."""
        ...

    def set_deadline(self, table_id: str, deadline: float | None) -> TableInfo:
        """Set (wall-clock seconds since the epoch) or clear a table's deadline."""
        ...

    def set_settings(self, table_id: str, settings: Mapping[str, Any]) -> TableInfo:
        """Replace a table's settings (spectators allowed, deadline overrides, bot take-over...)."""
        ...

    def armed_deadlines(self) -> tuple[TableInfo, ...]:
        """Tables that are open or playing and have a deadline, soonest first: what to re-arm after a restart."""
        ...

    def seats(self, table_id: str) -> tuple[SeatRecord, ...]:
        """The table's seats in table order."""
        ...

    def claim_seat(self, table_id: str, seat: str | None = None) -> tuple[str, str]:
        """Take ``seat`` (or the first free one) and return ``(seat, token)``; the token is stored hashed.

        Raises :class:`SeatUnavailable` if it is taken, a bot's, or unknown (or none is free).
        """
        ...

    def release_seat(self, table_id: str, seat: str) -> None:
        """Forget the seat's token: its player left and the seat is free again (unless a bot plays it)."""
        ...

    def set_bot(self, table_id: str, seat: str, bot: bool) -> None:
        """Let a server-side bot play the seat, or stop it; the player's token stays valid for a rejoin."""
        ...

    def seat_for_token(self, table_id: str, token: str) -> str | None:
        """The seat this token opens at this table, or ``None`` (compared in constant time against every seat)."""
        ...

    def check_host_token(self, table_id: str, token: str) -> bool:
        """Whether ``token`` is this table's host token (constant-time comparison)."""
        ...

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(Changed(table, seq))`` after every committed change; returns a function that stops it.

        SQLite: changes made through this store object. PostgreSQL: changes made by any
        process on the database (LISTEN/NOTIFY), this one included. Listeners run on one
        notice thread, in commit order; when this returns, the subscription is live.
        """
        ...

    def close(self) -> None:
        """Close connections and stop the notice thread (bounded waits). Idempotent."""
        ...
