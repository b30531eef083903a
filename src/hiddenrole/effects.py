"""Effects (what resolution decided), events (what players may be told) and scopes.

Effects are immutable values. That is what lets the engine keep them in its log
and hand the same objects back to callers without defensive copies: history cannot
be rewritten from outside. Every state change is one of five kernel primitives;
every other effect type is a rule event that changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from .errors import InvalidArgument
from .vocab import (
    BOOKKEEPING_EVENTS,
    DETOUR,
    GOTO_PHASE,
    INTERNAL_EVENTS,
    PLAYER_ADDED,
    SET_ACTORS,
    SET_ALIVE,
    SET_VAR,
    EventType,
    PhaseType,
    RoleType,
    SkillType,
)

__all__ = [
    "VarScope",
    "GAME",
    "ROUND",
    "Effect",
    "Event",
    "SkillUse",
    "EMPTY_MAP",
    "event",
    "set_alive",
    "set_var",
    "set_actors",
    "detour",
    "goto_phase",
    "REPLACED_BY_INTERCEPTOR",
    "frozen_map",
    "constant_map",
    "coerce_effects",
    "checked_effect",
    "checked_event",
]

# Module constants are ``Final``: the compiled build keeps a ``Final`` value in a C static, where
# any other module-level name is a dict lookup on every read (hot constructors read several).
EMPTY_MAP: Final[Mapping[str, str]] = MappingProxyType({})
"""The shared empty read-only mapping."""
_tuple_new: Final = tuple.__new__
_PROXY: Final = MappingProxyType
"""The class, read from a C static by compiled code (an imported class is a module-dict lookup per read)."""

REPLACED_BY_INTERCEPTOR: Final = "replaced by an interceptor"


def frozen_map(data: Mapping[str, str] | None) -> Mapping[str, str]:
    """A read-only copy of ``data`` with its keys sorted (for deterministic output)."""
    if not data:
        return EMPTY_MAP
    if type(data) is dict:
        made = sorted_copy(data, True)
        if made is not None:
            return made
    if type(data) is not dict and not isinstance(data, Mapping):  # a dict first: Mapping is an ABC check
        raise InvalidArgument("expected a mapping of str to str")
    entries: Iterable[tuple[object, object]] = data.items()  # unchecked yet: read as objects (mypyc)
    for k, v in entries:
        if not isinstance(k, str) or not isinstance(v, str):
            raise InvalidArgument(f"mapping entries must be str to str, got {k!r}: {v!r}")
    return MappingProxyType(dict(sorted(data.items())))


def sorted_copy(data: dict[Any, Any], empty_ok: bool) -> Mapping[str, str] | None:
    """:func:`frozen_map` of ``data`` when it is already sorted ``str`` to ``str`` (and, unless
    ``empty_ok``, holds no empty value), else ``None``: the payloads the kernel meets (an event's
    one field, a seat's initial variables, which role setups write in key order) are copied,
    without the generic ``items()`` calls, the sort and the pairs of the general way. Read
    natively, as a dict of objects (mypyc; unchecked yet). Seating asks with ``empty_ok`` off,
    as it drops empty values: one pass for both questions."""
    prev: str | None = None
    for k, v in data.items():
        if type(k) is not str or type(v) is not str or (prev is not None and k < prev):
            return None
        if not empty_ok and not v:
            return None
        prev = k
    return _PROXY(data.copy())


CONSTANT_MAPS_KEPT: Final = 64
"""How many :func:`constant_map` results the kernel remembers (beyond it they are built, not remembered).
Every other map's check scans them by identity first, so the bound is also that scan's worst case (a
few instructions per entry compiled); the shipped rulesets make about twenty (One Night one per card)."""
_CONSTANT_MAPS: Final[list[Mapping[str, str]]] = []
"""The maps :func:`constant_map` made, each clean and kept alive here (see :func:`_is_clean_map`)."""
_SEATABLE_MAPS: Final[list[Mapping[str, str]]] = []
"""Those of them with no empty value: what a role setup may return to be taken as it is (see
:func:`is_seatable_constant`)."""


def constant_map(data: Mapping[str, str]) -> Mapping[str, str]:
    """:func:`frozen_map` of ``data``, remembered as the kernel's own: for a payload a ruleset puts in
    many events (a ballot, a fixed announcement), built once at import.

    Why: every effect's data map is checked when the effect is applied (keys sorted, str to str),
    a read of every entry through the read-only map, which costs as much as building the event.
    A map made here is a read-only view of a dict the kernel copied and never hands out, checked
    once, and kept alive by the kernel, so the map found here by identity is this clean one (its
    identity cannot pass to another object while it is kept) and is taken without re-reading.
    The first :data:`CONSTANT_MAPS_KEPT` are remembered; later ones are plain frozen maps.
    """
    made = frozen_map(data)
    if made is not EMPTY_MAP and len(_CONSTANT_MAPS) < CONSTANT_MAPS_KEPT and _is_clean_map(made):
        _CONSTANT_MAPS.append(made)
        if "" not in made.values():
            _SEATABLE_MAPS.append(made)
    return made


def is_constant_map(d: object) -> bool:
    """Whether ``d`` is one of the kept :func:`constant_map` results: clean and immutable (see there)."""
    return any(known is d for known in _CONSTANT_MAPS)  # compiled, a native loop


def is_seatable_constant(d: object) -> bool:
    """Whether ``d`` is a kept :func:`constant_map` with no empty value: a role setup's answer the
    kernel seats as it is (it would drop empty values, and sort and freeze a copy of anything else).
    Why: One Night's setup gives each seat one of a few card maps at every deal, and freezing a copy
    per seat was about 1.3k instructions each, compiled."""
    return any(known is d for known in _SEATABLE_MAPS)  # compiled, a native loop


class VarScope(NamedTuple):
    """Where a variable lives: game or round lifetime, unowned or owned by a player.

    ``GAME``, ``ROUND``, ``GAME.of(pid)``, ``ROUND.of(pid)`` are the four cells.
    """

    per_round: bool = False
    owner: str = ""

    def of(self, player_id: str) -> VarScope:
        """The same lifetime, owned by ``player_id``.

        Built from the tuple: ``VarScope(...)`` runs the NamedTuple's keyword ``__new__``, a Python
        frame even compiled, and rules name a player's scope for every variable they write."""
        return _tuple_new(VarScope, (self.per_round, player_id))

    def __str__(self) -> str:
        base = "round" if self.per_round else "game"
        return f"{base}:{self.owner}" if self.owner else base

    @classmethod
    def parse(cls, text: str) -> VarScope:
        """Inverse of ``str(scope)``."""
        if not isinstance(text, str):
            raise InvalidArgument(f"not a scope: {text!r}")
        base, sep, owner = text.partition(":")
        if base not in ("game", "round") or (sep and not owner):
            raise InvalidArgument(f"not a scope: {text!r}")
        return cls(base == "round", owner)


_SCOPE: Final[type[VarScope]] = VarScope
"""The class, read from a C static by compiled :func:`_checked` (a class name is a module-dict lookup)."""

GAME: Final = VarScope(False, "")
ROUND: Final = VarScope(True, "")


class Event(NamedTuple):
    """What a player or host may be told about an effect (no typed kernel payload)."""

    type: EventType
    source: str = ""
    target: str = ""
    data: Mapping[str, str] = EMPTY_MAP
    canceled: bool = False
    reason: str = ""


class Effect(NamedTuple):
    """One decision of the rules, applied at the single write point.

    Build kernel primitives with :func:`set_alive`, :func:`set_var`, :func:`set_actors`,
    :func:`detour` and :func:`goto_phase`; build rule events with ``Effect(type, source,
    target)`` and :meth:`with_data`. The typed fields after ``data`` are the kernel's own
    payload; only the fields of the effect's type matter.
    """

    type: EventType
    source: str = ""
    target: str = ""
    data: Mapping[str, str] = EMPTY_MAP
    canceled: bool = False
    reason: str = ""
    phase: PhaseType = ""
    alive: bool = False
    scope: VarScope = GAME
    key: str = ""
    value: str = ""
    actors: tuple[str, ...] = ()
    role: RoleType = ""
    vars: Mapping[str, str] = EMPTY_MAP
    winners: tuple[str, ...] = ()

    def with_data(self, key: str, value: str) -> Effect:
        """A copy carrying one more string payload entry."""
        if not isinstance(key, str) or not isinstance(value, str):
            raise InvalidArgument("effect data must be str to str")
        if self.data:
            merged = dict(self.data)
            merged[key] = value
            data: Mapping[str, str] = MappingProxyType(dict(sorted(merged.items())))
        else:
            data = MappingProxyType({key: value})
        # A new tuple with one field changed, without ``_replace``'s per-field Python loop.
        return _tuple_new(type(self), (*self[:3], data, *self[4:]))

    def cancel(self, reason: str) -> Effect:
        """A vetoed copy: changes no state, but stays in the log and the returned effects."""
        return _tuple_new(type(self), (*self[:4], True, reason, *self[6:]))

    def sets_alive(self) -> bool | None:
        """The aliveness this effect writes, or ``None`` if it writes none."""
        if self.type == SET_ALIVE and not self.canceled:
            return self.alive
        return None

    def sets_var(self) -> tuple[VarScope, str, str] | None:
        """``(scope, key, value)`` this effect writes, or ``None``."""
        if self.type == SET_VAR and not self.canceled:
            return (self.scope, self.key, self.value)
        return None

    @property
    def is_internal(self) -> bool:
        """True for kernel primitives that never reach players."""
        return self.type in INTERNAL_EVENTS

    def to_event(self) -> Event:
        """The publishable form: typed payload flattened into string data.

        A rule event (no kernel payload) whose data is already a clean map, as every
        logged one is, keeps its data as it is: the engine publishes each of them."""
        raw: tuple[Any, ...] = self
        if (
            not raw[6]  # phase
            and not raw[7]  # alive
            and raw[0] != SET_VAR
            and not raw[11]  # actors
            and not raw[12]  # role
            and not raw[14]  # winners
            and _is_clean_map(raw[3])
        ):
            return _tuple_new(Event, raw[:6])
        data = dict(self.data)
        if self.phase:
            data["phase"] = self.phase
        if self.alive:
            data["alive"] = "true"
        if self.type == SET_VAR:
            data["scope"] = str(self.scope)
            data["var_key"] = self.key
            data["value"] = self.value
        if self.actors:
            data["actors"] = ",".join(self.actors)
        if self.role:
            data["role"] = self.role
        if self.winners:
            data["winners"] = ",".join(self.winners)
        return Event(self.type, self.source, self.target, frozen_map(data), self.canceled, self.reason)


_EFFECT: Final[type[Effect]] = Effect
"""The class, read from a C static by the compiled constructors below (a class is a dict lookup)."""


class SkillUse(NamedTuple):
    """A submission: a player used a skill on zero or more targets.

    ``phase`` and ``round`` are stamped by the engine when it accepts the submission.
    """

    player_id: str
    skill: SkillType
    targets: tuple[str, ...] = ()
    phase: PhaseType = ""
    round: int = 0

    @property
    def target(self) -> str:
        """The first target, or ``""``."""
        return self.targets[0] if self.targets else ""


# The primitives build their tuple in Effect's field order (type, source, target, data, canceled,
# reason, phase, alive, scope, key, value, actors, role, vars, winners): ``Effect(...)`` would run
# the NamedTuple's generated ``__new__``, one more Python frame per effect in both builds
# (tests/kernel/test_effects.py checks each against its keyword form).


def set_alive(player_id: str, alive: bool) -> Effect:
    """Kernel primitive: set a player's aliveness."""
    alive = bool(alive)
    return _tuple_new(
        _EFFECT, (SET_ALIVE, "", player_id, EMPTY_MAP, False, "", "", alive, GAME, "", "", (), "", EMPTY_MAP, ())
    )


def set_var(scope: VarScope, key: str, value: str) -> Effect:
    """Kernel primitive: write one variable cell; the empty value deletes it."""
    if not isinstance(scope, VarScope):
        raise InvalidArgument("set_var scope must be a VarScope (GAME, ROUND or .of(id))")
    if not isinstance(key, str) or not key or not isinstance(value, str):
        raise InvalidArgument("set_var needs a non-empty str key and a str value")
    return _tuple_new(
        _EFFECT, (SET_VAR, "", scope.owner, EMPTY_MAP, False, "", "", False, scope, key, value, (), "", EMPTY_MAP, ())
    )


def event(kind: EventType, source: str = "", target: str = "", data: Mapping[str, str] = EMPTY_MAP) -> Effect:
    """``Effect(kind, source, target, data)``, the shape of almost every rules event, built from the tuple.

    Why: the NamedTuple's keyword constructor runs as Python bytecode even in the compiled
    build, several times this call's cost, and resolvers make one per vote or action. The
    effect is checked when applied like any other (a bad field is refused there).
    """
    return _tuple_new(_EFFECT, (kind, source, target, data, False, "", "", False, GAME, "", "", (), "", EMPTY_MAP, ()))


def set_actors(phase: PhaseType, *player_ids: str) -> Effect:
    """Kernel primitive: name exactly who may act in ``phase`` (dead players included).

    Naming nobody (no ids) means nobody may act, which differs from naming no list.
    """
    ids: tuple[object, ...] = player_ids  # unchecked yet: read as objects (mypyc)
    for pid in ids:
        if not isinstance(pid, str):
            raise InvalidArgument("set_actors ids must be str")
    actors = sorted_ids(player_ids)
    return _tuple_new(
        _EFFECT, (SET_ACTORS, "", "", EMPTY_MAP, False, "", phase, False, GAME, "", "", actors, "", EMPTY_MAP, ())
    )


def sorted_ids(ids: tuple[str, ...]) -> tuple[str, ...]:
    """``tuple(sorted(set(ids)))``: ``ids`` itself when its items are already plain ``str`` in
    strictly increasing order, as rules usually name them (from seat order or a sorted pick).

    Why: the set and the sort cost about 1,800 instructions compiled for a handful of ids, a
    comparison per id about 150; :func:`set_actors` and :meth:`State.apply` run this for every
    list of actors (Avalon names the team and the voters every nomination). A ``str`` subclass
    takes the general way, its own ``__eq__``, ``__hash__`` and ``<`` deciding as before."""
    prev = ""
    for pid in ids:
        if type(pid) is not str or pid <= prev:  # "" sorts first: the first id only needs to be non-empty
            return tuple(sorted(set(ids)))
        prev = pid
    return ids


def detour(player_id: str, phase: PhaseType) -> Effect:
    """Kernel primitive: queue a trip to ``phase`` for ``player_id`` (e.g. a hunter's shot).

    Detours route the next phase before any goto, and hold the victory check until drained.
    """
    return _tuple_new(
        _EFFECT, (DETOUR, player_id, "", EMPTY_MAP, False, "", phase, False, GAME, "", "", (), "", EMPTY_MAP, ())
    )


def goto_phase(phase: PhaseType) -> Effect:
    """Control: leave this phase for ``phase`` instead of its configured next phase."""
    return _tuple_new(
        _EFFECT, (GOTO_PHASE, "", "", EMPTY_MAP, False, "", phase, False, GAME, "", "", (), "", EMPTY_MAP, ())
    )


def player_added(player_id: str, role: RoleType, initial: Mapping[str, str]) -> Effect:
    """The kernel's log entry for seating a player (not a rules primitive): built from the tuple
    as the primitives above are, since the NamedTuple's keyword constructor runs as Python
    bytecode even in the compiled build (once per seat, a few % of a short game)."""
    return _tuple_new(
        _EFFECT, (PLAYER_ADDED, "", player_id, EMPTY_MAP, False, "", "", False, GAME, "", "", (), role, initial, ())
    )


def kernel_entry(kind: EventType, source: str = "", phase: PhaseType = "", winners: tuple[str, ...] = ()) -> Effect:
    """A kernel bookkeeping entry (``TURN_ENDED``, ``GAME_STARTED``, ``GAME_ENDED``...) built from the
    tuple like the primitives: ``Effect(...)`` runs the NamedTuple's keyword ``__new__`` (a Python
    frame even compiled), and turn-ordered phases log one ``TURN_ENDED`` per turn."""
    return _tuple_new(
        _EFFECT, (kind, source, "", EMPTY_MAP, False, "", phase, False, GAME, "", "", (), "", EMPTY_MAP, winners)
    )


def coerce_effects(effects: Iterable[Effect] | None, who: str) -> list[Effect]:
    """Check what an extension point returned; freeze any mutable payload it carried.

    ``None`` entries are dropped. Anything that is not an :class:`Effect` is a bug in
    the rules and raises :class:`InvalidArgument` naming the culprit.
    """
    if effects is None:
        return []
    if isinstance(effects, Effect):
        raise InvalidArgument(f"{who} returned a single Effect; return a list of effects")
    out: list[Effect] = []
    items: Iterable[object] = effects  # unchecked yet: read as objects (mypyc)
    for e in items:
        if e is None:
            continue
        if not isinstance(e, Effect):
            raise InvalidArgument(f"{who} returned {type(e).__name__}, not an Effect")
        out.append(_checked(e, who))
    return out


def vetted(effects: Iterable[Effect] | None) -> list[Effect] | None:
    """``effects`` itself when :func:`coerce_effects` would return an equal list; else ``None``.

    A list whose every entry is an :class:`Effect` that :func:`_checked` passes as it is (no
    ``None`` to drop, no payload to freeze) is returned itself, to be read, never changed: the
    engine's write path takes every resolver's list here, and the copy (a list built and grown
    entry by entry, the input read through a generic iterator) was a fifth of the check's cost.
    Anything else is left to :func:`coerce_effects` from the start, so its answer and errors
    hold; the caller names the extension point only then (an end_phase resolver's name is a
    lookup per phase otherwise).
    """
    if type(effects) is not list:
        return None
    given: list[object] = effects  # unchecked yet: read as objects (mypyc)
    try:
        for e in given:
            if type(e) is not _EFFECT or _checked(e, "") is not e:
                return None
    except InvalidArgument:
        return None  # a refused field: coerce_effects refuses it again, naming the extension point
    return effects


_EFFECT_FIELDS: Final = len(Effect._fields)
_STR_FIELDS: Final = ("type", "source", "target", "reason", "phase", "key", "value", "role")


def _is_clean_map(d: Mapping[str, str]) -> bool:
    """A read-only str->str map with sorted keys: what :func:`frozen_map` produces."""
    if d is EMPTY_MAP:
        return True
    if type(d) is not _PROXY:
        return False
    for known in _CONSTANT_MAPS:  # the kernel's own (:func:`constant_map`): clean by construction
        if known is d:  # is_constant_map's loop, inline: a call per event map costs Avalon 0.1% a game
            return True
    prev: str | None = None
    # Key by key, each value read through the map: compiled, cheaper than ``items()`` (a method
    # call on the proxy, which calls the dict's, then a pair built and unpacked per entry). The
    # first key is compared with nothing: most maps have one key, and ``<`` on two str is a
    # generic rich comparison compiled.
    keys: Iterable[object] = d  # unchecked yet: read as objects (mypyc)
    for k in keys:
        if type(k) is not str or type(d[k]) is not str:
            return False
        if prev is not None and k < prev:
            return False
        prev = k
    return True


def _is_str_tuple(seq: object) -> bool:
    """A tuple of str: what the fast path of :func:`_checked` admits for ``actors`` and ``winners``."""
    if type(seq) is not tuple:
        return False
    items: tuple[object, ...] = seq
    return all(type(item) is str for item in items)


def checked_effect(e: object, who: str, *, logged: bool = False) -> Effect:
    """``e`` as a well-typed :class:`Effect`, or :class:`InvalidArgument` naming the field.

    ``logged`` admits the kernel's own bookkeeping entries (replay reads them from a log);
    effects from rules and hosts never may carry them.
    """
    if not isinstance(e, Effect):
        raise InvalidArgument(f"{who} holds {type(e).__name__}, not an Effect")
    return _checked(e, who, logged)


def checked_event(ev: object, who: str) -> Event:
    """``ev`` as a well-typed :class:`Event` (every field), or :class:`InvalidArgument`.

    The first test is the common case (an event the engine published, handed back to
    ``audience_of``) in one expression, as in :func:`_checked`."""
    if type(ev) is Event:
        raw: tuple[Any, ...] = ev
        kind, source, target, data, canceled, reason = raw
        if (
            type(kind) is str
            and kind
            and type(source) is str
            and type(target) is str
            and type(reason) is str
            and type(canceled) is bool
            and _is_clean_map(data)
        ):
            return ev
    if not isinstance(ev, Event):
        raise InvalidArgument(f"{who} needs an Event, got {type(ev).__name__}")
    for name in ("type", "source", "target", "reason"):
        if type(getattr(ev, name)) is not str:
            raise InvalidArgument(f"{who}: event {name} must be a str, got {getattr(ev, name)!r}")
    if not ev.type:
        raise InvalidArgument(f"{who}: event type must be a non-empty str")
    untyped: Any = ev  # fields unchecked yet: read untyped (a compiled kernel would refuse them with TypeError)
    if type(untyped.canceled) is not bool:
        raise InvalidArgument(f"{who}: event canceled must be a bool")
    if not _is_clean_map(ev.data):
        if not isinstance(ev.data, Mapping):
            raise InvalidArgument(f"{who}: event data must be a mapping of str to str")
        ev = ev._replace(data=frozen_map(ev.data))
    return ev


def _checked(e: Effect, who: str, logged: bool = False) -> Effect:
    """``e`` with every field of the right type, or :class:`InvalidArgument` naming the field.

    A wrongly typed field would otherwise be applied, logged, and break every later snapshot.
    The first test is the common case (an effect built with this module's helpers) in one
    expression, because every effect of every phase passes here.
    """
    # Fields unchecked yet: read untyped (a compiled kernel would refuse them with TypeError), and
    # unpacked at once (one tuple unpack instead of a dozen attribute reads, in both builds).
    raw: tuple[Any, ...] = e
    if len(raw) == _EFFECT_FIELDS:
        kind, source, target, data, canceled, reason, phase, alive, scope, key, value, actors, role, cells, won = raw
        if (
            type(kind) is str
            and type(source) is str
            and type(target) is str
            and type(reason) is str
            and type(phase) is str
            and type(key) is str
            and type(value) is str
            and type(role) is str
            and type(canceled) is bool
            and type(alive) is bool
            and type(scope) is _SCOPE
            and type(scope.per_round) is bool
            and type(scope.owner) is str
            and kind
            and kind not in BOOKKEEPING_EVENTS
            and (data is EMPTY_MAP or _is_clean_map(data))
            and (cells is EMPTY_MAP or _is_clean_map(cells))
            # Empty: a type test and a truth test (compiled, ``== ()`` is a rich comparison); else
            # set_actors' sorted tuple, which takes no slow path either.
            and ((type(actors) is tuple and not actors) or _is_str_tuple(actors))
            and ((type(won) is tuple and not won) or _is_str_tuple(won))
        ):
            return e
    f: Any = e
    for name in _STR_FIELDS:
        if type(getattr(f, name)) is not str:
            raise InvalidArgument(f"{who} returned an effect whose {name} is not a str: {getattr(f, name)!r}")
    if not f.type:
        raise InvalidArgument(f"{who} returned an effect with an empty type")
    if f.type in BOOKKEEPING_EVENTS and not logged:
        raise InvalidArgument(f"{who} returned {f.type}, which only the kernel may record")
    if type(f.canceled) is not bool or type(f.alive) is not bool:
        raise InvalidArgument(f"{who} returned an effect whose canceled/alive is not a bool")
    scope = f.scope
    if not isinstance(scope, VarScope) or type(scope.per_round) is not bool or type(scope.owner) is not str:
        raise InvalidArgument(f"{who} returned an effect whose scope is not a VarScope")
    for name in ("actors", "winners"):
        seq = getattr(f, name)
        if isinstance(seq, (str, bytes)) or not isinstance(seq, (tuple, list)):
            raise InvalidArgument(f"{who} returned an effect whose {name} is not a sequence of str")
        for item in seq:
            if type(item) is not str:
                raise InvalidArgument(f"{who} returned an effect whose {name} holds {item!r}")
    if type(f.actors) is not tuple or type(f.winners) is not tuple:
        e = e._replace(actors=tuple(f.actors), winners=tuple(f.winners))
    for name in ("data", "vars"):
        if not isinstance(getattr(f, name), Mapping):
            raise InvalidArgument(f"{who} returned an effect whose {name} is not a mapping of str to str")
    if f.data is not EMPTY_MAP or f.vars is not EMPTY_MAP:
        e = e._replace(data=frozen_map(f.data), vars=frozen_map(f.vars))
    return e
