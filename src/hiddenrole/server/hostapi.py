"""The one module of the server that knows the host :class:`~hiddenrole.host.Table` API.

Everything else in the server talks to a :class:`Game`: per-reader versions, per-reader
notices (version, new events, new chat) and views with no global counter in them. The
host table numbers each reader's view itself and pushes each reader only its own
changes (docs/HOST.md); this adapter collects those pushes for one move, so the room can
hold them back until the move is stored, and answers the host-only facts the deadline
policy needs. The global sequence number (the log length) stays here, for storage's
compare-and-set, and never reaches a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

import hiddenrole as hr
from hiddenrole.agents import Observation, observe
from hiddenrole.host import (
    END_PHASE,
    GameDefinition,
    LoggedMove,
    Move,
    Outcome,
    SeatPlayer,
    SeatSelf,
    Table,
    TableHeader,
    TableLog,
)
from hiddenrole.host import Notice as HostNotice
from hiddenrole.host.catalog import available, get

__all__ = ["Game", "Notice", "Reader", "SPECTATOR", "definition", "game_names", "PhaseFacts"]

Reader = str | None
"""A seat name, or ``None`` for the spectator."""
SPECTATOR: Reader = None


class Notice(NamedTuple):
    """What one reader learns from one move: its new version and what it newly sees (JSON-ready)."""

    version: int
    events: tuple[dict[str, Any], ...]
    chat: tuple[dict[str, Any], ...]


def _notice(n: HostNotice) -> Notice:
    events, chat = n.events, n.chat
    return Notice(
        n.version,
        tuple([e.to_dict() for e in events]) if events else (),
        tuple([c.to_dict() for c in chat]) if chat else (),
    )


MAX_BOARD_PARTS: Final = 512
"""Board pieces one table keeps the JSON of (a few per reader; the cache starts again when full)."""


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """The same five board pieces, object for object (spelt out: a generator over ``zip`` cost
    as much as the rest of a cache hit)."""
    return a[0] is b[0] and a[1] is b[1] and a[2] is b[2] and a[3] is b[3] and a[4] is b[4]


def _players_json(players: tuple[SeatPlayer, ...]) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "alive": p.alive, "role": p.role} for p in players]


class PhaseFacts(NamedTuple):
    """Host-only facts about the current phase, for the deadline policy (never sent to a seat)."""

    phase: str
    round: int
    over: bool
    timeout: float
    public_actors: bool
    """Every step of the phase is open to every living seat (so who may act is public)."""
    all_acted: bool
    """Every living seat that may act now has acted (only meaningful with ``public_actors``)."""


def game_names() -> tuple[str, ...]:
    return available()


def definition(name: str) -> GameDefinition:
    """The catalog's definition (raises the host's ``InvalidGame`` for an unknown name)."""
    return get(name)


class Game:
    """A hosted table as the server uses it. Not thread-safe: the server serialises calls per table."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self.readers: tuple[Reader, ...] = (*table.seats, SPECTATOR)
        self._heard: dict[Reader, list[HostNotice]] = {}
        for reader in self.readers:
            table.subscribe(reader, self._hearer(reader))
        self.phase_serial = 0
        """Phases entered since the table opened (a phase entered again counts again)."""
        self._options: dict[str, Any] | None = None
        """The table's options as the views carry them (fixed for the table's life: built once)."""
        self._boards: dict[Reader, tuple[tuple[object, ...], tuple[object, ...], dict[str, Any]]] = {}
        """Each reader's last board and the view parts it was built from (compared by identity:
        the host keeps a reader's core objects while its core is unchanged). Read-only once built."""
        self._parts: dict[int, tuple[object, Any]] = {}
        """JSON of the view pieces boards are built from, by the identity of the piece (the host
        keeps an unchanged piece the very same object from move to move): a phase end rebuilds
        every board, but not its pieces. Read-only once built."""

    def _hearer(self, reader: Reader) -> Callable[[HostNotice], None]:
        def hear(notice: HostNotice) -> None:
            self._heard.setdefault(reader, []).append(notice)

        return hear

    # ------------------------------------------------------------------ building

    @classmethod
    def open(
        cls,
        game: str,
        seats: int,
        options: Mapping[str, object] | None,
        seed: int | None,
        table_id: str | None = None,
    ) -> Game:
        """A new table; without ``table_id`` the host draws a random one (never derived from the seed)."""
        return cls(Table.open(definition(game), seats, options, seed, table_id=table_id))

    @classmethod
    def fresh(cls, header: TableHeader) -> Game:
        """The table ``header`` describes, before any move (stored moves are then replayed with
        :meth:`play`, one by one, so the room learns each move's answer again)."""
        d = definition(header.game)
        if header.version != d.version:
            raise hr.RulesMismatch(f"stored table is {header.game} version {header.version}, host has {d.version}")
        return cls(Table(d, header))

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self._table.id

    @property
    def header(self) -> TableHeader:
        return self._table.header

    @property
    def seats(self) -> tuple[str, ...]:
        return self._table.seats

    @property
    def seq(self) -> int:
        """Host only: the global move count (storage's compare-and-set key)."""
        return self._table.seq

    @property
    def over(self) -> bool:
        return self._table.over

    @property
    def outcome(self) -> Outcome | None:
        return self._table.outcome

    @property
    def rules(self) -> hr.Rules:
        """The public rules (phase configuration) a bot reads to shape its targets."""
        return self._table.rules

    @property
    def auto_advance(self) -> bool:
        return self._table.definition.auto_advance

    def log(self) -> TableLog:
        """Host only: it holds the seed."""
        return self._table.log()

    def last_move(self) -> LoggedMove:
        return self._table.moves()[-1]

    def version(self, reader: Reader) -> int:
        return self._table.version(reader)

    def view(self, reader: Reader) -> dict[str, Any]:
        """The reader's view as JSON-ready data, with its own version."""
        return self._table.view(reader).to_dict()

    def board(self, reader: Reader) -> dict[str, Any]:
        """The reader's view without its history (events, chat) or version: what a ``board`` client is pushed.

        Built from the same view as :meth:`view`, key for key, but never walks the history;
        the version is left out (the update carries it), so an unchanged board compares equal
        (and is the very same object while the reader's view core was not rebuilt).
        """
        v: Any = self._table.board(reader)  # the view's core (its very parts), or None: read the view
        if v is None:
            v = self._table.view(reader)
        me = v.me
        key = (v.players, me, v.moves, v.data, v.outcome)
        last = self._boards.get(reader)
        scalars = (v.phase, v.round, v.turn, v.over)
        if last is not None and _same(last[0], key):
            if last[1] == scalars:
                return last[2]  # the reader's core was not rebuilt: the very same board (a cache hit costs no copy)
            # Only the phase, round, turn or end moved (a phase end, for most readers): the same pieces.
            board = {**last[2], "phase": v.phase, "round": v.round, "turn": v.turn, "over": v.over}
            self._boards[reader] = (key, scalars, board)
            return board
        if self._options is None:
            self._options = dict(self._table.options)
        part = self._part
        board = {
            "table": self._table.id,
            "game": self._table.definition.name,
            "seat": reader,
            "phase": v.phase,
            "round": v.round,
            "turn": v.turn,
            "over": v.over,
            "options": self._options,
            "players": part(v.players, _players_json),
            "me": None if me is None else part(me, SeatSelf.to_dict),
            "moves": part(v.moves, list),
            "data": part(v.data, dict),
            "outcome": None if v.outcome is None else part(v.outcome, Outcome.to_dict),
        }
        self._boards[reader] = (key, scalars, board)
        return board

    def _part(self, piece: Any, to_json: Callable[[Any], Any]) -> Any:
        """``to_json(piece)``, built once per piece object (the entry holds the piece, so its id is not reused)."""
        parts = self._parts
        got = parts.get(id(piece))
        if got is not None and got[0] is piece:
            return got[1]
        if len(parts) >= MAX_BOARD_PARTS:
            parts.clear()
        out = to_json(piece)
        parts[id(piece)] = (piece, out)
        return out

    def observation(self, seat: str, error: str = "") -> Observation:
        """The seat's agent observation, built from the very view :meth:`view` returns now."""
        return observe(self._table.view(seat), self._table.rules.config, error)

    def since(self, reader: Reader, version: int) -> Notice:
        """Everything the reader saw after ``version`` (for a reconnect)."""
        return _notice(self._table.updates(reader, version))

    def phase_key(self) -> tuple[str, int, int]:
        """The phase, its round and :attr:`phase_serial`: what a deadline is set for (``facts`` without
        the readiness it asks the kernel for, which a move's commit does not need)."""
        status = self._table.status()
        return (status.phase, status.round, self.phase_serial)

    def facts(self) -> PhaseFacts:
        status = self._table.status()
        config = self._table.rules.config
        pc = config.phases.get(status.phase)
        acting = [s for s in (pc.steps if pc is not None else ()) if s.skill and s.role != hr.SYSTEM]
        public = bool(acting) and all(s.role == "" for s in acting)
        all_acted = False
        if public and not status.over:
            ready = self._table.readiness()
            all_acted = bool(ready.acted) and not ready.pending and not ready.optional
        return PhaseFacts(
            status.phase, status.round, status.over, config.phase_timeout(status.phase), public, all_acted
        )

    # ------------------------------------------------------------------ moving

    def play(self, move: Move, against: int | None = None) -> dict[Reader, Notice]:
        """Make ``move`` (the host's when ``move.seat`` is ``None``); the notices of the readers it changed.

        On a refusal (a stale ``against`` included) the table is unchanged and the typed error propagates.
        """
        before = self._table.status()
        self._heard.clear()
        try:
            self._table.play(move, against=against)
        finally:
            heard, self._heard = self._heard, {}
        after = self._table.status()
        if move.kind == END_PHASE or (before.phase, before.round) != (after.phase, after.round):
            self.phase_serial += 1
        out: dict[Reader, Notice] = {}
        for reader, notes in heard.items():
            if len(notes) == 1:
                out[reader] = _notice(notes[0])
            else:  # one move, several pushes: one notice with all of them
                merged = [_notice(n) for n in notes]
                out[reader] = Notice(
                    merged[-1].version,
                    tuple(e for m in merged for e in m.events),
                    tuple(c for m in merged for c in m.chat),
                )
        return out

    def end_phase(self) -> dict[Reader, Notice]:
        return self.play(Move(END_PHASE))
