"""Live tables: one :class:`Room` per table in memory, all of them in a :class:`Hub`.

A room serialises everything that happens at its table (one asyncio lock): a move is
checked and made on the in-memory game, committed to storage as move N by
compare-and-set, and only then acknowledged and pushed, each reader getting only its
own notice. If the commit fails (another process took move N, or the database is
down), the room rebuilds from the stored log, so memory never runs ahead of storage.

The deadline policy lives here too: every phase has a deadline (the rules' phase
timeout, or the table's override), stored with the move that started the phase and
re-armed after a restart. A phase whose actors are secret never ends before its
deadline; a phase open to every living seat may end as soon as all have acted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

import hiddenrole as hr
from hiddenrole.host import LOG_FORMAT, LoggedMove, Move, TableLog

from . import wire
from .hostapi import SPECTATOR, Game, Notice, Reader
from .limits import (
    COMMIT_TIMEOUT,
    DEADLINE_STANDBY,
    DEFAULT_AGENT,
    MAX_LIVE_TABLES,
    MAX_REMEMBERED_RESULTS,
    SHUTDOWN_GRACE,
)
from .storage import Conflict, Store, StoredTable, TableNotFound
from .storage.records import FINISHED, OPEN, PAUSED, PLAYING

__all__ = ["Clock", "RealClock", "Conn", "Room", "Hub", "TableSettings", "Metrics"]

_log = logging.getLogger("hiddenrole.server")

SHUTDOWN_CODE = 1001
"""WebSocket close code on graceful shutdown ("going away"; TCP clients get it in a final ``bye`` line)."""
SHUTDOWN_REASON = "the server is shutting down: reconnect and resync"

SEAT_KINDS = frozenset({"act", "say", "end-turn", "delay-turn", "undo"})
"""Moves a seat may send (``end-phase`` is the host's, on the deadline)."""
UNSETTLING_KINDS = SEAT_KINDS - {"say"}
"""Seat moves after which the room asks whether the phase may end early: a line said changes
nobody's readiness (who has acted), so after one the answer is the one given after the last act."""


class Clock(Protocol):
    """Wall-clock time for deadlines and bot delays (tests pass a manual one)."""

    def now(self) -> float: ...

    def sleep_until(self, when: float) -> Awaitable[None]: ...


class RealClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - time.time()))

    def call_at(self, when: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """Call ``callback`` at ``when`` on the running loop (a deadline's timer: no task, no future)."""
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)


class _Cancellable(Protocol):
    def cancel(self) -> object: ...


def _call_at(clock: Clock, when: float, callback: Callable[[], None]) -> _Cancellable:
    """``callback()`` at ``when`` by ``clock``: its own timer if it has one, else a task that sleeps."""
    call_at = getattr(clock, "call_at", None)
    if call_at is not None:
        return call_at(when, callback)  # type: ignore[no-any-return]
    task = asyncio.ensure_future(clock.sleep_until(when))
    task.add_done_callback(lambda t: None if t.cancelled() else callback())
    return task


class TableSettings(msgspec.Struct, forbid_unknown_fields=True):
    """The server's own settings for a table (stored with it; not part of the game's options).

    ``timeouts`` overrides the deadline of named phases and ``timeout`` of every other
    phase, in seconds; ``takeover`` is the grace period after which a bot plays a seat
    whose player is gone (``None``: never).
    """

    spectators: bool = True
    timeouts: dict[str, float] = msgspec.field(default_factory=dict)
    timeout: float | None = None
    bot_delay: tuple[float, float] = (0.0, 0.5)
    takeover: float | None = None
    bot_seed: int = 0
    agent: str = DEFAULT_AGENT
    """The :mod:`hiddenrole.agents` agent server-side bots run (``agents`` names one per seat)."""
    agents: dict[str, str] = msgspec.field(default_factory=dict)


