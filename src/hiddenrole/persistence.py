"""The durable record: the effect log (source of truth) and snapshots (log + board).

Both serialise to compact JSON bytes with a fixed key order, so encoding what was
decoded gives the same bytes. Decoding checks every field's type and shape and raises
:class:`InvalidLog` / :class:`InvalidSnapshot`; it never returns a half-read value.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from .effects import EMPTY_MAP, Effect, SkillUse, VarScope
from .errors import GameError, InvalidArgument, InvalidLog, InvalidSnapshot, NilSnapshot
from .views import Detour, PlayerInfo
from .vocab import PhaseAction

__all__ = ["LOG_VERSION", "SNAPSHOT_VERSION", "EncodedEffects", "GameLog", "Snapshot", "read_json", "value_or_json"]

_T = TypeVar("_T")

LOG_VERSION = 1
"""Version of the log format; bumped on any incompatible change."""
SNAPSHOT_VERSION = 2
"""Version of the snapshot format; a snapshot of an unknown version is rebuilt from its log.

2 added ``round_context.held`` (the round actions held while a detour is owed); a version 1
snapshot is read as version 2 with nothing held (version 1 engines never held any).
"""
_READABLE_SNAPSHOTS = (1, 2)


def _dumps(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode("utf-8")


def read_json(data: bytes | bytearray | memoryview | str, error: Callable[[str], Exception] = InvalidArgument) -> Any:
    """Strict JSON for everything the kernel and the host read back.

    Refuses what the standard reader lets through, because each would break the
    byte-identical round trip or hide a forged record: a repeated key in one object
    (the standard reader keeps the last), ``NaN``/``Infinity``, text that is not UTF-8.
    Raises ``error(message)`` (e.g. :class:`InvalidLog`); never returns a half-read value.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"not UTF-8: {exc}") from None
    if not isinstance(data, str):
        raise error(f"expected JSON bytes or str, got {type(data).__name__}")
    try:
        return _STRICT.decode(data)
    except (ValueError, RecursionError) as exc:
        raise error(f"malformed JSON: {exc}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise ValueError(f"duplicate key {k!r}")
            seen.add(k)
    return d


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_STRICT = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant)


def value_or_json(value: object, cls: type[_T], from_json: Callable[[Any], _T], err: Callable[[str], Exception]) -> _T:
    """``value`` when it already is a ``cls``, else ``from_json`` of its JSON bytes or text.

    Anything else (``None`` included) raises ``err(message)``. Every reader that takes
    "a value or its JSON" (logs, snapshots, table logs) goes through here.
    """
    if value is None:
        raise err(f"no {cls.__name__} given")
    if isinstance(value, cls):
        return value
    if isinstance(value, (bytes, bytearray, str)):
        return from_json(bytes(value) if isinstance(value, bytearray) else value)
    raise err(f"expected a {cls.__name__} or JSON, got {type(value).__name__}")


