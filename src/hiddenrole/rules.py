"""One value that bundles a game's rules: its phase graph and every extension point.

Each extension point accepts either an object with the named method (the seed's
interfaces) or a plain function of the same signature (the seed's ``Func`` adapters).
Every engine entry point takes the same :class:`Rules`, and snapshots and logs record
its ``name`` and ``version`` so that a game is never resumed under other rules.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias, runtime_checkable

from .config import Config, by_identity
from .effects import Effect, Event, SkillUse
from .errors import InvalidConfig, InvalidPhase
from .state import GameView
from .vocab import Camp, PhaseType, RoleType, SkillType

__all__ = [
    "Rules",
    "Resolver",
    "VictoryChecker",
    "RoleSetup",
    "GameSetup",
    "RoleInfoProvider",
    "AudienceProvider",
    "TeammateProvider",
    "SpeechProvider",
    "Interceptor",
    "UsableProvider",
    "ResolverLike",
    "VictoryLike",
    "RoleSetupLike",
    "GameSetupLike",
    "RoleInfoLike",
    "AudienceLike",
    "TeammatesLike",
    "SpeechLike",
    "InterceptorLike",
    "UsableLike",
]


@runtime_checkable
class Resolver(Protocol):
    """Decides what happened when a phase ends. Pure: reads the view, returns effects."""

    def resolve(self, uses: Sequence[SkillUse], view: GameView) -> Iterable[Effect] | None: ...


@runtime_checkable
class VictoryChecker(Protocol):
    """``None`` while undecided; else the winning camps (empty: ended with no winner)."""

    def check_victory(self, view: GameView) -> Iterable[Camp] | None: ...


@runtime_checkable
class RoleSetup(Protocol):
    """A seated player's initial variables (no view: seating precedes play)."""

    def setup(self, player_id: str, role: RoleType) -> Mapping[str, str] | None: ...


@runtime_checkable
class GameSetup(Protocol):
    """Effects applied once when the game starts (e.g. the first named actors)."""

    def setup(self, view: GameView) -> Iterable[Effect] | None: ...


@runtime_checkable
class RoleInfoProvider(Protocol):
    """What a player of this role privately knows (e.g. a witch's potions)."""

    def role_info(self, player_id: str, view: GameView) -> Mapping[str, str] | None: ...


@runtime_checkable
class AudienceProvider(Protocol):
    """Who may see a rule event: ids, ``()`` for nobody, ``None`` when not known."""

    def audience(self, event: Event, view: GameView) -> Iterable[str] | None: ...


@runtime_checkable
class TeammateProvider(Protocol):
    """Whose roles a player knows (may be asymmetric)."""

    def teammates(self, player_id: str, view: GameView) -> Iterable[str] | None: ...


@runtime_checkable
class SpeechProvider(Protocol):
    """Who hears ``sender_id`` now (sender included by convention); empty: cannot speak."""

    def receivers(self, sender_id: str, view: GameView) -> Iterable[str] | None: ...


@runtime_checkable
class Interceptor(Protocol):
    """Sees every effect on its way to the write point.

    ``None``: no opinion. A list: replace the effect (the original is kept in the log,
    cancelled). Replacements are offered only to later interceptors.
    """

    def intercept(self, effect: Effect, view: GameView) -> Iterable[Effect] | None: ...


@runtime_checkable
class UsableProvider(Protocol):
    """Whether ``player_id`` may use ``skill`` now, and on which targets. Pure: reads the board.

    ``None``: yes, on any target the step's shape permits. A ``str``: no, for that reason
    (the skill is not offered; submit refuses it with :class:`SkillNotAllowed`). A
    collection of player ids: only on those targets (others: :class:`InvalidTargets`);
    an empty one refuses the skill. Asked only for skills the phase already gives the
    player; the answer reaches that player, so it must depend only on what they know.

    ``submitted`` is the player's *own* submissions waiting in this phase, in order (a
    rule such as "one potion per night" depends on them); never anyone else's, since
    the answer reaches the player and must not reveal what others did.
    """

    def usable(
        self, player_id: str, skill: SkillType, view: GameView, submitted: Sequence[SkillUse]
    ) -> str | Iterable[str] | None: ...