class Conn(Protocol):
    """One reader's connection as a room sees it: it receives encoded messages, in order."""

    reader: Reader
    wants_views: bool
    """Push the full view with every update."""
    wants_board: bool
    """Push the board (the view without its history) with an update when it changed."""
    board_sent: dict[str, Any] | None
    """The last board this connection holds (``wants_board`` only)."""

    def push(self, data: bytes, message: dict[str, Any]) -> None: ...


@dataclass(slots=True)
class Metrics:
    moves: int = 0
    refused: int = 0
    conflicts: int = 0
    connections: int = 0
    started: float = field(default_factory=time.time)

    def to_dict(self, tables: int) -> dict[str, Any]:
        up = max(time.time() - self.started, 1e-9)
        return {
            "tables_live": tables,
            "connections": self.connections,
            "moves": self.moves,
            "moves_per_second": round(self.moves / up, 3),
            "refused": self.refused,
            "conflicts": self.conflicts,
            "uptime": round(up, 3),
        }


def _logged(header: dict[str, Any], moves: list[dict[str, Any]]) -> TableLog:
    """Stored JSON read back through the host's own log reader (so it is checked like any log)."""
    return TableLog.from_dict({"format": LOG_FORMAT, "header": header, "moves": moves})


def _move_of(m: LoggedMove) -> Move:
    return Move(m.kind, m.seat, m.skill, m.targets, m.text)


def _ms(when: float | None) -> int | None:
    return None if when is None else round(when * 1000)