class _Reader:
    """Typed field access that raises the right error class with a path."""

    __slots__ = ("err",)

    def __init__(self, err: type[GameError]) -> None:
        self.err = err

    def fail(self, where: str, what: str) -> NoReturn:
        raise self.err(f"{where}: {what}")

    def obj(self, v: Any, where: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            self.fail(where, "expected an object")
        return v

    def keys(self, d: dict[str, Any], where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        for k in required:
            if k not in d:
                self.fail(where, f"missing field {k!r}")
        extra = set(d) - set(required) - set(optional)
        if extra:
            self.fail(where, f"unknown field {sorted(extra)[0]!r}")

    def str_(self, v: Any, where: str) -> str:
        if not isinstance(v, str):
            self.fail(where, "expected a string")
        return v

    def int_(self, v: Any, where: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            self.fail(where, "expected an integer")
        return v

    def bool_(self, v: Any, where: str) -> bool:
        if not isinstance(v, bool):
            self.fail(where, "expected true or false")
        return v

    def list_(self, v: Any, where: str) -> list[Any]:
        if not isinstance(v, list):
            self.fail(where, "expected an array")
        return v

    def strs(self, v: Any, where: str) -> tuple[str, ...]:
        if type(v) is not list:
            self.fail(where, "expected an array")
        for i, x in enumerate(v):
            if type(x) is not str:
                self.fail(f"{where}[{i}]", "expected a string")
        return tuple(v)

    def smap(self, v: Any, where: str) -> Mapping[str, str]:
        if type(v) is not dict:
            self.fail(where, "expected an object")
        if not v:
            return EMPTY_MAP
        prev = ""
        for k, x in v.items():
            if type(x) is not str:
                self.fail(f"{where}.{k}", "expected a string")
            if k < prev:
                self.fail(where, "keys are not sorted")
            prev = k
        return MappingProxyType(dict(v))


def effect_to_dict(e: Effect) -> dict[str, Any]:
    """JSON form of an effect: fields at their default value are left out."""
    d: dict[str, Any] = {"type": e.type}
    if e.source:
        d["source"] = e.source
    if e.target:
        d["target"] = e.target
    if e.data:
        d["data"] = dict(e.data)
    if e.canceled:
        d["canceled"] = True
    if e.reason:
        d["reason"] = e.reason
    if e.phase:
        d["phase"] = e.phase
    if e.alive:
        d["alive"] = True
    if e.scope.per_round or e.scope.owner:
        d["scope"] = str(e.scope)
    if e.key:
        d["key"] = e.key
    if e.value:
        d["value"] = e.value
    if e.actors:
        d["actors"] = list(e.actors)
    if e.role:
        d["role"] = e.role
    if e.vars:
        d["vars"] = dict(e.vars)
    if e.winners:
        d["winners"] = list(e.winners)
    return d


_STR, _BOOL, _LIST, _MAP = 1, 2, 3, 4
_FIELD_KIND: dict[str, int] = {
    **dict.fromkeys(("type", "source", "target", "reason", "phase", "scope", "key", "value", "role"), _STR),
    **dict.fromkeys(("canceled", "alive"), _BOOL),
    **dict.fromkeys(("actors", "winners"), _LIST),
    **dict.fromkeys(("data", "vars"), _MAP),
}


def effect_from_dict(v: Any, r: _Reader, where: str) -> Effect:
    """Decode one effect, checking each field's type (one pass, one lookup per field:
    this is the hot path of every restore and replay)."""
    if type(v) is not dict:
        r.fail(where, "expected an object")
    kinds = _FIELD_KIND
    kw = v  # copied before the first conversion, so a caller's dict is never changed
    for k, x in v.items():
        kind = kinds.get(k)
        if kind == _STR:
            if type(x) is not str:
                r.fail(f"{where}.{k}", "expected a string")
        elif kind == _BOOL:
            if type(x) is not bool:
                r.fail(f"{where}.{k}", "expected true or false")
        elif kind in (_LIST, _MAP):
            if kw is v:
                kw = dict(v)
            kw[k] = r.strs(x, f"{where}.{k}") if kind == _LIST else r.smap(x, f"{where}.{k}")
        else:
            r.fail(where, f"unknown field {k!r}")
    if not v.get("type"):
        r.fail(where, "missing or empty effect type")
    scope = v.get("scope")
    if scope is not None:
        if kw is v:
            kw = dict(v)
        try:
            kw["scope"] = VarScope.parse(scope)
        except GameError as exc:
            r.fail(f"{where}.scope", exc.message)
    return Effect(**kw)


class EncodedEffects:
    """The JSON text of a growing log's effects, each encoded once.

    An engine keeps one and hands it to every :class:`GameLog` it makes, so saving
    after every move costs the new effects only, not the whole history again. The
    effects given must extend the ones seen before (an engine's log only grows).
    """

    __slots__ = ("_frags", "_lock")

    def __init__(self) -> None:
        self._frags: list[str] = []
        self._lock = threading.Lock()

    def upto(self, effects: tuple[Effect, ...]) -> list[str]:
        with self._lock:
            frags = self._frags
            for e in effects[len(frags) :]:
                frags.append(_dumps_str(effect_to_dict(e)))
            return frags[: len(effects)]


def _dumps_str(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True, slots=True)
class GameLog:
    """Every effect in the order it was applied, plus the rules it was played under.

    Replaying it (:meth:`Engine.replay`) rebuilds the board at the start of the
    current phase; submissions made since are not part of the log.
    """

    rules_name: str
    rules_version: str
    effects: tuple[Effect, ...]
    version: int = LOG_VERSION
    encoded: EncodedEffects | None = field(default=None, compare=False, repr=False, kw_only=True)
    """Optional cache of encoded effects (engines pass theirs); never changes the bytes."""
    well_typed: bool = field(default=False, compare=False, repr=False, kw_only=True)
    """Every effect is known to be a well-typed :class:`Effect` (the log was decoded from JSON or
    made by an engine), so replay skips the per-field type checks; its other checks still run."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "rules": {"name": self.rules_name, "version": self.rules_version},
            "effects": [effect_to_dict(e) for e in self.effects],
        }

    def to_json(self) -> bytes:
        """Compact, deterministic JSON bytes."""
        if self.encoded is None:
            return _dumps(self.to_dict())
        head = _dumps({"version": self.version, "rules": {"name": self.rules_name, "version": self.rules_version}})
        body = ",".join(self.encoded.upto(self.effects)).encode("utf-8")
        return head[:-1] + b',"effects":[' + body + b"]}"

    @classmethod
    def from_dict(cls, v: Any, err: type[GameError] = InvalidLog, where: str = "log") -> GameLog:
        r = _Reader(err)
        d = r.obj(v, where)
        r.keys(d, where, ("version", "rules", "effects"))
        version = r.int_(d["version"], f"{where}.version")
        rules = r.obj(d["rules"], f"{where}.rules")
        r.keys(rules, f"{where}.rules", ("name", "version"))
        effects = tuple(
            effect_from_dict(x, r, f"{where}.effects[{i}]")
            for i, x in enumerate(r.list_(d["effects"], f"{where}.effects"))
        )
        return cls(
            r.str_(rules["name"], f"{where}.rules.name"),
            r.str_(rules["version"], f"{where}.rules.version"),
            effects,
            version,
            well_typed=True,
        )

    @classmethod
    def from_json(cls, data: bytes | str) -> GameLog:
        """Decode and shape-check; raises :class:`InvalidLog`."""
        return cls.from_dict(read_json(data, InvalidLog))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A saved game: its log plus the board and the submissions not yet resolved."""

    log: GameLog
    phase: str
    round: int
    vars: Mapping[str, str]
    actors: Mapping[str, tuple[str, ...]]
    winners: tuple[str, ...] | None
    players: tuple[PlayerInfo, ...]
    detours: tuple[Detour, ...]
    round_vars: Mapping[str, str]
    pending: tuple[SkillUse, ...]
    turns: tuple[str, ...] = ()
    delayed: tuple[str, ...] = ()
    held: tuple[PhaseAction, ...] = ()
    version: int = SNAPSHOT_VERSION

    @property
    def rules_name(self) -> str:
        return self.log.rules_name

    @property
    def rules_version(self) -> str:
        return self.log.rules_version

    def to_dict(self, *, with_log: bool = True) -> dict[str, Any]:
        return {
            "version": self.version,
            "log": self.log.to_dict() if with_log else None,
            "phase": self.phase,
            "round": self.round,
            "vars": dict(self.vars),
            "actors": {k: list(v) for k, v in self.actors.items()},
            "winners": None if self.winners is None else list(self.winners),
            "players": [
                {
                    "id": p.id,
                    "role": p.role,
                    "alive": p.alive,
                    "vars": dict(p.vars),
                    "round_vars": dict(p.round_vars),
                }
                for p in self.players
            ],
            "round_context": {
                "detours": [{"player_id": d.player_id, "phase": d.phase} for d in self.detours],
                "vars": dict(self.round_vars),
                "held": [str(a) for a in self.held],
            },
            "pending": [
                {
                    "player_id": u.player_id,
                    "skill": u.skill,
                    "targets": list(u.targets),
                    "phase": u.phase,
                    "round": u.round,
                }
                for u in self.pending
            ],
            "turns": {"queue": list(self.turns), "delayed": list(self.delayed)},
        }

    def to_json(self) -> bytes:
        """Compact, deterministic JSON bytes (the log part reuses its encoded effects)."""
        rest = self.to_dict(with_log=False)
        del rest["version"], rest["log"]
        return b'{"version":%d,"log":%s,%s' % (self.version, self.log.to_json(), _dumps(rest)[1:])

    @classmethod
    def from_json(cls, data: bytes | str | None) -> Snapshot:
        """Decode and shape-check; raises :class:`InvalidSnapshot` (``NilSnapshot`` for nothing)."""
        if data is None or (isinstance(data, (bytes, str)) and not data.strip()):
            raise NilSnapshot("no snapshot given")
        return cls.from_dict(read_json(data, InvalidSnapshot))

    @classmethod
    def from_dict(cls, v: Any) -> Snapshot:
        r = _Reader(InvalidSnapshot)
        d = r.obj(v, "snapshot")
        version = r.int_(d.get("version"), "snapshot.version")
        if "log" not in d:
            r.fail("snapshot", "missing field 'log'")
        log = GameLog.from_dict(d["log"], InvalidSnapshot, "snapshot.log")
        if version not in _READABLE_SNAPSHOTS:
            # Unknown layout: only the log is read; the engine rebuilds from it.
            return cls(log, "", 0, EMPTY_MAP, {}, None, (), (), EMPTY_MAP, (), version=version)
        r.keys(
            d,
            "snapshot",
            (
                "version",
                "log",
                "phase",
                "round",
                "vars",
                "actors",
                "winners",
                "players",
                "round_context",
                "pending",
                "turns",
            ),
        )
        actors_raw = r.obj(d["actors"], "snapshot.actors")
        if list(actors_raw) != sorted(actors_raw):
            r.fail("snapshot.actors", "keys are not sorted")
        actors = {k: r.strs(x, f"snapshot.actors.{k}") for k, x in actors_raw.items()}
        winners = None if d["winners"] is None else r.strs(d["winners"], "snapshot.winners")
        players = []
        for i, x in enumerate(r.list_(d["players"], "snapshot.players")):
            w = f"snapshot.players[{i}]"
            p = r.obj(x, w)
            r.keys(p, w, ("id", "role", "alive", "vars", "round_vars"))
            players.append(
                PlayerInfo(
                    r.str_(p["id"], f"{w}.id"),
                    r.str_(p["role"], f"{w}.role"),
                    r.bool_(p["alive"], f"{w}.alive"),
                    r.smap(p["vars"], f"{w}.vars"),
                    r.smap(p["round_vars"], f"{w}.round_vars"),
                )
            )
        rc = r.obj(d["round_context"], "snapshot.round_context")
        r.keys(rc, "snapshot.round_context", ("detours", "vars", "held") if version >= 2 else ("detours", "vars"))
        held: list[PhaseAction] = []
        for i, x in enumerate(r.list_(rc.get("held", []), "snapshot.round_context.held")):
            try:
                held.append(PhaseAction(r.str_(x, f"snapshot.round_context.held[{i}]")))
            except ValueError:
                r.fail(f"snapshot.round_context.held[{i}]", f"unknown phase action {x!r}")
        if held != [a for a in PhaseAction if a in held]:
            r.fail("snapshot.round_context.held", "actions must be unique, in PhaseAction order")
        detours = []
        for i, x in enumerate(r.list_(rc["detours"], "snapshot.round_context.detours")):
            w = f"snapshot.round_context.detours[{i}]"
            dd = r.obj(x, w)
            r.keys(dd, w, ("player_id", "phase"))
            detours.append(Detour(r.str_(dd["player_id"], f"{w}.player_id"), r.str_(dd["phase"], f"{w}.phase")))
        pending = []
        for i, x in enumerate(r.list_(d["pending"], "snapshot.pending")):
            w = f"snapshot.pending[{i}]"
            u = r.obj(x, w)
            r.keys(u, w, ("player_id", "skill", "targets", "phase", "round"))
            pending.append(
                SkillUse(
                    r.str_(u["player_id"], f"{w}.player_id"),
                    r.str_(u["skill"], f"{w}.skill"),
                    r.strs(u["targets"], f"{w}.targets"),
                    r.str_(u["phase"], f"{w}.phase"),
                    r.int_(u["round"], f"{w}.round"),
                )
            )
        turns = r.obj(d["turns"], "snapshot.turns")
        r.keys(turns, "snapshot.turns", ("queue", "delayed"))
        return cls(
            log,
            r.str_(d["phase"], "snapshot.phase"),
            r.int_(d["round"], "snapshot.round"),
            r.smap(d["vars"], "snapshot.vars"),
            actors,
            winners,
            tuple(players),
            tuple(detours),
            r.smap(rc["vars"], "snapshot.round_context.vars"),
            tuple(pending),
            r.strs(turns["queue"], "snapshot.turns.queue"),
            r.strs(turns["delayed"], "snapshot.turns.delayed"),
            tuple(held),
            SNAPSHOT_VERSION,  # a version 1 snapshot is migrated: nothing was held
        )


def coerce_log(log: GameLog | bytes | str | None) -> GameLog:
    """Accept a log value or its JSON; anything else is :class:`InvalidLog`."""
    return value_or_json(log, GameLog, GameLog.from_json, InvalidLog)


def coerce_snapshot(snap: Snapshot | bytes | str | None) -> Snapshot:
    """Accept a snapshot value or its JSON; anything else is :class:`InvalidSnapshot`."""
    if snap is None:
        raise NilSnapshot("no snapshot given")
    return value_or_json(snap, Snapshot, Snapshot.from_json, InvalidSnapshot)
