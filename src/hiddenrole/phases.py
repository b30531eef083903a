"""Moving the game: seating, ``start``, ``end_phase`` (the only way forward) and the host's ``apply``.

Each step runs its extension points under a rollback (:class:`~hiddenrole.restoring.AllOrNothing`,
or in ``end_phase`` the same rebuild from the log, inline on its hot path) and logs its
effects only once it has succeeded; the statechart moves themselves are in
:mod:`hiddenrole.transitions`, shared with replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from .acting import Acting
from .effects import EMPTY_MAP, Effect, frozen_map, is_seatable_constant, kernel_entry, player_added, sorted_copy
from .enginebase import REENTRY
from .errors import (
    BoardAlreadyDecided,
    GameAlreadyStarted,
    GameEnded,
    InvalidArgument,
    InvalidBoard,
    InvalidPlayerID,
    InvalidRole,
    PlayerExists,
    ReentrantCall,
)
from .restoring import AllOrNothing
from .transitions import game_ended
from .views import PlayerInfo
from .vocab import END, GAME_STARTED, GOTO_PHASE, SET_ACTORS, START, SYSTEM, RoleType

__all__ = ["Phases"]

_new: Final = tuple.__new__  # Final: compiled, read from a C static, not the module's dict
_PLAYER: Final[type[PlayerInfo]] = PlayerInfo
"""The record class, read from a C static by compiled seating (a class name is a dict lookup)."""


class Phases(Acting):
    """Seating, the start, the end of each phase, and host effects."""

    __slots__ = ()

    def add_player(self, player_id: str, role: RoleType) -> PlayerInfo:
        """Seat a player before the game starts; the role's setup gives initial variables."""
        # acquire / try / finally, as on the hot paths: a short game (One Night) seats its whole
        # table for every game.
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            info = self._seat_one(player_id, role)
            self._board_changed()
            return info
        finally:
            self._lock.release()

    def _keep_for_callers(self) -> None:
        """Under the lock, once the game has started or a phase has ended: keep the status, the
        living ids and what the phase offers each seat (the who-acts pass), which callers ask right
        after, so they read them without the lock (a locked miss costs a lock round trip, about
        700 instructions compiled, and the miss path besides; a driver asks all three every phase).
        ``usable`` is pure, so asking it now rather than at the first question changes no answer;
        a seat whose ``usable`` raises is left to its own question, as in any pass."""
        self._kept_status()
        s = self._state
        self._alive_kept = s.alive_ids()
        if s.phase != END:
            self._offers()

    def start(self) -> None:
        """Enter the start phase at round 1, then apply the game setup's effects."""
        self._lock.acquire()  # as in add_player: once per game, and games can be short
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            s = self._state
            if s.phase != START:
                raise GameAlreadyStarted("the game has already started")
            if not s.players:
                raise InvalidBoard("no players are seated")
            if self._check_victory() is not None:
                raise BoardAlreadyDecided("the victory checker already declares a result")
            # AllOrNothing's rollback inline, as in end_phase (no context manager to look up and
            # enter): the board is the replay of the log, and nothing waits before the start.
            try:
                self._start_at(self._cfg.start_phase)
                row = self._row()
                started = row.started
                if started is None:
                    started = row.started = kernel_entry(GAME_STARTED, phase=self._cfg.start_phase)
                batch: list[Effect] = [started]
                setup = self._setup
                if setup is not None:
                    self._in_ext = True  # what _call does, without its frame (and its *args tuple)
                    try:
                        laid = setup(self._view)
                    finally:
                        self._in_ext = False
                    self._apply_batch(laid, "game setup", batch)
            except BaseException:
                self._rebuild()
                raise
            self._board_changed()
            self._log.extend(batch)
            self._keep_for_callers()
            self._public([started])
        finally:
            self._lock.release()
        self._dispatch()

    def end_phase(self) -> tuple[Effect, ...]:
        """Resolve the phase and move on; the only way forward.

        Returns every effect produced (cancelled ones and interceptor originals
        included) and, if the game ended, the ``GAME_ENDED`` effect.
        """
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            s = self._state
            phase = s.phase
            if phase in (START, END):
                self._running()  # raises
            here = self._here  # resolver, next phase, plans: read from the phase's row, not looked up
            if here.name is not phase:
                here = self._row()
            out: list[Effect] = []
            try:
                resolver = here.resolver
                assert resolver is not None  # every phase with a table (every phase but START and END) has one
                self._in_ext = True  # what _call does, without its frame (once per phase)
                try:
                    got = resolver(tuple(self._pending), self._view)
                finally:
                    self._in_ext = False
                if got is not None:
                    self._apply_batch(got, None, out)  # None: named by the phase, only if refused
                # One pass over what the resolution wrote (each effect's type read once): a list
                # written by this very resolution (even an empty one) names actors for the next
                # visit; the last GOTO_PHASE to a known phase is the way on unless a detour is owed.
                tables = self._tables
                keep = False
                goto = ""
                stray = False
                for e in out:
                    t = e.type
                    if t == SET_ACTORS:
                        if e.phase == phase and not e.canceled:
                            keep = True
                    elif t == GOTO_PHASE and not e.canceled:
                        if e.phase in tables or e.phase == END:
                            goto = e.phase
                        else:
                            stray = True
                self._leave_phase(keep)
                if s.detours:
                    nxt = s.detours[0].phase
                else:
                    if stray:  # rare: each ignored goto is reported, in order, only when gotos count
                        for e in out:
                            if e.type == GOTO_PHASE and not e.canceled and e.phase not in tables and e.phase != END:
                                self._b.logger.error("goto to unknown phase %r ignored", e.phase)
                    nxt = goto or here.next_phase or END
                # Asked unless a detour is owed, or the rules' ``victory_after`` leaves this phase out
                # (read from its row: the phase ended, whatever comes next).
                winners = None if s.detours or not here.asks_victory else self._check_victory()
                if winners is not None:
                    nxt = END
                if nxt == END:
                    keep = False
                    if phase in s.actors:
                        del s.actors[phase]  # not ``pop(key, None)``: compiled, a generic method call
                self._transition(nxt)
            except BaseException:
                # The pending list is untouched until here; the board is the replay of the log.
                self._rebuild()
                raise
            self._pending.clear()
            if nxt == END:
                s.winners = winners or ()
                out.append(game_ended(s.winners))
                self._log.extend(out)
            else:
                self._log.extend(out)
                here = self._row()  # nxt's row: its entry is kept there (no lookup by phase of its own)
                entry = here.entry_keep if keep else here.entry
                self._log.append(self._entering(here, keep) if entry is None else entry)
            self._board_changed()
            self._keep_for_callers()
            self._public(out)
        finally:
            self._lock.release()
        if self._outbox:
            self._dispatch()
        return tuple(out)

    def apply(self, *effects: Effect) -> tuple[Effect, ...]:
        """Host's sharp knife: apply effects through the same write point, now.

        Interceptors run, the effects are logged and published, but no phase ends and
        no victory is checked. A finished game is final: applying to it raises GameEnded.
        """
        with self._lock:
            self._guard()
            if self._state.phase == END:
                raise GameEnded("the game is over; its board is final")
            out: list[Effect] = []
            with AllOrNothing(self):
                self._apply_batch(effects, "apply", out)
            self._board_changed()
            self._log.extend(out)
            self._public(out)
        self._dispatch()
        return tuple(out)

    def add_players(self, seats: Iterable[tuple[str, RoleType]]) -> tuple[PlayerInfo, ...]:
        """Seat several players in order, each exactly as :meth:`add_player` would, under one lock.

        A table seated at once (every One Night game seats six or more) pays one lock round trip
        and one forgetting of kept answers, not one per seat. All or nothing: the first refusal
        (or a role setup, or the iterable, raising) undoes the seats this call made, so a refused
        table leaves the engine as it was."""
        items: Iterable[object] = seats  # unchecked yet: read as objects (mypyc)
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            mark = len(self._log)
            out: list[PlayerInfo] = []
            try:
                for item in items:
                    if not isinstance(item, tuple) or len(item) != 2:
                        raise InvalidArgument(f"add_players takes (player_id, role) pairs, got {item!r}")
                    out.append(self._seat_one(item[0], item[1]))
            except BaseException:
                if len(self._log) > mark:
                    # The board is the replay of the log: drop this call's entries (never saved: the
                    # lock is held) and rebuild, the rollback every step uses.
                    del self._log[mark:]
                    self._rebuild()
                raise
            if out:
                self._board_changed()
            return tuple(out)
        finally:
            self._lock.release()

    def _seat_one(self, player_id: object, role: object) -> PlayerInfo:
        """Under the lock: seat one player (the checks, the role's setup, the record, the log).

        The id and role are taken as ``object`` and checked here, so a wrongly typed pair given to
        :meth:`add_players` is refused with the same typed errors in both builds."""
        s = self._state
        if s.phase != START:
            raise GameAlreadyStarted("players can only be added before the game starts")
        if not isinstance(player_id, str) or not player_id:
            raise InvalidPlayerID(f"player id must be a non-empty str, got {player_id!r}")
        if not isinstance(role, str) or not role:
            raise InvalidRole(f"role must be a non-empty str other than SYSTEM, got {role!r}")
        pid: str = player_id  # typed now: compiled, what follows reads them as str, not as objects
        kind: RoleType = role
        if kind == SYSTEM:
            raise InvalidRole(f"role must be a non-empty str other than SYSTEM, got {kind!r}")
        if pid in s.players:
            raise PlayerExists(f"player {pid!r} is already seated")
        setup = self._role_setup.get(kind)
        raw = None
        if setup is not None:
            self._in_ext = True  # what _call does, without its frame
            try:
                raw = setup(pid, kind)
            finally:
                self._in_ext = False
        initial = EMPTY_MAP
        kept_map = False
        if raw is not None and type(raw) is not dict:
            # A kept constant map seated before with this id and role: its record and log entry are
            # immutable values equal for every game so seated (see _SEATED), taken as they are.
            by_id = _SEATED.get(kind)
            if by_id is not None:
                pair = by_id.get(pid)
                if pair is not None and pair[0][3] is raw:
                    s.add(pair[0])
                    self._log.append(pair[1])
                    return pair[0]
        if type(raw) is dict:
            # What setups return: typed as a dict, mypyc scans its values natively (a Mapping's
            # ``values()`` is a generic method call, its iteration generic too); of Any, unchecked
            # (frozen_map refuses what is not str to str).
            got: dict[Any, Any] = raw
            if got:
                # Usually sorted, str to str and no empty value: frozen as it is, in one pass.
                made = sorted_copy(got, False)
                if made is None:
                    for v in got.values():  # a native loop: ``"" in got.values()`` is a generic search
                        if v == "":
                            got = {k: w for k, w in got.items() if w != ""}
                            break
                    made = frozen_map(got)
                initial = made
        elif raw is not None:
            # The Mapping test is an ABC check, costly compiled: only for what is not a dict.
            if is_seatable_constant(raw):
                initial = cast("Mapping[str, str]", raw)  # clean, with no empty value: as it is
                kept_map = True
            elif not isinstance(raw, Mapping):
                raise InvalidArgument(f"role setup for {kind} returned {type(raw).__name__}, not a mapping")
            elif raw:
                # The usual setup sets no empty value: freeze it as it is, without a filtered copy first.
                kept = True
                for v in raw.values():
                    if v != "":  # the filter's own test
                        continue
                    kept = False
                    break
                initial = frozen_map(raw if kept else {k: v for k, v in raw.items() if v != ""})
        info: PlayerInfo = _new(_PLAYER, (pid, kind, True, initial, EMPTY_MAP))  # no NamedTuple __new__ frame
        added = player_added(pid, kind, initial)
        if kept_map and _seated_room():
            _SEATED.setdefault(kind, {})[pid] = (info, added)
        s.add(info)
        self._log.append(added)
        return info


SEATINGS_KEPT: Final = 4096
"""How many seatings (id, role, kept constant map) :data:`_SEATED` remembers; beyond it a seat's
record and log entry are built for each game (a bound: a server's tables reuse a few seat ids)."""
_SEATED: Final[dict[RoleType, dict[str, tuple[PlayerInfo, Effect]]]] = {}
"""By role, then seat id: the initial record and ``PLAYER_ADDED`` entry of a seat whose role setup
answered a kept :func:`~hiddenrole.constant_map` (see :func:`~hiddenrole.effects.is_seatable_constant`).
Why: both are immutable values that depend on (id, role, map) alone, and a short game (One Night,
which seats six or more from a handful of card maps) built the two tuples for every seat of every
game, about 2.5k instructions a seat compiled with their later dealloc. Found by the map's identity:
a kept constant map is kept alive by the kernel, so the same identity is the same clean map."""


def _seated_room() -> bool:
    """Whether :data:`_SEATED` may remember one seating more."""
    global _SEATED_COUNT
    if _SEATED_COUNT >= SEATINGS_KEPT:
        return False
    _SEATED_COUNT += 1
    return True


_SEATED_COUNT = 0
