"""What an engine derives from its rules alone, computed once per :class:`Rules` value.

Rules are immutable, so every engine built from the same value (new games, restores,
replays, the harness's many copies) shares one :class:`CompiledRules` instead of
recomputing the per-phase tables. :func:`compiled` owns the cache: it is keyed by the
identity of the Rules value and drops an entry when that value is collected, so the
frozen Rules value itself is never written to. The config-only part (:class:`Shape`) is
kept the same way per Config object, so Rules values that share a Config share it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any, Final

from .config import Config, PhaseConfig, PhaseStep, by_identity, keep_by_identity
from .effects import Effect
from .errors import InvalidArgument, InvalidPhase
from .rules import _COPY_WITH_SETUP, GameSetupLike, Rules, _fn
from .views import Status
from .vocab import END, START, SYSTEM, PhaseAction, PhaseType, RoleType, SkillType, TurnOrder

__all__ = [
    "Bound",
    "CompiledRules",
    "PhaseRow",
    "PhaseTable",
    "Requirement",
    "Shape",
    "SubmitStep",
    "compiled",
    "with_game_setup",
]


class Bound:
    """Rules normalised to plain callables once, so the hot paths do no lookups. Here, compiled,
    not in the pure-Python rules module: the engine reads its fields on its hot paths (who-acts
    reads ``usable_skills`` every pass, a view ``teammates`` and ``role_info``, an event
    ``audience``), and a compiled read of a pure-Python object's field is a generic lookup."""

    __slots__ = (
        "_logger",
        "audience",
        "game_setup",
        "interceptors",
        "resolvers",
        "role_info",
        "role_setup",
        "speech",
        "teammates",
        "turn_resolvers",
        "usable",
        "usable_skills",
        "victory",
    )

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise InvalidArgument("expected a Rules value")
        self.resolvers = {p: _fn(r, "resolve", f"resolver for {p}") for p, r in rules.resolvers.items()}
        self.turn_resolvers = {p: _fn(r, "resolve", f"turn resolver for {p}") for p, r in rules.turn_resolvers.items()}
        self.victory = None if rules.victory is None else _fn(rules.victory, "check_victory", "victory")
        self.role_setup = {k: _fn(v, "setup", f"role setup for {k}") for k, v in rules.role_setup.items()}
        self.game_setup = None if rules.game_setup is None else _fn(rules.game_setup, "setup", "game setup")
        self.role_info = {k: _fn(v, "role_info", f"role info for {k}") for k, v in rules.role_info.items()}
        self.audience = None if rules.audience is None else _fn(rules.audience, "audience", "audience")
        self.teammates = None if rules.teammates is None else _fn(rules.teammates, "teammates", "teammates")
        self.speech = None if rules.speech is None else _fn(rules.speech, "receivers", "speech")
        self.interceptors = tuple(_fn(i, "intercept", f"interceptor #{n}") for n, i in enumerate(rules.interceptors))
        self.usable = None if rules.usable is None else _fn(rules.usable, "usable", "usable")
        self.usable_skills = rules.usable_skills
        self._logger = rules.logger

    @property
    def logger(self) -> logging.Logger:
        """The rules' logger, else the library's, looked up when first needed: only an error path
        logs, and a process's first ``getLogger("hiddenrole")`` builds the logger (about 100k
        instructions, which the first game compiled its rules for paid before)."""
        return self._logger if self._logger is not None else logging.getLogger("hiddenrole")


class Requirement:
    """Steps folded for readiness: one per (role, group) or per ungrouped step."""

    __slots__ = ("multiple", "order", "required", "role", "skill", "skills")

    def __init__(self, step: PhaseStep) -> None:
        self.role = step.role
        self.skills = {step.skill}
        self.order = [step.skill]
        self.skill = step.skill
        self.required = step.required
        self.multiple = step.multiple


