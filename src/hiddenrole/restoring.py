"""The record of a game and the way back from it: log, snapshot, replay, restore, rollback.

The board is always the replay of the log (the log only grows once a step has
succeeded). Replay checks every entry as live play would have, restore checks a saved
board against its own log, and :class:`AllOrNothing` uses the same replay to put the
board back when an extension point raises midway through a step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .effects import EMPTY_MAP, Effect, SkillUse, checked_effect, frozen_map
from .errors import InvalidArgument, InvalidLog, InvalidSnapshot, RulesMismatch
from .persistence import (
    LOG_VERSION,
    SNAPSHOT_VERSION,
    EncodedEffects,
    GameLog,
    SavedSnapshot,
    Snapshot,
    board_snapshot,
    coerce_log,
    coerce_snapshot,
    engine_log,
)
from .rules import Rules
from .state import WRITES, GameView, State
from .transitions import Transitions, keeps_actors
from .views import PlayerInfo
from .vocab import (
    BOOKKEEPING_EVENTS,
    DETOUR,
    END,
    GAME_ENDED,
    GAME_STARTED,
    PHASE_CHANGED,
    PLAYER_ADDED,
    START,
    SYSTEM,
    TURN_DELAYED,
    TURN_ENDED,
    PhaseAction,
)

__all__ = ["AllOrNothing", "Restoring", "open_log", "open_snapshot"]

_new: Final = tuple.__new__
"""Builds a record without its NamedTuple ``__new__`` (a Python frame that parses keywords)."""

_MOVE: Final = 1
_WRITE: Final = 2
_DETOUR: Final = 3
_BOOKKEEPING: Final = 4
_STEPS: Final[dict[str, int]] = {
    **dict.fromkeys(BOOKKEEPING_EVENTS, _BOOKKEEPING),
    **dict.fromkeys(WRITES, _WRITE),
    DETOUR: _DETOUR,
    PHASE_CHANGED: _MOVE,
}
"""What replay does for each entry type it acts on (a rule event, absent, changes nothing): one
lookup per entry, where string and set tests cost several (most entries are rule events)."""


class AllOrNothing:
    """Makes one engine step all-or-nothing.

    Extension points run midway through a step; if one raises, the board is rebuilt
    from the log (which only grows once a step has succeeded) and the pending
    submissions are put back, so the caller sees the engine exactly as before.
    """

    __slots__ = ("engine", "pending")

    def __init__(self, engine: Restoring) -> None:
        self.engine = engine
        self.pending = list(engine._pending)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if kind is not None:
            self.engine._rebuild()
            self.engine._pending = self.pending


def open_log(log: GameLog | bytes | str) -> GameLog:
    """A log value (decoded if need be) of the version this engine writes."""
    glog = coerce_log(log)
    if glog.version != LOG_VERSION:
        raise InvalidLog(f"log version {glog.version} is not {LOG_VERSION}")
    return glog


def open_snapshot(
    rules: Rules, snapshot: Snapshot | bytes | str | None, verified: bool = False
) -> Snapshot | SavedSnapshot:
    """A snapshot value (decoded if need be) made under ``rules``, with a log of this version.

    For a ``verified`` restore, JSON of the current version with a log of these rules is
    returned with only its log read (:class:`SavedSnapshot`); the restore checks the rest."""
    if verified and (type(snapshot) is bytes or type(snapshot) is str):
        saved = SavedSnapshot.read(snapshot)
        if saved is not None:
            log = saved.log
            if log.version == LOG_VERSION and log.rules_name == rules.name and log.rules_version == rules.version:
                return saved
    snap = coerce_snapshot(snapshot)
    check_rules(rules, snap.rules_name, snap.rules_version)
    if snap.log.version != LOG_VERSION:
        raise InvalidSnapshot(f"log version {snap.log.version} is not {LOG_VERSION}")
    return snap


def check_rules(rules: Rules, name: str, version: str) -> None:
    if (name, version) != (rules.name, rules.version):
        raise RulesMismatch(
            f"recorded under rules {name!r} version {version!r}, offered {rules.name!r} version {rules.version!r}"
        )


class Restoring(Transitions):
    """Log and snapshot out; replay, restore and rollback in."""

    __slots__ = ()

    def log(self) -> GameLog:
        """The record of the game so far (immutable; safe to keep)."""
        with self._lock:
            self._guard()
            return self._game_log()

    def _game_log(self) -> GameLog:
        encoded = self._encoded
        if encoded is None:  # the first save of this engine (its callers hold the lock)
            encoded = self._encoded = EncodedEffects()
        return engine_log(self.rules.name, self.rules.version, tuple(self._log), encoded)

    def snapshot(self) -> Snapshot:
        """The log plus the board and the unresolved submissions."""
        with self._lock:
            self._guard()
            return self._snapshot()

    def _snapshot(self, log: GameLog | None = None) -> Snapshot:
        """This engine's snapshot; with ``log`` (this engine's own log, decoded), that log in it."""
        return board_snapshot(self._snapshot_fields(log))

    def _snapshot_fields(self, log: GameLog | None) -> tuple[Any, ...]:
        """The fields of :meth:`_snapshot`, in order."""
        s = self._state
        return (
            self._game_log() if log is None else log,
            s.phase,
            s.round,
            frozen_map(s.vars),
            dict(sorted(s.actors.items())),
            s.winners,
            s.all_players(),  # the board's kept tuple of every record, in seat order
            tuple(s.detours),
            frozen_map(s.round_vars),
            tuple(self._pending),
            tuple(s.turns),
            s.delayed,
            s.held,
            SNAPSHOT_VERSION,
        )

    def _rebuild(self) -> None:
        """Put the board back to what the log says, after an extension point raised midway.

        The board is always the replay of the log (the log only grows after a step
        succeeded), so this is exact, and it costs nothing on the path that succeeds.
        """
        self._fresh_board()
        self._replay(self._log, True)

    def _fresh_board(self) -> None:
        """An empty board, as a new engine has (nothing derived from the old one kept)."""
        self._state = State()
        self._view = GameView(self._state)
        self._board_changed()

    def _replay_log(self, glog: GameLog) -> None:
        """Rebuild this fresh engine's board from ``glog`` (see :func:`open_log`)."""
        check_rules(self.rules, glog.rules_name, glog.rules_version)
        self._replay(glog.effects, glog.well_typed)

    def _resume(self, snap: Snapshot | SavedSnapshot) -> None:
        """Load this fresh engine from ``snap`` (see :func:`open_snapshot`), or from its log alone
        when the snapshot is of an unknown version (its pending submissions are then lost)."""
        if isinstance(snap, SavedSnapshot):
            snap = snap.full()
        if snap.version != SNAPSHOT_VERSION:
            try:
                self._replay_log(snap.log)
            except InvalidLog as exc:
                raise InvalidSnapshot(f"cannot rebuild from the log: {exc.message}") from None
            return
        self._load_board(snap)
        self._load_pending(snap.pending)

    def _resume_verified(self, snap: Snapshot | SavedSnapshot) -> None:
        """Like :meth:`_resume`, but the board is the replay of the log and must equal the saved one."""
        if isinstance(snap, SavedSnapshot):
            if self._resume_saved(snap):
                return
            # Not exactly the replayed board's text: the reference way, on a fresh engine,
            # decides (and raises the same errors, in the same order, as without the fast path).
            self._fresh_board()
            self._log = []
            self._pending = []
            snap = snap.full()
        if snap.version != SNAPSHOT_VERSION:
            self._resume(snap)
            return
        try:
            self._replay_log(snap.log)
        except InvalidLog as exc:
            raise InvalidSnapshot(f"log: {exc.message}") from None
        self._load_pending(snap.pending)
        if not self._matches(snap):
            raise InvalidSnapshot("the saved board does not match its own log")

    def _resume_saved(self, saved: SavedSnapshot) -> bool:
        """Replay the saved log and take its pending submissions, if the rest of the saved text is
        exactly what this board writes (then the reference way, which decodes the whole text and
        compares field by field, would accept it and build this same engine). ``False``: the
        engine is left half-loaded, for the caller to reset."""
        try:
            self._replay(saved.log.effects, saved.log.well_typed)
            pending = saved.pending_if(self._snapshot_fields(saved.log))
            if pending is None:
                return False
            self._load_pending(pending)
        except Exception:  # any fault: the reference way raises it, or the one it meets first
            return False
        return True

    def _matches(self, snap: Snapshot) -> bool:
        """``self._snapshot() == snap``, field by field without building the snapshot (its two
        frozen dataclasses and map copies cost more than the comparison): each field is compared
        as the dataclass would compare it (a sorted copy of a dict equals the dict)."""
        if type(snap) is not Snapshot or type(snap.log) is not GameLog:
            return self._snapshot() == snap  # a subclass compares as the dataclass decides
        s = self._state
        log = snap.log
        return (
            self.rules.name == log.rules_name
            and self.rules.version == log.rules_version
            and tuple(self._log) == log.effects
            and log.version == LOG_VERSION
            and s.phase == snap.phase
            and s.round == snap.round
            and s.vars == snap.vars
            and s.actors == snap.actors
            and s.winners == snap.winners
            and s.all_players() == snap.players
            and tuple(s.detours) == snap.detours
            and s.round_vars == snap.round_vars
            and tuple(self._pending) == snap.pending
            and tuple(s.turns) == snap.turns
            and s.delayed == snap.delayed
            and s.held == snap.held
            and snap.version == SNAPSHOT_VERSION
        )

    def _replay(self, effects: Sequence[Effect], trusted: bool = False) -> None:
        """Apply a log, checking every entry as live play would have (types, seated
        players, known phases): a log live play could not have written is InvalidLog.

        One loop, the most common entries first (phase changes, then writes; a rule
        event changes nothing and costs two set lookups). ``s.apply`` and ``self._move`` are
        called as methods, not through locals: compiled, a bound method held in a local is a
        Python-level call, a method call is a direct native one (an eighth of a compiled replay)."""
        s = self._state
        started = False
        tables = self._tables
        checked: list[Effect] = []
        steps = _STEPS
        for n, e in enumerate(effects):
            if not trusted:
                try:
                    e = checked_effect(e, f"log entry {n}", logged=True)
                except InvalidArgument as exc:
                    raise InvalidLog(exc.message) from None
                checked.append(e)
            t = e.type
            step = steps.get(t, 0)
            if not step:  # a rule event changes nothing: no call
                continue
            if step == _MOVE:
                to = e.phase
                if not started or s.phase == END or to not in tables:
                    raise InvalidLog(f"log entry {n} ({t}): phase change to {to!r} is impossible here")
                self._move(to, bool(e.data) and keeps_actors(e))
            elif step == _WRITE:
                s.apply(e)
            elif step == _DETOUR:
                if not e.canceled:
                    fault = self._detour_fault(e)
                    if fault:
                        raise InvalidLog(f"log entry {n} (DETOUR): {fault} ({e.source!r} to {e.phase!r})")
                s.apply(e)
            elif t == PLAYER_ADDED:
                if started:
                    raise InvalidLog(f"log entry {n} ({t}): player added after the start")
                if not e.target or e.target in s.players:
                    raise InvalidLog(f"log entry {n} ({t}): bad or duplicate player id {e.target!r}")
                if not e.role or e.role == SYSTEM:
                    raise InvalidLog(f"log entry {n} ({t}): bad role {e.role!r}")
                s.seat(_new(PlayerInfo, (e.target, e.role, True, e.vars, EMPTY_MAP)))
            elif t == GAME_STARTED:
                if started or e.phase not in self._tables:
                    raise InvalidLog(f"log entry {n} ({t}): duplicate start or unknown phase {e.phase!r}")
                if not s.players:
                    raise InvalidLog(f"log entry {n} ({t}): started with no players")
                started = True
                self._start_at(e.phase)
            elif t in (TURN_ENDED, TURN_DELAYED):
                if not s.turns or s.turns[0] != e.source:
                    raise InvalidLog(f"log entry {n} ({t}): {e.source!r} does not have the turn")
                head = s.turns.pop(0)
                if t == TURN_DELAYED:
                    s.turns.append(head)
                    s.delayed = tuple(sorted({*s.delayed, head}))
            elif t == GAME_ENDED:
                if not started or s.phase == END:
                    raise InvalidLog(f"log entry {n} ({t}): game ended twice or before it started")
                if list(e.winners) != sorted(set(e.winners)):
                    raise InvalidLog(f"log entry {n} ({t}): winners are not sorted and unique")
                self._move(END, False)
                s.winners = e.winners
        self._log = list(effects) if trusted else checked

    def _load_pending(self, pending: Sequence[SkillUse]) -> None:
        """Take back saved submissions, checking their shape only.

        They were valid when made; a host ``apply`` since then (a death, new named
        actors) may make them invalid now, and they are still part of the phase.
        """
        s = self._state
        table = self._tables.get(s.phase)
        for i, u in enumerate(pending):
            if u.phase != s.phase or u.round != s.round:
                raise InvalidSnapshot(f"pending[{i}] belongs to another phase or round")
            p = s.players.get(u.player_id)
            if p is None:
                raise InvalidSnapshot(f"pending[{i}]: no player {u.player_id!r}")
            step = table.find_step(p.role, u.skill) if table is not None and u.skill else None
            if step is None:
                raise InvalidSnapshot(f"pending[{i}]: {u.skill!r} is no skill of {p.role} in {s.phase}")
            pool = self._cfg.target_pools.get(step.target_pool, ()) if step.target_pool else None
            for t in u.targets:
                if t and (t not in pool if pool is not None else t not in s.players):
                    raise InvalidSnapshot(f"pending[{i}]: unknown target {t!r}")
        self._pending = list(pending)

    def _load_board(self, snap: Snapshot) -> None:
        s = self._state
        if snap.phase not in (START, END) and snap.phase not in self._tables:
            raise InvalidSnapshot(f"phase {snap.phase!r} is not a playable phase of these rules")
        if snap.round < 0:
            raise InvalidSnapshot("negative round")
        ids = [p.id for p in snap.players]
        if ids != sorted(set(ids)) or any(not i for i in ids):
            raise InvalidSnapshot("player ids must be non-empty, unique and sorted")
        for p in snap.players:
            if not p.role or p.role == SYSTEM:
                raise InvalidSnapshot(f"player {p.id!r} has bad role {p.role!r}")
            s.seat(p)
        seated = s.players
        for phase, named in snap.actors.items():
            if not phase or list(named) != sorted(set(named)) or any(i not in seated for i in named):
                raise InvalidSnapshot(f"actors of {phase!r} must be sorted, unique, seated players")
        for d in snap.detours:
            if d.player_id not in seated or d.phase not in self._tables:
                raise InvalidSnapshot(f"detour {d!r} names an unseated player or an unknown phase")
        if len(set(snap.turns)) != len(snap.turns) or any(i not in seated for i in snap.turns):
            raise InvalidSnapshot("the turn queue must name seated players once each")
        if list(snap.delayed) != sorted(set(snap.delayed)) or any(i not in seated for i in snap.delayed):
            raise InvalidSnapshot("delayed players must be sorted, unique, seated players")
        if snap.held and (not snap.detours or any(not isinstance(a, PhaseAction) for a in snap.held)):
            raise InvalidSnapshot("round actions are held only while a detour is owed")
        if snap.winners is not None and list(snap.winners) != sorted(set(snap.winners)):
            raise InvalidSnapshot("winners must be sorted and unique")
        s.phase = snap.phase
        s.ancestry = self._paths[snap.phase][1:]
        s.round = snap.round
        s.vars = dict(snap.vars)
        s.round_vars = dict(snap.round_vars)
        s.actors = {k: tuple(v) for k, v in snap.actors.items()}
        s.detours = list(snap.detours)
        s.winners = snap.winners
        s.turns = list(snap.turns)
        s.delayed = tuple(snap.delayed)
        s.held = tuple(snap.held)
        log = list(snap.log.effects)
        if not snap.log.well_typed:
            for n, e in enumerate(log):
                try:
                    log[n] = checked_effect(e, f"log entry {n}", logged=True)
                except InvalidArgument as exc:
                    raise InvalidSnapshot(exc.message) from None
        self._log = log
