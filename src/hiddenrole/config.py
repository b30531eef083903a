"""Phase configuration: what phases exist, who acts in each, where each one leads.

A :class:`Config` is plain immutable data. :meth:`Config.validate` checks it with a
deterministic first error (phases are visited in sorted order), so a broken config
always reports the same problem.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar, cast

from .errors import InvalidArgument, InvalidConfig, InvalidPhase
from .vocab import (
    DEFAULT_PHASE_TIMEOUT,
    END,
    MAX_MOVES_PER_TURN,
    MAX_TARGETS,
    START,
    SYSTEM,
    PhaseAction,
    PhaseType,
    RoleType,
    SkillType,
    TurnOrder,
)

__all__ = ["STRONG_CACHE_SIZE", "Config", "PhaseConfig", "PhaseStep", "by_identity", "keep_by_identity"]


@dataclass(frozen=True, slots=True)
class PhaseStep:
    """One kind of action in a phase.

    ``role`` ``""`` means every role; :data:`SYSTEM` means no player (announcement).
    ``skill`` ``""`` is a watch-only step: its role wakes but cannot submit.
    ``required``/``multiple`` shape readiness only; ``group`` joins mutually exclusive
    alternatives of one role; ``allow_dead_target`` lets targets be eliminated players.

    Targets are players unless ``target_pool`` names one of the config's
    ``target_pools`` (e.g. centre cards ``"0".."2"``): then every target must be a
    member of that pool. ``min_targets``/``max_targets`` bound how many targets one
    submission carries (``max_targets`` ``None`` = up to :data:`MAX_TARGETS`, the
    absolute bound every submission obeys), ``distinct_targets``
    forbids repeats and ``allow_self_target=False`` forbids targeting oneself.
    """

    role: RoleType
    skill: SkillType = ""
    required: bool = False
    multiple: bool = False
    group: str = ""
    allow_dead_target: bool = False
    target_pool: str = ""
    min_targets: int = 0
    max_targets: int | None = None
    distinct_targets: bool = False
    allow_self_target: bool = True

    def __post_init__(self) -> None:
        for name in ("role", "skill", "group", "target_pool"):
            if not isinstance(getattr(self, name), str):
                raise InvalidArgument(f"PhaseStep.{name} must be a str")
        if (
            isinstance(self.min_targets, bool)
            or not isinstance(self.min_targets, int)
            or not 0 <= self.min_targets <= MAX_TARGETS
        ):
            raise InvalidArgument(f"PhaseStep.min_targets must be an int in 0..{MAX_TARGETS}")
        if self.max_targets is not None and (
            isinstance(self.max_targets, bool)
            or not isinstance(self.max_targets, int)
            or not self.min_targets <= self.max_targets <= MAX_TARGETS
        ):
            raise InvalidArgument(f"PhaseStep.max_targets must be None or an int in min_targets..{MAX_TARGETS}")

    @property
    def checks_targets(self) -> bool:
        """True when the step constrains targets beyond "existing, living players"."""
        return bool(
            self.target_pool
            or self.min_targets
            or self.max_targets is not None
            or self.distinct_targets
            or not self.allow_self_target
        )


def _tuple_of(values: Iterable[object], kind: type, what: str) -> tuple[object, ...]:
    if isinstance(values, (str, bytes)):
        raise InvalidArgument(f"{what} must be a sequence, not a string")
    out = tuple(values)
    for v in out:
        if not isinstance(v, kind):
            raise InvalidArgument(f"{what} must hold {kind.__name__} values, got {v!r}")
    return out


@dataclass(frozen=True, slots=True)
class PhaseConfig:
    """One phase: its steps, its default exit, optional parent and round actions.

    A phase that some other phase names as ``parent`` is *compound*: it has no steps,
    no ``next_phase`` and no resolver; it groups its children and carries actions
    run when the group is entered or left (statechart rule).
    ``timeout`` is in seconds and only advice for hosts (0 = use the default).

    ``turn_order`` (see :class:`TurnOrder`) decides whether actors move together or in
    turns; a turn ends after ``moves_per_turn`` submissions or an explicit end-turn.
    Skills in ``out_of_turn`` may be used by any eligible player at any time.
    ``initiative_var`` names the player variable (game scope, an integer) that orders
    an INITIATIVE phase, highest first, ties by id.
    """

    steps: tuple[PhaseStep, ...] = ()
    next_phase: PhaseType = ""
    timeout: float = 0.0
    parent: PhaseType = ""
    on_enter: tuple[PhaseAction, ...] = ()
    on_exit: tuple[PhaseAction, ...] = ()
    turn_order: TurnOrder = TurnOrder.SIMULTANEOUS
    moves_per_turn: int = 1
    out_of_turn: tuple[SkillType, ...] = ()
    initiative_var: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", _tuple_of(self.steps, PhaseStep, "PhaseConfig.steps"))
        object.__setattr__(self, "out_of_turn", _tuple_of(self.out_of_turn, str, "PhaseConfig.out_of_turn"))
        try:
            object.__setattr__(self, "turn_order", TurnOrder(self.turn_order))
        except ValueError:
            raise InvalidArgument(f"PhaseConfig.turn_order {self.turn_order!r} is not a TurnOrder") from None
        if isinstance(self.moves_per_turn, bool) or not isinstance(self.moves_per_turn, int):
            raise InvalidArgument("PhaseConfig.moves_per_turn must be an int")
        if not isinstance(self.initiative_var, str):
            raise InvalidArgument("PhaseConfig.initiative_var must be a str")
        for name in ("on_enter", "on_exit"):
            raw = _tuple_of(getattr(self, name), str, f"PhaseConfig.{name}")
            object.__setattr__(self, name, tuple(_action(a) for a in raw))
        if not isinstance(self.next_phase, str) or not isinstance(self.parent, str):
            raise InvalidArgument("PhaseConfig.next_phase and parent must be str")
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)):
            raise InvalidArgument("PhaseConfig.timeout must be a number of seconds")


def _action(value: object) -> PhaseAction | object:
    try:
        return PhaseAction(str(value))
    except ValueError:
        # Kept raw so validate() can report it as an unknown action.
        return value


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Config:
    """The phase graph: where a game starts and every phase it can be in."""

    start_phase: PhaseType
    phases: Mapping[PhaseType, PhaseConfig] = field(default_factory=dict)
    default_timeout: float = 0.0
    target_pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Named sets of non-player targets (e.g. ``{"CENTER": ("0", "1", "2")}``)."""

    def __post_init__(self) -> None:
        if not isinstance(self.phases, Mapping):
            raise InvalidArgument("Config.phases must be a mapping of phase name to PhaseConfig")
        entries: Iterable[tuple[object, object]] = self.phases.items()  # unchecked yet: read as objects (mypyc)
        for key, value in entries:
            if not isinstance(value, PhaseConfig):
                raise InvalidPhase(f"phase {key!r}: expected a PhaseConfig, got {type(value).__name__}")
        frozen = MappingProxyType(dict(sorted(self.phases.items(), key=lambda kv: str(kv[0]))))
        object.__setattr__(self, "phases", frozen)
        if not isinstance(self.target_pools, Mapping):
            raise InvalidArgument("Config.target_pools must be a mapping of pool name to target names")
        pool_items: Iterable[tuple[str, Iterable[object]]] = self.target_pools.items()  # values unchecked (mypyc)
        pools = {k: _tuple_of(v, str, f"Config.target_pools[{k!r}]") for k, v in pool_items}
        object.__setattr__(self, "target_pools", MappingProxyType(dict(sorted(pools.items()))))

    def phase_timeout(self, phase: PhaseType) -> float:
        """Seconds a host should allow for ``phase``: its own, else the default, else 30."""
        pc = self.phases.get(phase)
        if pc is not None and pc.timeout > 0:
            return float(pc.timeout)
        if self.default_timeout > 0:
            return float(self.default_timeout)
        return DEFAULT_PHASE_TIMEOUT

    def step_for(self, phase: PhaseType, skill: SkillType, role: RoleType) -> PhaseStep | None:
        """The step of ``phase`` that offers ``skill`` to ``role``: the role's own step,
        else the every-role step; ``None`` if there is none (the one step lookup for the
        kernel, agents, bots and the harness). Lookups by string (phase, skill, then role
        unless only an every-role step offers the skill) in an index built once per Config
        value; no key tuple is built or hashed."""
        last = _LAST_INDEX[0]  # the index step_for used last, if it is this Config's
        index = last[2] if last[0] is self or last[1]() is self else _index_of(self)
        by_skill = index.get(phase)
        if by_skill is None:
            return None
        steps = by_skill.get(skill)
        if steps is None or isinstance(steps, PhaseStep):
            return steps
        own, every = steps
        step = own.get(role)
        return every if step is None else step

    def compound_phases(self) -> frozenset[PhaseType]:
        """Phases some other phase names as its parent."""
        return frozenset(pc.parent for pc in self.phases.values() if pc.parent)

    def path_of(self, phase: PhaseType) -> tuple[PhaseType, ...]:
        """``phase`` followed by its ancestors, innermost first."""
        out = [phase]
        seen = {phase}
        pc = self.phases.get(phase)
        while pc is not None and pc.parent and pc.parent not in seen:
            out.append(pc.parent)
            seen.add(pc.parent)
            pc = self.phases.get(pc.parent)
        return tuple(out)

    def validate(self) -> None:
        """Raise :class:`InvalidConfig`/:class:`InvalidPhase` for the first problem found."""
        if not self.phases:
            raise InvalidConfig("config has no phases")
        if not isinstance(self.start_phase, str) or not self.start_phase:
            raise InvalidConfig("start_phase is empty")
        for key in self.phases:
            if not isinstance(key, str) or not key:
                raise InvalidConfig(f"phase name {key!r} must be a non-empty string")
            if key in (START, END):
                raise InvalidPhase(f"phase {key!r} is reserved by the kernel")
        for pool, members in self.target_pools.items():
            if not isinstance(pool, str) or not pool or not members or any(not m for m in members):
                raise InvalidConfig(f"target pool {pool!r} must be named and hold non-empty names")
            if len(set(members)) != len(members):
                raise InvalidConfig(f"target pool {pool!r} repeats a name")
        if isinstance(self.default_timeout, bool) or not isinstance(self.default_timeout, (int, float)):
            raise InvalidConfig("default_timeout must be a number of seconds")
        if self._loops() and not self._declares_round_actions():
            raise InvalidConfig("the phase cycle loops but no phase declares ADVANCE_ROUND and CLEAR_ROUND_VARS")
        compound = self.compound_phases()
        if self.start_phase not in self.phases:
            raise InvalidPhase(f"start phase {self.start_phase!r} is not configured")
        if self.start_phase in compound:
            raise InvalidPhase(f"start phase {self.start_phase!r} is compound")
        for name, pc in self.phases.items():
            self._validate_phase(name, pc, compound)

    def _validate_phase(self, name: str, pc: PhaseConfig, compound: frozenset[str]) -> None:
        if not isinstance(pc, PhaseConfig):
            raise InvalidPhase(f"phase {name!r}: config is not a PhaseConfig")
        actions: tuple[object, ...] = (*pc.on_enter, *pc.on_exit)  # unchecked yet: read as objects (mypyc)
        for action in actions:
            if not isinstance(action, PhaseAction):
                raise InvalidPhase(f"phase {name!r}: unknown phase action {action!r}")
        if pc.parent:
            if pc.parent == name:
                raise InvalidPhase(f"phase {name!r} is its own parent")
            if pc.parent not in self.phases:
                raise InvalidPhase(f"phase {name!r}: parent {pc.parent!r} is not configured")
            seen = {name}
            cur: PhaseConfig | None = pc
            while cur is not None and cur.parent:
                if cur.parent in seen:
                    raise InvalidPhase(f"phase {name!r}: parent chain loops")
                seen.add(cur.parent)
                cur = self.phases.get(cur.parent)
        if name in compound:
            if pc.steps:
                raise InvalidPhase(f"compound phase {name!r} may not have steps")
            if pc.next_phase:
                raise InvalidPhase(f"compound phase {name!r} may not have a next phase")
            return
        if not pc.next_phase:
            raise InvalidPhase(f"phase {name!r} has no next phase (use END to end the game)")
        if pc.next_phase != END:
            if pc.next_phase not in self.phases:
                raise InvalidPhase(f"phase {name!r}: next phase {pc.next_phase!r} is not configured")
            if pc.next_phase in compound:
                raise InvalidPhase(f"phase {name!r}: next phase {pc.next_phase!r} is compound")
        if not 1 <= pc.moves_per_turn <= MAX_MOVES_PER_TURN:
            raise InvalidPhase(f"phase {name!r}: moves_per_turn must be 1..{MAX_MOVES_PER_TURN}")
        if (pc.turn_order is TurnOrder.INITIATIVE) != bool(pc.initiative_var):
            raise InvalidPhase(f"phase {name!r}: initiative_var is needed by, and only by, INITIATIVE phases")
        declared = {s.skill for s in pc.steps if s.skill}
        for skill in pc.out_of_turn:
            if skill not in declared:
                raise InvalidPhase(f"phase {name!r}: out-of-turn skill {skill!r} has no step")
        seen_steps: set[tuple[str, str]] = set()
        for step in pc.steps:
            if step.target_pool and step.target_pool not in self.target_pools:
                raise InvalidPhase(f"phase {name!r}: step {step.skill!r} uses unknown target pool {step.target_pool!r}")
        group_roles: dict[str, str] = {}
        all_role_skills = {s.skill for s in pc.steps if s.role == "" and s.skill}
        for step in pc.steps:
            key = (step.role, step.skill)
            if key in seen_steps:
                raise InvalidPhase(f"phase {name!r}: duplicate step {step.role!r}/{step.skill!r}")
            seen_steps.add(key)
            if step.role and step.skill and step.skill in all_role_skills:
                raise InvalidPhase(
                    f"phase {name!r}: skill {step.skill!r} is declared for every role and for {step.role!r}"
                )
            if step.group:
                owner = group_roles.setdefault(step.group, step.role)
                if owner != step.role:
                    raise InvalidPhase(f"phase {name!r}: group {step.group!r} spans two roles")

    def _loops(self) -> bool:
        cur = self.start_phase
        for _ in range(len(self.phases) + 1):
            pc = self.phases.get(cur)
            if pc is None or cur == END or not cur:
                return False
            cur = pc.next_phase
        return True

    def _declares_round_actions(self) -> bool:
        acts = {a for pc in self.phases.values() for a in (*pc.on_enter, *pc.on_exit)}
        return PhaseAction.ADVANCE_ROUND in acts and PhaseAction.CLEAR_ROUND_VARS in acts