class SubmitStep:
    """What ``submit`` needs of one step, so that it finds all of it with one lookup."""

    __slots__ = ("mode", "siblings", "step")

    def __init__(self, step: PhaseStep, mode: int, siblings: frozenset[SkillType]) -> None:
        self.step = step
        self.mode = mode
        """How submit checks the step's targets (PLAIN_TARGETS, ONE_TARGET or SHAPED_TARGETS)."""
        self.siblings = siblings
        """The step's entry in :attr:`PhaseTable.siblings`."""


class PhaseTable:
    """Everything about one phase's steps that can be computed once, at construction."""

    __slots__ = (
        "_asks",
        "_free_skills_for",
        "_skills_for",
        "active_roles",
        "free",
        "initiative_var",
        "moves",
        "one_role_offer",
        "order",
        "out_of_turn",
        "queued",
        "requirements",
        "siblings",
        "simultaneous",
        "sole_step",
        "step_for",
        "steps",
        "submit_for",
    )

    def __init__(self, pc: PhaseConfig) -> None:
        steps = pc.steps
        self.steps = steps
        self.order = pc.turn_order
        self.simultaneous = pc.turn_order is TurnOrder.SIMULTANEOUS
        self.free = pc.turn_order is TurnOrder.FREE
        self.queued = pc.turn_order in (TurnOrder.SEQUENTIAL, TurnOrder.INITIATIVE)
        self.moves = pc.moves_per_turn
        self.out_of_turn = frozenset(pc.out_of_turn)
        self.initiative_var = pc.initiative_var
        self._free_skills_for: dict[RoleType, tuple[SkillType, ...]] = {}
        self.step_for: dict[tuple[RoleType, SkillType], PhaseStep] = {
            (s.role, s.skill): s for s in steps if s.skill and s.role != SYSTEM
        }
        self._skills_for: dict[RoleType, tuple[SkillType, ...]] = {}
        reqs: list[Requirement] = []
        groups: dict[tuple[str, str], Requirement] = {}
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
                g = groups[(s.role, s.group)] = Requirement(s)
                reqs.append(g)
            else:
                reqs.append(Requirement(s))
        self.requirements = tuple(reqs)
        # A step's "siblings": the skills that share its readiness requirement (itself, or
        # every step of its group). A seat submits once per requirement in a simultaneous phase.
        self.siblings: dict[tuple[RoleType, SkillType], frozenset[SkillType]] = {}
        for s in steps:
            if s.role == SYSTEM or not s.skill:
                continue
            mates = {x.skill for x in steps if x.group and x.group == s.group and x.role == s.role and x.skill}
            self.siblings[(s.role, s.skill)] = frozenset(mates or {s.skill})
        self.submit_for: dict[RoleType, dict[SkillType, SubmitStep]] = {}
        """:meth:`find_step`'s answer by role, then skill, with what submit needs of it (two lookups
        of strings, whose hashes are kept, instead of a (role, skill) key tuple built and hashed per
        submission); a role served by a role-less step gets its entry on first use (:meth:`submit_step`)."""
        for key, s in self.step_for.items():
            self.submit_for.setdefault(key[0], {})[key[1]] = SubmitStep(s, _target_mode(s), self.siblings[key])
        roles: list[RoleType] = []
        for s in steps:
            if s.role != SYSTEM and s.role not in roles:
                roles.append(s.role)
        self.active_roles = tuple(roles)
        self.one_role_offer: tuple[SkillType, ...] = self.skills_for(roles[0]) if len(roles) == 1 else ()
        """When one role acts (``""``: role-less steps only), what it is offered: every seat it
        concerns shares this tuple (who-acts reads it without a lookup)."""
        self._asks: tuple[frozenset[SkillType] | None, bool] = (None, bool(self.one_role_offer))
        counts: dict[SkillType, int] = {}
        for s in steps:
            if s.skill and s.role != SYSTEM:
                counts[s.skill] = counts.get(s.skill, 0) + 1
        self.sole_step: dict[SkillType, SubmitStep] = {}
        """By skill, the entry of the one step that offers it in this phase, when only one does: a
        submission the seat's allowed skills already vetted (so the skill is offered to its role)
        finds its entry with one lookup, whatever the role."""
        for role, skill in self.step_for:
            if counts[skill] == 1:
                self.sole_step[skill] = self.submit_for[role][skill]

    def asks(self, asked: frozenset[SkillType] | None) -> bool:
        """Whether ``usable`` is asked about any skill of :attr:`one_role_offer` (``asked``: the
        rules' ``usable_skills``, ``None`` for all); the last verdict is kept with the set it was
        for, in one store (by identity: one Rules value's set is asked every phase)."""
        kept = self._asks
        if kept[0] is asked:
            return kept[1]
        verdict = asked is None or any(k in asked for k in self.one_role_offer)
        if asked is not None:
            self._asks = (asked, verdict)
        return verdict

    def skills_for(self, role: RoleType) -> tuple[SkillType, ...]:
        got = self._skills_for.get(role)
        if got is None:
            got = tuple(s.skill for s in self.steps if s.skill and s.role != SYSTEM and s.role in ("", role))
            self._skills_for[role] = got
        return got

    def offer(self, role: RoleType, on_turn: bool) -> tuple[SkillType, ...]:
        """What the phase offers a seat of ``role`` that may act: its steps' skills, but in a
        turn-ordered phase, off its turn (``on_turn`` false), only the out-of-turn ones. The one
        rule of the who-acts pass and of one seat's offer recomputed (``WhoActs._offer_of``)."""
        skills = self.skills_for(role)
        if skills and self.queued and not on_turn:
            return self.out_of_turn_skills_for(role)
        return skills

    def out_of_turn_skills_for(self, role: RoleType) -> tuple[SkillType, ...]:
        got = self._free_skills_for.get(role)
        if got is None:
            got = tuple(k for k in self.skills_for(role) if k in self.out_of_turn)
            self._free_skills_for[role] = got
        return got

    def find_step(self, role: RoleType, skill: SkillType) -> PhaseStep | None:
        """The same answer as :meth:`Config.step_for`, from this phase's table."""
        return self.step_for.get((role, skill)) or self.step_for.get(("", skill))

    def submit_step(self, role: RoleType, skill: SkillType) -> SubmitStep | None:
        """:attr:`submit_for`'s entry for ``(role, skill)``, falling back to the role-less step
        as :meth:`find_step` does; a fallback found is kept under ``(role, skill)`` (at most one
        entry per role and step), so the next submit finds it with one lookup."""
        mine = self.submit_for.get(role)
        got = None if mine is None else mine.get(skill)
        if got is None:
            anyone = self.submit_for.get("")
            got = None if anyone is None else anyone.get(skill)
            if got is not None:
                if mine is None:
                    mine = self.submit_for[role] = {}
                mine[got.step.skill] = got  # the config's own string, not the caller's
        return got


