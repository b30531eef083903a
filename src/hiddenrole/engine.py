"""The engine: a phase state machine with one write point and an information boundary.

It knows players, phases, submissions and "who may know what". Everything about a
particular game arrives through :class:`~hiddenrole.rules.Rules`. All public methods
are thread-safe (one re-entrant lock); event and message handlers run after the
lock is released, so they may call back into the engine. Extension points run under
the lock and must not call back: doing so raises :class:`ReentrantCall`.

:class:`Engine` is assembled from one class per concern, each in its own module
(see docs/ARCHITECTURE.md): ``enginebase`` (fields, lock, write path), ``whoacts``
(who may act, allowed skills, readiness, the turn queue), ``transitions`` (phase
moves and detours), ``restoring`` (log, snapshot, replay, restore, rollback),
``acting`` (submit and turn ends), ``phases`` (seating, start, end_phase, apply) and
``boundary`` (views, audiences, speech, handlers). This module adds the plain
readers and the two ways to build an engine from a record.
"""

from __future__ import annotations

from .effects import SkillUse, VarScope
from .enginebase import EventHandler, MessageHandler
from .errors import InvalidArgument
from .persistence import GameLog, Snapshot
from .phases import Phases
from .restoring import open_log, open_snapshot
from .rules import Rules
from .state import GameView
from .views import PlayerInfo, RoundContext, Status

__all__ = ["Engine", "EventHandler", "MessageHandler"]

"""Read from a C static by compiled ``status`` (a class name is a dict lookup)."""


class Engine(Phases):
    """One game. Build it from :class:`Rules`, seat players, :meth:`start`, then loop
    :meth:`submit` / :meth:`end_phase` until :meth:`status` says it is over."""

    __slots__ = ()

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)

    # ------------------------------------------------------------------ reading

    def status(self) -> Status:
        got = self._status
        if got is not None and not self._in_ext:
            return got  # a kept answer needs no lock (see allowed_skills)
        self._lock.acquire()
        try:
            self._guard()
            got = self._status
            return self._kept_status() if got is None else got
        finally:
            self._lock.release()

    def view(self) -> GameView:
        """A detached copy of the whole board (god view)."""
        with self._lock:
            self._guard()
            return GameView(self._state.clone())

    def var(self, scope: VarScope, key: str) -> str:
        with self._lock:
            self._guard()
            if (
                not isinstance(scope, VarScope)
                or type(scope.owner) is not str
                or type(scope.per_round) is not bool
                or not isinstance(key, str)
            ):
                raise InvalidArgument("var(scope, key) needs a VarScope and a str")
            return self._state.get_var(scope, key)

    def player_info(self, player_id: str) -> PlayerInfo:
        """God view of one player (raises :class:`PlayerNotFound`)."""
        self._lock.acquire()  # acquire / release, not ``with``: a driver reads every seat's record
        try:
            self._guard()
            return self._player(player_id)
        finally:
            self._lock.release()

    def player_ids(self) -> tuple[str, ...]:
        self._lock.acquire()
        try:
            self._guard()
            return tuple(self._state.order)
        finally:
            self._lock.release()

    def alive_player_ids(self) -> tuple[str, ...]:
        got = self._alive_kept
        if got is not None and not self._in_ext:
            return got  # kept by end_phase, read without the lock (see status)
        self._lock.acquire()
        try:
            self._guard()
            return self._state.alive_ids()
        finally:
            self._lock.release()

    def round_context(self) -> RoundContext:
        with self._lock:
            self._guard()
            return self._view.round_context()

    def pending_uses(self) -> tuple[SkillUse, ...]:
        """Submissions waiting for the end of this phase (god view)."""
        with self._lock:
            self._guard()
            return tuple(self._pending)

    # ------------------------------------------------------------------ from a record

    @classmethod
    def replay(cls, rules: Rules, log: GameLog | bytes | str) -> Engine:
        """Rebuild a game from its log alone (the board at the start of the current phase)."""
        if not isinstance(rules, Rules):
            raise InvalidArgument("replay needs a Rules value")
        glog = open_log(log)
        eng = cls(rules)
        eng._replay_log(glog)
        return eng

    @classmethod
    def restore(cls, rules: Rules, snapshot: Snapshot | bytes | str | None, *, verify: bool = True) -> Engine:
        """Resume a saved game, pending submissions included.

        With ``verify`` (the default) the log is replayed and the saved board must match
        it exactly, so a tampered snapshot is refused. A snapshot of an unknown version
        is rebuilt from its log (its pending submissions are lost).
        """
        if not isinstance(rules, Rules):
            raise InvalidArgument("restore needs a Rules value")
        snap = open_snapshot(rules, snapshot, verify)
        eng = cls(rules)
        if verify:
            eng._resume_verified(snap)
        else:
            eng._resume(snap)
        return eng