SkillSteps = tuple[dict[RoleType, PhaseStep], PhaseStep | None]
"""The steps of one phase offering one skill: by role, the role's own step (the first in step
order), and the every-role step (the last), or ``None``."""
StepIndex = dict[PhaseType, dict[SkillType, "SkillSteps | PhaseStep"]]
""":meth:`Config.step_for`'s answers, by phase, then skill: the skill's :data:`SkillSteps`, or its
every-role step alone when no role has a step of its own (every role's answer, with no lookup by role)."""


def _step_index(cfg: Config) -> StepIndex:
    index: StepIndex = {}
    for name, pc in cfg.phases.items():
        by_skill: dict[SkillType, SkillSteps] = {}
        for st in pc.steps:
            if not st.skill or st.role == SYSTEM:
                continue
            own, every = by_skill.get(st.skill, ({}, None))
            own.setdefault(st.role, st)
            by_skill[st.skill] = (own, st if st.role == "" else every)
        index[name] = {
            skill: every if len(own) == 1 and every is not None and own.get("") is every else (own, every)
            for skill, (own, every) in by_skill.items()
        }
    return index


def _index_of(cfg: Config) -> StepIndex:
    """``cfg``'s step index (built once per Config, kept by :func:`by_identity`), remembered as
    the last one used: a program asks one Config many times in a row, and the remembered
    entry is checked by the same reference the cache keeps (weak where the Config allows; where
    the cache holds the Config itself, as compiled, by identity, without calling the holder)."""
    index = by_identity(_STEP_INDEXES, cfg, _step_index)
    entry = _STEP_INDEXES.get(id(cfg))
    if entry is not None:
        held = cfg if isinstance(entry[0], _Held) else None
        _LAST_INDEX[0] = (held, entry[0], index)  # one store: a reader sees the old entry or the new one whole
    return index