ResolverLike: TypeAlias = Resolver | Callable[[Sequence[SkillUse], GameView], Iterable[Effect] | None]
VictoryLike: TypeAlias = VictoryChecker | Callable[[GameView], Iterable[Camp] | None]
RoleSetupLike: TypeAlias = RoleSetup | Callable[[str, RoleType], Mapping[str, str] | None]
GameSetupLike: TypeAlias = GameSetup | Callable[[GameView], Iterable[Effect] | None]
RoleInfoLike: TypeAlias = RoleInfoProvider | Callable[[str, GameView], Mapping[str, str] | None]
AudienceLike: TypeAlias = AudienceProvider | Callable[[Event, GameView], Iterable[str] | None]
TeammatesLike: TypeAlias = TeammateProvider | Callable[[str, GameView], Iterable[str] | None]
SpeechLike: TypeAlias = SpeechProvider | Callable[[str, GameView], Iterable[str] | None]
InterceptorLike: TypeAlias = Interceptor | Callable[[Effect, GameView], Iterable[Effect] | None]
UsableLike: TypeAlias = (
    UsableProvider | Callable[[str, SkillType, GameView, Sequence[SkillUse]], str | Iterable[str] | None]
)

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")


def _fn(obj: Any, method: str, what: str) -> Callable[..., Any]:
    if obj is None:
        raise InvalidConfig(f"{what} is None")
    bound = getattr(obj, method, None)
    if callable(bound):
        return bound  # type: ignore[no-any-return]
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise InvalidConfig(f"{what} must be a function or have a .{method}() method")


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Rules:
    """A complete ruleset: configuration plus every extension point.

    ``resolvers`` run when a phase ends; ``turn_resolvers`` (optional, for turn-ordered
    phases) run when each turn ends, with that turn's submissions.

    ``usable`` (optional) says whether a player may use a skill now and on which
    targets; ``allowed_skills``, readiness, ``submit`` and ``phase_info`` all ask it.
    ``usable_skills`` (optional, with ``usable``) names the only skills ``usable`` may refuse
    or narrow: the engine asks it about those alone and takes every other skill as usable on
    any target, so a game whose gate concerns a few skills pays nothing for the rest (a day
    vote's every seat). ``None``: ``usable`` is asked about every skill. Stored as a frozenset.

    ``victory_after`` (optional, with ``victory``) names the only phases after whose end the
    victory can be decided: the engine asks ``victory`` when one of them ends and skips the call
    when any other phase ends, so a game decided by one phase (One Night's vote) does not pay a
    check per phase. ``None``: asked after every phase, as without it. Stored as a frozenset of
    leaf phases of the config. It is the rules' promise, like ``usable_skills``: the random-game
    harness checks that the checker says ``None`` after every phase end it leaves out.

    ``name`` (lowercase, e.g. ``"werewolf"``) and ``version`` are recorded in snapshots
    and logs; restoring under a different name or version is refused.
    """

    config: Config
    name: str = field(kw_only=True)
    version: str = field(default="1", kw_only=True)
    resolvers: Mapping[PhaseType, ResolverLike] = field(default_factory=dict, kw_only=True)
    turn_resolvers: Mapping[PhaseType, ResolverLike] = field(default_factory=dict, kw_only=True)
    victory: VictoryLike | None = field(default=None, kw_only=True)
    role_setup: Mapping[RoleType, RoleSetupLike] = field(default_factory=dict, kw_only=True)
    game_setup: GameSetupLike | None = field(default=None, kw_only=True)
    role_info: Mapping[RoleType, RoleInfoLike] = field(default_factory=dict, kw_only=True)
    audience: AudienceLike | None = field(default=None, kw_only=True)
    teammates: TeammatesLike | None = field(default=None, kw_only=True)
    speech: SpeechLike | None = field(default=None, kw_only=True)
    interceptors: tuple[InterceptorLike, ...] = field(default=(), kw_only=True)
    usable: UsableLike | None = field(default=None, kw_only=True)
    usable_skills: frozenset[SkillType] | None = field(default=None, kw_only=True)
    victory_after: frozenset[PhaseType] | None = field(default=None, kw_only=True)
    logger: logging.Logger | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if not isinstance(self.config, Config):
            raise InvalidConfig("Rules.config must be a Config")
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise InvalidConfig(f"rules name {self.name!r} must be lowercase letters, digits, '-', '_' or '.'")
        if not isinstance(self.version, str) or not self.version:
            raise InvalidConfig("rules version must be a non-empty string")
        for attr in ("resolvers", "turn_resolvers", "role_setup", "role_info"):
            value = getattr(self, attr)
            if not isinstance(value, Mapping):
                raise InvalidConfig(f"Rules.{attr} must be a mapping")
            for k, v in value.items():
                if not isinstance(k, str) or v is None:
                    raise InvalidConfig(f"Rules.{attr}[{k!r}] must map a str to an extension point")
            object.__setattr__(self, attr, MappingProxyType(dict(sorted(value.items()))))
        if isinstance(self.interceptors, (str, bytes)) or not isinstance(self.interceptors, Iterable):
            raise InvalidConfig("Rules.interceptors must be a sequence")
        object.__setattr__(self, "interceptors", tuple(self.interceptors))
        if self.logger is not None and not isinstance(self.logger, logging.Logger):
            raise InvalidConfig("Rules.logger must be a logging.Logger")
        for i, icpt in enumerate(self.interceptors):
            _fn(icpt, "intercept", f"interceptor #{i}")
        # A Config is frozen, so its verdict is kept with it: a game that builds one Rules
        # value per deal on a shared Config (One Night's centre) validates the Config once.
        by_identity(_VALID_CONFIGS, self.config, _validated)
        if self.usable_skills is not None:
            object.__setattr__(self, "usable_skills", _usable_skills(self))
        if self.victory_after is not None:
            object.__setattr__(self, "victory_after", _victory_after(self))

    def with_game_setup(self, game_setup: GameSetupLike | None) -> Rules:
        """A copy with ``game_setup`` in place of this value's: what a game whose rules differ
        per deal only in what the start lays (One Night's centre cards) builds for each deal.

        Everything else was checked with this value, so the copy skips ``__post_init__``, and
        its compiled form is made at once from this value's (:func:`hiddenrole.compiled.with_game_setup`,
        compiled code): a new deal costs one game setup, not a whole ruleset. Equal to the Rules
        value built afresh. Raises what an engine of this value would if it cannot run.
        """
        return _COPY_WITH_SETUP[0](self, game_setup)

    def with_interceptors(self, *interceptors: InterceptorLike) -> Rules:
        """A copy with ``interceptors`` appended after the existing ones (run in order)."""
        return dataclasses.replace(self, interceptors=(*self.interceptors, *interceptors))

    @property
    def key(self) -> tuple[str, str]:
        """``(name, version)`` as recorded in snapshots and logs."""
        return (self.name, self.version)


