"""Acting: ``submit`` and its validation, and the end of a turn in turn-ordered phases.

A submission is checked in a fixed order (the game runs, the player exists and may
act, the phase has the skill for the role, the rules' gate, the targets, one per step,
the turn) so that the same bad request always gets the same error. In simultaneous
phases it waits for the end of the phase; in turn-ordered and free phases a turn
resolver may resolve it at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Final

from .compiled import ONE_TARGET, PLAIN_TARGETS
from .config import PhaseStep
from .effects import Effect, SkillUse, kernel_entry
from .enginebase import REENTRY
from .errors import (
    AlreadySubmitted,
    InvalidArgument,
    InvalidTargets,
    NotYourTurn,
    ReentrantCall,
    SkillNotAllowed,
    TargetDead,
    TargetNotFound,
    TooManySubmissions,
)
from .restoring import AllOrNothing, Restoring
from .vocab import MAX_PENDING_PER_SEAT, MAX_TARGETS, TURN_DELAYED, TURN_ENDED, SkillType, TurnOrder

__all__ = ["Acting"]

_new: Final = tuple.__new__
_SKILL_USE: Final[type[SkillUse]] = SkillUse
"""Read from a C static by compiled ``submit`` (a class name is a dict lookup)."""


class Acting(Restoring):
    """Submissions, turn ends and delays."""

    __slots__ = ()

    def submit(self, player_id: str, skill: SkillType, targets: Iterable[str] = ()) -> SkillUse:
        """Record one skill use for resolution at the end of the phase.

        Checks, in order: the game is running, the player exists, may act (named, or
        alive), the phase has the skill for the player's role, every target exists
        and is alive (unless the step allows dead targets).
        """
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            s = self._state
            here = self._here  # the phase's row, read without a lookup (or a call) while the phase lasts
            table = (here if here.name is s.phase else self._row()).table
            if table is None:
                self._running()  # START or END: raises
                raise AssertionError("only START and END have no table")
            # A skill in the seat's kept allowed_skills answer has passed every check of that
            # answer (may act, a step for the role, usable, in a simultaneous phase no step
            # used): those checks are not repeated. Otherwise each runs, to name the refusal.
            # A kept answer also proves the seat exists: its record is then read only if needed.
            kept = self._answers is not None and type(player_id) is str
            allowed = self._now.get(player_id) if kept else None
            p = None
            if allowed is None:
                p = s.players.get(player_id) if type(player_id) is str else None
                if p is None:
                    p = self._player(player_id)  # raises unless a str subclass names a player
            if type(skill) is not str and not isinstance(skill, str):
                raise InvalidArgument(f"skill must be a str, got {type(skill).__name__}")
            if type(targets) is tuple and len(targets) <= MAX_TARGETS:
                tgts: tuple[str, ...] = targets
            elif type(targets) is list and len(targets) <= MAX_TARGETS:
                tgts = tuple(targets)  # what the bounded read below gives a short list, without its islice
            else:
                if isinstance(targets, str):
                    targets = (targets,)
                try:
                    # Never read more than the absolute bound: a huge list is refused unread.
                    tgts = tuple(islice(targets, MAX_TARGETS + 1))
                except TypeError:
                    raise InvalidArgument("targets must be an iterable of player ids") from None
                if len(tgts) > MAX_TARGETS:
                    raise InvalidTargets(f"a submission carries at most {MAX_TARGETS} targets")
            offers = self._answers
            if offers is None:
                offers = self._offers()
            if p is not None:
                allowed = self._now.get(p.id)
            vetted = allowed is not None and skill in allowed
            # The step, its target mode and its siblings: by skill alone when vetted and one step offers
            # the skill here (it is then the role's), else by role, then skill.
            entry = table.sole_step.get(skill) if vetted else None
            if entry is None:
                if p is None:
                    p = s.players[player_id]
                # Everyone the phase offers a skill may act; anyone else is asked the one rule (an
                # entry of the map the pass shares with the final answers may be dropped (``None``) or
                # narrowed to ``()``: the rule is asked then too, and gives the same verdict).
                if not vetted and not offers.get(p.id) and not self._may_act(p):
                    raise self._not_acting(p)
                mine = table.submit_for.get(p.role)
                entry = None if mine is None else mine.get(skill)
                if entry is None:
                    entry = table.submit_step(p.role, skill)  # the role-less step, kept for next time
                    if entry is None:
                        raise SkillNotAllowed(f"{skill!r} is not allowed for {p.role} in {s.phase}")
            step = entry.step
            gate = self._gate(player_id, skill, None, True)  # the answer allowed_skills kept, if it was asked
            if isinstance(gate, str):
                raise SkillNotAllowed(f"{skill!r} is not usable by {player_id!r} now: {gate}")
            if step.max_targets is not None and len(tgts) > step.max_targets:
                raise InvalidTargets(f"{skill!r} takes at most {step.max_targets} targets, got {len(tgts)}")
            for t in tgts:
                if not isinstance(t, str):
                    raise InvalidArgument(f"target must be a str, got {type(t).__name__}")
            mode = entry.mode
            if mode == PLAIN_TARGETS:
                for t in tgts:
                    if t:
                        self._check_target(step, t)
            elif mode == ONE_TARGET and len(tgts) == 1 and tgts[0]:
                # What _check_shaped_targets does for one target when the step admits one (no pool).
                if not step.allow_self_target and tgts[0] == player_id:
                    raise InvalidTargets(f"{step.skill!r} may not target oneself")
                self._check_target(step, tgts[0])
            else:
                self._check_shaped_targets(step, player_id, tgts)
            if gate is not None:
                for t in tgts:
                    if t and t not in gate:
                        # ``repr()``, not an f-string's ``!r``: compiled, that is a ``str.format`` call
                        # looked up by name (about 1,800 instructions each); a driver that does not ask
                        # allowed_targets first meets this refusal in play.
                        raise InvalidTargets(repr(skill) + " may not target " + repr(t) + " now")
            if table.simultaneous:
                # The last check of a simultaneous phase (no turns): the submission waits for the end.
                if not vetted:
                    siblings = entry.siblings
                    for u in self._pending:
                        if u.player_id == player_id and u.skill in siblings:
                            raise AlreadySubmitted(f"{player_id!r} already submitted {u.skill!r} this phase")
                use = _new(_SKILL_USE, (player_id, skill, tgts, s.phase, s.round))  # no NamedTuple __new__ frame
                self._pending.append(use)
                self._seat_changed(player_id)
                return use
            if sum(1 for u in self._pending if u.player_id == player_id) >= MAX_PENDING_PER_SEAT:
                raise TooManySubmissions(f"{player_id!r} holds {MAX_PENDING_PER_SEAT} submissions this phase")
            in_turn = skill not in table.out_of_turn
            if table.queued and in_turn and (not s.turns or s.turns[0] != player_id):
                turn = s.turns[0] if s.turns else "nobody"
                raise NotYourTurn(f"it is {turn}'s turn, not {player_id!r}'s")
            use = _new(_SKILL_USE, (player_id, skill, tgts, s.phase, s.round))
            out: list[Effect] = []
            with AllOrNothing(self):
                self._pending.append(use)
                if not in_turn or table.free:
                    self._resolve_now(use, out)
                elif table.moves <= sum(
                    1 for u in self._pending if u.player_id == player_id and u.skill not in table.out_of_turn
                ):
                    self._finish_turn(player_id, out)
            self._board_changed()
            self._commit(out)
        finally:
            self._lock.release()
        self._dispatch()
        return use

    def _check_target(self, step: PhaseStep, target: str) -> None:
        """The one target check every step makes: a seated player, alive unless the step allows the dead."""
        tp = self._state.players.get(target)
        if tp is None:
            raise TargetNotFound("no player " + repr(target))  # repr(), as in submit's refusals met in play
        if not tp.alive and not step.allow_dead_target:
            raise TargetDead(repr(target) + " is eliminated")

    def _check_shaped_targets(self, step: PhaseStep, player_id: str, tgts: tuple[str, ...]) -> None:
        """Targets of a step that declares a pool, a count, distinctness or no-self."""
        for t in tgts:  # an empty name is refused first: the checks below then read the tuple itself
            if not t:
                raise TargetNotFound("empty target name")
        n = len(tgts)
        if n < step.min_targets or (step.max_targets is not None and n > step.max_targets):
            bound = (
                step.min_targets if step.max_targets == step.min_targets else f"{step.min_targets}..{step.max_targets}"
            )
            raise InvalidTargets(f"{step.skill!r} takes {bound} targets, got {n}")
        if step.distinct_targets and len(set(tgts)) != n:
            raise InvalidTargets(f"{step.skill!r} needs distinct targets")
        if step.target_pool:
            pool = self._cfg.target_pools[step.target_pool]
            for t in tgts:
                if t not in pool:
                    raise TargetNotFound(f"{t!r} is not in target pool {step.target_pool!r}")
            return
        if not step.allow_self_target and player_id in tgts:
            raise InvalidTargets(f"{step.skill!r} may not target oneself")
        for t in tgts:
            self._check_target(step, t)

    def end_turn(self, player_id: str) -> tuple[Effect, ...]:
        """End ``player_id``'s turn before it has made all its moves (turn-ordered phases)."""
        with self._lock:
            self._guard()
            self._running()
            self._player(player_id)
            s = self._state
            table = self._tables[s.phase]
            if not table.queued or not s.turns or s.turns[0] != player_id:
                raise NotYourTurn(f"{player_id!r} does not have the turn")
            out: list[Effect] = []
            with AllOrNothing(self):
                self._finish_turn(player_id, out)
            self._board_changed()
            self._commit(out)
        self._dispatch()
        return tuple(out)

    def delay_turn(self, player_id: str) -> None:
        """INITIATIVE phases: the player with the turn moves to the end of the order, once."""
        with self._lock:
            self._guard()
            self._running()
            self._player(player_id)
            s = self._state
            table = self._tables[s.phase]
            if table.order is not TurnOrder.INITIATIVE or not s.turns or s.turns[0] != player_id:
                raise NotYourTurn(f"{player_id!r} does not have the turn in an initiative phase")
            if player_id in s.delayed:
                raise SkillNotAllowed(f"{player_id!r} already delayed this phase")
            if any(u.player_id == player_id and u.skill not in table.out_of_turn for u in self._pending):
                raise SkillNotAllowed(f"{player_id!r} has already moved this turn")
            if len(s.turns) < 2:
                raise SkillNotAllowed("nobody is left to wait for")
            s.turns.append(s.turns.pop(0))
            s.delayed = tuple(sorted({*s.delayed, player_id}))
            self._board_changed()
            self._log.append(kernel_entry(TURN_DELAYED, player_id))

    def _finish_turn(self, player_id: str, out: list[Effect]) -> None:
        """End the head's turn: resolve its moves (if the phase has a turn resolver), pop it."""
        s = self._state
        table = self._tables[s.phase]
        fn = self._b.turn_resolvers.get(s.phase)
        if fn is not None:
            mine = [u for u in self._pending if u.player_id == player_id and u.skill not in table.out_of_turn]
            if mine:
                self._pending = [u for u in self._pending if u not in mine]
            self._apply_batch(self._call(fn, tuple(mine), self._view), f"turn resolver for {s.phase}", out)
        out.append(kernel_entry(TURN_ENDED, player_id))
        if s.turns and s.turns[0] == player_id:
            s.turns.pop(0)
        self._skip_idle_turns(out)

    def _resolve_now(self, use: SkillUse, out: list[Effect]) -> None:
        """FREE phases and out-of-turn skills: a move is resolved as soon as it is made."""
        fn = self._b.turn_resolvers.get(self._state.phase)
        if fn is None:
            return
        self._pending.remove(use)
        self._apply_batch(self._call(fn, (use,), self._view), f"turn resolver for {self._state.phase}", out)