PLAIN_TARGETS: Final = 0
"""A step with no target shape: each non-empty target is a seated player (alive unless the step allows the dead)."""
ONE_TARGET: Final = 1
"""A shaped step without a pool that admits one target: a single non-empty target needs only the
no-self check and the one target check (the count and distinctness hold for one)."""
SHAPED_TARGETS: Final = 2
"""Any other shaped step: the full check (``Acting._check_shaped_targets``)."""


def _target_mode(step: PhaseStep) -> int:
    if not step.checks_targets:
        return PLAIN_TARGETS
    if not step.target_pool and step.min_targets <= 1 and (step.max_targets is None or step.max_targets >= 1):
        return ONE_TARGET
    return SHAPED_TARGETS


EMPTY_TABLE = PhaseTable(PhaseConfig())
"""The table of START and END: no steps, nobody acts."""

Plan = tuple[tuple[PhaseAction, ...], tuple[PhaseType, ...], bool]
"""One transition, computed once per (from, to) pair: its round actions (the exits innermost
first, then the entries outermost first), the target's compound ancestors, and whether the
target's turns are queued (``False``: the phase starts with no turn order)."""


class PhaseRow:
    """What the engine reads of one phase when it ends or is entered, found with one lookup by
    phase (and read without one while the phase lasts, see ``EngineBase._row``): its resolver,
    next phase, table and transition plans, whether its end asks the victory checker, the
    ``PHASE_CHANGED`` entries that enter it and its running statuses. Each was a lookup by phase
    of its own, about six per phase ended (compiled, about 150 instructions each)."""

    __slots__ = (
        "asks_victory",
        "entry",
        "entry_keep",
        "name",
        "next_phase",
        "plans",
        "resolver",
        "resolver_name",
        "started",
        "statuses",
        "table",
    )

    def __init__(
        self,
        name: PhaseType,
        table: PhaseTable | None,
        resolver: Callable[..., Any] | None,
        next_phase: PhaseType,
        plans: dict[PhaseType, Plan],
        asks_victory: bool = True,
    ) -> None:
        self.name = name
        """The phase, as the config spells it (the engine checks it by identity against the board's)."""
        self.table = table
        """Its :class:`PhaseTable`; ``None`` for START, END and compound phases."""
        self.resolver = resolver
        """The rules' resolver as a plain callable; ``None`` where there is no table."""
        self.resolver_name = f"resolver for {name}"
        """How errors name the resolver (built once, not per call)."""
        self.next_phase = next_phase
        """The configured next phase (``""``: END)."""
        self.plans = plans
        """The transitions out of this phase, by target: :attr:`Shape.plans`' row for it (shared by
        every Rules value on the same Config; filled as transitions are first taken)."""
        self.asks_victory = asks_victory
        """Whether the victory checker is asked when this phase ends: the rules have one, and their
        ``victory_after`` names this phase or is ``None`` (``end_phase`` skips the call otherwise)."""
        self.entry: Effect | None = None
        self.entry_keep: Effect | None = None
        """The ``PHASE_CHANGED`` log entries entering this phase, without and with ``keep_actors``
        (``Transitions.entering``; filled on first use)."""
        self.started: Effect | None = None
        """The ``GAME_STARTED`` log entry of a game started in this phase (``Phases.start``; filled on
        first use: an immutable value, the same for every game of these rules)."""
        self.statuses: list[Status | None] | None = None
        """The running statuses of this phase by round (``EngineBase._kept_status``; filled on first use)."""


