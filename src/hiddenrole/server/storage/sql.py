"""The store's operations, written once over a transaction (:class:`Tx`) for both backends.

A backend supplies transactions (:meth:`SqlStore._write`, :meth:`SqlStore._read`), its
unique-violation error class and the way a committed change is announced; everything
else, including the compare-and-set on the sequence number, lives here so the two
backends cannot drift apart.

The compare-and-set: appending move N runs ``UPDATE hr_tables SET seq = N WHERE id = T
AND seq = N - 1`` and inserts the move only if that changed a row. The row update
serialises writers of one table (SQLite by its write lock, PostgreSQL by the row lock,
whose loser re-reads the row and finds ``seq`` moved on), and the primary key
(table, seq) on the moves would refuse a second move N even if it did not.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from hiddenrole.host.publisher import Changed

from .checks import check_client_move_id, check_deadline, check_name, check_seq, check_status, decode, encode
from .committer import Committer
from .errors import Conflict, InvalidRecord, SeatUnavailable, StorageError, TableExists, TableNotFound
from .interface import Listener
from .migrations import MIGRATIONS, SCHEMA_TABLE, SCHEMA_VERSION, Tx
from .notices import Notifier
from .records import (
    ARMED_STATUSES,
    KEEP,
    MAX_HEADER_BYTES,
    MAX_MOVE_BYTES,
    MAX_SEATS,
    MAX_SETTINGS_BYTES,
    OPEN,
    Appended,
    Keep,
    SeatRecord,
    StoredMove,
    StoredTable,
    TableInfo,
)
from .tokens import hash_token, match_token, new_token

__all__ = ["SqlStore"]

_R = TypeVar("_R")

_INFO = "id, game, rules_version, status, deadline, created, seq, settings"


def _info(row: tuple[object, ...]) -> TableInfo:
    id_, game, version, status, deadline, created, seq, settings = row
    return TableInfo(
        id=str(id_),
        game=str(game),
        rules_version=str(version),
        status=str(status),
        deadline=None if deadline is None else float(deadline),  # type: ignore[arg-type]
        created=float(created),  # type: ignore[arg-type]
        seq=int(seq),  # type: ignore[call-overload]
        settings=decode(str(settings)),
    )


def _move(row: tuple[object, ...]) -> StoredMove:
    seq, move, seat, client_move_id = row
    return StoredMove(
        seq=int(seq),  # type: ignore[call-overload]
        move=decode(str(move)),
        seat=str(seat) or None,
        client_move_id=None if client_move_id is None else str(client_move_id),
    )


def _seat(row: tuple[object, ...]) -> SeatRecord:
    seat, token_hash, bot = row
    return SeatRecord(seat=str(seat), taken=token_hash is not None, bot=bool(bot))


class SqlStore(abc.ABC):
    """The :class:`~.interface.Store` operations over SQL; subclasses open the database."""

    unique_errors: tuple[type[BaseException], ...] = ()
    """The driver's unique-violation exception classes: what an :meth:`append_move_future`
    fails with when a concurrent writer stored this seq or client move id first (its caller
    then asks :meth:`append_move`, which reads what was stored); any other error is the answer."""

    def __init__(self, notifier_name: str) -> None:
        self._notifier = Notifier(notifier_name)
        self._schema = 0
        self._committer: Committer | None = None
        """The group committer every write goes through, if the backend started one."""

    # ---- what a backend provides

    @abc.abstractmethod
    def _write(self) -> AbstractContextManager[Tx]:
        """A write transaction of its own: committed durably when the block ends, rolled back on an exception."""

    def _run_write(self, op: Callable[[Tx], _R], table: str = "") -> _R:
        """Run ``op`` in a write transaction and return its result once that is durably committed.

        If ``op`` raises, nothing it did is kept and the exception propagates. A backend
        may commit several callers' operations in one transaction (group commit), each
        under its own savepoint, as long as this contract holds for every caller.
        ``table``: the one table ``op`` writes (a group committer orders its batch by it).
        """
        if self._committer is not None:
            return self._committer.run(op, table)
        with self._write() as tx:
            return op(tx)

    @abc.abstractmethod
    def _read(self) -> AbstractContextManager[Tx]:
        """A read-only transaction that sees one consistent state."""

    @abc.abstractmethod
    def _announce(self, tx: Tx, note: Changed) -> None:
        """Arrange for ``note`` to reach listeners once ``tx`` commits (and never if it rolls back)."""

    @abc.abstractmethod
    def _lock_schema(self, tx: Tx) -> None:
        """Keep two processes from migrating at once."""

    # ---- schema

    @property
    def schema_version(self) -> int:
        return self._schema

    def _migrate(self, target: int = SCHEMA_VERSION) -> None:
        known = [n for n, _ in MIGRATIONS]
        if target not in known:
            raise InvalidRecord(f"no schema version {target}; this code knows {known}")
        with self._write() as tx:
            self._lock_schema(tx)
            tx.run(
                f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE}"
                " (version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)"
            )
            rows = tx.run(f"SELECT MAX(version) FROM {SCHEMA_TABLE}")
            current = int(rows[0][0] or 0)  # type: ignore[call-overload]
            if current > SCHEMA_VERSION:
                raise StorageError(f"the database is at schema {current}; this code knows up to {SCHEMA_VERSION}")
            for number, migration in MIGRATIONS:
                if current < number <= target:
                    migration(tx)
                    tx.run(f"INSERT INTO {SCHEMA_TABLE} (version, applied) VALUES (?, ?)", (number, time.time()))
                    current = number
        self._schema = current

    # ---- tables

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
        check_name(table_id, "a table id")
        check_name(game, "a game name")
        if not isinstance(rules_version, str) or not 0 < len(rules_version) <= 64:
            raise InvalidRecord("a rules version is 1..64 characters")
        header_text = encode(header, "header", MAX_HEADER_BYTES)
        settings_text = encode(settings or {}, "settings", MAX_SETTINGS_BYTES)
        if isinstance(seats, str) or not 0 < len(seats) <= MAX_SEATS:
            raise InvalidRecord(f"a table has 1..{MAX_SEATS} seats")
        names = [check_name(s, "a seat") for s in seats]
        if len(set(names)) != len(names):
            raise InvalidRecord("seat names must be distinct")
        bot_set = set(bots)
        if not bot_set <= set(names):
            raise InvalidRecord("every bot seat must be one of the seats")
        check_status(status)
        check_deadline(deadline)
        token = new_token()

        def op(tx: Tx) -> None:
            added = tx.count(
                "INSERT INTO hr_tables (id, game, rules_version, header, status, deadline, created, seq,"
                " host_token_hash, settings) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (id) DO NOTHING",
                (
                    table_id,
                    game,
                    rules_version,
                    header_text,
                    status,
                    deadline,
                    time.time(),
                    hash_token(token),
                    settings_text,
                ),
            )
            if added != 1:
                raise TableExists(f"table {table_id!r} already exists")
            tx.many(
                "INSERT INTO hr_seats (table_id, seat, pos, bot) VALUES (?, ?, ?, ?)",
                [(table_id, name, i, name in bot_set) for i, name in enumerate(names)],
            )
            self._announce(tx, Changed(table_id, 0))

        self._run_write(op, table_id)
        return token

    def _info_in(self, tx: Tx, table_id: str) -> TableInfo:
        rows = tx.run(f"SELECT {_INFO} FROM hr_tables WHERE id = ?", (table_id,))
        if not rows:
            raise TableNotFound(f"no table {table_id!r}")
        return _info(rows[0])

    def table_info(self, table_id: str) -> TableInfo:
        check_name(table_id, "a table id")
        with self._read() as tx:
            return self._info_in(tx, table_id)

    def load_table(self, table_id: str) -> StoredTable:
        check_name(table_id, "a table id")
        with self._read() as tx:
            info = self._info_in(tx, table_id)
            header = tx.run("SELECT header FROM hr_tables WHERE id = ?", (table_id,))[0][0]
            seats = self._seats_in(tx, table_id)
            moves = tx.run(
                "SELECT seq, move, seat, client_move_id FROM hr_moves WHERE table_id = ? ORDER BY seq", (table_id,)
            )
        return StoredTable(info=info, header=decode(str(header)), seats=seats, moves=tuple(_move(r) for r in moves))

    def moves(self, table_id: str, after: int = 0) -> tuple[StoredMove, ...]:
        check_name(table_id, "a table id")
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidRecord("'after' is a sequence number (0 for every move)")
        with self._read() as tx:
            self._info_in(tx, table_id)
            rows = tx.run(
                "SELECT seq, move, seat, client_move_id FROM hr_moves WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after),
            )
        return tuple(_move(r) for r in rows)

    def list_tables(self, status: str | None = None) -> tuple[TableInfo, ...]:
        with self._read() as tx:
            if status is None:
                rows = tx.run(f"SELECT {_INFO} FROM hr_tables ORDER BY created, id")
            else:
                rows = tx.run(
                    f"SELECT {_INFO} FROM hr_tables WHERE status = ? ORDER BY created, id", (check_status(status),)
                )
        return tuple(_info(r) for r in rows)

    def armed_deadlines(self) -> tuple[TableInfo, ...]:
        marks = ", ".join("?" for _ in ARMED_STATUSES)
        with self._read() as tx:
            rows = tx.run(
                f"SELECT {_INFO} FROM hr_tables WHERE deadline IS NOT NULL AND status IN ({marks})"
                " ORDER BY deadline, id",
                tuple(ARMED_STATUSES),
            )
        return tuple(_info(r) for r in rows)

    def _update(self, table_id: str, column: str, value: object) -> TableInfo:
        check_name(table_id, "a table id")

        def op(tx: Tx) -> TableInfo:
            if tx.count(f"UPDATE hr_tables SET {column} = ? WHERE id = ?", (value, table_id)) != 1:
                raise TableNotFound(f"no table {table_id!r}")
            info = self._info_in(tx, table_id)
            self._announce(tx, Changed(table_id, info.seq))
            return info

        return self._run_write(op, table_id)

    def set_status(self, table_id: str, status: str) -> TableInfo:
        return self._update(table_id, "status", check_status(status))

    def set_deadline(self, table_id: str, deadline: float | None) -> TableInfo:
        if isinstance(deadline, Keep):
            raise InvalidRecord("a deadline is a number of seconds since the epoch, or None")
        return self._update(table_id, "deadline", check_deadline(deadline))

    def set_settings(self, table_id: str, settings: Mapping[str, Any]) -> TableInfo:
        return self._update(table_id, "settings", encode(settings, "settings", MAX_SETTINGS_BYTES))

    # ---- moves

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
        op = self._append_op(
            table_id, seq, move, seat=seat, client_move_id=client_move_id, status=status, deadline=deadline
        )
        try:
            return self._run_write(op, table_id)
        except self.unique_errors:
            return self._after_unique_error(table_id, seq, seat, client_move_id)

    def _append_op(
        self,
        table_id: str,
        seq: int,
        move: Mapping[str, Any],
        *,
        seat: str | None,
        client_move_id: str | None,
        status: str | Keep,
        deadline: float | Keep | None,
    ) -> Callable[[Tx], Appended]:
        """Check the arguments now (bad input never reaches a transaction); the write that appends the move."""
        check_name(table_id, "a table id")
        check_seq(seq)
        seat_key = "" if seat is None else check_name(seat, "a seat")
        check_client_move_id(client_move_id)
        text = encode(move, "move", MAX_MOVE_BYTES)
        sets = "seq = ?"
        params: list[object] = [seq]
        if not isinstance(status, Keep):
            sets, params = sets + ", status = ?", [*params, check_status(status)]
        if not isinstance(check_deadline(deadline), Keep):
            sets, params = sets + ", deadline = ?", [*params, deadline]

        def op(tx: Tx) -> Appended:
            if client_move_id is not None and not self._cas_checks_client_id:
                first = self._first_result(tx, table_id, seat_key, client_move_id)
                if first is not None:
                    return first
            if not self._cas_insert(tx, sets, (*params, table_id, seq - 1), (seq, text, seat_key, client_move_id)):
                if client_move_id is not None:
                    first = self._first_result(tx, table_id, seat_key, client_move_id)
                    if first is not None:
                        return first
                raise Conflict(table=table_id, seq=seq, current=self._info_in(tx, table_id).seq)
            self._announce(tx, Changed(table_id, seq))
            return Appended(seq=seq, duplicate=False, move=decode(text))

        return op

    def _after_unique_error(self, table_id: str, seq: int, seat: str | None, client_move_id: str | None) -> Appended:
        """A concurrent writer committed this client move id, or (impossible past the row update)
        this seq: read what it stored (the first result), or raise :class:`Conflict`."""
        seat_key = "" if seat is None else seat
        with self._read() as tx:
            if client_move_id is not None:
                first = self._first_result(tx, table_id, seat_key, client_move_id)
                if first is not None:
                    return first
            raise Conflict(table=table_id, seq=seq, current=self._info_in(tx, table_id).seq) from None

    def append_move_future(
        self,
        table_id: str,
        seq: int,
        move: Mapping[str, Any],
        *,
        seat: str | None = None,
        client_move_id: str | None = None,
        status: str | Keep = KEEP,
        deadline: float | Keep | None = KEEP,
    ) -> Future[Appended] | None:
        """:meth:`append_move` handed straight to a committer thread, or ``None`` if this store has none.

        Why: an asyncio caller would otherwise go through a worker thread that only waits
        for the committer (two thread hand-offs more per move). The future fails with the
        unique-violation error where :meth:`append_move` would read the first result:
        the caller then calls :meth:`append_move` again, which does.
        """
        if self._committer is None:
            return None
        op = self._append_op(
            table_id, seq, move, seat=seat, client_move_id=client_move_id, status=status, deadline=deadline
        )
        return self._committer.submit(op, table_id)

    _cas_checks_client_id = False
    """True when :meth:`_cas_insert` itself refuses a client move id already stored (so no look-up first)."""

    def _cas_insert(self, tx: Tx, sets: str, where: tuple[object, ...], row: tuple[int, str, str, str | None]) -> bool:
        """The compare-and-set: bump the table's row from ``seq - 1`` and insert the move; False if no row moved.

        ``sets`` assigns ``seq`` (and maybe ``status``, ``deadline``) from the first of ``where``'s
        parameters; the last two are the table id and ``seq - 1``. ``row`` is (seq, move, seat, client id).
        """
        if tx.count(f"UPDATE hr_tables SET {sets} WHERE id = ? AND seq = ?", where) != 1:
            return False
        tx.run(
            "INSERT INTO hr_moves (table_id, seq, move, seat, client_move_id) VALUES (?, ?, ?, ?, ?)",
            (where[-2], *row),
        )
        return True

    def _first_result(self, tx: Tx, table_id: str, seat: str, client_move_id: str) -> Appended | None:
        rows = tx.run(
            "SELECT seq, move FROM hr_moves WHERE table_id = ? AND seat = ? AND client_move_id = ?",
            (table_id, seat, client_move_id),
        )
        if not rows:
            return None
        return Appended(seq=int(rows[0][0]), duplicate=True, move=decode(str(rows[0][1])))  # type: ignore[call-overload]

    # ---- seats and tokens

    def _seats_in(self, tx: Tx, table_id: str) -> tuple[SeatRecord, ...]:
        rows = tx.run("SELECT seat, token_hash, bot FROM hr_seats WHERE table_id = ? ORDER BY pos", (table_id,))
        return tuple(_seat(r) for r in rows)

    def seats(self, table_id: str) -> tuple[SeatRecord, ...]:
        check_name(table_id, "a table id")
        with self._read() as tx:
            self._info_in(tx, table_id)
            return self._seats_in(tx, table_id)

    def claim_seat(self, table_id: str, seat: str | None = None) -> tuple[str, str]:
        check_name(table_id, "a table id")
        if seat is not None:
            check_name(seat, "a seat")
        token = new_token()

        def op(tx: Tx) -> str:
            info = self._info_in(tx, table_id)
            chosen = seat
            if chosen is None:
                free = [s.seat for s in self._seats_in(tx, table_id) if s.free]
                if not free:
                    raise SeatUnavailable(f"no free seat at table {table_id!r}")
                chosen = free[0]
            taken = tx.count(
                "UPDATE hr_seats SET token_hash = ? WHERE table_id = ? AND seat = ? AND token_hash IS NULL AND NOT bot",
                (hash_token(token), table_id, chosen),
            )
            if taken != 1:
                raise SeatUnavailable(f"seat {chosen!r} is not free at table {table_id!r}")
            self._announce(tx, Changed(table_id, info.seq))
            return chosen

        return self._run_write(op, table_id), token

    def _seat_update(self, table_id: str, seat: str, sets: str, params: tuple[object, ...]) -> None:
        check_name(table_id, "a table id")
        check_name(seat, "a seat")

        def op(tx: Tx) -> None:
            info = self._info_in(tx, table_id)
            if tx.count(f"UPDATE hr_seats SET {sets} WHERE table_id = ? AND seat = ?", (*params, table_id, seat)) != 1:
                raise SeatUnavailable(f"no seat {seat!r} at table {table_id!r}")
            self._announce(tx, Changed(table_id, info.seq))

        self._run_write(op, table_id)

    def release_seat(self, table_id: str, seat: str) -> None:
        self._seat_update(table_id, seat, "token_hash = NULL", ())

    def set_bot(self, table_id: str, seat: str, bot: bool) -> None:
        if not isinstance(bot, bool):
            raise InvalidRecord("'bot' is True or False")
        self._seat_update(table_id, seat, "bot = ?", (bot,))

    def seat_for_token(self, table_id: str, token: str) -> str | None:
        check_name(table_id, "a table id")
        with self._read() as tx:
            rows = tx.run("SELECT seat, token_hash FROM hr_seats WHERE table_id = ? ORDER BY pos", (table_id,))
        return match_token(token, [(str(seat), None if h is None else str(h)) for seat, h in rows])

    def check_host_token(self, table_id: str, token: str) -> bool:
        check_name(table_id, "a table id")
        with self._read() as tx:
            rows = tx.run("SELECT host_token_hash FROM hr_tables WHERE id = ?", (table_id,))
        return bool(rows) and match_token(token, [("host", str(rows[0][0]))]) is not None

    # ---- notices and closing

    def listen(self, listener: Listener) -> Callable[[], None]:
        return self._notifier.add(listener)
