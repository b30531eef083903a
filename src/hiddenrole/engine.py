"""The engine: a phase state machine with one write point and an information boundary.

It knows players, phases, submissions and "who may know what". Everything about a
particular game arrives through :class:`~hiddenrole.rules.Rules`. All public methods
are thread-safe (one re-entrant lock); event and message handlers run after the
lock is released, so they may call back into the engine. Extension points run under
the lock and must not call back: doing so raises :class:`ReentrantCall`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from types import MappingProxyType
from typing import Any

from .config import Config, PhaseConfig, PhaseStep
from .effects import (
    EMPTY_MAP,
    REPLACED_BY_INTERCEPTOR,
    Effect,
    Event,
    SkillUse,
    VarScope,
    checked_effect,
    checked_event,
    coerce_effects,
    frozen_map,
)
from .errors import (
    AlreadySubmitted,
    BoardAlreadyDecided,
    GameAlreadyStarted,
    GameEnded,
    GameNotStarted,
    InvalidArgument,
    InvalidBoard,
    InvalidLog,
    InvalidPhase,
    InvalidPlayerID,
    InvalidRole,
    InvalidSnapshot,
    InvalidTargets,
    MessageNotAllowed,
    NotYourTurn,
    PlayerDead,
    PlayerExists,
    PlayerNotFound,
    ReentrantCall,
    RulesMismatch,
    SkillNotAllowed,
    TargetDead,
    TargetNotFound,
    TooManySubmissions,
)
from .persistence import (
    LOG_VERSION,
    SNAPSHOT_VERSION,
    EncodedEffects,
    GameLog,
    Snapshot,
    coerce_log,
    coerce_snapshot,
)
from .rules import Bound, Rules
from .state import GameView, State
from .views import (
    Message,
    PendingAction,
    PhaseInfo,
    PlayerInfo,
    PlayerView,
    Readiness,
    RolePhaseInfo,
    RoundContext,
    SelfInfo,
    Status,
)
from .vocab import (
    BOOKKEEPING_EVENTS,
    DETOUR,
    END,
    GAME_ENDED,
    GAME_STARTED,
    GOTO_PHASE,
    INTERNAL_EVENTS,
    MAX_PENDING_PER_SEAT,
    MAX_TARGETS,
    PHASE_CHANGED,
    PLAYER_ADDED,
    SET_ACTORS,
    START,
    SYSTEM,
    TURN_DELAYED,
    TURN_ENDED,
    VAR_CAMP,
    Camp,
    PhaseAction,
    PhaseType,
    RoleType,
    SkillType,
    TurnOrder,
)

__all__ = ["Engine", "EventHandler", "MessageHandler"]

EventHandler = Callable[[Event], Any]
MessageHandler = Callable[[Message, tuple[str, ...]], Any]


class _Requirement:
    """Steps folded for readiness: one per (role, group) or per ungrouped step."""

    __slots__ = ("multiple", "order", "required", "role", "skill", "skills")

    def __init__(self, step: PhaseStep) -> None:
        self.role = step.role
        self.skills = {step.skill}
        self.order = [step.skill]
        self.skill = step.skill
        self.required = step.required
        self.multiple = step.multiple


class _PhaseTable:
    """Everything about one phase's steps that can be computed once, at construction."""

    __slots__ = (
        "_free_skills_for",
        "_skills_for",
        "active_roles",
        "initiative_var",
        "moves",
        "order",
        "out_of_turn",
        "queued",
        "requirements",
        "siblings",
        "step_for",
        "steps",
    )

    def __init__(self, pc: PhaseConfig) -> None:
        steps = pc.steps
        self.steps = steps
        self.order = pc.turn_order
        self.queued = pc.turn_order in (TurnOrder.SEQUENTIAL, TurnOrder.INITIATIVE)
        self.moves = pc.moves_per_turn
        self.out_of_turn = frozenset(pc.out_of_turn)
        self.initiative_var = pc.initiative_var
        self._free_skills_for: dict[RoleType, tuple[SkillType, ...]] = {}
        self.step_for: dict[tuple[RoleType, SkillType], PhaseStep] = {
            (s.role, s.skill): s for s in steps if s.skill and s.role != SYSTEM
        }
        self._skills_for: dict[RoleType, tuple[SkillType, ...]] = {}
        reqs: list[_Requirement] = []
        groups: dict[tuple[str, str], _Requirement] = {}
        for s in steps:
            if s.role == SYSTEM or not s.skill:
                continue
            if s.group:
                g = groups.get((s.role, s.group))
                if g is not None:
                    g.skills.add(s.skill)
                    g.order.append(s.skill)
                    g.required = g.required or s.required
                    g.multiple = g.multiple or s.multiple
                    continue
                g = groups[(s.role, s.group)] = _Requirement(s)
                reqs.append(g)
            else:
                reqs.append(_Requirement(s))
        self.requirements = tuple(reqs)
        # A step's "siblings": the skills that share its readiness requirement (itself, or
        # every step of its group). A seat submits once per requirement in a simultaneous phase.
        self.siblings: dict[tuple[RoleType, SkillType], frozenset[SkillType]] = {}
        for s in steps:
            if s.role == SYSTEM or not s.skill:
                continue
            mates = {x.skill for x in steps if x.group and x.group == s.group and x.role == s.role and x.skill}
            self.siblings[(s.role, s.skill)] = frozenset(mates or {s.skill})
        roles: list[RoleType] = []
        for s in steps:
            if s.role != SYSTEM and s.role not in roles:
                roles.append(s.role)
        self.active_roles = tuple(roles)

    def skills_for(self, role: RoleType) -> tuple[SkillType, ...]:
        got = self._skills_for.get(role)
        if got is None:
            got = tuple(s.skill for s in self.steps if s.skill and s.role != SYSTEM and s.role in ("", role))
            self._skills_for[role] = got
        return got

    def out_of_turn_skills_for(self, role: RoleType) -> tuple[SkillType, ...]:
        got = self._free_skills_for.get(role)
        if got is None:
            got = tuple(k for k in self.skills_for(role) if k in self.out_of_turn)
            self._free_skills_for[role] = got
        return got

    def find_step(self, role: RoleType, skill: SkillType) -> PhaseStep | None:
        return self.step_for.get((role, skill)) or self.step_for.get(("", skill))