class Room:
    """One live table. Every public method takes the room's lock."""

    def __init__(self, hub: Hub, stored: StoredTable) -> None:
        self.hub = hub
        self.id = stored.info.id
        self.settings = msgspec.convert(stored.info.settings, TableSettings)
        self.status = stored.info.status
        self.deadline: float | None = stored.info.deadline
        self.bots: set[str] = {s.seat for s in stored.seats if s.bot}
        self.lock = asyncio.Lock()
        self.conns: dict[Reader, list[Conn]] = {}
        self.refusals: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.acks: dict[tuple[str, str], int] = {}
        self._phase_key: tuple[str, int, int] = ("", 0, 0)
        self._timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._closed = False
        self.game = self._rebuild(stored)
        self.bot_tasks: dict[str, Any] = {}
        self.known_seq = self.game.seq
        """The highest sequence number this process has heard of (other processes' notices)."""
        self.owns_deadline = True
        """This process set the current deadline, so it ends the phase on time; another process
        waits ``DEADLINE_STANDBY`` longer (it takes over only if the owner is gone)."""

    # ------------------------------------------------------------------ building

    def _rebuild(self, stored: StoredTable) -> Game:
        """Replay the stored log move by move, remembering each accepted client move id's answer."""
        log = _logged(stored.header, [m.move for m in stored.moves])
        game = Game.fresh(log.header)
        self.acks = {}
        for m, logged in zip(stored.moves, log.moves, strict=True):
            game.play(_move_of(logged))
            if m.seat is not None and m.client_move_id is not None:
                self.acks[(m.seat, m.client_move_id)] = game.version(m.seat)
        self._phase_key = self._key_of(game)
        return game

    @staticmethod
    def _key_of(game: Game) -> tuple[str, int, int]:
        return game.phase_key()

    async def reload(self) -> None:
        """Throw the in-memory game away and rebuild it from storage (after a conflict or failure)."""
        stored = await asyncio.to_thread(self.hub.store.load_table, self.id)
        before = {r: self.game.version(r) for r in self.game.readers}
        game = self._rebuild(stored)
        self.game = game
        self.known_seq = max(self.known_seq, game.seq)
        self.status = stored.info.status
        if stored.info.deadline != self.deadline:
            self.owns_deadline = False
        self.deadline = stored.info.deadline
        self._wake.set()
        # Readers whose view moved on (moves another process made) get a fresh notice.
        for reader in game.readers:
            if game.version(reader) != before.get(reader, 0):
                self._push_notice(reader, game.since(reader, min(before.get(reader, 0), game.version(reader))))

    async def catch_up(self, seq: int) -> None:
        """Another process committed up to ``seq``: apply what we missed (in order) and push it."""
        self.known_seq = max(self.known_seq, seq)
        async with self.lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """Apply the moves other processes stored after ours (the lock is held)."""
        if self.known_seq <= self.game.seq:
            return
        missed = await asyncio.to_thread(self.hub.store.moves, self.id, self.game.seq)
        info = await asyncio.to_thread(self.hub.store.table_info, self.id)
        logged = _logged(self.game.header.to_dict(), [m.move for m in missed]).moves
        for m, lm in zip(missed, logged, strict=True):
            if m.seq != self.game.seq + 1:
                await self.reload()
                return
            notices = self.game.play(_move_of(lm))
            if m.seat is not None and m.client_move_id is not None:
                self.acks[(m.seat, m.client_move_id)] = self.game.version(m.seat)
            self._fan_out(notices)
        self.status = info.status
        if info.deadline != self.deadline:
            self.owns_deadline = False  # another process set it: it ends the phase on time
        self.deadline = info.deadline
        self._phase_key = self._key_of(self.game)
        self._wake.set()

    # ------------------------------------------------------------------ reading

    def table_state(self) -> dict[str, Any]:
        """Public facts every reader may know: the deadline and whether the host paused the table."""
        return {"deadline": _ms(self.deadline), "paused": self.status == PAUSED}

    def welcome(self, conn: Conn, since: int | None) -> dict[str, Any]:
        reader = conn.reader
        msg: dict[str, Any] = {
            "type": "welcome",
            "table": self.id,
            "seat": reader,
            "version": self.game.version(reader),
            **self.table_state(),
            "view": self.game.view(reader),
        }
        if since is not None:
            n = self.game.since(reader, since)
            msg["resync"] = {"since": since, "events": list(n.events), "chat": list(n.chat)}
        return msg

    def view_message(self, reader: Reader) -> dict[str, Any]:
        return {
            "type": "view",
            "version": self.game.version(reader),
            **self.table_state(),
            "view": self.game.view(reader),
        }

    # ------------------------------------------------------------------ connections

    def attach(self, conn: Conn) -> None:
        self.conns.setdefault(conn.reader, []).append(conn)
        self.hub.metrics.connections += 1
        if conn.reader is not None and not getattr(conn, "is_bot", False):
            self.hub.seat_present(self, conn.reader)

    def detach(self, conn: Conn) -> None:
        lst = self.conns.get(conn.reader, [])
        if conn in lst:
            lst.remove(conn)
            self.hub.metrics.connections -= 1
        if conn.reader is not None and not getattr(conn, "is_bot", False) and not self.humans(conn.reader):
            self.hub.seat_absent(self, conn.reader)

    def humans(self, reader: Reader) -> int:
        """Connections of ``reader`` that are not the server's own bot."""
        return sum(1 for c in self.conns.get(reader, []) if not getattr(c, "is_bot", False))

    def connected(self, reader: Reader) -> bool:
        return bool(self.conns.get(reader))

    def _push(self, reader: Reader, message: dict[str, Any]) -> None:
        conns = self.conns.get(reader)
        if not conns:
            return
        data = wire.encode(message)
        for c in list(conns):
            c.push(data, message)

    def _push_notice(self, reader: Reader, n: Notice, state: dict[str, Any] | None = None) -> None:
        """``reader``'s update to each of its connections (``state``: the table's public state, once per fan-out)."""
        conns = self.conns.get(reader)
        if not conns:
            return
        base: dict[str, Any] = {
            "type": "update",
            "version": n.version,
            **(state or self.table_state()),
            "events": list(n.events),
            "chat": list(n.chat),
        }
        plain: bytes | None = None
        full: tuple[bytes, dict[str, Any]] | None = None
        board: dict[str, Any] | None = None
        boarded: tuple[bytes, dict[str, Any]] | None = None
        for c in list(conns):
            if c.wants_views:
                if full is None:
                    m = {**base, "view": self.game.view(reader)}
                    full = (wire.encode(m), m)
                c.push(*full)
                continue
            if c.wants_board:
                if board is None:
                    board = self.game.board(reader)
                # The board is sent only when it changed for this connection.
                if board is not c.board_sent and board != c.board_sent:
                    c.board_sent = board
                    if boarded is None:
                        m = {**base, "board": board}
                        boarded = (wire.encode(m), m)
                    c.push(*boarded)
                    continue
            if plain is None:
                plain = wire.encode(base)
            c.push(plain, base)

    def _fan_out(self, notices: dict[Reader, Notice]) -> None:
        state = self.table_state()
        for reader in self.game.readers:
            n = notices.get(reader)
            if n is not None:
                self._push_notice(reader, n, state)

    def broadcast_state(self) -> None:
        """Tell every reader the table's public state changed (paused, resumed, ended)."""
        msg = {"type": "table", **self.table_state(), "status": self.status}
        for reader in self.game.readers:
            self._push(reader, msg)

    # ------------------------------------------------------------------ moving

    async def submit(self, conn: Conn | None, seat: str, msg: wire.MoveMsg) -> dict[str, Any]:
        """A seat's move: its first answer (``ack`` or ``refused``); pushes go out before this returns.

        ``conn`` receives the answer before anyone receives the move's notices, so a
        client reads its ack first.
        """
        async with self.lock:
            reply = await self._submit(seat, msg)
            return reply

    def _remember(self, key: tuple[str, str], reply: dict[str, Any]) -> dict[str, Any]:
        self.refusals[key] = reply
        while len(self.refusals) > MAX_REMEMBERED_RESULTS:
            self.refusals.popitem(last=False)
        self.hub.metrics.refused += 1
        return reply

    def _refusal(self, mid: str, code: str, message: str, seat: Reader) -> dict[str, Any]:
        return {"type": "refused", "id": mid, "code": code, "message": message, "version": self.game.version(seat)}

    async def _submit(self, seat: str, msg: wire.MoveMsg, retry: bool = True) -> dict[str, Any]:
        key = (seat, msg.id)
        if key in self.acks:
            return {"type": "ack", "id": msg.id, "version": self.acks[key], "duplicate": True}
        if key in self.refusals:
            return self.refusals[key]
        if self.hub.closing:
            return self._refusal(msg.id, wire.SHUTTING_DOWN, "the server is shutting down: reconnect and retry", seat)
        if msg.kind not in SEAT_KINDS:
            return self._remember(key, self._refusal(msg.id, "INVALID_MOVE", f"a seat cannot send {msg.kind!r}", seat))
        if self.status == PAUSED:
            return self._refusal(msg.id, wire.TABLE_PAUSED, "the host paused the table", seat)
        if self.status == OPEN:
            return self._refusal(msg.id, wire.TABLE_NOT_STARTED, "the table starts when every seat is taken", seat)
        if self.status == FINISHED and not self.game.over:
            return self._remember(key, self._refusal(msg.id, "GAME_ENDED", "the host ended the table", seat))
        await self._catch_up()  # moves another process stored first: a move made on a stale game would conflict
        move = Move(msg.kind, seat, msg.skill, tuple(msg.targets), msg.text)
        try:
            notices = self.game.play(move, against=msg.against)
        except hr.GameError as exc:
            return self._remember(key, self._refusal(msg.id, exc.code, exc.message, seat))
        try:
            await self._commit(seat, msg.id)
        except Conflict:
            self.hub.metrics.conflicts += 1
            await self.reload()
            if retry and (msg.against is None or msg.against == self.game.version(seat)):
                return await self._submit(seat, msg, retry=False)
            if key in self.acks:
                return {"type": "ack", "id": msg.id, "version": self.acks[key], "duplicate": True}
            return self._refusal(msg.id, "STALE_MOVE", "another move landed first; re-read your view", seat)
        except Exception:
            _log.exception("commit failed", extra={"table": self.id})
            await self.reload()
            return self._refusal(msg.id, wire.INTERNAL, "the move could not be stored; try again", seat)
        version = self.game.version(seat)
        self.acks[key] = version
        reply = {"type": "ack", "id": msg.id, "version": version}
        self._after(seat, reply, notices)
        if msg.kind in UNSETTLING_KINDS:
            await self._settle()
        return reply

    async def _commit(self, seat: str | None, mid: str | None) -> None:
        """Store the game's last move as its number, with the status and deadline it leads to."""
        game = self.game
        key = self._key_of(game)
        deadline = self.deadline
        if game.over:
            deadline = None
        elif key != self._phase_key:
            deadline = self.hub.clock.now() + self.timeout()
        status = FINISHED if game.over else PLAYING
        last: LoggedMove = game.last_move()
        await self.hub.append_move(
            self.id, game.seq, last.to_dict(), seat=seat, client_move_id=mid, status=status, deadline=deadline
        )
        self.hub.metrics.moves += 1
        if key != self._phase_key or deadline != self.deadline:
            self._phase_key = key
            self.deadline = deadline
            self.owns_deadline = True
            self._wake.set()
        self.status = status

    def _after(self, seat: str | None, reply: dict[str, Any] | None, notices: dict[Reader, Notice]) -> None:
        if seat is not None and reply is not None:
            self._push(seat, reply)
        self._fan_out(notices)

    async def _settle(self) -> None:
        """End a phase open to every living seat once all have acted (never a phase with secret actors)."""
        for _ in range(4):
            if self.game.auto_advance or self.game.over:
                return
            f = self.game.facts()
            if not (f.public_actors and f.all_acted):
                return
            if not await self._host_end_phase():
                return

    async def _host_end_phase(self) -> bool:
        try:
            notices = self.game.end_phase()
        except hr.GameError as exc:
            _log.warning("end of phase refused: %s", exc.code, extra={"table": self.id})
            return False
        try:
            await self._commit(None, None)
        except Conflict:
            self.hub.metrics.conflicts += 1
            await self.reload()
            return False
        except Exception:
            _log.exception("commit failed", extra={"table": self.id})
            await self.reload()
            return False
        self._after(None, None, notices)
        return True

    def timeout(self) -> float:
        f = self.game.facts()
        s = self.settings
        if f.phase in s.timeouts:
            return float(s.timeouts[f.phase])
        if s.timeout is not None:
            return float(s.timeout)
        return f.timeout

    # ------------------------------------------------------------------ deadlines

    def start(self) -> None:
        if self._timer is None and not self._closed:
            self._timer = asyncio.get_running_loop().create_task(self._run_deadlines())
        self.hub.start_bots(self)

    async def stop(self) -> None:
        self._closed = True
        self._wake.set()
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._timer
            self._timer = None

    async def _run_deadlines(self) -> None:
        clock = self.hub.clock
        while not self._closed:
            self._wake.clear()
            deadline = self.deadline
            if deadline is None or self.status == PAUSED or self.game.over:
                await self._wake.wait()
                continue
            standby = 0.0 if self.owns_deadline else DEADLINE_STANDBY
            # The deadline's timer rings the room's own wake-up (one wait, no tasks to race):
            # ``rang`` tells the deadline from any other reason to look again.
            rang: list[bool] = []

            def ring(rang: list[bool] = rang) -> None:
                rang.append(True)
                self._wake.set()

            timer = _call_at(clock, deadline + standby, ring)
            try:
                await self._wake.wait()
            finally:
                timer.cancel()
            if not rang:
                continue
            async with self.lock:
                await self._catch_up()
                due = self.deadline == deadline and self.status != PAUSED and not self.game.over
                if due and await self._host_end_phase():
                    await self._settle()

    # ------------------------------------------------------------------ host actions

    async def pause(self) -> None:
        async with self.lock:
            if self.status != PLAYING and self.status != "open":
                return
            remaining = None if self.deadline is None else max(0.0, self.deadline - self.hub.clock.now())
            self.status = PAUSED
            await asyncio.to_thread(self.hub.store.set_status, self.id, PAUSED)
            await asyncio.to_thread(self.hub.store.set_deadline, self.id, remaining)
            self.deadline = remaining
            self._wake.set()
            self.broadcast_state()

    async def resume(self) -> None:
        async with self.lock:
            if self.status != PAUSED:
                return
            remaining = self.deadline
            self.deadline = None if remaining is None else self.hub.clock.now() + remaining
            self.status = PLAYING
            await asyncio.to_thread(self.hub.store.set_deadline, self.id, self.deadline)
            await asyncio.to_thread(self.hub.store.set_status, self.id, PLAYING)
            self._wake.set()
            self.broadcast_state()

    async def begin(self) -> None:
        """Start the clock: the first phase's deadline runs from now."""
        async with self.lock:
            if self.status != OPEN:
                return
            self.status = PLAYING
            self.deadline = self.hub.clock.now() + self.timeout()
            await asyncio.to_thread(self.hub.store.set_deadline, self.id, self.deadline)
            await asyncio.to_thread(self.hub.store.set_status, self.id, PLAYING)
            self._wake.set()
            self.broadcast_state()

    async def host_end_phase(self) -> None:
        """The host ends the phase now (a moderator's call, not the timer's)."""
        async with self.lock:
            if self.status == PLAYING and not self.game.over and await self._host_end_phase():
                await self._settle()

    async def kick(self, seat: str, reason: str) -> None:
        """Close the seat's connections (its player left; the token no longer opens it)."""
        for conn in list(self.conns.get(seat, [])):
            closer = getattr(conn, "flush_and_close", None)
            if closer is not None:
                await closer(1000, reason)

    async def end(self) -> None:
        async with self.lock:
            self.status = FINISHED
            self.deadline = None
            await asyncio.to_thread(self.hub.store.set_deadline, self.id, None)
            await asyncio.to_thread(self.hub.store.set_status, self.id, FINISHED)
            self._wake.set()
            self.broadcast_state()


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # (not when its waiter gave up: a commit timeout)
        woken.set_result(None)


