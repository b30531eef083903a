"""Comparable snapshots of an engine's behaviour and the first difference between two.

The engine hands out NamedTuples and read-only mappings. :func:`plain` turns them
into dicts with sorted keys and lists, so two behaviours compare with ``==`` and the
first difference can be named by a path (``views.p3.allowed_skills[0]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

import hiddenrole as hr

__all__ = [
    "Behaviour",
    "behaviour",
    "behaviour_diff",
    "diff",
    "differences",
    "plain",
    "requery",
    "status_problems",
    "who_acts_problems",
]


def plain(value: Any) -> Any:
    """Nested NamedTuples/mappings/sequences as dicts (sorted keys) and lists.

    NamedTuples keep their field order. The conversion is chosen once per type, and
    strings, numbers and ``None`` are passed through without a call (the leak check
    converts every view and event it observes, so this is a hot path).
    """
    t = type(value)
    if t in _LEAVES:
        return value
    convert = _CONVERTERS.get(t)
    if convert is None:
        convert = _CONVERTERS.setdefault(t, _converter(t))
    return convert(value)


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""Types :func:`plain` returns as they are (subclasses, such as ``StrEnum``, take the converter path)."""


def _identity(value: Any) -> Any:
    return value


def _item(x: Any) -> Any:
    """:func:`plain` of a container's item, without a call for the common leaves."""
    return x if type(x) in _LEAVES else plain(x)


def _converter(t: type) -> Callable[[Any], Any]:
    if issubclass(t, (str, int, float)) or t is type(None):
        return _identity
    fields = getattr(t, "_fields", None)
    if issubclass(t, tuple) and fields is not None:
        return _namedtuple_converter(tuple(fields))
    if issubclass(t, Mapping):
        return lambda v: {str(k): _item(v[k]) for k in sorted(v, key=str)}
    if issubclass(t, (tuple, list)):
        return lambda v: [x if type(x) in _LEAVES else plain(x) for x in v]
    if issubclass(t, (set, frozenset)):
        return lambda v: sorted(plain(x) for x in v)
    return repr


def _namedtuple_converter(fields: tuple[str, ...]) -> Callable[[Any], Any]:
    """A function building the dict of one NamedTuple type, written out field by field.

    Generated once per type: a dict display indexing each field, with leaves passed
    through inline, is about twice as fast as a comprehension over ``zip`` (a view of
    twelve seats holds a dozen small NamedTuples).
    """
    items = ", ".join(f"{f!r}: (x{i} if type(x{i} := v[{i}]) in leaves else plain(x{i}))" for i, f in enumerate(fields))
    namespace: dict[str, Any] = {"leaves": _LEAVES, "plain": plain}
    exec(f"def convert(v):\n    return {{{items}}}\n", namespace)  # built from the field names only
    convert: Callable[[Any], Any] = namespace["convert"]
    return convert


_CONVERTERS: dict[type, Callable[[Any], Any]] = {}


def diff(a: Any, b: Any, path: str = "") -> str | None:
    """``None`` if the plain values are equal, else the first differing path and both sides."""
    return next(differences(a, b, path), None)