_EMPTY_TABLE = _PhaseTable(PhaseConfig())


class _AllOrNothing:
    """Makes one engine step all-or-nothing.

    Extension points run midway through a step; if one raises, the board is rebuilt
    from the log (which only grows once a step has succeeded) and the pending
    submissions are put back, so the caller sees the engine exactly as before.
    """

    __slots__ = ("engine", "pending")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pending = list(engine._pending)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if kind is not None:
            self.engine._rebuild()
            self.engine._pending = self.pending


class _Compiled:
    """What an engine derives from its rules alone, computed once per Rules value.

    Rules are immutable, so every engine built from the same value (new games,
    restores, replays) shares this instead of recomputing it.
    """

    __slots__ = ("bound", "cfg", "compound", "paths", "plans", "tables")

    def __init__(self, rules: Rules) -> None:
        self.bound = Bound(rules)
        cfg: Config = rules.config
        self.cfg = cfg
        self.compound = cfg.compound_phases()
        self.tables: dict[PhaseType, _PhaseTable] = {}
        self.paths: dict[PhaseType, tuple[PhaseType, ...]] = {END: (END,), START: (START,)}
        self.plans: dict[tuple[PhaseType, PhaseType], tuple[tuple[PhaseAction, ...], tuple[PhaseAction, ...]]] = {}
        for name, pc in cfg.phases.items():
            self.paths[name] = cfg.path_of(name)
            if name in self.compound:
                continue
            if name not in self.bound.resolvers:
                raise InvalidPhase(f"phase {name!r} has no resolver")
            self.tables[name] = _PhaseTable(pc)


