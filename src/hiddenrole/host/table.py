"""A table: one game of one definition, whose truth is its log.

Everything a table holds besides its log (the kernel engine, its random stream, the
record of each reader, the outcome) is a cache, built by replaying the log from the
header. So a table saved as its log and replayed elsewhere is the same table, down
to every reader's view and version.

Moves are checked in a fixed order (stale version, table over, move shape and size,
seat, turn, skill, the game's own ``allows``) before anything changes; a refused
move raises a typed error and leaves the table as it was. Chance comes only from
the table's ``random.Random(seed)``: the game's ``draws`` hook says which draws a
move needs, the table makes them and hands them to the kernel as variables before
the move, and the log records how many were made. A move the kernel refuses after
its draws is rolled back from a checkpoint taken just before them, never by
replaying the log.

After every accepted move the table works out which readers' views changed, gives
each of those a new version and pushes it a :class:`~.views.Notice` with the lines
that reached it; readers whose view did not change hear nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random
import re
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

import hiddenrole as hr

from ..gamedef import (
    ACT,
    DELAY_TURN,
    END_PHASE,
    END_TURN,
    MOVE_KINDS,
    SAY,
    UNDO,
    Context,
    Deal,
    Draw,
    GameDefinition,
    Move,
    Outcome,
    Settings,
)
from .errors import (
    ChatLimitReached,
    InvalidGame,
    InvalidMove,
    InvalidOptions,
    InvalidSeats,
    InvalidTableLog,
    LogMismatch,
    MoveRefused,
    SeatNotFound,
    StaleMove,
    TooManyTargets,
    UndoRefused,
)
from .log import LoggedMove, TableEnd, TableHeader, TableLog
from .notices import HOST, Fanout, HostCallback, NoticeCallback
from .publisher import Publisher
from .readers import Core, Reader
from .views import ChatLine, HostNotice, Notice, SeatPlayer, SeatSelf, SeenEvent, TableView

__all__ = [
    "Table",
    "verify",
    "default_table_id",
    "MAX_SEED",
    "MAX_SAY",
    "MAX_SAYS_PER_PHASE",
    "MAX_TARGETS",
    "MAX_AUTO_PHASES",
]

MAX_SEED: Final = 2**53
"""Seeds are below this, so they survive any JSON reader (JavaScript numbers included)."""
MAX_SAY: Final = 2000
"""Longest chat line, in characters."""
MAX_SAYS_PER_PHASE: Final = 50
"""Chat lines one seat may say in one phase (a visit of a phase: the count starts again when it ends)."""
MAX_TARGETS: Final = 64
"""Most targets any act may name (a table seats at most 64); checked before the list is even read."""
MAX_AUTO_PHASES: Final = 100
"""Phases an auto-advancing table may end after one move before it blames the game."""

_SEAT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")
_ALWAYS_PUBLIC = frozenset({hr.GAME_STARTED, hr.GAME_ENDED})
_DRAWING = frozenset({ACT, END_TURN, DELAY_TURN, END_PHASE})
_NO_DATA: Mapping[str, Any] = MappingProxyType({})


def _token() -> str:
    """128 random bits from the operating system (the harness swaps this for a repeatable source)."""
    return secrets.token_hex(16)


def default_table_id(definition: GameDefinition, seed: int) -> str:
    """The id of a table opened without one: the game's name and 128 random bits.

    It is drawn apart from the seed on purpose: an id is shown to every seat, and
    a seed would let anyone re-run the deal.
    """
    return f"{definition.name}-{_token()}"


@dataclass(slots=True)
class _Heard:
    seq: int
    event: hr.Event
    audience: frozenset[str] | None


@dataclass(slots=True)
class _Said:
    seq: int
    message: hr.Message
    receivers: frozenset[str]
    public: bool


@dataclass(slots=True)
class _Run:
    """The cache built from the log: engine, random stream, readers, what was said, the outcome.

    ``stacks`` holds each seat's standing moves (undo takes back the top one);
    ``undoable`` the sequence numbers of acts that are still only pending choices;
    ``said`` how many lines each seat said in this phase; ``ends`` counts phase ends.
    """

    engine: hr.Engine
    rng: random.Random
    readers: dict[str | None, Reader]
    events: list[_Heard] = field(default_factory=list)
    chat: list[_Said] = field(default_factory=list)
    inbox: list[tuple[hr.Event, frozenset[str] | None]] = field(default_factory=list)
    stacks: dict[str, list[LoggedMove]] = field(default_factory=dict)
    undoable: list[int] = field(default_factory=list)
    said: dict[str, int] = field(default_factory=dict)
    ends: int = 0
    outcome: Outcome | None = None
    broken: bool = False
    shared: _Shared | None = None
    basis: dict[str | None, _Basis] = field(default_factory=dict)
    told: tuple[hr.Message, tuple[str, ...]] | None = None
    """The last line the kernel delivered and its receivers (the speech rule asked once, by ``send_message``)."""

    def listen(self, engine: hr.Engine) -> None:
        """Take ``engine`` as the run's kernel and hear its events and lines."""
        self.engine = engine
        engine.on_event(self.hear)
        engine.on_message(self.tell)

    def hear(self, event: hr.Event) -> None:
        """Kernel event handler: keep the event with its audience as of right after its batch."""
        audience = self.engine.audience_of(event)
        self.inbox.append((event, None if audience is None else frozenset(audience)))

    def tell(self, message: hr.Message, receivers: tuple[str, ...]) -> None:
        """Kernel message handler: who heard the line just sent (so the host need not ask again)."""
        self.told = (message, receivers)

    def end_phase(self) -> None:
        """End the kernel's phase: pending choices are resolved, chat counts start again."""
        self.engine.end_phase()
        self.ends += 1
        self.undoable.clear()
        self.said.clear()


@dataclass(slots=True)
class _Shared:
    """What every reader's view is built from after one move, computed once for all of them."""

    status: hr.Status
    ctx: Context
    public_roles: dict[str, str]
    data: Mapping[str, Any]
    alive: frozenset[str]
    turn: str
    initiative: bool
    players: tuple[SeatPlayer, ...] = ()
    """Every seat as a spectator sees it (public roles only), in table order: the spectator's row,
    and the row each seat's is patched from (only the entries of roles it knows differ)."""
    plain: tuple[tuple[str, bool, str], ...] = ()
    """Every seat as the kernel shows it to a seat that knows none of its roles: (seat, alive, "")."""
    speaks: dict[str, bool] = field(default_factory=dict)
    """Whether a seat's line would reach anyone on this board (the speech rule reads only the
    board), filled as the seats' moves are worked out."""


