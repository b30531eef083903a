"""A table: one game of one definition, whose truth is its log.

Everything a table holds besides its log (the kernel engine, its random stream, the
events and chat each seat has seen, the outcome) is a cache. It is built by
replaying the log from the header, and rebuilt the same way after an undo or after
a move that failed half-way. So a table saved as its log and replayed elsewhere is
the same table, down to every seat's view.

Moves are checked in a fixed order (stale sequence number, table over, move shape,
seat, turn, skill, the game's own ``allows``) before anything changes; a refused move
raises a typed error and leaves the table as it was. Chance comes only from the
table's ``random.Random(seed)``: the game's ``draws`` hook says which draws a move
needs, the table makes them and hands them to the kernel as variables before the
move, and the log records how many were made.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

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
    InvalidGame,
    InvalidMove,
    InvalidOptions,
    InvalidSeats,
    InvalidTableLog,
    LogMismatch,
    MoveRefused,
    SeatNotFound,
    StaleMove,
    UndoRefused,
)
from .log import LoggedMove, TableEnd, TableHeader, TableLog
from .publisher import Publisher
from .views import ChatLine, SeatPlayer, SeatSelf, SeenEvent, TableView

__all__ = ["Table", "verify", "MAX_SEED", "MAX_SAY", "MAX_AUTO_PHASES"]

MAX_SEED: Final = 2**53
"""Seeds are below this, so they survive any JSON reader (JavaScript numbers included)."""
MAX_SAY: Final = 2000
"""Longest chat line, in characters."""
MAX_AUTO_PHASES: Final = 100
"""Phases an auto-advancing table may end after one move before it blames the game."""

_SEAT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")
_ALWAYS_PUBLIC = frozenset({hr.GAME_STARTED, hr.GAME_ENDED})
_DRAWING = frozenset({ACT, END_TURN, DELAY_TURN, END_PHASE})


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
    """The cache built from the log: engine, random stream, what was seen and said, the outcome."""

    engine: hr.Engine
    rng: random.Random
    events: list[_Heard] = field(default_factory=list)
    chat: list[_Said] = field(default_factory=list)
    inbox: list[tuple[hr.Event, frozenset[str] | None]] = field(default_factory=list)
    outcome: Outcome | None = None
    broken: bool = False

    def hear(self, event: hr.Event) -> None:
        """Kernel event handler: keep the event with its audience as of right after its batch."""
        audience = self.engine.audience_of(event)
        self.inbox.append((event, None if audience is None else frozenset(audience)))


class Table:
    """One hosted game. Open with :meth:`open`, or rebuild from a log with :meth:`replay`.

    Every method is thread-safe (one lock per table). Moves return the table's new
    sequence number; pass ``against=`` the number a move was decided on to have a
    stale move refused with :class:`StaleMove`.
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
        _check_seed(header.seed)
        _check_table_id(header.table)
        self._publisher = publisher
        self._lock = threading.RLock()
        self._moves: list[LoggedMove] = list(moves)
        self._run = self._build(self._moves)
        self._stack: list[int] = sorted(_standing(self._moves, definition.undo))

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

        Without a ``seed`` one is drawn from the operating system and recorded in the header.
        """
        if not isinstance(definition, GameDefinition):
            raise hr.InvalidArgument("a table needs a GameDefinition")
        names = _seat_names(seats)
        settings = definition.resolve_options(options)
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        _check_seed(seed)
        header = TableHeader(
            table_id if table_id is not None else f"{definition.name}-{seed}",
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
        """Number of moves in the log (0 for a table nobody has moved at)."""
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
        """The table's truth, with the end it has reached."""
        with self._lock:
            return TableLog(self.header, tuple(self._moves), self._end())

    def moves(self) -> tuple[LoggedMove, ...]:
        with self._lock:
            return tuple(self._moves)

    def can_undo(self, seat: str | None = None) -> bool:
        """Would ``undo`` by ``seat`` (``None``: the host) be accepted now?"""
        with self._lock:
            return self._undo_problem(seat) == ""

    def view(self, seat: str | None = None, preferences: Mapping[str, object] | None = None) -> TableView:
        """What ``seat`` may see now, shaped by its player's ``preferences``; ``None`` for a spectator.

        A spectator sees public information only: no role the game has not made public,
        only events and chat that every seat (every living seat, for chat) received.
        """
        prefs = self.definition.resolve_preferences(preferences)
        with self._lock:
            if seat is not None:
                self._seat(seat)
            view = self._view(self._run, seat)
        arrange = self.definition.arrange
        if arrange is None:
            return view
        shaped = arrange(view, prefs)
        if not isinstance(shaped, TableView) or (shaped.table, shaped.seat, shaped.seq) != (
            view.table,
            view.seat,
            view.seq,
        ):
            raise InvalidGame(f"game {self.definition.name!r}: arrange must return the same seat's TableView")
        return shaped

    # ------------------------------------------------------------------ moving

    def act(self, seat: str, skill: str, targets: Iterable[str] = (), *, against: int | None = None) -> int:
        """``seat`` uses ``skill`` on ``targets``; returns the new sequence number."""
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
        """The host resolves the phase and moves on."""
        return self.play(Move(END_PHASE), against=against)

    def undo(self, seat: str | None = None, *, against: int | None = None) -> int:
        """Take back the last standing move (``seat``'s own; the host may take back any)."""
        return self.play(Move(UNDO, seat), against=against)

    def play(self, move: Move, *, against: int | None = None) -> int:
        """Make any move (e.g. one decoded from a client). Returns the new sequence number."""
        if not isinstance(move, Move):
            raise InvalidMove(f"expected a Move, got {type(move).__name__}")
        with self._lock:
            if against is not None:
                if isinstance(against, bool) or not isinstance(against, int):
                    raise InvalidMove("against must be a sequence number")
                if against != len(self._moves):
                    raise StaleMove(
                        f"the move was made against sequence {against}, the table is at {len(self._moves)}",
                        against,
                        len(self._moves),
                    )
            if self._run.engine.status().over:
                raise hr.GameEnded("the table is over: no more moves")
            seq = self._undo(move) if move.kind == UNDO else self._accept(move)
        if self._publisher is not None:
            self._publisher.publish(self.id, seq)
        return seq

    def _accept(self, move: Move) -> int:
        seq = len(self._moves) + 1
        try:
            draws = self._execute(self._run, move, seq)
        except BaseException:
            if self._run.broken:
                self._run = self._build(self._moves)
            raise
        self._moves.append(LoggedMove(seq, move.kind, move.seat, move.skill, move.targets, move.text, draws))
        self._stack.append(seq - 1)
        return seq

    def _undo(self, move: Move) -> int:
        if move.seat is not None:
            self._seat(move.seat)
        problem = self._undo_problem(move.seat)
        if problem:
            raise UndoRefused(problem)
        self._ask_allows(self._run, move)
        seq = len(self._moves) + 1
        self._moves.append(LoggedMove(seq, UNDO, move.seat))
        undone = self._stack.pop()
        try:
            self._run = self._build(self._moves)
        except BaseException:
            self._moves.pop()
            self._stack.append(undone)
            self._run = self._build(self._moves)
            raise
        return seq

    def _undo_problem(self, seat: str | None) -> str:
        if not self.definition.undo:
            return f"{self.definition.name} does not allow taking moves back"
        if self._run.engine.status().over:
            return "the table is over"
        if not self._stack:
            return "there is no move to take back"
        return _undo_problem(self._moves[self._stack[-1]], seat)

    # ------------------------------------------------------------------ the cache

    def _build(self, moves: Sequence[LoggedMove]) -> _Run:
        """Set the table up from the header and replay every move that still stands."""
        run = self._fresh()
        standing = _standing(moves, self.definition.undo)
        for i, m in enumerate(moves):
            if i not in standing:
                continue
            if run.engine.status().over:
                raise InvalidTableLog(f"move {m.seq} comes after the end of the game")
            try:
                self._execute(run, Move(m.kind, m.seat, m.skill, m.targets, m.text), m.seq, m.draws)
            except (InvalidGame, InvalidTableLog):
                raise
            except hr.GameError as exc:
                raise InvalidTableLog(f"move {m.seq} ({m.kind}) cannot be replayed: {exc}") from None
        return run

    def _fresh(self) -> _Run:
        """A table as dealt: seeded randomness, the game's setup, the kernel started."""
        d = self.definition
        rng = random.Random(self.header.seed)
        try:
            deal = d.setup(self.options, self.seats, rng)
        except (InvalidGame, InvalidOptions, InvalidSeats):
            raise
        except hr.GameError as exc:
            raise InvalidGame(f"game {d.name!r}: setup failed: {exc}") from None
        roles = _check_deal(d, deal, self.seats)
        run = _Run(hr.Engine(deal.rules), rng)
        run.engine.on_event(run.hear)
        try:
            for seat in self.seats:
                run.engine.add_player(seat, roles[seat])
            run.engine.start()
            self._settle(run, 0)
        except InvalidGame:
            raise
        except hr.GameError as exc:
            raise InvalidGame(f"game {d.name!r}: the dealt table cannot start: {exc}") from None
        return run

    def _execute(self, run: _Run, move: Move, seq: int, recorded: int | None = None) -> int:
        """Check ``move``, make its draws, hand it to the kernel, settle; returns the number of draws.

        Refusals happen before anything changes. If something fails after the draws
        or the kernel changed the board, ``run.broken`` is set and the caller rebuilds.
        """
        self._precheck(run, move)
        self._ask_allows(run, move)
        draws = self._ask_draws(run, move)
        if recorded is not None and recorded != len(draws):
            raise InvalidTableLog(f"move {seq} recorded {recorded} random draws; the game now asks for {len(draws)}")
        engine = run.engine
        dirty = False
        try:
            if draws:
                dirty = True
                values = [d.make(run.rng) for d in draws]
                engine.apply(*(hr.set_var(d.scope, d.key, v) for d, v in zip(draws, values, strict=True)))
            self._kernel(run, move, seq)
            dirty = True
            self._settle(run, seq)
        except BaseException:
            run.inbox.clear()
            run.broken = run.broken or dirty
            raise
        return len(draws)

    def _precheck(self, run: _Run, move: Move) -> None:
        """Refuse what is malformed or plainly not allowed, before anything changes."""
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
            if move.skill not in engine.allowed_skills(seat):
                raise self._why_not(run, seat, move.skill)
        elif kind == SAY:
            if not isinstance(move.text, str) or not move.text.strip() or len(move.text) > MAX_SAY:
                raise InvalidMove(f"say needs 1..{MAX_SAY} characters of text")
        elif kind in (END_TURN, DELAY_TURN):
            turn = engine.readiness().turn
            if turn != seat:
                raise hr.NotYourTurn(f"it is {turn or 'nobody'}'s turn, not {seat}'s")

    def _why_not(self, run: _Run, seat: str, skill: str) -> hr.GameError:
        engine = run.engine
        phase = engine.status().phase
        pc = engine.rules.config.phases.get(phase)
        known = pc is not None and any(s.skill == skill for s in pc.steps)
        turn = engine.readiness().turn
        if known and turn and turn != seat and pc is not None and skill not in pc.out_of_turn:
            return hr.NotYourTurn(f"it is {turn}'s turn, not {seat}'s")
        return hr.SkillNotAllowed(f"{seat} may not use {skill} now ({phase}, round {engine.status().round})")

    def _ask_allows(self, run: _Run, move: Move) -> None:
        hook = self.definition.allows
        if hook is None:
            return
        reason = hook(move, self._context(run))
        if reason is None or reason == "":
            return
        if not isinstance(reason, str):
            raise InvalidGame(f"game {self.definition.name!r}: allows must return None or a reason text")
        raise MoveRefused(reason)

    def _ask_draws(self, run: _Run, move: Move) -> tuple[Draw, ...]:
        hook = self.definition.draws
        if hook is None or move.kind not in _DRAWING:
            return ()
        got = hook(move, self._context(run))
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
            engine.end_phase()
            return
        assert seat is not None
        if move.kind == ACT:
            engine.submit(seat, move.skill, move.targets)
        elif move.kind == SAY:
            receivers = frozenset(engine.message_receivers(seat))
            living = frozenset(engine.alive_player_ids())
            message = engine.send_message(seat, move.text)
            run.chat.append(_Said(seq, message, receivers, bool(living) and living <= receivers))
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
                engine.end_phase()
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

    def _context(self, run: _Run) -> Context:
        return Context(run.engine.view(), self.options, self.seats, run.engine.rules)

    def _seat(self, seat: object) -> str:
        if not isinstance(seat, str):
            raise InvalidMove(f"a seat is named by a text, got {type(seat).__name__}")
        if seat not in self._seat_set:
            raise SeatNotFound(f"no seat {seat!r} at table {self.id}")
        return seat

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

    # ------------------------------------------------------------------ views

    def _view(self, run: _Run, seat: str | None) -> TableView:
        engine = run.engine
        status = engine.status()
        ctx = self._context(run)
        public_roles = self._public_roles(ctx)
        me: SeatSelf | None = None
        if seat is None:
            alive = set(engine.alive_player_ids())
            players = tuple(SeatPlayer(s, s in alive, public_roles.get(s, "")) for s in self.seats)
            turn = engine.readiness().turn
        else:
            pv = engine.player_view(seat)
            players = tuple(SeatPlayer(p.id, p.alive, p.role or public_roles.get(p.id, "")) for p in pv.players)
            me = SeatSelf(
                seat,
                pv.self.role,
                pv.self.camp,
                pv.self.alive,
                pv.allowed_skills,
                pv.teammates,
                dict(pv.role_info),
            )
            turn = pv.turn
        every = frozenset(self.seats)
        events = tuple(
            SeenEvent(
                h.seq,
                h.event.type,
                h.event.source,
                h.event.target,
                dict(h.event.data),
                h.event.canceled,
                h.event.reason,
            )
            for h in run.events
            if h.event.type in _ALWAYS_PUBLIC
            or (h.audience is not None and (every <= h.audience if seat is None else seat in h.audience))
        )
        chat = tuple(
            ChatLine(c.seq, c.message.sender, c.message.content, c.message.phase, c.message.round)
            for c in run.chat
            if (c.public if seat is None else (seat in c.receivers or seat == c.message.sender))
        )
        data = dict(self.definition.public(ctx)) if self.definition.public is not None else {}
        return TableView(
            self.id,
            len(self._moves),
            self.definition.name,
            seat,
            status.phase,
            status.round,
            turn,
            status.over,
            dict(self.options),
            players,
            me,
            self._moves_for(run, seat, me, turn),
            data,
            events,
            chat,
            run.outcome,
        )

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

    def _moves_for(self, run: _Run, seat: str | None, me: SeatSelf | None, turn: str) -> tuple[str, ...]:
        """The kinds of move ``seat`` could make now (advice for a client's buttons)."""
        engine = run.engine
        if seat is None or me is None or engine.status().over:
            return ()
        kinds: list[str] = []
        if me.allowed_skills:
            kinds.append(ACT)
        try:
            if engine.message_receivers(seat):
                kinds.append(SAY)
        except hr.GameError:
            pass
        if turn == seat:
            kinds.append(END_TURN)
            pc = engine.rules.config.phases.get(engine.status().phase)
            if pc is not None and pc.turn_order is hr.INITIATIVE:
                kinds.append(DELAY_TURN)
        if self._undo_problem(seat) == "":
            kinds.append(UNDO)
        if self.definition.allows is None:
            return tuple(kinds)
        ctx = self._context(run)
        return tuple(k for k in kinds if k == ACT or not self.definition.allows(Move(k, seat), ctx))


# ---------------------------------------------------------------------- helpers


def _undo_problem(target: LoggedMove, seat: str | None) -> str:
    if target.draws:
        return "the last move drew at random and cannot be taken back"
    if target.kind == SAY:
        return "words said cannot be taken back"
    if seat is not None and target.seat != seat:
        return "the last move is not yours to take back"
    return ""


def _standing(moves: Sequence[LoggedMove], undo_allowed: bool) -> set[int]:
    """Indices of the moves no undo has taken back; checks every undo in the log."""
    stack: list[int] = []
    for i, m in enumerate(moves):
        if m.kind != UNDO:
            stack.append(i)
            continue
        if not undo_allowed:
            raise InvalidTableLog(f"move {m.seq} is an undo, which this game does not allow")
        if not stack:
            raise InvalidTableLog(f"move {m.seq} undoes nothing")
        problem = _undo_problem(moves[stack[-1]], m.seat)
        if problem:
            raise InvalidTableLog(f"move {m.seq} cannot undo: {problem}")
        stack.pop()
    return set(stack)


def _targets(targets: Iterable[str]) -> tuple[str, ...]:
    try:
        out = tuple(targets)
    except TypeError:
        raise InvalidMove("targets must be seat names") from None
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