class Engine:
    """One game. Build it from :class:`Rules`, seat players, :meth:`start`, then loop
    :meth:`submit` / :meth:`end_phase` until :meth:`status` says it is over."""

    __slots__ = (
        "_b",
        "_cfg",
        "_compound",
        "_delivering",
        "_encoded",
        "_event_handlers",
        "_in_ext",
        "_lock",
        "_log",
        "_message_handlers",
        "_outbox",
        "_paths",
        "_pending",
        "_plans",
        "_state",
        "_tables",
        "_view",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise InvalidArgument("Engine needs a Rules value")
        self.rules = rules
        comp = rules._compiled
        if not isinstance(comp, _Compiled):
            comp = _Compiled(rules)
            object.__setattr__(rules, "_compiled", comp)
        self._b = comp.bound
        self._cfg = comp.cfg
        self._compound = comp.compound
        self._tables = comp.tables
        self._paths = comp.paths
        self._plans = comp.plans
        self._state = State()
        self._view = GameView(self._state)
        self._pending: list[SkillUse] = []
        self._log: list[Effect] = []
        self._encoded = EncodedEffects()
        self._lock = threading.RLock()
        self._in_ext = False
        self._event_handlers: list[EventHandler] = []
        self._outbox: list[Event] = []
        self._delivering = False
        self._message_handlers: list[MessageHandler] = []

    # ------------------------------------------------------------------ plumbing

    def _guard(self) -> None:
        if self._in_ext:
            raise ReentrantCall("an extension point called back into the engine that is running it")

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
                    handlers = tuple(self._event_handlers)
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

    def _table(self) -> _PhaseTable:
        return self._tables.get(self._state.phase, _EMPTY_TABLE)

    def _actors_for(self, role: RoleType) -> tuple[str, ...]:
        """The single source of "who may act" for a step role."""
        s = self._state
        named = s.actors.get(s.phase)
        if named is not None:
            if not role:
                return named
            players = s.players
            return tuple(i for i in named if players[i].role == role)
        if not role:
            return tuple(p.id for p in s.alive_players())
        return tuple(p.id for p in s.alive_players() if p.role == role)

    def _eligible(self, p: PlayerInfo, table: _PhaseTable) -> tuple[SkillType, ...]:
        """Skills the phase gives ``p`` now, before turn order is considered."""
        s = self._state
        named = s.actors.get(s.phase)
        if named is not None:
            if p.id not in named:
                return ()
        elif not p.alive:
            return ()
        got = table._skills_for.get(p.role)
        return got if got is not None else table.skills_for(p.role)

    def _allowed(self, p: PlayerInfo) -> tuple[SkillType, ...]:
        skills = self._offered(p)
        if skills and self._b.usable is not None:
            return tuple(k for k in skills if not isinstance(self._gate(p.id, k), str))
        return skills

    def _gate(self, player_id: str, skill: SkillType) -> str | frozenset[str] | None:
        """The rules' ``usable`` answer: ``None`` (yes), a reason (no), or the allowed targets."""
        fn = self._b.usable
        if fn is None:
            return None
        mine = tuple(u for u in self._pending if u.player_id == player_id)
        got = self._call(fn, player_id, skill, self._view, mine)
        if got is None:
            return None
        if isinstance(got, str):
            return got or NOT_USABLE
        targets = frozenset(_ids(got, "usable"))
        return targets if targets else NO_TARGET_NOW

    def _limits(self, player_id: str, skills: tuple[SkillType, ...]) -> tuple[tuple[SkillType, tuple[str, ...]], ...]:
        """``(skill, only targets)`` for each allowed skill the rules' ``usable`` limits now (targets sorted)."""
        if self._b.usable is None or not skills:
            return ()
        out = []
        for k in skills:
            gate = self._gate(player_id, k)
            if isinstance(gate, frozenset):
                out.append((k, tuple(sorted(gate))))
        return tuple(out)

    def _offered(self, p: PlayerInfo) -> tuple[SkillType, ...]:
        table = self._tables.get(self._state.phase)
        if table is None:
            return ()
        skills = self._eligible(p, table)
        if skills and table.queued:
            turns = self._state.turns
            if not turns or turns[0] != p.id:
                return table.out_of_turn_skills_for(p.role)
        elif skills and self._pending and table.order is TurnOrder.SIMULTANEOUS:
            # One submission per step: a step the seat already used is no longer offered.
            used = {u.skill for u in self._pending if u.player_id == p.id}
            if used:
                sib = table.siblings
                step_for = table.find_step
                return tuple(k for k in skills if used.isdisjoint(sib[_key(step_for(p.role, k))]))
        return skills

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

    def _apply_batch(self, effects: Iterable[Effect] | None, who: str, out: list[Effect]) -> None:
        """Offer each effect to the interceptors, vet it, apply it, record it in ``out``."""
        for e in coerce_effects(effects, who):
            self._offer(e, 0, out)

    def _offer(self, e: Effect, start: int, out: list[Effect]) -> None:
        icpts = self._b.interceptors
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

    def _run_actions(self, actions: tuple[PhaseAction, ...]) -> None:
        s = self._state
        for a in actions:
            if a is PhaseAction.ADVANCE_ROUND:
                s.round += 1
            elif a is PhaseAction.CLEAR_ROUND_VARS:
                s.reset_round()

    def _leave_phase(self, keep_actors: bool = False) -> None:
        """Forget who was named for the phase being left, unless its resolver named
        players for the next visit; pop the detour that this phase paid off."""
        s = self._state
        if not keep_actors:
            s.actors.pop(s.phase, None)
        if s.detours and s.detours[0].phase == s.phase:
            s.detours.pop(0)

    def _transition(self, to: PhaseType) -> None:
        """Statechart external transition: exits innermost-first, entries outermost-first."""
        s = self._state
        key = (s.phase, to)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(s.phase, to)
        exits, entries = plan
        if s.detours:
            # A detour is owed: the round boundary is held, counter and clearing together,
            # and lands once when the queue drains (the round state lives until then).
            if exits or entries:
                s.held = _merged(s.held, exits + entries)
        else:
            if s.held:
                own = exits + entries
                held = tuple(a for a in s.held if a not in own)
                s.held = ()
                self._run_actions(held)
            if exits:
                self._run_actions(exits)
            if entries:
                self._run_actions(entries)
        s.phase = to
        s.ancestry = self._paths[to][1:]
        if s.detours and s.detours[0].phase == to:
            s.actors[to] = (s.detours[0].player_id,)
        self._start_turns()

    def _plan(self, src_phase: PhaseType, to: PhaseType) -> tuple[tuple[PhaseAction, ...], tuple[PhaseAction, ...]]:
        """The exit actions then entry actions of one transition (computed once per pair)."""
        src = self._paths[src_phase]
        dst = self._paths[to]
        common = set(src[1:]).intersection(dst[1:])
        phases = self._cfg.phases
        exits = tuple(a for ph in src if ph not in common and ph in phases for a in phases[ph].on_exit)
        entries = tuple(a for ph in reversed(dst) if ph not in common and ph in phases for a in phases[ph].on_enter)
        return exits, entries

    def _start_turns(self) -> None:
        """Every phase starts with a fresh turn order (empty unless the phase is queued)."""
        s = self._state
        s.delayed = ()
        table = self._tables.get(s.phase)
        s.turns = self._turn_queue(table) if table is not None and table.queued else []

    def _turn_queue(self, table: _PhaseTable) -> list[str]:
        """Who takes a turn in this phase, in order: seat order, or initiative (high first)."""
        s = self._state
        players = s.players
        ids = [i for i in s.order if any(k not in table.out_of_turn for k in self._eligible(players[i], table))]
        if table.order is TurnOrder.INITIATIVE:
            key = table.initiative_var
            ids.sort(key=lambda i: (-_as_int(players[i].vars.get(key, "")), i))
        return ids

    def _skip_idle_turns(self, out: list[Effect]) -> None:
        """Pass over queued players who can no longer act (e.g. eliminated meanwhile)."""
        s = self._state
        table = self._tables[s.phase]
        while s.turns and not any(k not in table.out_of_turn for k in self._eligible(s.players[s.turns[0]], table)):
            out.append(Effect(TURN_ENDED, source=s.turns.pop(0)))

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
        out.append(Effect(TURN_ENDED, source=player_id))
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

    def _public(self, out: list[Effect]) -> None:
        """Queue the events handlers will receive (none are built when nobody listens)."""
        if self._event_handlers:
            self._outbox.extend(e.to_event() for e in out if e.type not in INTERNAL_EVENTS)

    def _commit(self, out: list[Effect]) -> None:
        self._log.extend(out)
        self._public(out)

    def _start_at(self, phase: PhaseType) -> None:
        s = self._state
        s.phase = phase
        s.ancestry = self._paths[phase][1:]
        s.round = 1
        s.reset_round()
        self._start_turns()

    def _check_victory(self) -> tuple[Camp, ...] | None:
        fn = self._b.victory
        if fn is None:
            return None
        got = self._call(fn, self._view)
        if got is None:
            return None
        if isinstance(got, (str, bytes)) or not isinstance(got, Iterable):
            raise InvalidArgument("victory checker must return None or an iterable of camps")
        camps = tuple(got)
        for c in camps:
            if not isinstance(c, str) or not c:
                raise InvalidArgument(f"victory checker returned a bad camp {c!r}")
        return tuple(sorted(set(camps)))

    # ------------------------------------------------------------------ seating and start

    def add_player(self, player_id: str, role: RoleType) -> PlayerInfo:
        """Seat a player before the game starts; the role's setup gives initial variables."""
        with self._lock:
            self._guard()
            if self._state.phase != START:
                raise GameAlreadyStarted("players can only be added before the game starts")
            if not isinstance(player_id, str) or not player_id:
                raise InvalidPlayerID(f"player id must be a non-empty str, got {player_id!r}")
            if not isinstance(role, str) or not role or role == SYSTEM:
                raise InvalidRole(f"role must be a non-empty str other than SYSTEM, got {role!r}")
            if player_id in self._state.players:
                raise PlayerExists(f"player {player_id!r} is already seated")
            setup = self._b.role_setup.get(role)
            raw = {} if setup is None else self._call(setup, player_id, role)
            if raw is not None and not isinstance(raw, Mapping):
                raise InvalidArgument(f"role setup for {role} returned {type(raw).__name__}, not a mapping")
            initial = frozen_map({k: v for k, v in (raw or {}).items() if v != ""})
            info = PlayerInfo(player_id, role, True, initial)
            self._state.seat(info)
            self._log.append(Effect(PLAYER_ADDED, target=player_id, role=role, vars=initial))
            return info

    def start(self) -> None:
        """Enter the start phase at round 1, then apply the game setup's effects."""
        with self._lock:
            self._guard()
            s = self._state
            if s.phase != START:
                raise GameAlreadyStarted("the game has already started")
            if not s.players:
                raise InvalidBoard("no players are seated")
            if self._check_victory() is not None:
                raise BoardAlreadyDecided("the victory checker already declares a result")
            with _AllOrNothing(self):
                self._start_at(self._cfg.start_phase)
                started = Effect(GAME_STARTED, phase=self._cfg.start_phase)
                batch: list[Effect] = [started]
                if self._b.game_setup is not None:
                    self._apply_batch(self._call(self._b.game_setup, self._view), "game setup", batch)
            self._log.extend(batch)
            self._public([started])
        self._dispatch()

    def _rebuild(self) -> None:
        """Put the board back to what the log says, after an extension point raised midway.

        The board is always the replay of the log (the log only grows after a step
        succeeded), so this is exact, and it costs nothing on the path that succeeds.
        """
        self._state = State()
        self._view = GameView(self._state)
        self._replay(self._log, True)

    # ------------------------------------------------------------------ acting

    def submit(self, player_id: str, skill: SkillType, targets: Iterable[str] = ()) -> SkillUse:
        """Record one skill use for resolution at the end of the phase.

        Checks, in order: the game is running, the player exists, may act (named, or
        alive), the phase has the skill for the player's role, every target exists
        and is alive (unless the step allows dead targets).
        """
        with self._lock:
            self._guard()
            self._running()
            p = self._player(player_id)
            if not isinstance(skill, str):
                raise InvalidArgument(f"skill must be a str, got {type(skill).__name__}")
            if isinstance(targets, str):
                targets = (targets,)
            try:
                # Never read more than the absolute bound: a huge list is refused unread.
                tgts = tuple(islice(targets, MAX_TARGETS + 1))
            except TypeError:
                raise InvalidArgument("targets must be an iterable of player ids") from None
            if len(tgts) > MAX_TARGETS:
                raise InvalidTargets(f"a submission carries at most {MAX_TARGETS} targets")
            s = self._state
            named = s.actors.get(s.phase)
            if named is not None:
                if player_id not in named:
                    raise SkillNotAllowed(f"{player_id!r} is not named to act in {s.phase}")
            elif not p.alive:
                raise PlayerDead(f"{player_id!r} is eliminated")
            step = self._tables[s.phase].find_step(p.role, skill) if skill else None
            if step is None:
                raise SkillNotAllowed(f"{skill!r} is not allowed for {p.role} in {s.phase}")
            gate = self._gate(player_id, skill)
            if isinstance(gate, str):
                raise SkillNotAllowed(f"{skill!r} is not usable by {player_id!r} now: {gate}")
            if step.max_targets is not None and len(tgts) > step.max_targets:
                raise InvalidTargets(f"{skill!r} takes at most {step.max_targets} targets, got {len(tgts)}")
            for t in tgts:
                if not isinstance(t, str):
                    raise InvalidArgument(f"target must be a str, got {type(t).__name__}")
            if step.checks_targets:
                self._check_shaped_targets(step, player_id, tgts)
            else:
                players = s.players
                for t in tgts:
                    if not t:
                        continue
                    tp = players.get(t)
                    if tp is None:
                        raise TargetNotFound(f"no player {t!r}")
                    if not tp.alive and not step.allow_dead_target:
                        raise TargetDead(f"{t!r} is eliminated")
            if gate is not None:
                for t in tgts:
                    if t and t not in gate:
                        raise InvalidTargets(f"{skill!r} may not target {t!r} now")
            table = self._tables[s.phase]
            if table.order is TurnOrder.SIMULTANEOUS:
                siblings = table.siblings[(step.role, step.skill)]
                for u in self._pending:
                    if u.player_id == player_id and u.skill in siblings:
                        raise AlreadySubmitted(f"{player_id!r} already submitted {u.skill!r} this phase")
            elif sum(1 for u in self._pending if u.player_id == player_id) >= MAX_PENDING_PER_SEAT:
                raise TooManySubmissions(f"{player_id!r} holds {MAX_PENDING_PER_SEAT} submissions this phase")
            in_turn = skill not in table.out_of_turn
            if table.queued and in_turn and (not s.turns or s.turns[0] != player_id):
                turn = s.turns[0] if s.turns else "nobody"
                raise NotYourTurn(f"it is {turn}'s turn, not {player_id!r}'s")
            use = SkillUse(player_id, skill, tgts, s.phase, s.round)
            if table.order is TurnOrder.SIMULTANEOUS:
                self._pending.append(use)
                return use
            out: list[Effect] = []
            with _AllOrNothing(self):
                self._pending.append(use)
                if not in_turn or table.order is TurnOrder.FREE:
                    self._resolve_now(use, out)
                elif table.moves <= sum(
                    1 for u in self._pending if u.player_id == player_id and u.skill not in table.out_of_turn
                ):
                    self._finish_turn(player_id, out)
            self._commit(out)
        self._dispatch()
        return use

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
            with _AllOrNothing(self):
                self._finish_turn(player_id, out)
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
            self._log.append(Effect(TURN_DELAYED, source=player_id))

    def _check_shaped_targets(self, step: PhaseStep, player_id: str, tgts: tuple[str, ...]) -> None:
        """Targets of a step that declares a pool, a count, distinctness or no-self."""
        real = [t for t in tgts if t]
        if len(real) != len(tgts):
            raise TargetNotFound("empty target name")
        if len(real) < step.min_targets or (step.max_targets is not None and len(real) > step.max_targets):
            bound = (
                step.min_targets if step.max_targets == step.min_targets else f"{step.min_targets}..{step.max_targets}"
            )
            raise InvalidTargets(f"{step.skill!r} takes {bound} targets, got {len(real)}")
        if step.distinct_targets and len(set(real)) != len(real):
            raise InvalidTargets(f"{step.skill!r} needs distinct targets")
        if step.target_pool:
            pool = self._cfg.target_pools[step.target_pool]
            for t in real:
                if t not in pool:
                    raise TargetNotFound(f"{t!r} is not in target pool {step.target_pool!r}")
            return
        if not step.allow_self_target and player_id in real:
            raise InvalidTargets(f"{step.skill!r} may not target oneself")
        players = self._state.players
        for t in real:
            tp = players.get(t)
            if tp is None:
                raise TargetNotFound(f"no player {t!r}")
            if not tp.alive and not step.allow_dead_target:
                raise TargetDead(f"{t!r} is eliminated")

    def end_phase(self) -> tuple[Effect, ...]:
        """Resolve the phase and move on; the only way forward.

        Returns every effect produced (cancelled ones and interceptor originals
        included) and, if the game ended, the ``GAME_ENDED`` effect.
        """
        with self._lock:
            self._guard()
            self._running()
            s = self._state
            phase = s.phase
            out: list[Effect] = []
            with _AllOrNothing(self):
                self._apply_batch(
                    self._call(self._b.resolvers[phase], tuple(self._pending), self._view), f"resolver for {phase}", out
                )
                # A list written by this very resolution (even an empty one) names actors
                # for the next visit.
                keep = any(e.type == SET_ACTORS and e.phase == phase and not e.canceled for e in out)
                self._leave_phase(keep)
                if s.detours:
                    nxt = s.detours[0].phase
                else:
                    nxt = ""
                    for e in out:
                        if e.type == GOTO_PHASE and not e.canceled:
                            if e.phase in self._tables or e.phase == END:
                                nxt = e.phase
                            else:
                                self._b.logger.error("goto to unknown phase %r ignored", e.phase)
                    if not nxt:
                        nxt = self._cfg.phases[phase].next_phase or END
                winners = None if s.detours else self._check_victory()
                if winners is not None:
                    nxt = END
                if nxt == END:
                    keep = False
                    s.actors.pop(phase, None)
                self._transition(nxt)
            self._pending.clear()
            if nxt == END:
                s.winners = winners or ()
                ended = Effect(GAME_ENDED, winners=s.winners)
                out.append(ended)
                self._log.extend(out)
            else:
                self._log.extend(out)
                self._log.append(Effect(PHASE_CHANGED, phase=nxt, data=_KEEP_ACTORS if keep else EMPTY_MAP))
            self._public(out)
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
            with _AllOrNothing(self):
                self._apply_batch(effects, "apply", out)
            self._log.extend(out)
            self._public(out)
        self._dispatch()
        return tuple(out)

    # ------------------------------------------------------------------ reading

    def status(self) -> Status:
        with self._lock:
            self._guard()
            s = self._state
            return Status(s.phase, s.round, s.phase == END, s.winners or ())

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
        with self._lock:
            self._guard()
            return self._player(player_id)

    def player_ids(self) -> tuple[str, ...]:
        with self._lock:
            self._guard()
            return tuple(self._state.order)

    def alive_player_ids(self) -> tuple[str, ...]:
        with self._lock:
            self._guard()
            return tuple(p.id for p in self._state.alive_players())

    def round_context(self) -> RoundContext:
        with self._lock:
            self._guard()
            return self._view.round_context()

    def pending_uses(self) -> tuple[SkillUse, ...]:
        """Submissions waiting for the end of this phase (god view)."""
        with self._lock:
            self._guard()
            return tuple(self._pending)

    def allowed_skills(self, player_id: str) -> tuple[SkillType, ...]:
        """What ``player_id`` may submit now (the same answer submit and readiness use)."""
        with self._lock:
            self._guard()
            p = self._state.players.get(player_id) if type(player_id) is str else None
            return self._allowed(p if p is not None else self._player(player_id))

    def allowed_targets(self, player_id: str, skill: SkillType) -> tuple[str, ...] | None:
        """The only targets ``player_id`` may give ``skill`` now, sorted; ``None``: any the step permits.

        ``()`` when the skill is not allowed now (the same answer submit uses).
        """
        with self._lock:
            self._guard()
            p = self._player(player_id)
            if skill not in self._allowed(p):
                return ()
            gate = self._gate(p.id, skill)
            return None if gate is None else tuple(sorted(gate))

    def teammates(self, player_id: str) -> tuple[str, ...]:
        with self._lock:
            self._guard()
            return self._teammates(self._player(player_id).id)

    def _teammates(self, player_id: str) -> tuple[str, ...]:
        fn = self._b.teammates
        if fn is None:
            return ()
        got = _ids(self._call(fn, player_id, self._view), "teammates provider")
        players = self._state.players
        return tuple(sorted({i for i in got if i in players and i != player_id}))

    def _role_info(self, p: PlayerInfo) -> Any:
        fn = self._b.role_info.get(p.role)
        if fn is None:
            return frozen_map(None)
        return frozen_map(self._call(fn, p.id, self._view))

    def player_view(self, player_id: str) -> PlayerView:
        """Everything ``player_id`` may see now. Roles are shown only for self and teammates."""
        with self._lock:
            self._guard()
            p = self._player(player_id)
            s = self._state
            mates = self._teammates(p.id)
            infos = s.public_infos(p.id, mates)
            allowed = self._allowed(p)
            return PlayerView(
                p.id,
                s.round,
                s.phase,
                SelfInfo(p.id, p.role, p.alive, p.vars.get(VAR_CAMP, "")),
                infos,
                allowed,
                mates,
                self._role_info(p),
                s.turns[0] if s.turns else "",
                self._limits(p.id, allowed),
            )

    def readiness(self) -> Readiness:
        """Who still owes an action; advice only (ending the phase is never refused)."""
        with self._lock:
            self._guard()
            s = self._state
            pending_uses = self._pending
            acted = tuple(sorted({u.player_id for u in pending_uses}))
            pend: list[PendingAction] = []
            opt: list[PendingAction] = []
            ready = True
            players = s.players
            table = self._table()
            if table.queued:
                if not s.turns:
                    return Readiness(s.phase, s.round, True, (), (), acted, "", s.delayed)
                head = players[s.turns[0]]
                pend = [PendingAction(head.id, head.role, k) for k in self._allowed(head) if k not in table.out_of_turn]
                return Readiness(s.phase, s.round, False, tuple(pend), (), acted, head.id, s.delayed)
            for req in table.requirements:
                actors = self._actors_for(req.role)
                if not actors:
                    continue
                done = {u.player_id for u in pending_uses if u.skill in req.skills}
                missing = [a for a in actors if a not in done]
                if not missing:
                    continue
                if self._b.usable is None:
                    actions = [PendingAction(a, players[a].role, req.skill) for a in missing]
                else:
                    # A seat is asked only for a skill the rules let it use now (the first, in step order).
                    actions = []
                    for a in missing:
                        live = [k for k in req.order if not isinstance(self._gate(a, k), str)]
                        if live:
                            actions.append(PendingAction(a, players[a].role, live[0]))
                    if not actions:
                        continue
                if not req.required:
                    opt.extend(actions)
                elif req.multiple or not any(a in done for a in actors):
                    pend.extend(actions)
                    ready = False
            return Readiness(s.phase, s.round, ready, tuple(pend), tuple(opt), acted)

    def phase_info(self) -> PhaseInfo:
        """God view of the phase for a moderator: steps, active roles, who and what."""
        with self._lock:
            self._guard()
            s = self._state
            table = self._table()
            roles: dict[RoleType, RolePhaseInfo] = {}
            players = s.players
            for role in table.active_roles:
                ids = self._actors_for(role)
                skills = tuple(x.skill for x in table.steps if x.skill and x.role == role)
                refused: dict[str, Any] = {}
                targets: dict[str, Any] = {}
                if self._b.usable is not None:
                    for i in ids:
                        gates = {k: self._gate(i, k) for k in skills}
                        no = {k: g for k, g in gates.items() if isinstance(g, str)}
                        only = {k: tuple(sorted(g)) for k, g in gates.items() if isinstance(g, frozenset)}
                        if no:
                            refused[i] = frozen_map(no)
                        if only:
                            targets[i] = frozen_tuple_map(only)
                roles[role] = RolePhaseInfo(
                    ids,
                    skills,
                    frozen_tuple_map({i: self._teammates(i) for i in ids}),
                    frozen_tuple_map({i: self._role_info(players[i]) for i in ids}),
                    frozen_tuple_map(refused),
                    frozen_tuple_map(targets),
                )
            return PhaseInfo(s.phase, s.round, table.steps, table.active_roles, frozen_tuple_map(roles))

    def audience_of(self, event: Event | Effect) -> tuple[str, ...] | None:
        """Who may see ``event``: ids; ``()`` for nobody; ``None`` when the rules do not know.

        Kernel primitives are shown to nobody, whatever the rules say.
        """
        with self._lock:
            self._guard()
            if isinstance(event, Effect):
                event = checked_effect(event, "audience_of", logged=True).to_event()
            event = checked_event(event, "audience_of")
            if event.type in INTERNAL_EVENTS:
                return ()
            fn = self._b.audience
            if fn is None:
                return None
            got = self._call(fn, event, self._view)
            if got is None:
                return None
            players = self._state.players
            return tuple(sorted({i for i in _ids(got, "audience provider") if i in players}))

    # ------------------------------------------------------------------ speech

    def message_receivers(self, sender_id: str) -> tuple[str, ...]:
        """Who would hear ``sender_id`` now. Without a speech rule: every living player."""
        with self._lock:
            self._guard()
            return self._receivers(self._player(sender_id))

    def _receivers(self, p: PlayerInfo) -> tuple[str, ...]:
        fn = self._b.speech
        if fn is None:
            if not p.alive:
                raise PlayerDead(f"{p.id!r} is eliminated and cannot speak")
            return tuple(q.id for q in self._state.alive_players())
        got = _ids(self._call(fn, p.id, self._view), "speech provider")
        players = self._state.players
        return tuple(sorted({i for i in got if i in players}))

    def send_message(self, sender_id: str, content: str) -> Message:
        """Deliver a chat line to the receivers the speech rule allows (not logged)."""
        with self._lock:
            self._guard()
            p = self._player(sender_id)
            if not isinstance(content, str):
                raise InvalidArgument("message content must be a str")
            receivers = self._receivers(p)
            if not receivers:
                raise MessageNotAllowed(f"nobody can hear {sender_id!r} now")
            msg = Message(p.id, content, self._state.phase, self._state.round)
            handlers = tuple(self._message_handlers)
        for h in handlers:
            try:
                h(msg, receivers)
            except Exception:
                self._b.logger.exception("message handler raised; other handlers still run")
        return msg

    def on_event(self, handler: EventHandler) -> None:
        """Call ``handler(event)`` for every published event (after the lock is released)."""
        if not callable(handler):
            raise InvalidArgument("handler must be callable")
        with self._lock:
            self._guard()
            self._event_handlers.append(handler)

    def on_message(self, handler: MessageHandler) -> None:
        """Call ``handler(message, receivers)`` for every message sent."""
        if not callable(handler):
            raise InvalidArgument("handler must be callable")
        with self._lock:
            self._guard()
            self._message_handlers.append(handler)

    # ------------------------------------------------------------------ persistence

    def log(self) -> GameLog:
        """The record of the game so far (immutable; safe to keep)."""
        with self._lock:
            self._guard()
            return GameLog(
                self.rules.name, self.rules.version, tuple(self._log), encoded=self._encoded, well_typed=True
            )

    def snapshot(self) -> Snapshot:
        """The log plus the board and the unresolved submissions."""
        with self._lock:
            self._guard()
            s = self._state
            players = s.players
            return Snapshot(
                GameLog(self.rules.name, self.rules.version, tuple(self._log), encoded=self._encoded, well_typed=True),
                s.phase,
                s.round,
                frozen_map(s.vars),
                dict(sorted(s.actors.items())),
                s.winners,
                tuple(players[i] for i in s.order),
                tuple(s.detours),
                frozen_map(s.round_vars),
                tuple(self._pending),
                tuple(s.turns),
                s.delayed,
                s.held,
            )

    @classmethod
    def replay(cls, rules: Rules, log: GameLog | bytes | str) -> Engine:
        """Rebuild a game from its log alone (the board at the start of the current phase)."""
        if not isinstance(rules, Rules):
            raise InvalidArgument("replay needs a Rules value")
        glog = coerce_log(log)
        if glog.version != LOG_VERSION:
            raise InvalidLog(f"log version {glog.version} is not {LOG_VERSION}")
        eng = cls(rules)
        _check_rules(eng.rules, glog.rules_name, glog.rules_version)
        eng._replay(glog.effects, glog.well_typed)
        return eng

    def _replay(self, effects: Sequence[Effect], trusted: bool = False) -> None:
        """Apply a log, checking every entry as live play would have (types, seated
        players, known phases): a log live play could not have written is InvalidLog."""
        s = self._state
        started = False
        apply = s.apply
        checked: list[Effect] = []
        for n, e in enumerate(effects):
            if not trusted:
                try:
                    e = checked_effect(e, f"log entry {n}", logged=True)
                except InvalidArgument as exc:
                    raise InvalidLog(exc.message) from None
                checked.append(e)
            t = e.type
            if t not in BOOKKEEPING_EVENTS:
                if t == DETOUR and not e.canceled:
                    fault = self._detour_fault(e)
                    if fault:
                        raise InvalidLog(f"log entry {n} (DETOUR): {fault} ({e.source!r} to {e.phase!r})")
                apply(e)
                continue
            where = f"log entry {n} ({t})"
            if t == PLAYER_ADDED:
                if started:
                    raise InvalidLog(f"{where}: player added after the start")
                if not e.target or e.target in s.players:
                    raise InvalidLog(f"{where}: bad or duplicate player id {e.target!r}")
                if not e.role or e.role == SYSTEM:
                    raise InvalidLog(f"{where}: bad role {e.role!r}")
                s.seat(PlayerInfo(e.target, e.role, True, e.vars))
            elif t == GAME_STARTED:
                if started or e.phase not in self._tables:
                    raise InvalidLog(f"{where}: duplicate start or unknown phase {e.phase!r}")
                if not s.players:
                    raise InvalidLog(f"{where}: started with no players")
                started = True
                self._start_at(e.phase)
            elif t == PHASE_CHANGED:
                if not started or s.phase == END or e.phase not in self._tables:
                    raise InvalidLog(f"{where}: phase change to {e.phase!r} is impossible here")
                self._leave_phase(e.data.get(KEEP_ACTORS_KEY) == "1")
                self._transition(e.phase)
            elif t in (TURN_ENDED, TURN_DELAYED):
                if not s.turns or s.turns[0] != e.source:
                    raise InvalidLog(f"{where}: {e.source!r} does not have the turn")
                head = s.turns.pop(0)
                if t == TURN_DELAYED:
                    s.turns.append(head)
                    s.delayed = tuple(sorted({*s.delayed, head}))
            elif t == GAME_ENDED:
                if not started or s.phase == END:
                    raise InvalidLog(f"{where}: game ended twice or before it started")
                if list(e.winners) != sorted(set(e.winners)):
                    raise InvalidLog(f"{where}: winners are not sorted and unique")
                self._leave_phase()
                self._transition(END)
                s.winners = e.winners
        self._log = list(effects) if trusted else checked

    @classmethod
    def restore(cls, rules: Rules, snapshot: Snapshot | bytes | str | None, *, verify: bool = True) -> Engine:
        """Resume a saved game, pending submissions included.

        With ``verify`` (the default) the log is replayed and the saved board must match
        it exactly, so a tampered snapshot is refused. A snapshot of an unknown version
        is rebuilt from its log (its pending submissions are lost).
        """
        if not isinstance(rules, Rules):
            raise InvalidArgument("restore needs a Rules value")
        snap = coerce_snapshot(snapshot)
        _check_rules(rules, snap.rules_name, snap.rules_version)
        if snap.log.version != LOG_VERSION:
            raise InvalidSnapshot(f"log version {snap.log.version} is not {LOG_VERSION}")
        if snap.version != SNAPSHOT_VERSION:
            try:
                return cls.replay(rules, snap.log)
            except InvalidLog as exc:
                raise InvalidSnapshot(f"cannot rebuild from the log: {exc.message}") from None
        if verify:
            try:
                eng = cls.replay(rules, snap.log)
            except InvalidLog as exc:
                raise InvalidSnapshot(f"log: {exc.message}") from None
        else:
            eng = cls(rules)
            eng._load_board(snap)
        eng._load_pending(snap.pending)
        if verify and eng.snapshot() != snap:
            raise InvalidSnapshot("the saved board does not match its own log")
        return eng

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


def _merged(held: tuple[PhaseAction, ...], more: tuple[PhaseAction, ...]) -> tuple[PhaseAction, ...]:
    """Held round actions: each kind once, in a fixed order."""
    got = set(held).union(more)
    return tuple(a for a in PhaseAction if a in got)


def _key(step: PhaseStep | None) -> tuple[RoleType, SkillType]:
    assert step is not None  # every skill offered to a role has a step
    return (step.role, step.skill)


KEEP_ACTORS_KEY = "keep_actors"
NOT_USABLE = "the rules do not allow it now"
"""Reason given when a ``usable`` provider refuses with an empty string."""
NO_TARGET_NOW = "no target is allowed now"
"""Reason given when a ``usable`` provider allows an empty set of targets."""

_KEEP_ACTORS = MappingProxyType({KEEP_ACTORS_KEY: "1"})


def _ids(got: Any, who: str) -> tuple[str, ...]:
    """A provider's answer as player ids; a bare string is a bug, not a list of letters."""
    if not got:
        return ()
    if isinstance(got, (str, bytes)):
        raise InvalidArgument(f"{who} returned a string; return a sequence of player ids")
    return tuple(got)


def _as_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _check_rules(rules: Rules, name: str, version: str) -> None:
    if (name, version) != (rules.name, rules.version):
        raise RulesMismatch(
            f"recorded under rules {name!r} version {version!r}, offered {rules.name!r} version {rules.version!r}"
        )


def frozen_tuple_map(d: dict[str, Any]) -> Any:
    """A read-only mapping with sorted keys (deterministic iteration)."""
    return MappingProxyType(dict(sorted(d.items())))