_Basis = tuple["_Shared", tuple[hr.SkillUse, ...], tuple[bool, bool], "Outcome | None"]
"""What a reader's last core was computed from: the shared part, the pending choices, the seat's own
chat and undo allowance, the outcome. Equal inputs give an equal core, so it is not built again."""


class Table:
    """One hosted game. Open with :meth:`open`, or rebuild from a log with :meth:`replay`.

    Every method is thread-safe (one lock per table). A seat's move returns that
    seat's new view version, a host move the table's new sequence number; pass
    ``against=`` the number a move was decided on to have a stale move refused with
    :class:`StaleMove`.
    """

    def __init__(
        self,
        definition: GameDefinition,
        header: TableHeader,
        moves: Sequence[LoggedMove] = (),
        publisher: Publisher | None = None,
    ) -> None:
        """Prefer :meth:`open` and :meth:`replay`; this checks the header and replays ``moves``."""
        if not isinstance(definition, GameDefinition):
            raise hr.InvalidArgument("a table needs a GameDefinition")
        if publisher is not None and not isinstance(publisher, Publisher):
            raise hr.InvalidArgument("publisher must be a hiddenrole.host.Publisher")
        self.definition = definition
        self.header = header
        self.options: Settings = definition.resolve_options(header.options)
        self.seats: tuple[str, ...] = _check_seats(definition, header.seats)
        self._seat_set = frozenset(self.seats)
        self._view_options: Mapping[str, Any] = MappingProxyType(dict(self.options))
        self._default_prefs = self.definition.resolve_preferences(None)
        """A reader's preferences when it gives none (resolved once: views are read often)."""
        _check_seed(header.seed)
        _check_table_id(header.table)
        self._publisher = publisher
        self._fanout = Fanout()
        self._players: dict[tuple[str, bool, str], SeatPlayer] = {}
        self._selves: dict[tuple[object, ...], SeatSelf] = {}
        """Each seat's own part by what it holds but its role info (checked on a hit), as ``_players``."""
        self._lock = threading.RLock()
        self._moves: list[LoggedMove] = list(moves)
        self._run = self._build(self._moves)

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        definition: GameDefinition,
        seats: int | Sequence[str],
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        *,
        table_id: str | None = None,
        publisher: Publisher | None = None,
    ) -> Table:
        """A new table. ``seats`` is a count (seats ``p1``, ``p2``, ...) or names; their sorted order is table order.

        Without a ``seed`` one is drawn from the operating system and recorded in the
        header. Without a ``table_id`` a random one is drawn (:func:`default_table_id`).
        """
        if not isinstance(definition, GameDefinition):
            raise hr.InvalidArgument("a table needs a GameDefinition")
        names = _seat_names(seats)
        settings = definition.resolve_options(options)
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        _check_seed(seed)
        header = TableHeader(
            table_id if table_id is not None else default_table_id(definition, seed),
            definition.name,
            definition.version,
            settings,
            names,
            seed,
        )
        return cls(definition, header, (), publisher)

    @classmethod
    def replay(
        cls, definition: GameDefinition, log: TableLog | bytes | str, *, publisher: Publisher | None = None
    ) -> Table:
        """The table a log describes. Refuses another game or rules version (:class:`hiddenrole.RulesMismatch`),
        bad options, a move that cannot be replayed, and an end the replay does not reach."""
        if not isinstance(definition, GameDefinition):
            raise hr.InvalidArgument("replay needs a GameDefinition")
        tlog = _coerce_log(log)
        h = tlog.header
        if h.game != definition.name:
            raise hr.RulesMismatch(f"the log is of game {h.game!r}, not {definition.name!r}")
        if h.version != definition.version:
            raise hr.RulesMismatch(
                f"the log was written under {h.game} rules version {h.version!r}; this host has {definition.version!r}"
            )
        for i, m in enumerate(tlog.moves):
            if m.seq != i + 1:
                raise InvalidTableLog(f"move {i + 1} carries sequence number {m.seq}")
        table = cls(definition, h, tlog.moves, publisher)
        if tlog.end is not None:
            table._check_end(tlog.end)
        return table

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self.header.table

    @property
    def seq(self) -> int:
        """Host only: the number of moves in the log (0 for a table nobody has moved at).

        It counts moves no seat may see, so it never appears in a view or a notice.
        """
        with self._lock:
            return len(self._moves)

    @property
    def over(self) -> bool:
        with self._lock:
            return self._run.engine.status().over

    @property
    def outcome(self) -> Outcome | None:
        """How the table ended, or ``None`` while it goes on."""
        with self._lock:
            return self._run.outcome

    @property
    def rules(self) -> hr.Rules:
        """The kernel rules this table plays (built by the definition's setup)."""
        with self._lock:
            return self._run.engine.rules

    def status(self) -> hr.Status:
        """Phase, round, over, winning camps (camps are public once the game is over)."""
        with self._lock:
            return self._run.engine.status()

    def readiness(self) -> hr.Readiness:
        """Host only (it names the roles of those who owe a move): may the phase end now?"""
        with self._lock:
            return self._run.engine.readiness()

    def inspect(self) -> hr.GameView:
        """Host only: a detached god view of the board, for a moderator or a test."""
        with self._lock:
            return self._run.engine.view()

    def log(self) -> TableLog:
        """Host only: the table's truth, with the end it has reached (it holds the seed: never send it to a seat)."""
        with self._lock:
            return TableLog(self.header, tuple(self._moves), self._end())

    def moves(self) -> tuple[LoggedMove, ...]:
        """Host only: every move so far."""
        with self._lock:
            return tuple(self._moves)

    def version(self, seat: str | None) -> int:
        """``seat``'s view version (``None``: the spectators')."""
        with self._lock:
            return self._reader(seat).version

    def can_undo(self, seat: str | None = None) -> bool:
        """Would ``undo`` by ``seat`` (``None``: the host) be accepted now?"""
        with self._lock:
            return self._undo_target(self._run, seat)[1] == ""

    def view(self, seat: str | None = None, preferences: Mapping[str, object] | None = None) -> TableView:
        """What ``seat`` may see now, shaped by its player's ``preferences``; ``None`` for a spectator.

        A spectator sees public information only: no role the game has not made public,
        only events and chat that every seat (every living seat, for chat) received.
        """
        prefs = self._default_prefs if preferences is None else self.definition.resolve_preferences(preferences)
        with self._lock:
            view = self._reader(seat).view(self.id, self.definition.name, self._view_options)
        arrange = self.definition.arrange
        if arrange is None:
            return view
        shaped = arrange(view, prefs)
        if not isinstance(shaped, TableView) or (shaped.table, shaped.seat, shaped.version) != (
            view.table,
            view.seat,
            view.version,
        ):
            raise InvalidGame(f"game {self.definition.name!r}: arrange must return the same seat's TableView")
        return shaped

    def board(self, seat: str | None) -> Core | None:
        """Host only, for a server's pushes: ``seat``'s view core as :meth:`view` would show it with
        default preferences (its parts are the very objects the view holds), without assembling
        the view or copying its history; ``None`` when the game arranges views (read :meth:`view`)."""
        if self.definition.arrange is not None:
            return None
        with self._lock:
            return self._reader(seat).core

    def updates(self, seat: str | None, since: int) -> Notice:
        """What reached ``seat`` after its version ``since``, and its version now (a reconnect's catch-up)."""
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise hr.InvalidArgument("since must be a version (a whole number >= 0)")
        with self._lock:
            return self._reader(seat).since(self.id, since)

    def host_lines(self, since: int = -1) -> tuple[tuple[SeenEvent, ...], tuple[ChatLine, ...]]:
        """Host only: the events and chat anyone received after move ``since`` (``-1``: from the deal), ``at`` = seq."""
        with self._lock:
            run = self._run
            events = tuple(_seen(h, h.seq) for h in run.events if h.seq > since and _visible_to_someone(h))
            chat = tuple(_line(c, c.seq) for c in run.chat if c.seq > since)
            return events, chat

    # ------------------------------------------------------------------ subscribing

    def subscribe(self, seat: str | None, callback: NoticeCallback) -> Callable[[], None]:
        """Push ``callback(notice)`` each time ``seat``'s view changes (``None``: the spectator view).

        Only that reader's changes arrive, each with its new version and the events
        and chat lines that reached it. Returns an unsubscribe function. Callbacks
        run after the table's lock is released, in move order, never nested; one may
        make a move (its notices queue behind the current ones).
        """
        with self._lock:
            self._reader(seat)
        return self._fanout.subscribe(seat, callback)

    def subscribe_host(self, callback: HostCallback) -> Callable[[], None]:
        """Host only: ``callback(host_notice)`` after every accepted move (see :class:`HostNotice`)."""
        return self._fanout.subscribe(HOST, callback)

    # ------------------------------------------------------------------ moving

    def act(self, seat: str, skill: str, targets: Iterable[str] = (), *, against: int | None = None) -> int:
        """``seat`` uses ``skill`` on ``targets``; returns the seat's view version."""
        if isinstance(targets, str):
            targets = (targets,)
        return self.play(Move(ACT, seat, skill, _targets(targets)), against=against)

    def say(self, seat: str, text: str, *, against: int | None = None) -> int:
        """``seat`` speaks; whoever the game's speech rule allows hears it."""
        return self.play(Move(SAY, seat, text=text), against=against)

    def end_turn(self, seat: str, *, against: int | None = None) -> int:
        """The seat with the turn ends it."""
        return self.play(Move(END_TURN, seat), against=against)

    def delay_turn(self, seat: str, *, against: int | None = None) -> int:
        """The seat with the turn (initiative phases) waits until the others have acted."""
        return self.play(Move(DELAY_TURN, seat), against=against)

    def end_phase(self, *, against: int | None = None) -> int:
        """The host resolves the phase and moves on; returns the table's sequence number."""
        return self.play(Move(END_PHASE), against=against)

    def undo(self, seat: str | None = None, *, against: int | None = None) -> int:
        """Take back ``seat``'s latest move while it is still only a pending choice (the host: the table's latest)."""
        return self.play(Move(UNDO, seat), against=against)

    def play(self, move: Move, *, against: int | None = None) -> int:
        """Make any move (e.g. one decoded from a client).

        Returns the mover's number for its next ``against=``: the seat's view version,
        or for a host move (``seat=None``) the table's sequence number.
        """
        if not isinstance(move, Move):
            raise InvalidMove(f"expected a Move, got {type(move).__name__}")
        if isinstance(move.targets, tuple) and len(move.targets) > MAX_TARGETS:
            raise TooManyTargets(f"an act names at most {MAX_TARGETS} targets")
        with self._lock:
            self._check_against(move, against)
            if self._run.engine.status().over:
                raise hr.GameEnded("the table is over: no more moves")
            seq = self._undo(move) if move.kind == UNDO else self._accept(move)
            result = seq if move.seat is None else self._run.readers[move.seat].version
        self._fanout.drain()
        if self._publisher is not None:
            self._publisher.publish(self.id, seq)
        return result

    def _check_against(self, move: Move, against: int | None) -> None:
        if against is None:
            return
        if isinstance(against, bool) or not isinstance(against, int):
            raise InvalidMove("against must be a version number")
        if move.seat is None:
            current, what = len(self._moves), "the table is at sequence"
        else:
            current, what = self._run.readers[self._seat(move.seat)].version, "your view is at version"
        if against != current:
            raise StaleMove(f"the move was made against {against}, {what} {current}", against, current)

    def _accept(self, move: Move) -> int:
        seq = len(self._moves) + 1
        run = self._run
        simultaneous = _simultaneous(run.engine)
        ends = run.ends
        try:
            draws = self._execute(run, move, seq)
        except BaseException:
            if run.broken:
                self._run = self._build(self._moves)
            raise
        logged = LoggedMove(seq, move.kind, move.seat, move.skill, move.targets, move.text, draws)
        self._moves.append(logged)
        self._filed(run, logged, simultaneous, run.ends == ends, deliver=True)
        return seq

    def _undo(self, move: Move) -> int:
        run = self._run
        if move.seat is not None:
            self._seat(move.seat)
        target, problem = self._undo_target(run, move.seat)
        if problem:
            raise UndoRefused(problem)
        assert target is not None
        self._ask_allows(run, move)
        seq = len(self._moves) + 1
        self._take_back(run, target)
        logged = LoggedMove(seq, UNDO, move.seat)
        self._moves.append(logged)
        self._observe(run, logged, (target.seat,), deliver=True)
        return seq

    # ------------------------------------------------------------------ undo

    def _undo_target(self, run: _Run, seat: str | None) -> tuple[LoggedMove | None, str]:
        """The move ``undo`` by ``seat`` would take back, and why it may not (``""``: it may).

        Only a choice nobody has seen a consequence of may be taken back: an act in a
        phase where everyone acts at once, that drew no chance and is still pending
        (the phase has not ended: the move that ends it, such as the last vote of an
        auto-advancing game, is never pending).
        """
        if not self.definition.undo:
            return None, f"{self.definition.name} does not allow taking moves back"
        if run.engine.status().over:
            return None, "the table is over"
        if seat is None:
            if run.undoable:
                return self._moves[run.undoable[-1] - 1], ""
            tops = [stack[-1] for stack in run.stacks.values() if stack]
            if not tops:
                return None, "there is no move to take back"
            return None, _why_final(max(tops, key=lambda m: m.seq))
        if seat not in self._seat_set:
            return None, f"no seat {seat!r}"
        stack = run.stacks.get(seat)
        if not stack:
            return None, "there is no move to take back"
        top = stack[-1]
        return top, "" if top.seq in run.undoable else _why_final(top)

    def _take_back(self, run: _Run, target: LoggedMove) -> None:
        """Drop the pending choice ``target`` made: the board is otherwise exactly as before it."""
        seat = target.seat
        assert seat is not None
        snap = run.engine.snapshot()
        pending = list(snap.pending)
        mine = [i for i, u in enumerate(pending) if u.player_id == seat]
        if not mine:
            raise InvalidGame(f"game {self.definition.name!r}: the choice to take back is no longer pending")
        del pending[mine[-1]]
        self._restore(run, dataclasses.replace(snap, pending=tuple(pending)))
        run.undoable.remove(target.seq)
        run.stacks[seat].pop()

    def _restore(self, run: _Run, snap: hr.Snapshot) -> None:
        """Put the kernel back to ``snap`` (taken by this very table, so it is not re-verified)."""
        run.listen(hr.Engine.restore(run.engine.rules, snap, verify=False))

    # ------------------------------------------------------------------ the cache

    def _build(self, moves: Sequence[LoggedMove]) -> _Run:
        """Set the table up from the header and replay every move, undos included."""
        run = self._fresh()
        for m in moves:
            if run.engine.status().over:
                raise InvalidTableLog(f"move {m.seq} comes after the end of the game")
            if m.kind == UNDO:
                self._replay_undo(run, m)
                continue
            simultaneous = _simultaneous(run.engine)
            ends = run.ends
            try:
                self._execute(run, Move(m.kind, m.seat, m.skill, m.targets, m.text), m.seq, m.draws)
            except (InvalidGame, InvalidTableLog):
                raise
            except hr.GameError as exc:
                raise InvalidTableLog(f"move {m.seq} ({m.kind}) cannot be replayed: {exc}") from None
            self._filed(run, m, simultaneous, run.ends == ends, deliver=False)
        return run

    def _replay_undo(self, run: _Run, m: LoggedMove) -> None:
        if not self.definition.undo:
            raise InvalidTableLog(f"move {m.seq} is an undo, which this game does not allow")
        target, problem = self._undo_target(run, m.seat)
        if problem or target is None:
            raise InvalidTableLog(f"move {m.seq} cannot undo: {problem}")
        self._take_back(run, target)
        self._observe(run, m, (target.seat,), deliver=False)

    def _fresh(self) -> _Run:
        """A table as dealt: seeded randomness, the game's setup, the kernel started, every reader at version 1."""
        d = self.definition
        rng = random.Random(self.header.seed)
        try:
            deal = d.setup(self.options, self.seats, rng)
        except (InvalidGame, InvalidOptions, InvalidSeats):
            raise
        except hr.GameError as exc:
            raise InvalidGame(f"game {d.name!r}: setup failed: {exc}") from None
        roles = _check_deal(d, deal, self.seats)
        readers: dict[str | None, Reader] = {s: Reader(s) for s in self.seats}
        readers[None] = Reader(None)
        engine = hr.Engine(deal.rules)
        run = _Run(engine, rng, readers)
        run.listen(engine)
        try:
            for seat in self.seats:
                run.engine.add_player(seat, roles[seat])
            run.engine.start()
            self._settle(run, 0)
        except InvalidGame:
            raise
        except hr.GameError as exc:
            raise InvalidGame(f"game {d.name!r}: the dealt table cannot start: {exc}") from None
        self._observe(run, None, None, deliver=False)
        return run

    def _execute(self, run: _Run, move: Move, seq: int, recorded: int | None = None) -> int:
        """Check ``move``, make its draws, hand it to the kernel, settle; returns the number of draws.

        Refusals happen before anything changes, or, for one the kernel makes after
        the draws, are rolled back from the checkpoint taken before them. If anything
        else fails half-way (a bug in the game), ``run.broken`` is set and the caller
        rebuilds.
        """
        self._precheck(run, move)
        self._ask_allows(run, move)
        draws = self._ask_draws(run, move)
        if recorded is not None and recorded != len(draws):
            raise InvalidTableLog(f"move {seq} recorded {recorded} random draws; the game now asks for {len(draws)}")
        engine = run.engine
        checkpoint: tuple[hr.Snapshot, object] | None = None
        try:
            if draws:
                checkpoint = (engine.snapshot(), run.rng.getstate())
                values = [d.make(run.rng) for d in draws]
                engine.apply(*(hr.set_var(d.scope, d.key, v) for d, v in zip(draws, values, strict=True)))
            self._kernel(run, move, seq)
        except hr.GameError:
            run.inbox.clear()
            if checkpoint is not None:
                self._restore(run, checkpoint[0])
                run.rng.setstate(checkpoint[1])  # type: ignore[arg-type]
            raise
        except BaseException:
            run.inbox.clear()
            run.broken = True
            raise
        try:
            self._settle(run, seq)
        except BaseException:
            run.inbox.clear()
            run.broken = True
            raise
        return len(draws)

    def _precheck(self, run: _Run, move: Move) -> None:
        """Refuse what is malformed, too big, or plainly not allowed, before anything changes."""
        kind, seat = move.kind, move.seat
        if kind not in MOVE_KINDS:
            raise InvalidMove(f"unknown move {kind!r} (moves: {', '.join(MOVE_KINDS)})")
        if kind == END_PHASE:
            if seat is not None:
                raise MoveRefused("only the host ends a phase")
            return
        if seat is None:
            raise InvalidMove(f"a {kind} move needs a seat")
        self._seat(seat)
        engine = run.engine
        if kind == ACT:
            if not isinstance(move.skill, str) or not move.skill:
                raise InvalidMove("an act needs a skill")
            if not isinstance(move.targets, tuple) or not all(isinstance(t, str) for t in move.targets):
                raise InvalidMove("targets must be a tuple of texts")
            if len(move.targets) > MAX_TARGETS:
                raise TooManyTargets(f"an act names at most {MAX_TARGETS} targets")
            if move.skill not in engine.allowed_skills(seat):
                raise self._why_not(run, seat, move.skill)
        elif kind == SAY:
            if not isinstance(move.text, str) or not move.text.strip() or len(move.text) > MAX_SAY:
                raise InvalidMove(f"say needs 1..{MAX_SAY} characters of text")
            if run.said.get(seat, 0) >= MAX_SAYS_PER_PHASE:
                raise ChatLimitReached(f"{seat} has said {MAX_SAYS_PER_PHASE} lines this phase; wait for the next")
        elif kind in (END_TURN, DELAY_TURN):
            turn = _turn(engine)
            if turn != seat:
                raise hr.NotYourTurn(f"it is {turn or 'nobody'}'s turn, not {seat}'s")

    def _why_not(self, run: _Run, seat: str, skill: str) -> hr.GameError:
        engine = run.engine
        phase = engine.status().phase
        pc = engine.rules.config.phases.get(phase)
        known = pc is not None and any(s.skill == skill for s in pc.steps)
        turn = _turn(engine)
        if known and turn and turn != seat and pc is not None and skill not in pc.out_of_turn:
            return hr.NotYourTurn(f"it is {turn}'s turn, not {seat}'s")
        return hr.SkillNotAllowed(f"{seat} may not use {skill} now ({phase}, round {engine.status().round})")

    def _ask_allows(self, run: _Run, move: Move) -> None:
        hook = self.definition.allows
        if hook is None:
            return
        reason = hook(move, self._board(run))
        if reason is None or reason == "":
            return
        if not isinstance(reason, str):
            raise InvalidGame(f"game {self.definition.name!r}: allows must return None or a reason text")
        raise MoveRefused(reason)

    def _ask_draws(self, run: _Run, move: Move) -> tuple[Draw, ...]:
        hook = self.definition.draws
        if hook is None or move.kind not in _DRAWING:
            return ()
        got = hook(move, self._board(run))
        if got is None:
            return ()
        draws = tuple(got)
        for d in draws:
            if not isinstance(d, Draw):
                raise InvalidGame(f"game {self.definition.name!r}: draws must return Draw values, got {d!r}")
            d.check()
        return draws

    def _kernel(self, run: _Run, move: Move, seq: int) -> None:
        engine = run.engine
        seat = move.seat
        if move.kind == END_PHASE:
            run.end_phase()
            return
        assert seat is not None
        if move.kind == ACT:
            engine.submit(seat, move.skill, move.targets)
        elif move.kind == SAY:
            message = engine.send_message(seat, move.text)
            told, run.told = run.told, None
            heard = told[1] if told is not None and told[0] is message else engine.message_receivers(seat)
            receivers = frozenset(heard)
            living = frozenset(engine.alive_player_ids())
            run.chat.append(_Said(seq, message, receivers, bool(living) and living <= receivers))
            run.said[seat] = run.said.get(seat, 0) + 1
        elif move.kind == END_TURN:
            engine.end_turn(seat)
        elif move.kind == DELAY_TURN:
            engine.delay_turn(seat)

    def _settle(self, run: _Run, seq: int) -> None:
        """After a move: end ready phases (auto-advance), file the events, read the outcome."""
        engine = run.engine
        if self.definition.auto_advance:
            for _ in range(MAX_AUTO_PHASES):
                if engine.status().over or not engine.readiness().ready:
                    break
                run.end_phase()
            else:
                raise InvalidGame(
                    f"game {self.definition.name!r}: {MAX_AUTO_PHASES} phases ended in a row with nobody to act"
                )
        for event, audience in run.inbox:
            run.events.append(_Heard(seq, event, audience))
        run.inbox.clear()
        if run.outcome is None and engine.status().over:
            run.outcome = self._outcome(run)

    def _outcome(self, run: _Run) -> Outcome:
        d = self.definition
        camps = run.engine.status().winners
        ctx = self._context(run)._replace(effects=run.engine.log().effects)
        got = d.outcome(ctx, camps) if d.outcome is not None else _default_outcome(ctx, camps)
        return d.check_outcome(got, self.seats)

    def _board(self, run: _Run) -> Context:
        """A hook's context for the board as it stands (the one the readers were last shown, when it is still valid)."""
        shared = run.shared
        return shared.ctx if shared is not None else self._context(run)

    def _context(self, run: _Run) -> Context:
        return Context(run.engine.view(), self.options, self.seats, run.engine.rules)

    def _seat(self, seat: object) -> str:
        if not isinstance(seat, str):
            raise InvalidMove(f"a seat is named by a text, got {type(seat).__name__}")
        if seat not in self._seat_set:
            raise SeatNotFound(f"no seat {seat!r} at this table")
        return seat

    def _reader(self, seat: object) -> Reader:
        if seat is None:
            return self._run.readers[None]
        return self._run.readers[self._seat(seat)]

    def _digest(self, run: _Run) -> str:
        """The board as the kernel saves it, hashed (draws and sequence are checked move by move)."""
        return hashlib.sha256(run.engine.snapshot().to_json()).hexdigest()

    def _end(self) -> TableEnd:
        return TableEnd(len(self._moves), self._digest(self._run), self._run.outcome)

    def _check_end(self, end: TableEnd) -> None:
        mine = self._end()
        if end.seq != mine.seq:
            raise LogMismatch(f"the log records its end at move {end.seq}, but holds {mine.seq} moves")
        if end.outcome != mine.outcome:
            raise LogMismatch(f"the log records outcome {end.outcome}, the replay reaches {mine.outcome}")
        if end.digest != mine.digest:
            raise LogMismatch("the replayed board differs from the one the log records")

    # ------------------------------------------------------------------ readers

    def _filed(self, run: _Run, m: LoggedMove, simultaneous: bool, still: bool, *, deliver: bool) -> None:
        """Book an accepted (or replayed) move: the seat's stack, undo, then the readers it touched.

        Which readers a move can touch is decided from what the move is, conservatively:
        a line said reaches its hearers (and the speaker); an act that only added a
        pending choice in a simultaneous phase (no draw, no phase ended, no event)
        changes nothing anyone else sees, so only the mover is looked at again. Every
        other move (and any move after which a phase ended: ``still`` is false) looks at
        every reader. Each reader looked at is then compared with
        its own last view, so a version moves exactly when that view changed.
        """
        seat = m.seat
        if seat is not None:
            run.stacks.setdefault(seat, []).append(m)
        new_events = bool(run.events) and run.events[-1].seq == m.seq
        touched: tuple[str | None, ...] | None = None
        if m.kind == SAY and seat is not None and still and not new_events:
            said = run.chat[-1]
            heard = said.receivers
            # The hearers and the speaker in table order, the spectator last (as every move looks at readers).
            hearers: tuple[str | None, ...] = tuple(s for s in self.seats if s == seat or s in heard)
            touched = (*hearers, None) if said.public else hearers
        elif m.kind == ACT and seat is not None and simultaneous and still and not m.draws and not new_events:
            touched = (seat,)
            if self.definition.undo:
                # Only a seat's latest choice can be withdrawn: whether an earlier one still
                # counts is the kernel's business (it may keep, replace or refuse a second one).
                mine = {x.seq for x in run.stacks[seat][:-1]}
                run.undoable = [n for n in run.undoable if n not in mine]
                run.undoable.append(m.seq)
        self._observe(run, m, touched, deliver=deliver)

    def _observe(
        self, run: _Run, m: LoggedMove | None, touched: tuple[str | None, ...] | None, *, deliver: bool
    ) -> None:
        """Recompute the views of ``touched`` readers (``None``: all), count changes, post notices.

        ``touched`` is given only for moves that leave the board as it was (a line said,
        a pending choice made or taken back), so the last move's shared part is kept without
        even copying the board to compare it. Every reader looked at is rebuilt only when an
        input of its core changed (the board, the pending choices, its own chat and undo
        allowance, the outcome): a line said rebuilds nobody's core but maybe the speaker's.
        """
        seq = 0 if m is None else m.seq
        history = run.events
        fresh = (
            [h for h in itertools.takewhile(lambda h: h.seq == seq, reversed(history))][::-1]
            if history and history[-1].seq == seq
            else []
        )
        said = run.chat[-1] if (m is not None and m.kind == SAY and run.chat and run.chat[-1].seq == seq) else None
        last_shared = run.shared
        shared = last_shared if touched is not None and last_shared is not None else self._current_shared(run)
        run.shared = shared
        pending = run.engine.pending_uses()
        basis = run.basis
        every = self._seat_set
        order: Iterable[str | None] = touched if touched is not None else (*self.seats, None)
        # Who sees which fresh event (by its index), worked out once per event rather than once per reader and event.
        public: list[int] = []
        heard: dict[str | None, list[int]] = {}
        for i, h in enumerate(fresh):
            if h.event.type in _ALWAYS_PUBLIC:
                public.append(i)
                continue
            if h.audience is None:
                continue
            for seat in h.audience:
                if seat in every:
                    heard.setdefault(seat, []).append(i)
            if every <= h.audience:
                heard.setdefault(None, []).append(i)
        mixed = bool(public) and bool(heard)
        # Lines reaching a reader always move its version by one, so each is stamped at once with
        # that version; readers at the same version share the very same (frozen) line.
        stamped: dict[tuple[int, int], SeenEvent] = {}
        lines: dict[int, ChatLine] = {}
        changed_seats: list[str] = []
        spectator = False
        listening: frozenset[object] = self._fanout.listeners() if deliver else frozenset()
        posts: list[tuple[object, Notice | HostNotice]] = []
        table_id = self.header.table
        readers = run.readers
        outcome = run.outcome
        chat_ok = run.said
        undo_on = self.definition.undo
        line = said.message if said is not None else None
        said_to = said.receivers if said is not None else frozenset()
        said_public = said is not None and said.public
        for who in order:
            reader = readers[who]
            core: Core | None = None
            if who is None:
                own = (False, False)
            else:
                stack = run.stacks.get(who)
                own = (
                    chat_ok.get(who, 0) < MAX_SAYS_PER_PHASE,
                    bool(undo_on and stack and stack[-1].seq in run.undoable),
                )
            last = basis.get(who)
            if last is None or last[0] is not shared or last[1] != pending or last[2] != own or last[3] != outcome:
                core = self._core(run, shared, who, reader.core)
                basis[who] = (shared, pending, own, outcome)
            mine = [i for i, h in enumerate(fresh) if _visible(h, who, every)] if mixed else heard.get(who, public)
            hears = line is not None and (said_public if who is None else (who in said_to or who == line.sender))
            events: list[SeenEvent] = []
            chat: list[ChatLine] = []
            if mine or hears:
                at = reader.version + 1
                for i in mine:
                    e = stamped.get((i, at))
                    if e is None:
                        e = stamped[(i, at)] = _seen(fresh[i], at)
                    events.append(e)
                if said is not None and hears:
                    c = lines.get(at)
                    if c is None:
                        c = lines[at] = _line(said, at)
                    chat.append(c)
            got = reader.update(core, events, chat)
            if got is None:
                continue
            if who is None:
                spectator = True
            else:
                changed_seats.append(who)
            if who in listening:
                version, ev, ch = got
                posts.append((who, Notice(table_id, who, version, tuple(ev), tuple(ch))))
        if m is not None and HOST in listening:
            host_events = tuple(_seen(h, seq) for h in fresh if _visible_to_someone(h))
            host_chat = (_line(said, seq),) if said is not None else ()
            note = HostNotice(table_id, seq, m.kind, m.seat, host_events, host_chat, tuple(changed_seats), spectator)
            posts.append((HOST, note))
        if posts:
            self._fanout.post(posts)

    def _current_shared(self, run: _Run) -> _Shared:
        """The shared part for the board as it stands: the last one again when the board is unchanged.

        The game's hooks (``public``, ``public_roles``, ``allows``) read only the board, the
        options and the seats, so on an unchanged board they are not asked again.
        """
        ctx = self._context(run)
        last = run.shared
        if last is not None and ctx.view.same_board(last.ctx.view):
            return last
        return self._shared(run, ctx)

    def _shared(self, run: _Run, ctx: Context | None = None) -> _Shared:
        engine = run.engine
        status = engine.status()
        if ctx is None:
            ctx = self._context(run)
        public_roles = self._public_roles(ctx)
        data = MappingProxyType(dict(self.definition.public(ctx))) if self.definition.public is not None else _NO_DATA
        pc = engine.rules.config.phases.get(status.phase)
        queued = pc is not None and pc.turn_order in (hr.SEQUENTIAL, hr.INITIATIVE)
        turn = _turn(engine) if queued and not status.over else ""
        initiative = pc is not None and pc.turn_order is hr.INITIATIVE
        alive = frozenset(engine.alive_player_ids())
        players = tuple(self._player(s, s in alive, public_roles.get(s, "")) for s in self.seats)
        plain = tuple((s, s in alive, "") for s in self.seats)
        return _Shared(status, ctx, public_roles, data, alive, turn, initiative, players, plain)

    def _core(self, run: _Run, shared: _Shared, seat: str | None, last: Core | None = None) -> Core:
        """What ``seat`` (``None``: a spectator) sees now, events and chat aside.

        Built from the shared part: the public players row is reused as it is for every
        seat that knows no more roles than the public (only the seat itself and the
        teammates the kernel shows it differ), and a piece equal to the reader's ``last``
        core's is that very object, so unchanged pieces stay identical from move to move.
        :meth:`_plain_core` is the straightforward computation it must always equal.
        """
        status = shared.status
        public = shared.players
        if seat is None:
            return Core(
                status.phase, status.round, shared.turn, status.over, public, None, (), shared.data, run.outcome
            )
        pv = run.engine.player_view(seat)
        infos = pv.players
        players = public
        if len(infos) != len(public):
            players = self._players_of(pv.players, shared.public_roles)
        else:
            odd = [i for i, (p, q) in enumerate(zip(infos, shared.plain, strict=True)) if p != q]  # compared in C
            if odd:
                row = list(public)
                roles = shared.public_roles
                for i in odd:
                    p = infos[i]
                    row[i] = self._player(p.id, p.alive, p.role or roles.get(p.id, ""))
                players = tuple(row)
        ps = pv.self
        # The seat's own part as it was the last time it looked like this (a seat's part comes back
        # phase after phase): the very same object, so whoever caches by identity finds it again.
        key = (seat, ps.role, ps.camp, ps.alive, pv.allowed_skills, pv.teammates, pv.targets)
        me = self._selves.get(key)
        if me is None or me.role_info != pv.role_info:
            me = SeatSelf(seat, ps.role, ps.camp, ps.alive, pv.allowed_skills, pv.teammates, pv.role_info, pv.targets)
            self._selves[key] = me
        moves = self._moves_for(run, shared, seat, me, pv.turn)
        if last is not None:
            if last.players is not players and last.players == players:
                players = last.players
            if last.moves == moves:
                moves = last.moves
        return Core(status.phase, status.round, pv.turn, status.over, players, me, moves, shared.data, run.outcome)

    def _players_of(self, infos: Iterable[Any], roles: Mapping[str, str]) -> tuple[SeatPlayer, ...]:
        return tuple(self._player(p.id, p.alive, p.role or roles.get(p.id, "")) for p in infos)

    def _plain_core(self, run: _Run, shared: _Shared, seat: str | None) -> Core:
        """The reference computation of a reader's core, with no sharing (what :meth:`_core` must equal)."""
        status = shared.status
        roles = shared.public_roles
        if seat is None:
            players = tuple(SeatPlayer(s, s in shared.alive, roles.get(s, "")) for s in self.seats)
            return Core(
                status.phase, status.round, shared.turn, status.over, players, None, (), shared.data, run.outcome
            )
        pv = run.engine.player_view(seat)
        players = tuple(SeatPlayer(p.id, p.alive, p.role or roles.get(p.id, "")) for p in pv.players)
        me = SeatSelf(
            seat, pv.self.role, pv.self.camp, pv.self.alive, pv.allowed_skills, pv.teammates, pv.role_info, pv.targets
        )
        moves = self._moves_for(run, shared, seat, me, pv.turn)
        return Core(status.phase, status.round, pv.turn, status.over, players, me, moves, shared.data, run.outcome)

    def _player(self, seat: str, alive: bool, role: str) -> SeatPlayer:
        """One shared value per (seat, alive, role): views are rebuilt often and compared often."""
        key = (seat, alive, role)
        got = self._players.get(key)
        if got is None:
            got = self._players[key] = SeatPlayer(seat, alive, role)
        return got

    def _uncached_core(self, seat: str | None) -> Core:
        """The reader's core computed from scratch now (the harness checks the cache against it)."""
        with self._lock:
            run = self._run
            return self._plain_core(run, self._shared(run), seat)

    def _public_roles(self, ctx: Context) -> dict[str, str]:
        hook = self.definition.public_roles
        if hook is None:
            return {}
        got = hook(ctx)
        if not isinstance(got, Mapping) or not all(
            isinstance(k, str) and k in self.seats and isinstance(v, str) for k, v in got.items()
        ):
            raise InvalidGame(f"game {self.definition.name!r}: public_roles must map seats to roles")
        return dict(got)

    def _moves_for(self, run: _Run, shared: _Shared, seat: str, me: SeatSelf, turn: str) -> tuple[str, ...]:
        """The kinds of move ``seat`` could make now (advice for a client's buttons)."""
        engine = run.engine
        if shared.status.over:
            return ()
        kinds: list[str] = []
        if me.allowed_skills:
            kinds.append(ACT)
        if run.said.get(seat, 0) < MAX_SAYS_PER_PHASE:
            speaks = shared.speaks.get(seat)
            if speaks is None:
                try:
                    speaks = bool(engine.message_receivers(seat))
                except hr.GameError:
                    speaks = False
                shared.speaks[seat] = speaks
            if speaks:
                kinds.append(SAY)
        if turn == seat:
            kinds.append(END_TURN)
            if shared.initiative:
                kinds.append(DELAY_TURN)
        if self.definition.undo:
            stack = run.stacks.get(seat)
            if stack and stack[-1].seq in run.undoable:
                kinds.append(UNDO)
        allows = self.definition.allows
        if allows is None:
            return tuple(kinds)
        ctx = shared.ctx
        out = []
        for k in kinds:
            if k == ACT or not allows(Move(k, seat), ctx):
                out.append(k)
        return tuple(out)