_STEP_INDEXES: dict[int, tuple[Callable[[], Any], Any]] = {}
"""Step indexes by ``id`` of their live Config."""
_LAST_INDEX: Final[list[tuple[object, Callable[[], Any], StepIndex]]] = [(None, lambda: None, {})]
"""The :data:`_STEP_INDEXES` entry :meth:`Config.step_for` used last: the Config when the cache
holds it strongly (else ``None``), the cache's reference to it, and its index."""

# ---------------------------------------------------------------------- caches by identity

_K = TypeVar("_K")
_V = TypeVar("_V")

STRONG_CACHE_SIZE: Final = 256
"""How many values a cache keeps alive itself when their key cannot be weakly referenced
(a mypyc-compiled ``Config`` has no weakref slot): the oldest is dropped beyond that."""


def by_identity(cache: dict[int, tuple[Callable[[], Any], Any]], key_obj: _K, build: Callable[[_K], _V]) -> _V:
    """``build(key_obj)``, kept while ``key_obj`` lives, by identity (the values are frozen,
    and equal-but-distinct values simply build once each). What the kernel derives from a
    frozen Config or Rules value is kept here, never written into the value. No lock: dict
    reads and writes are atomic, and a race at worst builds the same value twice (one is kept)."""
    hit = cache.get(id(key_obj))
    if hit is not None and hit[0]() is key_obj:
        return cast(_V, hit[1])
    return keep_by_identity(cache, key_obj, build(key_obj))  # build may raise: nothing is cached then


def keep_by_identity(cache: dict[int, tuple[Callable[[], Any], Any]], key_obj: _K, value: _V) -> _V:
    """Keep ``value`` in ``cache`` for ``key_obj`` while it lives (see :func:`by_identity`), and
    return it: for a value made together with its key (a Rules copy's compiled form)."""
    key = id(key_obj)

    def forget(ref: weakref.ref[Any]) -> None:
        # A weakref callback may run during any allocation, so it takes no lock; an id
        # reused by a newer value keeps that value's entry.
        got = cache.get(key)
        if got is not None and got[0] is ref:
            cache.pop(key, None)

    try:
        holder: Callable[[], Any] = weakref.ref(key_obj, forget)
    except TypeError:  # no weakref slot (compiled build): hold it, within a bound
        holder = _Held(key_obj)
        held = [k for k, (h, _) in cache.items() if isinstance(h, _Held)]
        for k in held[: max(0, len(held) + 1 - STRONG_CACHE_SIZE)]:
            cache.pop(k, None)
    cache[key] = (holder, value)
    return value


class _Held:
    """A strong stand-in for a weak reference: calling it gives the object."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __call__(self) -> object:
        return self.obj