class Shape:
    """What depends on the :class:`Config` alone: phase tables, ancestor paths, transition
    plans. Shared by every Rules value built on the same Config object (a game whose
    Rules differ per deal, such as One Night's centre cards, compiles its phases once)."""

    __slots__ = ("compound", "paths", "plans", "tables")

    def __init__(self, cfg: Config) -> None:
        self.compound = cfg.compound_phases()
        self.tables: dict[PhaseType, PhaseTable] = {}
        self.paths: dict[PhaseType, tuple[PhaseType, ...]] = {END: (END,), START: (START,)}
        self.plans: dict[PhaseType, dict[PhaseType, Plan]] = {}
        """By phase left, then phase entered; filled lazily by engines (one entry per transition
        taken; same value whoever computes it)."""
        for name, pc in cfg.phases.items():
            self.paths[name] = cfg.path_of(name)
            if name not in self.compound:
                self.tables[name] = PhaseTable(pc)
        for name in self.paths:
            self.plans[name] = {}


class CompiledRules:
    """The rules' callables, plus the shape of their config.

    :attr:`game_setup` is the rules' own game setup as a plain callable. A copy made by
    :func:`with_game_setup` (:meth:`Rules.with_game_setup`) gets its compiled form at once, built
    from its base's: everything is shared but the game setup, :attr:`bound` included (whose
    ``game_setup`` is then the base's, never read). One Night makes one copy per centre dealt."""

    __slots__ = (
        "bound",
        "cfg",
        "compound",
        "game_setup",
        "interceptors",
        "paths",
        "role_setup",
        "rows",
        "tables",
        "usable",
        "victory",
    )

    def __init__(
        self, rules: Rules, known: CompiledRules | None = None, setup: Callable[..., Any] | None = None
    ) -> None:
        """The compiled form of ``rules``; with ``known`` (``rules``' own compiled form), that of a
        copy of ``rules`` whose game setup is ``setup`` (see :func:`with_game_setup`)."""
        if known is None:
            b = self.bound = Bound(rules)
            self.game_setup: Callable[..., Any] | None = b.game_setup
            cfg: Config = rules.config
            self.cfg = cfg
            shape = by_identity(_SHAPES, cfg, Shape)
            for name in shape.tables:
                if name not in b.resolvers:
                    raise InvalidPhase(f"phase {name!r} has no resolver")
            self.compound = shape.compound
            self.tables = shape.tables
            self.paths = shape.paths
            phases = cfg.phases
            after = rules.victory_after
            self.rows: dict[PhaseType, PhaseRow] = {}
            """A :class:`PhaseRow` per phase (START and END included)."""
            for name, plans in shape.plans.items():
                pc = phases.get(name)
                table = shape.tables.get(name)
                resolver = b.resolvers[name] if table is not None else None
                asks = b.victory is not None and (after is None or name in after)
                self.rows[name] = PhaseRow(name, table, resolver, "" if pc is None else pc.next_phase, plans, asks)
            # What every engine copies into its own fields, kept here as native fields: read through
            # the pure-Python Bound, each is a generic attribute lookup, five per engine built.
            self.usable = b.usable
            self.victory = b.victory
            self.interceptors = b.interceptors
            self.role_setup = b.role_setup
        else:
            # A copy with another game setup (``setup``, already a plain callable): the rest is
            # ``known``'s, read from its native fields.
            self.bound = known.bound
            self.game_setup = setup
            self.cfg = known.cfg
            self.compound = known.compound
            self.tables = known.tables
            self.paths = known.paths
            self.rows = known.rows
            self.usable = known.usable
            self.victory = known.victory
            self.interceptors = known.interceptors
            self.role_setup = known.role_setup