# ---------------------------------------------------------------------- helpers


def _why_final(m: LoggedMove) -> str:
    """Why a standing move can no longer be taken back."""
    if m.kind == SAY:
        return "words said cannot be taken back"
    if m.draws:
        return "the last move drew at random and cannot be taken back"
    return "the last move has taken effect (it was resolved, or the phase moved on)"


def _visible(h: _Heard, who: str | None, every: frozenset[str]) -> bool:
    if h.event.type in _ALWAYS_PUBLIC:
        return True
    if h.audience is None:
        return False
    return every <= h.audience if who is None else who in h.audience


def _visible_to_someone(h: _Heard) -> bool:
    return h.event.type in _ALWAYS_PUBLIC or bool(h.audience)


def _seen(h: _Heard, at: int) -> SeenEvent:
    e = h.event
    return SeenEvent(at, e.type, e.source, e.target, e.data, e.canceled, e.reason)


def _line(said: _Said, at: int) -> ChatLine:
    msg = said.message
    return ChatLine(at, msg.sender, msg.content, msg.phase, msg.round)


def _turn(engine: hr.Engine) -> str:
    return engine.readiness().turn


def _simultaneous(engine: hr.Engine) -> bool:
    """Whether the current phase resolves every choice at its end (a submission then changes no board)."""
    pc = engine.rules.config.phases.get(engine.status().phase)
    return pc is not None and pc.turn_order is hr.SIMULTANEOUS


