"""The engine's shared core: its fields, the lock, calls into the rules, and the write path.

:class:`EngineBase` holds every field of an engine and the plumbing every concern uses:
running an extension point (refusing re-entry), handing events to handlers outside the
lock, and the write path (interceptors, then :meth:`State.apply`). The concerns built
on it live in their own modules (``whoacts``, ``transitions``, ``restoring``,
``acting``, ``phases``, ``boundary``) and :class:`~hiddenrole.engine.Engine` combines them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from .compiled import EMPTY_TABLE, PhaseRow, PhaseTable, compiled
from .effects import REPLACED_BY_INTERCEPTOR, Effect, Event, SkillUse, coerce_effects, vetted
from .errors import GameEnded, GameNotStarted, InvalidArgument, PlayerNotFound, ReentrantCall
from .locking import engine_lock
from .persistence import EncodedEffects
from .rules import Rules
from .state import GameView, State
from .views import Message, PlayerInfo, PlayerView, Status
from .vocab import DETOUR, END, INTERNAL_EVENTS, START, Camp, SkillType

_new: Final = tuple.__new__
"""Builds a :class:`Status` without the NamedTuple's generated ``__new__`` (a Python frame)."""
_STATUS: Final[type[Status]] = Status
_RUNNING: Final[dict[str, list[Status | None]]] = {}
"""The running games' statuses made so far, by phase, then round (a list indexed by the round: compiled,
an index is a native read where a dict keyed by the round boxed it and hashed it; see ``EngineBase._kept_status``)."""
_STATUSES_KEPT: Final = 1024
"""Phases kept in :data:`_RUNNING`; past that (phase names without end) each status is built anew."""
_ROUNDS_KEPT: Final = 64
"""Rounds kept per phase in :data:`_RUNNING` (rounds 0 to 63: a table's games rarely run longer); later
rounds' statuses are built anew, so the map holds at most ``_STATUSES_KEPT * _ROUNDS_KEPT`` small values."""

__all__ = ["EngineBase", "EventHandler", "MessageHandler"]

REENTRY: Final = "an extension point called back into the engine that is running it"

Gate = str | tuple[str, ...] | frozenset[str] | None
"""The rules' ``usable`` answer as kept: ``None`` (yes), a reason (no), or the only targets allowed
(a tuple of plain ``str`` as the rules gave it, or their frozenset; see ``WhoActs._gate``)."""

EventHandler = Callable[[Event], Any]
MessageHandler = Callable[[Message, tuple[str, ...]], Any]