_SHAPES: dict[int, tuple[Callable[[], Any], Any]] = {}
"""Config shapes by ``id`` of their live Config."""
_CACHE: dict[int, tuple[Callable[[], Any], Any]] = {}
"""Compiled rules by ``id`` of their live Rules value."""


def compiled(rules: Rules) -> CompiledRules:
    """The compiled form of ``rules``, built on first use and shared while ``rules`` lives."""
    return by_identity(_CACHE, rules, CompiledRules)


_set_field: Final = object.__setattr__
"""How a frozen Rules copy gets its fields (its own ``__setattr__`` refuses)."""
_COPIED: Final = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "game_setup")
"""The fields a :func:`with_game_setup` copy takes from its original."""


def with_game_setup(rules: Rules, game_setup: GameSetupLike | None) -> Rules:
    """:meth:`Rules.with_game_setup`: a copy of ``rules`` with ``game_setup`` in place of its own,
    and the copy's compiled form, made at once from ``rules``' (compiled first if it is not yet).

    Everything else was checked with ``rules``, so the copy skips ``Rules.__post_init__``, and its
    compiled form shares all but the game setup: a new deal costs one game setup, not a whole
    ruleset. Compiled, not in the pure-Python rules module: One Night copies per centre dealt, and
    the copy's field loop and the two registrations by identity were about 60k instructions as
    Python (a fresh centre is most of a short benchmark's deals)."""
    setup = None if game_setup is None else _fn(game_setup, "setup", "game setup")
    known = compiled(rules)
    copy: Rules = object.__new__(Rules)
    for name in _COPIED:
        _set_field(copy, name, getattr(rules, name))
    _set_field(copy, "game_setup", game_setup)
    keep_by_identity(_CACHE, copy, CompiledRules(rules, known, setup))
    return copy


_COPY_WITH_SETUP.append(with_game_setup)  # Rules.with_game_setup calls it (rules.py cannot import this module)