def _declared_names(declared: Any, field_name: str, what: str, needs: str, has_needed: bool) -> frozenset[str]:
    """A declared set of names (``Rules.<field_name>``) checked as a frozenset of non-empty str, else
    :class:`InvalidConfig`; ``needs`` names the extension point it is about, which must be set."""
    if isinstance(declared, (str, bytes)) or not isinstance(declared, Iterable):
        raise InvalidConfig(f"Rules.{field_name} must be a collection of {what} names, or None")
    try:
        names = frozenset(declared)
    except TypeError:
        raise InvalidConfig(f"Rules.{field_name} must hold {what} names") from None
    if not has_needed:
        raise InvalidConfig(f"Rules.{field_name} is declared but Rules.{needs} is None")
    for k in sorted(names, key=repr):
        if not isinstance(k, str) or not k:
            raise InvalidConfig(f"Rules.{field_name} holds {k!r}, not a {what} name")
    return names


def _usable_skills(rules: Rules) -> frozenset[SkillType]:
    """``rules.usable_skills`` checked (non-empty skill names, with a ``usable`` to ask), as a
    frozenset. A name no step offers is allowed: a game whose boards differ may declare one set."""
    return _declared_names(rules.usable_skills, "usable_skills", "skill", "usable", rules.usable is not None)


def _victory_after(rules: Rules) -> frozenset[PhaseType]:
    """``rules.victory_after`` checked, as a frozenset: a collection of phase names (else
    :class:`InvalidConfig`), with a ``victory`` to ask (else :class:`InvalidConfig`), each a leaf
    phase of the config (else :class:`InvalidPhase`: an unknown phase, ``START`` or ``END``, or a
    compound phase, never ends itself, so naming one would promise nothing). Empty is allowed: the
    victory is then asked only before ``start`` (a game that ends by ``goto END`` alone)."""
    phases = _declared_names(rules.victory_after, "victory_after", "phase", "victory", rules.victory is not None)
    configured = rules.config.phases
    compound = rules.config.compound_phases()
    for k in sorted(phases):
        if k not in configured:
            raise InvalidPhase(f"Rules.victory_after names {k!r}, not a phase of the config")
        if k in compound:
            raise InvalidPhase(f"Rules.victory_after names compound phase {k!r}, which never ends itself")
    return phases


_COPY_WITH_SETUP: list[Callable[[Rules, GameSetupLike | None], Rules]] = []
""":func:`hiddenrole.compiled.with_game_setup`, put here by that module when it is imported (it imports
this one, so the kernel's import order holds; importing any part of ``hiddenrole`` imports it)."""


_VALID_CONFIGS: dict[int, tuple[Callable[[], Any], Any]] = {}
"""The Config values already validated (by identity, dropped with the value; a refusal is never kept)."""


def _validated(config: Config) -> bool:
    config.validate()  # raises for an invalid Config: nothing is kept then
    return True