def _targets(targets: Iterable[str]) -> tuple[str, ...]:
    """The targets as a tuple; an iterable longer than ``MAX_TARGETS`` is refused without reading it all."""
    try:
        out = tuple(itertools.islice(targets, MAX_TARGETS + 1))
    except TypeError:
        raise InvalidMove("targets must be seat names") from None
    if len(out) > MAX_TARGETS:
        raise TooManyTargets(f"an act names at most {MAX_TARGETS} targets")
    if not all(isinstance(t, str) for t in out):
        raise InvalidMove("targets must be seat names")
    return out


def _seat_names(seats: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(seats, bool):
        raise InvalidSeats("seats must be a count or a list of names")
    if isinstance(seats, int):
        if not 1 <= seats <= 64:
            raise InvalidSeats(f"a table holds 1..64 seats, not {seats}")
        width = len(str(seats))
        return tuple(f"p{n:0{width}d}" for n in range(1, seats + 1))
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise InvalidSeats("seats must be a count or a list of names")
    return tuple(sorted(seats)) if all(isinstance(s, str) for s in seats) else _bad_seat(seats)


def _bad_seat(seats: Sequence[object]) -> tuple[str, ...]:
    bad = next(s for s in seats if not isinstance(s, str))
    raise InvalidSeats(f"seat names are texts, got {bad!r}")


def _check_seats(definition: GameDefinition, seats: tuple[str, ...]) -> tuple[str, ...]:
    for s in seats:
        if not isinstance(s, str) or not _SEAT.fullmatch(s):
            raise InvalidSeats(f"seat name {s!r}: use 1..32 letters, digits, '-', '_' or '.', starting alphanumeric")
    if len(set(seats)) != len(seats):
        raise InvalidSeats("two seats have the same name")
    if list(seats) != sorted(seats):
        raise InvalidSeats("seats must be listed in sorted order (the table order)")
    if not definition.min_seats <= len(seats) <= definition.max_seats:
        raise InvalidSeats(
            f"{definition.name} seats {definition.min_seats}..{definition.max_seats} players, not {len(seats)}"
        )
    return tuple(seats)


def _check_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise hr.InvalidArgument(f"a seed is a whole number in 0..2**53-1, got {seed!r}")


def _check_table_id(table_id: object) -> None:
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise hr.InvalidArgument(f"table id {table_id!r}: use 1..128 letters, digits, '-', '_', '.' or ':'")


def _check_deal(definition: GameDefinition, deal: object, seats: tuple[str, ...]) -> dict[str, str]:
    name = definition.name
    if not isinstance(deal, Deal) or not isinstance(deal.rules, hr.Rules):
        raise InvalidGame(f"game {name!r}: setup must return a Deal holding hiddenrole.Rules")
    if not isinstance(deal.roles, Mapping):
        raise InvalidGame(f"game {name!r}: Deal.roles must map each seat to a role")
    roles = dict(deal.roles)
    if set(roles) != set(seats):
        raise InvalidGame(f"game {name!r}: the deal must give every seat, and only seats, a role")
    for seat, role in roles.items():
        if not isinstance(role, str) or not role or role == hr.SYSTEM:
            raise InvalidGame(f"game {name!r}: seat {seat!r} was dealt a bad role {role!r}")
    return roles


def _default_outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    """Winners are the seats whose camp (or role, without a camp) won."""
    won = set(camps)
    winners = tuple(p.id for p in ctx.view.all_players() if (p.vars.get(hr.VAR_CAMP) or p.role) in won)
    return Outcome(winners, "won" if winners else "no-winner")


def _coerce_log(log: TableLog | bytes | str) -> TableLog:
    if isinstance(log, TableLog):
        return log
    if isinstance(log, (bytes, bytearray, str)):
        return TableLog.from_json(bytes(log) if isinstance(log, bytearray) else log)
    raise InvalidTableLog(f"expected a TableLog or its JSON, got {type(log).__name__}")


def verify(log: TableLog | bytes | str, definition: GameDefinition | None = None) -> Table:
    """Replay ``log`` and check that it reaches the end it records; returns the rebuilt table.

    Without ``definition`` the game is looked up in :mod:`hiddenrole.host.catalog`.
    Raises :class:`LogMismatch` when the replay ends elsewhere.
    """
    tlog = _coerce_log(log)
    if tlog.end is None:
        raise InvalidTableLog("the log records no end to check")
    if definition is None:
        from .catalog import get

        definition = get(tlog.header.game)
    return Table.replay(definition, tlog)
