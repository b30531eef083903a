"""Phase transitions: the statechart moves shared by live play and replay, and detours.

Leaving a phase forgets who was named for it (unless its resolver named players for
the next visit) and pays off the detour it served; entering a phase runs the exit and
entry round actions of the compound phases crossed. While a detour is owed the round
boundary is held, counter and clearing together, and lands once when the queue drains.

The ``PHASE_CHANGED`` log entry records one fact replay cannot recompute: whether the
resolution that ended the phase named actors for its next visit (a host's ``apply``
in the same phase does not). :func:`phase_changed` writes it and :func:`keeps_actors`
reads it; nothing else touches that entry's data.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from .boundary import Boundary
from .compiled import PhaseRow, Plan
from .effects import EMPTY_MAP, Effect, kernel_entry
from .vocab import GAME_ENDED, PHASE_CHANGED, PhaseAction, PhaseType

__all__ = ["KEEP_ACTORS_KEY", "Transitions", "game_ended", "keeps_actors", "phase_changed"]

KEEP_ACTORS_KEY: Final = "keep_actors"
"""The data key of a ``PHASE_CHANGED`` log entry: ``"1"`` when the phase left keeps its named actors."""

_KEEP_ACTORS: Final = MappingProxyType({KEEP_ACTORS_KEY: "1"})


_ADVANCE_ROUND: Final = PhaseAction.ADVANCE_ROUND
_CLEAR_ROUND_VARS: Final = PhaseAction.CLEAR_ROUND_VARS
"""Read from C statics by compiled ``_run_actions`` (an enum member is a module-dict and a class lookup)."""

_ENTRIES: Final[dict[PhaseType, Effect]] = {}
"""The entries made so far without ``keep_actors``, by phase."""
_ENTRIES_KEEP: Final[dict[PhaseType, Effect]] = {}
"""The entries made so far with ``keep_actors``, by phase (two dicts, not a pair of them: compiled,
a ``Final`` tuple is kept unboxed and built anew as a tuple for every index into it)."""
_ENTRIES_KEPT: Final = 1024
"""Entries kept per flag; past that (a program making phase names without end) each is built anew."""


def phase_changed(phase: PhaseType, keep_actors: bool) -> Effect:
    """The log entry for entering ``phase``; ``keep_actors``: the phase left keeps its named actors.

    Effects are immutable values, so one entry per (phase, flag) serves every game. They are kept
    in a plain dict keyed by the phase (once per phase of every game and replay: compiled, one
    native lookup, where an ``lru_cache`` call hashed an argument tuple in a Python-level call)."""
    kept = _ENTRIES_KEEP if keep_actors else _ENTRIES
    got = kept.get(phase)
    if got is None:
        got = Effect(PHASE_CHANGED, phase=phase, data=_KEEP_ACTORS if keep_actors else EMPTY_MAP)
        if len(kept) < _ENTRIES_KEPT:
            kept[phase] = got
    return got


_ENDED: Final[dict[tuple[str, ...], Effect]] = {}
"""The ``GAME_ENDED`` entries made so far, by winners (at most :data:`_ENTRIES_KEPT`)."""


def game_ended(winners: tuple[str, ...]) -> Effect:
    """The log entry that ends a game won by ``winners`` (sorted camps), one per set of winners as
    :func:`phase_changed` keeps one per phase: every game ends once, and building the entry
    (fifteen fields, ``tuple.__new__``) cost about 1,300 instructions compiled, a lookup a tenth."""
    for camp in winners:
        if type(camp) is not str:  # a str subclass is logged as given, not as an equal str kept
            return kernel_entry(GAME_ENDED, winners=winners)
    got = _ENDED.get(winners)
    if got is None:
        got = kernel_entry(GAME_ENDED, winners=winners)
        if len(_ENDED) < _ENTRIES_KEPT:
            _ENDED[winners] = got
    return got


def keeps_actors(entry: Effect) -> bool:
    """What :func:`phase_changed` recorded for ``keep_actors``."""
    return entry.data.get(KEEP_ACTORS_KEY) == "1"


class Transitions(Boundary):
    """Leaving and entering phases; round actions; the held round boundary."""

    __slots__ = ()

    def _run_actions(self, actions: tuple[PhaseAction, ...]) -> None:
        s = self._state
        for a in actions:
            if a is _ADVANCE_ROUND:
                s.round += 1
            elif a is _CLEAR_ROUND_VARS:
                s.reset_round()

    def _leave_phase(self, keep_actors: bool = False) -> None:
        """Forget who was named for the phase being left, unless its resolver named
        players for the next visit; pop the detour that this phase paid off."""
        s = self._state
        if not keep_actors and s.phase in s.actors:
            del s.actors[s.phase]  # not ``pop(key, None)``: mypyc compiles that into a generic method call
        if s.detours and s.detours[0].phase == s.phase:
            s.detours.pop(0)

    def _move(self, to: PhaseType, keep_actors: bool) -> None:
        """Leave the phase, then enter ``to``: a ``PHASE_CHANGED`` log entry replayed (live
        play decides the next phase in between, so it calls the two steps itself).

        The common case (the pair's plan made, no detour owed, nothing held, no turn order
        before or after) is done here without the two calls: replay makes one per phase."""
        s = self._state
        here = self._here
        if here.name is not s.phase:
            here = self._row()
        plan = here.plans.get(to)  # the phase's row, then the target: no (from, to) key tuple
        if plan is None or plan[2] or s.detours or s.held or s.turns or s.delayed:
            self._leave_phase(keep_actors)
            self._transition(to, plan)  # the plan found (leaving changes no phase), not looked up again
            return
        if not keep_actors and s.phase in s.actors:
            del s.actors[s.phase]  # not ``pop(key, None)``: compiled, that is a generic method call
        if plan[0]:
            self._run_actions(plan[0])
        s.phase = to
        s.ancestry = plan[1]

    def _transition(self, to: PhaseType, plan: Plan | None = None) -> None:
        """Statechart external transition: exits innermost-first, entries outermost-first.

        Everything that depends on the (from, to) pair alone is computed once per pair
        (:meth:`_plan`); what is left per call is the board's own part. ``plan``: the pair's
        plan if the caller has already looked it up."""
        s = self._state
        if plan is None:
            here = self._here
            if here.name is not s.phase:
                here = self._row()
            plans = here.plans
            plan = plans.get(to)
            if plan is None:
                plan = plans[to] = self._plan(s.phase, to)
        actions, ancestry, queued = plan
        if s.detours:
            # A detour is owed: the round boundary is held, counter and clearing together,
            # and lands once when the queue drains (the round state lives until then).
            if actions:
                s.held = _merged(s.held, actions)
        else:
            if s.held:
                held = tuple(a for a in s.held if a not in actions)
                s.held = ()
                self._run_actions(held)
            if actions:
                self._run_actions(actions)
        s.phase = to
        s.ancestry = ancestry
        if s.detours and s.detours[0].phase == to:
            s.actors[to] = (s.detours[0].player_id,)
        if queued or s.turns or s.delayed:
            self._start_turns()  # otherwise the phase starts as it is: no turn order, nobody delayed

    def _plan(self, src_phase: PhaseType, to: PhaseType) -> Plan:
        """The round actions of one transition (exits, then entries), the target's ancestors
        and whether its turns are queued (computed once per pair)."""
        src = self._paths[src_phase]
        dst = self._paths[to]
        common = set(src[1:]).intersection(dst[1:])
        phases = self._cfg.phases
        exits = tuple(a for ph in src if ph not in common and ph in phases for a in phases[ph].on_exit)
        entries = tuple(a for ph in reversed(dst) if ph not in common and ph in phases for a in phases[ph].on_enter)
        table = self._tables.get(to)
        return exits + entries, dst[1:], table is not None and table.queued

    def _entering(self, here: PhaseRow, keep_actors: bool) -> Effect:
        """:func:`phase_changed` for ``here``'s phase, kept on the row: the caller reads the row's
        entry first and calls this on first use (pure, a call is a Python frame)."""
        got = phase_changed(here.name, keep_actors)
        if keep_actors:
            here.entry_keep = got
        else:
            here.entry = got
        return got

    def _start_at(self, phase: PhaseType) -> None:
        s = self._state
        s.phase = phase
        s.ancestry = self._paths[phase][1:]
        s.round = 1
        s.reset_round()
        self._start_turns()


_ACTIONS: Final = tuple(PhaseAction)
"""Every round action in declaration order, as a tuple: iterating the enum class itself runs its
metaclass's ``__iter__``, a Python generator (about 9,000 instructions per merge, compiled)."""


def _merged(held: tuple[PhaseAction, ...], more: tuple[PhaseAction, ...]) -> tuple[PhaseAction, ...]:
    """Held round actions: each kind once, in a fixed order."""
    return tuple([a for a in _ACTIONS if a in held or a in more])