def differences(a: Any, b: Any, path: str = "") -> Iterator[str]:
    """Every differing path between two plain values, in key/index order."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{path}.{k}: only in {'second' if k not in a else 'first'} ({a.get(k, b.get(k))!r})"
            else:
                yield from differences(a[k], b[k], f"{path}.{k}")
        return
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from differences(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            yield f"{path}: lengths {len(a)} != {len(b)}"
        return
    yield f"{path or '(value)'}: {_short(a)} != {_short(b)}"


def _short(v: Any, limit: int = 300) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Behaviour(NamedTuple):
    """Everything a host can ask about "what happens next", as the engine answered it.

    Two engines that agree on all of this will be driven identically by any host.
    Fields hold the engine's own immutable values, so comparing is cheap; use
    :func:`plain` and :func:`diff` to describe a mismatch.
    """

    status: hr.Status
    allowed: tuple[tuple[str, tuple[hr.SkillType, ...]], ...]
    views: tuple[hr.PlayerView, ...]
    readiness: hr.Readiness
    actors: tuple[
        tuple[hr.RoleType, tuple[str, ...], tuple[hr.SkillType, ...], Mapping[str, Mapping[hr.SkillType, str]]], ...
    ]
    pending: tuple[hr.SkillUse, ...]


def behaviour(engine: hr.Engine) -> Behaviour:
    """Allowed skills and player view of every seat, readiness, actors per role, pending, status."""
    ids = engine.player_ids()
    info = engine.phase_info()
    return Behaviour(
        engine.status(),
        tuple((pid, engine.allowed_skills(pid)) for pid in ids),
        tuple(engine.player_view(pid) for pid in ids),
        engine.readiness(),
        tuple((role, r.player_ids, r.allowed_skills, r.refused) for role, r in sorted(info.roles.items())),
        engine.pending_uses(),
    )


def requery(engine: hr.Engine, b: Behaviour, probe: int) -> Behaviour:
    """``b`` asked again: every answer anew, but of the player views only seat number ``probe``'s.

    Views are the costly answers; re-reading one a step (a different one each step)
    keeps invariant D from building every view twice.
    """
    ids = engine.player_ids()
    info = engine.phase_info()
    views = list(b.views)
    views[probe] = engine.player_view(ids[probe])
    return Behaviour(
        engine.status(),
        tuple((pid, engine.allowed_skills(pid)) for pid in ids),
        tuple(views),
        engine.readiness(),
        tuple((role, r.player_ids, r.allowed_skills, r.refused) for role, r in sorted(info.roles.items())),
        engine.pending_uses(),
    )


def behaviour_diff(a: Behaviour, b: Behaviour) -> str | None:
    """``None`` if equal, else the first difference, by path."""
    if a == b:
        return None
    return diff(plain(a), plain(b), "behaviour") or "behaviour: differs"


def who_acts_problems(engine: hr.Engine, b: Behaviour) -> list[str]:
    """Where the three "who may act" answers disagree (empty list: they agree).

    1. ``allowed_skills(p)`` equals ``player_view(p).allowed_skills``;
    2. it equals the union of the skills phase info lists for the roles under which
       ``p`` is named as an actor (its own role and the every-role step ``""``), less
       the ones phase info says the rules refuse ``p`` now —
       in a turn-ordered phase, only the out-of-turn ones unless ``p`` has the turn;
    3. everyone readiness lists as owing or offered an action may use that skill,
       under their own role, and ``acted`` is exactly who has pending submissions;
    4. ``who_acts()`` yields exactly the seats with a non-empty ``allowed_skills``, in seat
       order, each with that answer.
    """
    out: list[str] = []
    status = b.status
    batch = tuple(engine.who_acts())
    asked = tuple(x for x in b.allowed if x[1])
    if batch != asked:
        out.append(f"who_acts() yields {list(batch)} but allowed_skills seat by seat says {list(asked)}")
    allowed = dict(b.allowed)
    roles = {pid: engine.player_info(pid).role for pid in allowed}
    by_role = {role: (ids, skills, refused) for role, ids, skills, refused in b.actors}
    for view in b.views:
        pid = view.player_id
        if view.allowed_skills != allowed.get(pid):
            out.append(f"{pid}: allowed_skills {allowed.get(pid)} but player_view says {view.allowed_skills}")
        if view.phase != status.phase or view.round != status.round:
            out.append(f"{pid}: player_view is at {view.phase}/{view.round}, status at {status.phase}/{status.round}")
    pc = engine.rules.config.phases.get(status.phase)
    queued = pc is not None and pc.turn_order in (hr.SEQUENTIAL, hr.INITIATIVE)
    for pid, skills in b.allowed:
        expected: set[str] = set()
        for role in ("", roles[pid]):
            ids, role_skills, refused = by_role.get(role, ((), (), {}))
            if pid in ids:
                expected.update(k for k in role_skills if k not in refused.get(pid, {}))
        expected.discard("")
        if queued and pc is not None and pid != b.readiness.turn:
            # In a turn-ordered phase only the holder of the turn has its in-turn skills.
            expected &= set(pc.out_of_turn)
        if pc is not None and pc.turn_order is hr.SIMULTANEOUS:
            # A simultaneous phase takes one submission per step (a group counts as one).
            expected -= _used_steps(engine.rules.config, status.phase, roles[pid], pid, b.pending)
        if expected != set(skills):
            out.append(f"{pid}: allowed_skills {sorted(skills)} but phase_info implies {sorted(expected)}")
    r = b.readiness
    if (r.phase, r.round) != (status.phase, status.round):
        out.append(f"readiness is at {r.phase}/{r.round}, status at {status.phase}/{status.round}")
    for kind, actions in (("pending", r.pending), ("optional", r.optional)):
        for a in actions:
            if a.player_id not in roles:
                out.append(f"readiness.{kind} names unknown player {a.player_id!r}")
                continue
            if a.skill not in allowed[a.player_id]:
                out.append(f"readiness.{kind}: {a.player_id} owes {a.skill} but may use only {allowed[a.player_id]}")
            if a.role != roles[a.player_id]:
                out.append(f"readiness.{kind}: {a.player_id} listed as {a.role}, is {roles[a.player_id]}")
    acted = tuple(sorted({u.player_id for u in b.pending}))
    if tuple(r.acted) != acted:
        out.append(f"readiness.acted {list(r.acted)} but pending submissions come from {list(acted)}")
    if status.over and (any(skills for _, skills in b.allowed) or any(ids for _, ids, _, _ in b.actors)):
        out.append("the game is over but someone may still act")
    out.extend(undeclared_gate_problems(engine, b))
    return out


def undeclared_gate_problems(engine: hr.Engine, b: Behaviour) -> list[str]:
    """Where the rules' ``usable`` would refuse or narrow a skill their ``usable_skills`` leaves out.

    The engine never asks ``usable`` about such a skill (the declaration is the rules' promise), so
    a gate the declaration forgot is silently not enforced: the harness asks it directly, for every
    seat's allowed skill outside the declaration, with the seat's own waiting submissions."""
    rules = engine.rules
    declared = rules.usable_skills
    gate = rules.usable
    if gate is None or declared is None:
        return []
    method = getattr(gate, "usable", None)
    fn: Callable[..., object] = method if callable(method) else gate  # type: ignore[assignment]
    view = engine.view()
    out: list[str] = []
    for pid, skills in b.allowed:
        mine = tuple(u for u in b.pending if u.player_id == pid)
        for k in skills:
            if k in declared:
                continue
            try:
                got = fn(pid, k, view, mine)
            except Exception as e:  # any error is the finding
                out.append(f"{pid}: usable raised {type(e).__name__} for {k!r}, which Rules.usable_skills leaves out")
                continue
            if got is not None:
                left_out = "but Rules.usable_skills leaves it out (never asked)"
                out.append(f"{pid}: usable answers {got!r} for {k!r}, {left_out}")
    return out


def _used_steps(config: hr.Config, phase: str, role: str, pid: str, pending: tuple[hr.SkillUse, ...]) -> set[str]:
    """Skills ``pid`` may no longer submit in a simultaneous phase: each one it used, with its group."""
    pc = config.phases[phase]
    out: set[str] = set()
    for u in pending:
        if u.player_id != pid:
            continue
        st = config.step_for(phase, u.skill, role)
        out.add(u.skill)
        if st is not None and st.group:
            out.update(x.skill for x in pc.steps if x.role == st.role and x.group == st.group)
    return out


def status_problems(status: hr.Status, previous_round: int) -> list[str]:
    """Invariant E on one status: over iff END, winners only when over, round sane."""
    out: list[str] = []
    if status.over != (status.phase == hr.END):
        out.append(f"over={status.over} but phase={status.phase}")
    if not status.over and status.winners:
        out.append(f"winners {status.winners} while the game is running")
    if list(status.winners) != sorted(set(status.winners)):
        out.append(f"winners {status.winners} are not sorted and unique")
    if status.round < 1:
        out.append(f"round {status.round} < 1 after start")
    if status.round < previous_round:
        out.append(f"round went down from {previous_round} to {status.round}")
    return out