class EngineBase:
    """Fields and plumbing of one engine (not public; see :class:`~hiddenrole.engine.Engine`)."""

    __slots__ = (
        "_alive_kept",
        "_answers",
        "_b",
        "_cfg",
        "_compound",
        "_delivering",
        "_encoded",
        "_event_handlers",
        "_gates",
        "_here",
        "_icpts",
        "_in_ext",
        "_infos",
        "_lock",
        "_log",
        "_mates",
        "_message_handlers",
        "_now",
        "_outbox",
        "_paths",
        "_pending",
        "_role_setup",
        "_rows",
        "_setup",
        "_spent",
        "_state",
        "_status",
        "_tables",
        "_usable",
        "_victory",
        "_view",
        "_views",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise InvalidArgument("Engine needs a Rules value")
        self.rules = rules
        comp = compiled(rules)
        self._b = comp.bound
        # The extension points read on every move or phase, as the engine's own (native) fields:
        # compiled, a read through ``_b`` (a pure-Python class) is a generic attribute lookup.
        self._usable = comp.usable
        self._victory = comp.victory
        self._icpts = comp.interceptors
        self._role_setup = comp.role_setup  # read once per seat
        self._cfg = comp.cfg
        self._compound = comp.compound
        self._tables = comp.tables
        self._paths = comp.paths
        self._rows = comp.rows
        self._here = comp.rows[START]
        """The row of the board's phase, as last found (see :meth:`_row`)."""
        self._setup = comp.game_setup
        self._state = State()
        self._view = GameView(self._state)
        self._pending: list[SkillUse] = []
        self._log: list[Effect] = []
        self._encoded: EncodedEffects | None = None
        """The JSON text of the log's effects, kept for the next save; made by the first log or
        snapshot (under the lock): a game never saved never builds one (and its lock)."""
        # The hottest readers and writers (submit, end_phase, allowed_skills, player_view, status,
        # alive_player_ids) take it with acquire() / try / finally release() rather than `with`:
        # as safe (re-entrant; any exception releases it) and cheaper both compiled (mypyc looks
        # the context manager up on every entry) and pure. Re-entrant, so a call back from an
        # extension point still reaches the ReentrantCall check (see locking.py for why not RLock).
        self._lock = engine_lock()
        self._in_ext = False
        # The handlers as tuples, replaced when one is added (never changed in place), and the outbox
        # only once events are published: most engines never get a handler, and every engine made
        # and freed three lists for them (One Night makes and frees one engine per short game).
        self._event_handlers: tuple[EventHandler, ...] = ()
        self._outbox: list[Event] | None = None
        self._delivering = False
        self._message_handlers: tuple[MessageHandler, ...] = ()
        self._status: Status | None = None
        self._alive_kept: tuple[str, ...] | None = None
        """The living ids, kept like ``_status`` (read without the lock until the board changes)."""
        """The last :meth:`status` answer, until the board changes."""
        self._answers: dict[str, tuple[SkillType, ...]] | None = None
        """Per player who may act: the skills the phase offers now (steps, named actors, turn
        order; not gated, own pending not applied). ``None``: to be computed for this board."""
        self._now: dict[str, tuple[SkillType, ...] | None] = {}
        """Per player: the final ``allowed_skills`` answer (``_answers`` gated by ``usable``, less
        the steps used) for this board and the player's own waiting submissions (``None``, as
        absent: not kept; in this map and the two below)."""
        self._gates: dict[str, dict[SkillType, Gate] | None] = {}
        """Per player, per skill: the rules' ``usable`` answer for this board and the player's
        own waiting submissions."""
        self._mates: dict[str, tuple[str, ...]] = {}
        """Per player: the teammates the rules show them on this board (a player view and
        phase info ask for them every time; the provider sees the board only)."""
        self._infos: dict[str, Any] = {}
        """Per player: their role's private info on this board (views and phase info show it)."""
        self._views: dict[str, PlayerView | None] = {}
        """Per player: their :meth:`player_view` for this board and their own waiting submissions."""
        self._spent: list[object] = []
        """Views (and maps of them) gone stale, released by the next :meth:`player_view` rather than
        by the move that made them stale. Freeing a table's views inside the move cost a werewolf
        ``end_phase`` about 5,000 instructions compiled (in time, as much again as the rest of the
        move); released here, a move costs the same whether or not anyone asked for views, and
        views carry their own cost. Holds at most one view per seat and one map."""

    def _board_changed(self) -> None:
        """Forget every answer computed from the board. Called by each step that may change it
        (seating, start, a resolved move or turn, end_phase, apply, rollback); a submission
        that only waits in a simultaneous phase changes the pending list, not the board."""
        self._answers = None
        self._status = self._alive_kept = None
        if self._now:
            self._now.clear()
        if self._gates:
            self._gates.clear()
        if self._mates:
            self._mates.clear()
        if self._infos:
            self._infos.clear()
        views = self._views
        if views:
            # Kept for the next player_view to free (see _spent); a fresh map for this board.
            self._spent.append(views)
            self._views = {}

    def _seat_changed(self, player_id: str) -> None:
        """Forget what was derived from ``player_id``'s own waiting submissions (a submission
        waiting in a simultaneous phase changes them, not the board nor anyone else's)."""
        # Forgotten by storing ``None`` (what every reader takes for "not kept"): one store, where
        # ``in`` + ``del`` hashed the id twice (compiled, ``pop(id, None)`` is a generic method call).
        # An empty map is skipped on its size: without ``usable`` or views, two of the three stay
        # empty for a whole game.
        now, gates, views = self._now, self._gates, self._views
        if now:
            now[player_id] = None
        if gates:
            gates[player_id] = None
        if views:
            kept = views.get(player_id)
            if kept is not None:
                self._spent.append(kept)  # freed by the next player_view (see _spent)
                views[player_id] = None

    # ------------------------------------------------------------------ plumbing

    def _row(self) -> PhaseRow:
        """The :class:`PhaseRow` of the board's phase: the one last found while the board's phase is
        that very string (one comparison of identity, where a lookup by phase cost about 150
        instructions compiled), else looked up and kept. Every phase change the engine makes enters
        a phase spelled by its row (see ``Phases.end_phase``), so lookups are one per phase change.
        The hottest callers make the identity test on ``_here`` themselves and call this only when it
        fails: pure, a method call is a Python frame (several times the test's cost)."""
        here = self._here
        phase = self._state.phase
        if here.name is phase:
            return here
        got = self._rows.get(phase)
        if got is None:
            return PhaseRow(phase, None, None, "", {})  # not a phase of these rules: no table, nothing kept
        self._here = got
        return got

    def _kept_status(self) -> Status:
        """The board's status, built and kept (under the lock) until the board changes.

        A running game's status is a function of its phase and round alone, and a ``Status`` is an
        immutable value: one per (phase, round) serves every engine (:data:`_RUNNING`), as one
        ``PHASE_CHANGED`` entry per phase does. Found with one native lookup and an index where
        building it (``tuple.__new__``) cost about 900 instructions compiled, once per phase of every game."""
        s = self._state
        phase = s.phase
        if phase == END or s.winners:
            got = _new(_STATUS, (phase, s.round, phase == END, s.winners or ()))
        else:
            here = self._here
            if here.name is not phase:
                here = self._row()
            row = here.statuses
            if row is None:
                row = _RUNNING.get(phase)
                if row is None and len(_RUNNING) < _STATUSES_KEPT:
                    # Made at its full length: an index in range is then a plain read (an index past the
                    # end raised, costly compiled; a bounds test on the length cost more than the dict
                    # lookup it replaced, pure).
                    row = _RUNNING.setdefault(phase, [None] * _ROUNDS_KEPT)
                here.statuses = row  # the phase's row of _RUNNING, found without a lookup from now on
            r = s.round
            if row is not None and 0 <= r < _ROUNDS_KEPT:
                kept = row[r]
                got = row[r] = _new(_STATUS, (phase, r, False, ())) if kept is None else kept
            else:
                got = _new(_STATUS, (phase, r, False, ()))
        self._status = got
        return got

    def _guard(self) -> None:
        if self._in_ext:
            raise ReentrantCall(REENTRY)

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run an extension point under the lock, refusing re-entry."""
        self._in_ext = True
        try:
            return fn(*args)
        finally:
            self._in_ext = False

    def _dispatch(self) -> None:
        """Hand queued events to the handlers, outside the lock, in log order.

        Events are queued under the lock as they are logged, so the queue is in log
        order. One thread delivers at a time: a thread that finds delivery under way
        leaves its events to that thread (a handler calling back into the engine does
        the same), so no handler ever sees a later event before an earlier one.
        """
        if not self._outbox:
            # Nothing queued (the common case, and always without handlers): no lock needed,
            # since a thread that queues events calls this afterwards itself.
            return
        with self._lock:
            if self._delivering or not self._outbox:
                return
            self._delivering = True
        try:
            while True:
                with self._lock:
                    if not self._outbox:
                        self._delivering = False
                        return
                    batch = tuple(self._outbox)
                    self._outbox.clear()
                    handlers = self._event_handlers
                for ev in batch:
                    for h in handlers:
                        try:
                            h(ev)
                        except Exception:
                            self._b.logger.exception("event handler raised; other handlers still run")
        except BaseException:
            with self._lock:
                self._delivering = False
            raise

    def _table(self) -> PhaseTable:
        table = self._row().table
        return EMPTY_TABLE if table is None else table

    def _player(self, player_id: object) -> PlayerInfo:
        if not isinstance(player_id, str):
            raise InvalidArgument(f"player id must be a str, got {type(player_id).__name__}")
        p = self._state.players.get(player_id)
        if p is None:
            raise PlayerNotFound(f"no player {player_id!r}")
        return p

    def _running(self) -> None:
        phase = self._state.phase
        if phase == START:
            raise GameNotStarted("the game has not started")
        if phase == END:
            raise GameEnded("the game is over")

    # ------------------------------------------------------------------ the write path

    def _apply_batch(self, effects: Iterable[Effect] | None, who: str | None, out: list[Effect]) -> None:
        """Offer each effect to the interceptors, vet it, apply it, record it in ``out``.

        ``who`` names the extension point in errors; ``None``: the current phase's resolver,
        whose name is looked up only when the effects need more than :func:`vetted`'s pass."""
        batch = vetted(effects)
        if batch is None:
            batch = coerce_effects(effects, self._row().resolver_name if who is None else who)
        icpts = self._icpts
        # The state, not its bound ``apply``: compiled, ``state.apply(e)`` is a direct native call,
        # where the bound method is built by a generic attribute lookup and called through its wrapper.
        state = self._state
        for e in batch:
            if icpts or e.type == DETOUR:
                self._offer(e, 0, out)
            else:
                state.apply(e)  # nothing to offer it to, nothing to vet: straight to the write point
                out.append(e)

    def _offer(self, e: Effect, start: int, out: list[Effect]) -> None:
        icpts = self._icpts
        for i in range(start, len(icpts)):
            if e.canceled:
                break
            replaced = self._call(icpts[i], e, self._view)
            if replaced is not None:
                reps = coerce_effects(replaced, f"interceptor #{i}")
                out.append(e.cancel(REPLACED_BY_INTERCEPTOR))
                for r in reps:
                    self._offer(r, i + 1, out)
                return
        if e.type == DETOUR and not e.canceled:
            fault = self._detour_fault(e)
            if fault:
                if e.phase and e.phase not in self._tables:
                    self._b.logger.error("detour to unknown phase %r cancelled", e.phase)
                e = e.cancel(fault)
        self._state.apply(e)
        out.append(e)

    def _detour_fault(self, e: Effect) -> str:
        """Why a DETOUR cannot be honoured, ``""`` if it can: live play cancels such a
        detour, and replay refuses a log that claims one was honoured."""
        if not e.phase:
            return "no target phase"
        if e.phase not in self._tables:
            return "unknown target phase"
        if e.source not in self._state.players:
            return "no such player"
        return ""

    def _public(self, out: list[Effect]) -> None:
        """Queue the events handlers will receive (none are built when nobody listens)."""
        if self._event_handlers:
            outbox = self._outbox
            if outbox is None:
                outbox = self._outbox = []
            outbox.extend(e.to_event() for e in out if e.type not in INTERNAL_EVENTS)

    def _commit(self, out: list[Effect]) -> None:
        self._log.extend(out)
        self._public(out)

    def _check_victory(self) -> tuple[Camp, ...] | None:
        fn = self._victory
        if fn is None:
            return None
        self._in_ext = True  # what _call does, without its frame (once per phase)
        try:
            got = fn(self._view)
        finally:
            self._in_ext = False
        if got is None:
            return None
        # A tuple or a list (what checkers return) first: the Iterable test is an ABC check, costly compiled.
        if (
            type(got) is not tuple
            and type(got) is not list
            and (isinstance(got, (str, bytes)) or not isinstance(got, Iterable))
        ):
            raise InvalidArgument("victory checker must return None or an iterable of camps")
        camps = tuple(got)
        for c in camps:
            if not isinstance(c, str) or not c:
                raise InvalidArgument(f"victory checker returned a bad camp {c!r}")
        if len(camps) < 2:
            return camps  # already sorted and distinct
        return tuple(sorted(set(camps)))


def ids_from(got: Any, who: str) -> tuple[str, ...]:
    """A provider's answer as player ids; a bare string is a bug, not a list of letters."""
    if not got:
        return ()
    if isinstance(got, (str, bytes)):
        raise InvalidArgument(f"{who} returned a string; return a sequence of player ids")
    return tuple(got)
