"""Item 14: pinned contracts.

* ``tests/golden/api.txt`` lists every public name (``hiddenrole.__all__``) with its
  kind and signature: functions, classes with their fields and public methods,
  constants with their values. Any change to the public surface shows up as a diff.
* ``tests/golden/snapshot_shape.json`` pins the key structure of a finished game's
  snapshot JSON together with ``SNAPSHOT_VERSION``: changing the shape without a
  version bump fails.

Regenerate both after a deliberate change with ``UPDATE_GOLDEN=1 pytest tests/kernel/test_api_golden.py``.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import inspect
import json
import os
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hiddenrole as hr

from .small_games import finished_mini, rich_engine, snap_bytes

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
API_FILE = GOLDEN / "api.txt"
SHAPE_FILE = GOLDEN / "snapshot_shape.json"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# ---------------------------------------------------------------- rendering the API


def _ann(annotation: Any) -> str:
    """Annotations are strings (postponed evaluation); show them as written."""
    if annotation is inspect.Parameter.empty:
        return ""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, typing.ForwardRef):
        return annotation.__forward_arg__
    return inspect.formatannotation(annotation)


def stable_repr(value: Any) -> str:
    """``repr`` with sets and dicts in sorted order (string hashing is randomised per run)."""
    if isinstance(value, (set, frozenset)):
        inner = ", ".join(sorted(stable_repr(v) for v in value))
        return f"{type(value).__name__}({{{inner}}})"
    if isinstance(value, dict):
        items = ", ".join(
            f"{stable_repr(k)}: {stable_repr(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
        )
        return "{" + items + "}"
    if isinstance(value, type):
        return value.__qualname__
    return repr(value)


def signature(fn: Any) -> str:
    """``(a: T, *, b: U = default) -> R`` with annotations exactly as written in the source."""
    sig = inspect.signature(fn)
    parts: list[str] = []
    star_done = False
    for p in sig.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        text = p.name
        if p.kind is p.VAR_POSITIONAL:
            text, star_done = "*" + p.name, True
        elif p.kind is p.VAR_KEYWORD:
            text = "**" + p.name
        if p.annotation is not p.empty:
            text += ": " + _ann(p.annotation)
        if p.default is not p.empty:
            text += " = " + stable_repr(p.default)
        parts.append(text)
        if p.kind is p.POSITIONAL_ONLY:
            parts.append("/")
    ret = f" -> {_ann(sig.return_annotation)}" if sig.return_annotation is not sig.empty else ""
    return f"({', '.join(parts)}){ret}"


def _own_members(cls: type) -> Iterator[tuple[str, Any]]:
    """Public members ``cls`` defines or inherits from unexported kernel classes.

    Members of exported bases are listed under those bases (the header names them);
    members of builtins (tuple, object, Enum, Exception) are not ours to pin.
    """
    exported = {id(getattr(hr, n)) for n in hr.__all__}
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("hiddenrole") or (klass is not cls and id(klass) in exported):
            continue
        for name, member in vars(klass).items():
            if name in seen or (name.startswith("_") and name != "__init__"):
                continue
            seen.add(name)
            yield name, member


def render_class(name: str, cls: type) -> list[str]:
    # Unexported kernel bases (the engine's per-concern classes) are not surface: their
    # public members are listed as the class's own (see _own_members).
    exported = {id(getattr(hr, n)) for n in hr.__all__}
    bases = ", ".join(
        b.__qualname__
        for b in cls.__bases__
        if b is not object and (id(b) in exported or not b.__module__.startswith("hiddenrole"))
    )
    if typing.is_protocol(cls) if hasattr(typing, "is_protocol") else getattr(cls, "_is_protocol", False):
        kind = "protocol"
    elif issubclass(cls, enum.Enum):
        kind = "enum"
    elif issubclass(cls, BaseException):
        kind = "error"
    elif issubclass(cls, tuple) and hasattr(cls, "_fields"):
        kind, bases = "namedtuple", ""
    elif dataclasses.is_dataclass(cls):
        kind = "dataclass"
    else:
        kind = "class"
    lines = [f"{kind} {name}({bases})" if bases else f"{kind} {name}"]
    if kind == "namedtuple":
        hints = getattr(cls, "__annotations__", {})
        defaults = getattr(cls, "_field_defaults", {})
        for f in cls._fields:  # type: ignore[attr-defined]
            default = f" = {stable_repr(defaults[f])}" if f in defaults else ""
            lines.append(f"    field {f}: {_ann(hints.get(f))}{default}")
    elif kind == "dataclass":
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue  # private caches are not part of the surface
            if f.default is not dataclasses.MISSING:
                default = f" = {stable_repr(f.default)}"
            elif f.default_factory is not dataclasses.MISSING:
                default = " = <factory>"
            else:
                default = ""
            kw = " (keyword-only)" if f.kw_only else ""
            lines.append(f"    field {f.name}: {_ann(f.type)}{default}{kw}")
    elif kind == "enum":
        lines += [f"    member {m.name} = {m.value!r}" for m in typing.cast(type[enum.Enum], cls)]
    elif kind == "error":
        lines.append(f"    code = {cls.code!r}")  # type: ignore[attr-defined]
    # Fields, codes and enum members are listed above; slots of dataclasses are fields.
    skip = {"code"} | ({f.name for f in dataclasses.fields(cls)} if kind == "dataclass" else set())
    if kind in ("enum", "namedtuple"):
        skip |= {n for n, m in _own_members(cls) if not callable(m) and not isinstance(m, property)}
    for mname, member in sorted(_own_members(cls)):
        if kind in ("namedtuple", "dataclass", "protocol") and mname == "__init__":
            continue
        if isinstance(member, property):
            ret = _ann(inspect.signature(member.fget).return_annotation) if member.fget else ""
            lines.append(f"    property {mname} -> {ret}")
        elif isinstance(member, classmethod):
            lines.append(f"    classmethod {mname}{signature(member.__func__)}")
        elif isinstance(member, staticmethod):
            lines.append(f"    staticmethod {mname}{signature(member.__func__)}")
        elif inspect.isfunction(member):
            lines.append(f"    method {mname}{signature(member)}")
        elif mname in skip:
            continue
        elif isinstance(member, types.MemberDescriptorType):
            lines.append(f"    attribute {mname}")
        elif not callable(member) and not mname.startswith("_"):
            lines.append(f"    attribute {mname} = {stable_repr(member)}")
    return lines


def render_api() -> str:
    lines: list[str] = []
    for name in sorted(hr.__all__):
        obj = getattr(hr, name)
        if isinstance(obj, type) and not obj.__module__.startswith("hiddenrole"):
            lines.append(f"alias {name} = {obj.__qualname__}")
        elif isinstance(obj, type):
            lines += render_class(name, obj)
        elif inspect.isfunction(obj):
            lines.append(f"function {name}{signature(obj)}")
        elif typing.get_origin(obj) is not None:
            lines.append(f"alias {name} = {obj!r}")
        else:
            lines.append(f"constant {name}: {type(obj).__qualname__} = {stable_repr(obj)}")
    return "\n".join(lines) + "\n"


def _compare(path: Path, current: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(current, encoding="utf-8")
    assert path.exists(), f"{path} is missing; run with UPDATE_GOLDEN=1 to create it"
    pinned = path.read_text(encoding="utf-8")
    if pinned != current:
        diff = "".join(
            difflib.unified_diff(pinned.splitlines(True), current.splitlines(True), "pinned", "current", n=1)
        )
        pytest.fail(f"{path.name} changed (re-pin with UPDATE_GOLDEN=1 if deliberate):\n{diff}")


@pytest.mark.pure_only
def test_public_api_surface_is_pinned() -> None:
    _compare(API_FILE, render_api())


@pytest.mark.pure_only
def test_all_is_sorted_unique_and_resolvable() -> None:
    assert len(set(hr.__all__)) == len(hr.__all__)
    for name in hr.__all__:
        assert hasattr(hr, name), name
    listed = {
        line.split("(")[0].split(" = ")[0].split(":")[0].split()[-1]
        for line in render_api().splitlines()
        if not line.startswith(" ")
    }
    assert listed == set(hr.__all__)


@pytest.mark.pure_only
def test_api_rendering_is_deterministic() -> None:
    assert render_api() == render_api()
    assert stable_repr(frozenset({"b", "a"})) == "frozenset({'a', 'b'})"


# ---------------------------------------------------------------- snapshot shape

FREE_FORM = {"vars", "round_vars", "data", "actors"}
"""Objects whose keys are game data (variable names, phases), not format."""


def shape(value: Any, key: str = "") -> Any:
    """The structure of a JSON value: object keys in order, types for leaves, lists as the set of item shapes."""
    if isinstance(value, dict):
        if key in FREE_FORM:
            items = sorted({json.dumps(shape(v)) for v in value.values()})
            return {"<key>": [json.loads(i) for i in items]}
        return {k: shape(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = sorted({json.dumps(shape(v)) for v in value})
        return [json.loads(i) for i in items]
    if value is None:
        return "null"
    return type(value).__name__


def current_shape() -> dict[str, Any]:
    return {
        "snapshot_version": hr.SNAPSHOT_VERSION,
        "log_version": hr.LOG_VERSION,
        "finished_game": shape(json.loads(snap_bytes(finished_mini()))),
        # A game mid-phase fills what a finished one leaves empty: pending uses, detours, named actors.
        "mid_game": shape(json.loads(snap_bytes(rich_engine()))),
    }


def test_snapshot_shape_is_pinned_to_the_snapshot_version() -> None:
    current = current_shape()
    if UPDATE:
        SHAPE_FILE.write_text(json.dumps(current, indent=1) + "\n", encoding="utf-8")
    pinned = json.loads(SHAPE_FILE.read_text(encoding="utf-8"))
    versions = (pinned["snapshot_version"], pinned["log_version"])
    if versions == (hr.SNAPSHOT_VERSION, hr.LOG_VERSION):
        shapes = ("finished_game", "mid_game")
        assert [json.dumps(current[k]) for k in shapes] == [json.dumps(pinned[k]) for k in shapes], (
            "the snapshot JSON shape changed without bumping SNAPSHOT_VERSION/LOG_VERSION"
        )
    else:
        pytest.fail(
            f"versions moved from {versions} to {(hr.SNAPSHOT_VERSION, hr.LOG_VERSION)}: re-pin the shape with "
            "UPDATE_GOLDEN=1 (and keep old snapshots restorable through their logs)"
        )


def test_shape_abstracts_data_but_not_structure() -> None:
    a = shape({"vars": {"x": "1"}, "players": [{"id": "a", "alive": True}]})
    b = shape({"vars": {"y": "2", "z": "3"}, "players": [{"id": "b", "alive": False}, {"id": "c", "alive": True}]})
    assert json.dumps(a) == json.dumps(b)
    assert shape({"players": [{"id": "a"}]}) != shape({"players": [{"id": "a", "extra": 1}]})
    # Key order is part of the byte format, so the comparison is on the encoded shape.
    assert json.dumps(shape({"a": 1, "b": 2})) != json.dumps(shape({"b": 2, "a": 1}))