def _expire(woken: asyncio.Future[None]) -> None:
    """The store did not answer within ``COMMIT_TIMEOUT``: its waiter gets ``TimeoutError``."""
    if not woken.done():
        woken.set_exception(TimeoutError("the store did not answer in time"))


class Hub:
    """The tables this process serves: loaded lazily from storage, kept while live."""

    def __init__(self, store: Store, clock: Clock | None = None, rng: random.Random | None = None) -> None:
        self.store = store
        self.clock: Clock = clock or RealClock()
        self.rooms: dict[str, Room] = {}
        self.metrics = Metrics()
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._unlisten: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.bot_hooks: list[Callable[[Room], None]] = []
        self.presence_hooks: list[Callable[[Room, str, bool], None]] = []
        self.sessions: set[Any] = set()
        """Every open client connection (graceful shutdown closes each with a reason)."""
        self.closing = False
        """Shutting down: no new move is taken (``SHUTTING_DOWN``)."""

    async def start(self) -> None:
        """Listen for other processes' commits and re-arm every stored deadline."""
        self._loop = asyncio.get_running_loop()
        self._unlisten = self.store.listen(self._changed)
        for info in await asyncio.to_thread(self.store.armed_deadlines):
            try:
                await self.room(info.id)
            except Exception:
                _log.exception("cannot re-arm a stored table", extra={"table": info.id})

    def _changed(self, note: Any) -> None:
        """A store notice (on the store's notice thread): wake the loop only if a room we hold is behind.

        Most notices are this process's own commits, which its rooms applied before committing;
        waking the event loop for each of them cost a thread hand-off per move for nothing.
        """
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        room = self.rooms.get(note.table)
        if room is None or note.seq <= room.game.seq:  # (``Table.seq`` takes the table's own lock)
            return
        loop.call_soon_threadsafe(self._schedule_catch_up, note.table, note.seq)

    def _schedule_catch_up(self, table: str, seq: int) -> None:
        room = self.rooms.get(table)
        if room is not None and seq > room.game.seq:
            room.known_seq = max(room.known_seq, seq)
            asyncio.get_running_loop().create_task(room.catch_up(seq))

    async def room(self, table_id: str) -> Room:
        """The live room, loading it from storage on first use. Raises storage's ``TableNotFound``."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            if len(self.rooms) >= MAX_LIVE_TABLES:
                raise TableNotFound("this server holds as many live tables as it may")
            stored = await asyncio.to_thread(self.store.load_table, table_id)
            room = await asyncio.to_thread(Room, self, stored)
            self.rooms[table_id] = room
            room.start()
            fut.set_result(room)
            return room
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()
            raise
        finally:
            self._loading.pop(table_id, None)

    async def append_move(
        self,
        table_id: str,
        seq: int,
        move: dict[str, Any],
        *,
        seat: str | None,
        client_move_id: str | None,
        status: str,
        deadline: float | None,
    ) -> None:
        """Store a move durably (the store's ``append_move``; raises ``Conflict``).

        A store with a committer thread takes the move straight from the event loop
        (``append_move_future``): two thread hand-offs fewer per move than a worker thread
        that would only wait for the committer. Its answer wakes a plain loop future (one
        ``call_soon_threadsafe``; ``asyncio.wrap_future`` chained both ways and cancelled the
        store's future on a timeout, which the committer then could not answer).
        """
        store = self.store
        kw: dict[str, Any] = {"seat": seat, "client_move_id": client_move_id, "status": status, "deadline": deadline}
        submit = getattr(store, "append_move_future", None)
        answer = None if submit is None else submit(table_id, seq, move, **kw)
        if answer is None:
            await asyncio.to_thread(store.append_move, table_id, seq, move, **kw)
            return
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def answered(_: object) -> None:  # on the committer thread (or here, if already answered)
            if not loop.is_closed():
                loop.call_soon_threadsafe(_wake, woken)

        answer.add_done_callback(answered)
        # A plain timer rather than ``asyncio.timeout``: the context manager's enter, reschedule
        # and exit were about a fifth of this coroutine's cost per move in the load profile.
        timer = loop.call_later(COMMIT_TIMEOUT, _expire, woken)
        try:
            try:
                await woken
            finally:
                timer.cancel()
            answer.result()  # answered: its result, or what it raised
        except getattr(store, "unique_errors", ()):
            # A concurrent writer stored this client move id or seq first: ``append_move``
            # reads what was stored, or raises ``Conflict``. Any other error is the answer.
            await asyncio.to_thread(store.append_move, table_id, seq, move, **kw)

    def start_bots(self, room: Room) -> None:
        for hook in self.bot_hooks:
            hook(room)

    def seat_present(self, room: Room, seat: str) -> None:
        for hook in self.presence_hooks:
            hook(room, seat, True)

    def seat_absent(self, room: Room, seat: str) -> None:
        for hook in self.presence_hooks:
            hook(room, seat, False)

    async def drain(self, code: int = SHUTDOWN_CODE, reason: str = SHUTDOWN_REASON) -> None:
        """Graceful shutdown: take no new move, let every move in flight finish (stored, acknowledged,
        pushed), then close every connection with ``code`` and ``reason`` once its queue is sent."""
        self.closing = True
        loop = asyncio.get_running_loop()
        until = loop.time() + SHUTDOWN_GRACE
        for room in list(self.rooms.values()):
            async with room.lock:  # a move in flight holds it until it is acknowledged and pushed
                await room.stop()
        while any(s.handling for s in self.sessions) and loop.time() < until:
            await asyncio.sleep(0.01)
        await asyncio.gather(
            *(s.close_gracefully(code, reason, max(0.1, until - loop.time())) for s in list(self.sessions)),
            return_exceptions=True,
        )

    async def close(self) -> None:
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        for room in list(self.rooms.values()):
            async with room.lock:  # finish the move in flight
                await room.stop()
        self.rooms.clear()


__all__ += ["SEAT_KINDS", "SPECTATOR"]
