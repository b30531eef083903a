"""The durable record: the effect log (source of truth) and snapshots (log + board).

Both serialise to compact JSON bytes with a fixed key order, so encoding what was
decoded gives the same bytes. Decoding checks every field's type and shape and raises
:class:`InvalidLog` / :class:`InvalidSnapshot`; it never returns a half-read value.

Each record type (effect, player, detour, submission, log, snapshot) is described once,
as a table of fields; its encoder and its decoder are both compiled from that table.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from json.encoder import encode_basestring_ascii
from json.scanner import make_scanner
from types import FunctionType, MappingProxyType
from typing import Any, Final, NamedTuple, NoReturn, TypeVar, cast

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


# ---------------------------------------------------------------------- JSON text

_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
_encode = _ENCODER.encode
"""The one encoder: compact, ASCII, no NaN. Values are built by this module (no cycles)."""


def read_json(data: bytes | bytearray | memoryview | str, error: Callable[[str], Exception] = InvalidArgument) -> Any:
    """Strict JSON for everything the kernel and the host read back.

    Refuses what the standard reader lets through, because each would break the
    byte-identical round trip or hide a forged record: a repeated key in one object
    (the standard reader keeps the last), ``NaN``/``Infinity``, text that is not UTF-8.
    Raises ``error(message)`` (e.g. :class:`InvalidLog`); never returns a half-read value.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = str(data, "utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"not UTF-8: {exc}") from None
    if not isinstance(data, str):
        raise error(f"expected JSON bytes or str, got {type(data).__name__}")
    if _NATIVE:  # interpreted, the walk of the proof costs about what the hook does
        try:
            v = _PLAIN.decode(data)
            proved = _no_repeated_key(data, 0, len(data), v)
        except (ValueError, RecursionError):
            proved = False  # the strict reader names the fault
        if proved:
            return v
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
# Measured and rejected (CPython 3.11): reading with no hook, then proving the text canonical by
# encoding the value again and comparing. Encoding costs more than the hook saves (a 4.5 kB
# snapshot: plain read 26 us + encoding 38 us against 50 us strict; round trip 3.39 -> 3.68
# M instructions). Counting keys against ':' is unsound (a colon in a string, a space before one).
# Counting quotes against strings is sound (see _no_repeated_key) and cheap compiled.
_PLAIN: Final = json.JSONDecoder(parse_constant=_no_constant)
""":data:`_STRICT` without the duplicate-key hook (a Python call per object, and a list of pairs
built for it): compiled, text is read with it when :func:`_no_repeated_key` proves that harmless."""


def _strings_in(v: object) -> int:
    """How many strings the decoded JSON value ``v`` holds, its objects' keys included."""
    if type(v) is str:
        return 1
    n = 0
    if type(v) is dict:
        d: dict[str, object] = v
        n = len(d)
        for x in d.values():
            if type(x) is str:
                n += 1
            elif type(x) is dict or type(x) is list:
                n += _strings_in(x)
    elif type(v) is list:
        a: list[object] = v
        for x in a:
            if type(x) is str:
                n += 1
            elif type(x) is dict or type(x) is list:
                n += _strings_in(x)
    return n


def _no_repeated_key(text: str, start: int, end: int, v: Any) -> bool:
    """Whether ``text[start:end]``, read as ``v`` by :data:`_PLAIN`, repeats no key in an
    object (then the strict reader reads it as ``v`` too); ``False`` may also mean "not known".

    Every ``"`` of the text delimits a string or is escaped inside one, so it holds at most half
    as many strings as quotes. A repeated key is read once, its earlier member (its key at least,
    a string) dropped: then ``v`` holds fewer strings than the text, fewer than half its quotes.
    One ``str.count`` in C and a walk of ``v`` cost a fraction of the hook's call per object."""
    return text.count('"', start, end) == 2 * _strings_in(v)


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


_NATIVE: Final = not isinstance(value_or_json, FunctionType)
"""This module runs compiled (mypyc): its loops are native, and reading an effect field by
field natively costs less than calling a generated (interpreted) reader per item."""


# ---------------------------------------------------------------------- the record tables
#
# Each record type is described once, as a table of fields (JSON key, attribute, kind),
# and that one table drives both writing and reading: the key order written is the
# table's order, and reading checks exactly the keys and types the table names.


class _Reader:
    """Raises the caller's error class (InvalidLog, InvalidSnapshot) with a path."""

    __slots__ = ("err", "strings")

    def __init__(self, err: type[GameError]) -> None:
        self.err = err
        self.strings = 0
        """Strings (keys included) of the sparse records read (see :func:`_saved_log`)."""

    def fail(self, where: str, what: str) -> NoReturn:
        raise self.err(f"{where}: {what}")

    def bad_keys(self, d: dict[str, Any], where: str, keys: frozenset[str]) -> NoReturn:
        # Plain loops: frozenset - dict_keys gives a set (dict_keys.__rsub__), which a
        # mypyc-compiled kernel refuses where the annotation promises a frozenset.
        missing = sorted(k for k in keys if k not in d)
        if missing:
            self.fail(where, f"missing field {missing[0]!r}")
        self.fail(where, f"unknown field {sorted(k for k in d if k not in keys)[0]!r}")


class _Kind(NamedTuple):
    """How one attribute is written as JSON and read back."""

    expected: str
    """What the JSON value must be, for the error message ("a string")."""
    json_type: type
    """The exact JSON type (``bool`` is not an ``int``)."""
    read: Callable[[Any, _Reader, str], Any] | None = None
    """JSON value (of ``json_type``) to attribute value; ``None``: the same value."""
    write: Callable[[Any], Any] | None = None
    """Attribute value to JSON value; ``None``: the same value (a tuple is written as an array)."""
    nullable: bool = False
    """``null`` is read as (and ``None`` written as) ``None``."""
    text: Callable[[Any], str] | None = None
    """Attribute value to the encoder's JSON text of ``write(value)``, without building that value
    or calling the encoder (whose set-up per call costs more than a small map's text); ``None``:
    the string escaper's or the encoder's (see :func:`_text_expr`). The path of every save."""
    items: _FlatPlan | None = None
    """A list of these records (:meth:`_Record.list_kind`, compiled): :func:`_flat_into` writes
    its items into the enclosing record's pieces, joined once with them."""
    sparse: _SparseRecord | None = None
    """A list of these sparse records (:meth:`_SparseRecord.list_kind`), for :class:`_Canonical`."""


def _read_strs(v: list[Any], r: _Reader, where: str) -> tuple[str, ...]:
    for x in v:
        if type(x) is not str:
            r.fail(f"{where}[{v.index(x)}]", "expected a string")
    return tuple(v)


def _read_smap(v: dict[str, Any], r: _Reader, where: str) -> Mapping[str, str]:
    if not v:
        return EMPTY_MAP
    prev = ""
    for k, x in v.items():
        if type(x) is not str:
            r.fail(f"{where}.{k}", "expected a string")
        if k < prev:
            r.fail(where, "keys are not sorted")
        prev = k
    return MappingProxyType(dict(v))  # a copy: a caller's dict is never kept


def _read_scope(v: str, r: _Reader, where: str) -> VarScope:
    try:
        return _parse_scope(v)
    except GameError as exc:
        r.fail(where, exc.message)


_parse_scope: Final = lru_cache(maxsize=1024)(VarScope.parse)
"""A log names the same few scopes over and over (one per player and lifetime)."""

_new: Final = tuple.__new__
"""Builds a record without its NamedTuple ``__new__`` (a Python frame that parses keywords)."""


def _read_actors(v: dict[str, Any], r: _Reader, where: str) -> dict[str, tuple[str, ...]]:
    if list(v) != sorted(v):
        r.fail(where, "keys are not sorted")
    out: dict[str, tuple[str, ...]] = {}
    for k, x in v.items():
        if type(x) is not list:
            r.fail(f"{where}.{k}", "expected an array")
        out[k] = _read_strs(x, r, f"{where}.{k}")
    return out


_READ_CALL: Final = 0
_READ_SMAP: Final = 1
_READ_SCOPE: Final = 2
_READ_STRS: Final = 3


def _read_code(read: Callable[[Any, _Reader, str], Any] | None) -> int:
    """Which of the kernel's own readers ``read`` is, for :func:`_read_known`."""
    known = ((_READ_SMAP, _read_smap), (_READ_SCOPE, _read_scope), (_READ_STRS, _read_strs))
    return next((code for code, fn in known if read is fn), _READ_CALL)


def _read_known(code: int, read: Callable[[Any, _Reader, str], Any], x: Any, r: _Reader) -> Any:
    """``read(x, r, _NO_PATH)``, calling the kernel's own readers directly: compiled, a call
    through a value is a generic Python-level call (arguments checked the same way)."""
    if code == _READ_SMAP:
        return _read_smap(x, r, _NO_PATH)
    if code == _READ_SCOPE:
        return _read_scope(x, r, _NO_PATH)
    if code == _READ_STRS:
        return _read_strs(x, r, _NO_PATH)
    return read(x, r, _NO_PATH)


def _not_an_object() -> bool:
    raise TypeError("expected an object")


def _read_held(v: list[Any], r: _Reader, where: str) -> tuple[PhaseAction, ...]:
    if not v:
        return ()  # the usual case: no enum walk
    held: list[PhaseAction] = []
    for i, x in enumerate(v):
        if type(x) is not str:
            r.fail(f"{where}[{i}]", "expected a string")
        try:
            held.append(PhaseAction(x))
        except ValueError:
            r.fail(f"{where}[{i}]", f"unknown phase action {x!r}")
    if held != [a for a in PhaseAction if a in held]:
        r.fail(where, "actions must be unique, in PhaseAction order")
    return tuple(held)


_esc: Final = encode_basestring_ascii
"""The encoder's string escaper, read from a C static by compiled callers."""

_QUOTED: Final[dict[str, str]] = {}
"""Strings already escaped (see :func:`_quoted`)."""
_QUOTED_KEPT: Final = 4096
_QUOTED_LONGEST: Final = 64


def _quoted(x: object) -> str:
    """``_esc(x)``, kept for short strings: a game writes the same few hundred (ids, roles, phases,
    variable names and values) over and over, and compiled, a lookup costs a fraction of the call.
    Bounded in number and length, so no input can grow it without end; ``_esc``'s own answer
    (and error) for anything that is not a plain ``str``."""
    if type(x) is not str:
        return _esc(x)  # type: ignore[arg-type]  # its TypeError, as before
    got = _QUOTED.get(x)
    if got is None:
        got = _esc(x)
        if len(x) <= _QUOTED_LONGEST and len(_QUOTED) < _QUOTED_KEPT:
            _QUOTED[x] = got
    return got


def _strs_text(v: tuple[str, ...]) -> str:
    return "[" + ",".join(map(_esc, v)) + "]"


def _smap_text(v: Mapping[str, str]) -> str:
    if not v:
        return "{}"
    # The pieces joined once (no string per pair), the keys iterated and each value read by key:
    # compiled, ``items()`` on a read-only map is a method call that calls the dict's.
    out: list[str] = []
    if _NATIVE:
        _smap_into(out, v)
        return "".join(out)
    out.append("{")
    esc = _esc  # interpreted, the escaper's own call costs less than a lookup in a Python function
    for k in v:
        out += (esc(k), ":", esc(v[k]), ",")
    out[-1] = "}"
    return "".join(out)


def _smap_into(out: list[str], v: Mapping[str, str]) -> None:
    """Append :func:`_smap_text`'s pieces to ``out`` (compiled: a record's text is joined once)."""
    if not v:
        out.append("{}")
        return
    sep = "{"
    for k in v:
        out.append(sep)
        out.append(_quoted(k))
        out.append(":")
        out.append(_quoted(v[k]))
        sep = ","
    out.append("}")


def _actors_text(v: Mapping[str, tuple[str, ...]]) -> str:
    esc = encode_basestring_ascii
    return "{" + ",".join([esc(k) + ":" + _strs_text(x) for k, x in v.items()]) + "}"


def _int_text(v: int) -> str:
    return int.__repr__(v) if type(v) is int else _encode(v)


def _bool_text(v: bool) -> str:
    return "true" if v is True else "false" if v is False else _encode(v)


# The text functions raise TypeError (or AttributeError) where a value is not of its kind:
# :func:`_as_text` then takes the encoder's way, which writes or refuses it as always.
_STR = _Kind("a string", str)
_INT = _Kind("an integer", int, text=_int_text)
_BOOL = _Kind("true or false", bool, text=_bool_text)
_STRS = _Kind("an array", list, _read_strs, list, text=_strs_text)
_SMAP = _Kind("an object", dict, _read_smap, dict, text=_smap_text)
_SCOPE = _Kind("a string", str, _read_scope, VarScope.__str__)  # a str given as a scope is a bug, not a scope
_ACTORS = _Kind("an object", dict, _read_actors, lambda v: {k: list(x) for k, x in v.items()}, text=_actors_text)
_HELD = _Kind("an array", list, _read_held, lambda v: [str(a) for a in v], text=_strs_text)


def _text_expr(kind: _Kind, x: str, env: dict[str, Any]) -> str:
    """Source of the JSON text of the attribute value ``x``: the kind's ``text``, else its JSON
    value with the encoder's string escaper (a string) or the encoder (``env`` gets the functions
    it names, and must hold ``esc`` and ``enc``)."""
    n = len(env)
    if kind.text is not None:
        env[f"t{n}"] = kind.text
        text = f"t{n}({x})"
    else:
        value = x
        if kind.write is not None:
            env[f"w{n}"] = kind.write
            value = f"w{n}({x})"
        text = f"esc({value})" if kind.json_type is str else f"enc({value})"
    return f"('null' if {x} is None else {text})" if kind.nullable else text


def _text_fn(kind: _Kind) -> Callable[[Any], str]:
    """The function :func:`_text_expr` writes for ``kind`` (not nullable), as a value."""
    if kind.nullable:
        raise ValueError("a nullable kind has no single text function")
    if kind.text is not None:
        return kind.text
    write = kind.write
    if write is None:
        return encode_basestring_ascii if kind.json_type is str else _encode
    if kind.json_type is str:
        return lambda x: encode_basestring_ascii(write(x))
    return lambda x: _encode(write(x))


_CALL: Final = 0
_ESC: Final = 1
_TRUE: Final = 2
_SMAP_TEXT: Final = 3
_STRS_TEXT: Final = 4
_BOOL_TEXT: Final = 5
_INT_TEXT: Final = 6


def _text_code(text: Callable[[Any], str] | None) -> int:
    """Which of the kernel's own text functions ``text`` is (``None``: a flag, written ``true``),
    for :func:`_coded_into`; ``_CALL`` for any other."""
    if text is None:
        return _TRUE
    known: tuple[tuple[int, object], ...] = (
        (_ESC, _esc),
        (_SMAP_TEXT, _smap_text),
        (_STRS_TEXT, _strs_text),
        (_BOOL_TEXT, _bool_text),
        (_INT_TEXT, _int_text),
    )
    return next((code for code, fn in known if text is fn), _CALL)


def _coded_into(out: list[str], code: int, text: Callable[[Any], str] | None, x: Any) -> None:
    """Append ``text(x)`` (``true`` for a flag) to ``out``, a map as its pieces (joined once, with
    the record's), calling the kernel's own text functions directly: compiled, a call through a
    value is a generic Python-level call (arguments checked the same way)."""
    if code == _ESC:
        out.append(_quoted(x))
    elif code == _SMAP_TEXT:
        _smap_into(out, x)
    elif code == _TRUE:
        out.append("true")
    elif code == _STRS_TEXT:
        out.append(_strs_text(x))
    elif code == _BOOL_TEXT:
        out.append(_bool_text(x))
    elif code == _INT_TEXT:
        out.append(_int_text(x))
    else:
        assert text is not None
        out.append(text(x))


def _as_text(text: Callable[[_T], str], write: Callable[[_T], Any], value: _T) -> str:
    """``text(value)``, or the encoder's text of ``write(value)`` where a value is not of its
    kind (e.g. a hand-built record): the bytes are the encoder's either way."""
    try:
        return text(value)
    except (TypeError, AttributeError):
        return _encode(write(value))


class _Field(NamedTuple):
    key: str
    """The JSON key (inside ``group`` when that is set)."""
    attr: str
    """The attribute of the value."""
    kind: _Kind
    group: str = ""
    """The key of the nested JSON object holding this field (``""``: the record's own)."""
    since: int = 0
    """First format version with this field; older versions lack it and read ``default``."""
    default: Any = None


def _value(x: Any, kind: _Kind, r: _Reader, where: str, key: str) -> Any:
    if type(x) is not kind.json_type:
        if x is None and kind.nullable:
            return None
        r.fail(f"{where}.{key}", f"expected {kind.expected}")
    read = kind.read
    return x if read is None else read(x, r, f"{where}.{key}")


class _Record:
    """A record whose every field is always written (players, submissions, logs, snapshots).

    Reading checks the object holds exactly the table's keys (per format version), each
    of its kind, and builds the value with ``make(**attributes)``. Reader and writer are
    compiled from the table, once per format version (and per ``without``).
    """

    __slots__ = ("_by_index", "_layout", "_plans", "_readers", "_texts", "_writers", "make")

    def __init__(
        self, make: Callable[..., Any], *fields: _Field, by_index: tuple[type, tuple[str, ...]] | None = None
    ) -> None:
        self.make = make
        names: tuple[str, ...] | None = getattr(make, "_fields", None)
        if by_index is None and isinstance(make, type) and issubclass(make, tuple) and names is not None:
            by_index = (make, names)  # a named tuple is read by index
        self._by_index: tuple[type | None, tuple[str, ...]] = by_index or (None, ())
        """The class of the values :func:`_flat_into` reads by index, and its fields in order."""
        layout: list[tuple[str, _Field | list[_Field]]] = []
        groups: dict[str, list[_Field]] = {}
        for f in fields:
            if not f.group:
                layout.append((f.key, f))
            elif f.group in groups:
                groups[f.group].append(f)
            else:
                groups[f.group] = [f]
                layout.append((f.group, groups[f.group]))
        self._layout: _Layout = tuple((k, v if isinstance(v, _Field) else tuple(v)) for k, v in layout)
        self._readers: dict[int, Callable[[Any, _Reader, str], Any]] = {}
        self._writers: dict[tuple[str, ...], Callable[[Any], dict[str, Any]]] = {}
        self._texts: dict[tuple[str, ...], Callable[[Any], str]] = {}
        self._plans: dict[tuple[str, ...], _FlatPlan] = {}

    def read(self, v: Any, r: _Reader, where: str, version: int = 0) -> Any:
        """The value of the JSON object ``v`` in format ``version`` (fields added later read their default).

        Read first without building the paths of error messages (:data:`_NO_PATH`); what that
        refuses is read again with them, to name the exact fault."""
        read = self._readers.get(version)
        if read is None:
            read = self._readers[version] = _dense_reader(self.make, self._layout, version)
        try:
            return read(v, r, _NO_PATH)
        except GameError:
            return read(v, r, where)

    def write(self, value: Any, without: tuple[str, ...] = ()) -> dict[str, Any]:
        """The JSON object of ``value``, without the top-level fields named in ``without``."""
        write = self._writers.get(without)
        if write is None:
            write = self._writers[without] = _dense_writer(self._layout, without)
        return write(value)

    def text(self, value: Any, without: tuple[str, ...] = ()) -> str:
        """The encoder's JSON text of :meth:`write`'s object, field by field (no object built);
        compiled, by :func:`_flat_into` (one native loop, the pieces joined once)."""
        if _NATIVE:
            return _as_text(self.plan(without).text, lambda v: self.write(v, without), value)
        text = self._texts.get(without)
        if text is None:
            text = self._texts[without] = _dense_text_writer(self._layout, without)
        return _as_text(text, lambda v: self.write(v, without), value)

    def plan(self, without: tuple[str, ...] = ()) -> _FlatPlan:
        """The :func:`_flat_plan` of :meth:`text` (made once per ``without``)."""
        plan = self._plans.get(without)
        if plan is None:
            plan = self._plans[without] = _flat_plan(self._layout, without, *self._by_index)
        return plan

    def kind(self) -> _Kind:
        """This record as the kind of a field."""
        read, text = _dense_reader(self.make, self._layout, 0), _dense_text_writer(self._layout, ())
        return _Kind("an object", dict, read, self.write, text=text)

    def list_kind(self) -> _Kind:
        """A list of these records as the kind of a field."""
        read, write = _dense_reader(self.make, self._layout, 0), _dense_writer(self._layout, ())
        text = _dense_text_writer(self._layout, ())
        plan = self.plan() if _NATIVE else None

        def read_all(v: list[Any], r: _Reader, where: str) -> tuple[Any, ...]:
            if where is _NO_PATH:
                return tuple([read(x, r, where) for x in v])
            return tuple([read(x, r, f"{where}[{i}]") for i, x in enumerate(v)])

        def write_all(v: tuple[Any, ...]) -> list[dict[str, Any]]:
            return [write(x) for x in v]

        def text_all(v: tuple[Any, ...]) -> str:
            if plan is not None:
                out = ["["]
                for n, x in enumerate(v):
                    if n:
                        out.append(",")
                    _flat_into(out, plan, x)
                out.append("]")
                return "".join(out)
            return "[" + ",".join([text(x) for x in v]) + "]"

        return _Kind("an array", list, read_all, write_all, text=text_all, items=plan)


_Layout = tuple[tuple[str, "_Field | tuple[_Field, ...]"], ...]

_NO_PATH: Final = "".join(("<no ", "path>"))
"""The ``where`` of a first read that builds no paths (compared by identity: no caller's string
is this object); :meth:`_Record.read` reads again with the real path when it is refused."""


def _compiled(params: str, body: list[str], env: dict[str, Any]) -> Callable[..., Any]:
    """A function made from source text built from this module's own record tables (never from
    input): the one table stays the only description, and the code it yields runs as fast as
    hand-written code, which matters on the path of every save and restore."""
    src = f"def f({params}):\n" + "".join(f"    {line}\n" for line in body)
    exec(src, env)
    fn: Callable[..., Any] = env["f"]
    return fn


def _dense_reader(make: Callable[..., Any], layout: _Layout, version: int) -> Callable[[Any, _Reader, str], Any]:
    """A record's reader; a path is extended only when it is not :data:`_NO_PATH`, and a named
    tuple is built with ``tuple.__new__`` (its own ``__new__`` parses keywords in Python)."""
    env: dict[str, Any] = {"make": make, "value": _value, "NO_PATH": _NO_PATH}
    body: list[str] = []
    args: dict[str, str] = {}

    def path(where: str, key: str) -> str:
        return f"({where} if {where} is NO_PATH else {where} + {'.' + key!r})"

    def field(f: _Field, obj: str, where: str) -> None:
        n = len(args)
        x = f"x{n}"
        args[f.attr] = x
        if f.since > version:
            env[f"d{n}"] = f.default
            body.append(f"{x} = d{n}")
            return
        env[f"t{n}"], env[f"k{n}"] = f.kind.json_type, f.kind
        body.append(f"{x} = {obj}[{f.key!r}]")
        slow = f"value({x}, k{n}, r, {where}, {f.key!r})"
        if f.kind.read is None:
            body.append(f"if type({x}) is not t{n}: {x} = {slow}")
        else:
            env[f"r{n}"] = f.kind.read
            body.append(f"{x} = r{n}({x}, r, {path(where, f.key)}) if type({x}) is t{n} else {slow}")

    def keys_check(obj: str, where: str, keys: frozenset[str]) -> None:
        name = f"keys{len(env)}"
        env[name] = keys
        body.append(f"if type({obj}) is not dict: r.fail({where}, 'expected an object')")
        body.append(f"if {obj}.keys() != {name}: r.bad_keys({obj}, {where}, {name})")

    keys_check("v", "where", frozenset(k for k, _ in layout))
    for key, spec in layout:
        if isinstance(spec, _Field):
            field(spec, "v", "where")
            continue
        g = f"g{len(env)}"
        body.append(f"{g} = v[{key!r}]")
        body.append(f"{g}_at = {path('where', key)}")
        keys_check(g, f"{g}_at", frozenset(f.key for f in spec if f.since <= version))
        for f in spec:
            field(f, g, f"{g}_at")
    names: tuple[str, ...] | None = getattr(make, "_fields", None)
    if isinstance(make, type) and issubclass(make, tuple) and names is not None:
        assert sorted(names) == sorted(args), "a named tuple's table names each of its fields"
        env["new"] = tuple.__new__
        body.append(f"return new(make, ({', '.join(args[a] for a in names)},))")
    else:
        body.append(f"return make({', '.join(f'{a}={x}' for a, x in args.items())})")
    return _compiled("v, r, where", body, env)


class _Slot:
    """One field of a record as the compiled loops write and read it (:func:`_flat_into`,
    :meth:`_SparseRecord.native_into`, :meth:`_SparseRecord._read_one`): attribute reads of a
    native object, where a table of tuples costs an unpacking (and an unboxing per number) for
    every field of every record."""

    __slots__ = (
        "attr",
        "code",
        "compare",
        "empty",
        "expected",
        "head",
        "index",
        "items",
        "json_type",
        "lead",
        "nullable",
        "per_item",
        "read",
        "read_code",
        "sparse",
        "strings",
        "text",
    )

    def __init__(
        self,
        head: str,
        attr: str,
        index: int,
        kind: _Kind,
        text: Callable[[Any], str] | None,
        empty: object = None,
    ) -> None:
        self.head = head
        """The text before the value: its key, after what closes the field before."""
        self.attr = attr
        self.index = index
        """The value's index in the record's tuple (``-1``: read by attribute only)."""
        self.text = text
        self.code = _text_code(text)
        self.nullable = kind.nullable
        self.items = None if kind.nullable else kind.items
        self.sparse = kind.sparse
        self.lead = ord(head[2]) if head.startswith(',"') and len(head) > 2 else -1
        """The code of the key's first character, after ``,"`` (:meth:`_Canonical.sparse`)."""
        self.empty = empty
        """A sparse record's default: the field is left out at it (see :attr:`compare`)."""
        self.compare = bool(empty)
        """Left out when equal to :attr:`empty` (a true default), else when false."""
        self.json_type = kind.json_type
        self.expected = kind.expected
        self.read = kind.read
        self.read_code = _read_code(kind.read)
        self.strings = 2 if kind.json_type is str else 1
        """Strings of the field in JSON, its key included, besides its items (:attr:`per_item`)."""
        self.per_item = 2 if kind.json_type is dict else 1 if kind.json_type is list else 0
        """Strings per item of a map of strings (key and value) or a list of strings."""


class _FlatPlan:
    """What :func:`_flat_into` writes for a record (players, submissions, logs, snapshots): its
    fields in order, each with the text before it, and the text closing the record. A value of
    ``cls`` is read by index (an attribute read is a descriptor call)."""

    __slots__ = ("close", "cls", "slots")

    def __init__(self, cls: type | None, slots: list[_Slot], close: str) -> None:
        self.cls = cls
        self.slots = slots
        self.close = close

    def text(self, v: Any) -> str:
        out: list[str] = []
        _flat_into(out, self, v)
        return "".join(out)


def _flat_plan(
    layout: _Layout, without: tuple[str, ...] = (), cls: type | None = None, names: tuple[str, ...] = ()
) -> _FlatPlan:
    """The plan of :func:`_dense_text_writer`'s text of a record (its fields in ``names``' order
    are read by index from a value of ``cls``)."""
    slots: list[_Slot] = []
    sep = "{"
    for key, spec in layout:
        if isinstance(spec, _Field):
            if key in without:
                continue
            fields = [(spec, sep + _encode(key) + ":")]
            sep = ","
        else:
            first = sep + _encode(key) + ":{"
            fields = [(f, (first if i == 0 else ",") + _encode(f.key) + ":") for i, f in enumerate(spec)]
            sep = "},"
        for f, head in fields:
            index = names.index(f.attr) if f.attr in names else -1
            slots.append(_Slot(head, f.attr, index, f.kind, _text_fn(f.kind._replace(nullable=False))))
    return _FlatPlan(cls, slots, "}}" if sep == "}," else "}")


def _flat_into(out: list[str], plan: _FlatPlan, v: Any) -> None:
    """Append the pieces of :func:`_dense_text_writer`'s string for a record to ``out`` (a record
    and its lists of records are joined once), by a loop over ``plan``: compiled (mypyc) the loop
    is native, where the generated writer stays interpreted. It writes and refuses exactly what
    that writer does (a value not of its kind raises)."""
    by_index = type(v) is plan.cls
    t: tuple[Any, ...] = v if by_index else ()
    for s in plan.slots:
        x = t[s.index] if by_index else getattr(v, s.attr)
        out.append(s.head)
        items = s.items
        if items is not None:
            out.append("[")
            for n, item in enumerate(x):
                if n:
                    out.append(",")
                _flat_into(out, items, item)
            out.append("]")
        elif s.nullable and x is None:
            out.append("null")
        else:
            _coded_into(out, s.code, s.text, x)
    out.append(plan.close)


def _dense_writer(layout: _Layout, without: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    env: dict[str, Any] = {}

    def expr(f: _Field) -> str:
        attr = f"v.{f.attr}"
        if f.kind.write is None:
            return attr
        name = f"w{len(env)}"
        env[name] = f.kind.write
        return f"(None if {attr} is None else {name}({attr}))" if f.kind.nullable else f"{name}({attr})"

    items: list[str] = []
    for key, spec in layout:
        if isinstance(spec, _Field):
            if key not in without:
                items.append(f"{key!r}: {expr(spec)}")
        else:
            items.append(f"{key!r}: {{{', '.join(f'{f.key!r}: {expr(f)}' for f in spec)}}}")
    return _compiled("v", [f"return {{{', '.join(items)}}}"], env)


def _dense_text_writer(layout: _Layout, without: tuple[str, ...]) -> Callable[[Any], str]:
    """The text of :func:`_dense_writer`'s object, as one concatenation (see :func:`_text_expr`)."""
    env: dict[str, Any] = {"esc": encode_basestring_ascii, "enc": _encode}

    def members(fields: list[tuple[str, str]]) -> str:
        return (
            " + ".join(f"{(',' if i else '{') + _encode(k) + ':'!r} + {x}" for i, (k, x) in enumerate(fields))
            + " + '}'"
        )

    top: list[tuple[str, str]] = []
    for key, spec in layout:
        if isinstance(spec, _Field):
            if key not in without:
                top.append((key, _text_expr(spec.kind, f"v.{spec.attr}", env)))
        else:
            top.append((key, "(" + members([(f.key, _text_expr(f.kind, f"v.{f.attr}", env)) for f in spec]) + ")"))
    return _compiled("v", [f"return {members(top)}"], env)


_KEY_ORDERS = 256
"""How many key orders of one sparse record get a compiled reader; items of any further
order are read field by field (same result, slower), so hostile input cannot grow the table."""


class _SparseRecord:
    """A record written without the fields at their default value: effects, the hot path
    of every save, restore and replay. A list of them is read in one loop with one lookup
    per key present, and written with one comparison per field."""

    __slots__ = (
        "_by_key",
        "_by_order",
        "_cls",
        "_defaults",
        "_fields",
        "_first",
        "_head",
        "_keys",
        "_nonempty",
        "_plan",
        "text",
        "write",
    )

    def __init__(self, cls: type[tuple[Any, ...]], nonempty: str, *fields: tuple[str, _Kind]) -> None:
        names: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
        defaults: dict[str, Any] = cls._field_defaults  # type: ignore[attr-defined]
        assert tuple(k for k, _ in fields) == names, "a sparse record lists every field in order"
        self._cls = cls
        self._keys = names
        self._defaults = tuple(defaults.get(k) for k in names)
        self._by_key = {k: _Slot("", k, i, kind, None) for i, (k, kind) in enumerate(fields)}
        """Each field by its JSON key, for :meth:`_read_one`."""
        self._nonempty = names.index(nonempty)
        self._first = self._by_key[nonempty]
        """The non-empty field, which :meth:`native_into` writes first."""
        self._fields = fields
        self._by_order: dict[tuple[str, ...], Callable[[dict[str, Any]], Any]] = {}
        """One reader per key order met (see :meth:`_reader_for`), compiled on first sight."""
        env: dict[str, Any] = {}
        body = ["d = {}"]
        for i, (k, kind) in enumerate(fields):
            x = f"v[{i}]"
            if kind.write is not None:
                env[f"w{i}"] = kind.write
            value = x if kind.write is None else f"w{i}({x})"
            if kind.json_type is bool:
                value = "True"  # a flag is written only when set
            if i == self._nonempty:
                body.append(f"d[{k!r}] = {value}")
            elif self._defaults[i]:  # a default that is true (a scope): compare
                env[f"d{i}"] = self._defaults[i]
                body.append(f"if {x} != d{i}: d[{k!r}] = {value}")
            else:  # "", False, (), the empty map: written when true
                body.append(f"if {x}: d[{k!r}] = {value}")
        body.append("return d")
        self.write: Callable[[tuple[Any, ...]], dict[str, Any]] = _compiled("v", body, env)
        """The JSON object of one record (fields at their default left out)."""
        self.text: Callable[[tuple[Any, ...]], str] = self._text_writer()
        """The JSON text of one record: ``_encode(write(v))`` without building the object."""
        self._head = "{" + _encode(self._keys[self._nonempty]) + ":"
        self._plan: list[_Slot] = []
        """What :meth:`native_into` writes after the non-empty field (a flag's text ``None``: ``true``)."""
        for i, (k, kind) in enumerate(fields):
            if i != self._nonempty:
                text: Callable[[Any], str] | None = None
                if kind.json_type is not bool:
                    text = _text_fn(kind)
                self._plan.append(_Slot("," + _encode(k) + ":", k, i, kind, text, self._defaults[i]))

    def _text_writer(self) -> Callable[[tuple[Any, ...]], str]:
        """The text of :attr:`write`'s object, field by field: a flag as ``true``, any other
        field as :func:`_text_expr` writes it, so the bytes are exactly the encoder's (a value
        not of its kind raises TypeError: :func:`_effects_text` then takes the encoder's way
        for the whole batch)."""
        env: dict[str, Any] = {"esc": encode_basestring_ascii, "enc": _encode}
        body: list[str] = [", ".join(f"x{i}" for i in range(len(self._fields))) + ", = v"]  # one unpacking, then locals
        first = True
        for i, (k, kind) in enumerate(self._fields):
            value = repr(_encode(True)) if kind.json_type is bool else _text_expr(kind, f"x{i}", env)
            key = ("{" if first else ",") + _encode(k) + ":"
            if i == self._nonempty:
                body.append(f"s = {key!r} + {value}")
                first = False
                continue
            assert not first, "the non-empty field comes first"
            if self._defaults[i]:
                env[f"d{i}"] = self._defaults[i]
                body.append(f"if x{i} != d{i}: s += {key!r} + {value}")
            else:
                body.append(f"if x{i}: s += {key!r} + {value}")
        body.append("return s + '}'")
        return _compiled("v", body, env)

    def native_into(self, out: list[str], v: tuple[Any, ...]) -> None:
        """Append the pieces of :attr:`text`'s string to ``out`` (a log's effects are joined once),
        by a loop over :attr:`_plan`: compiled (mypyc) this loop is native, where the generated
        writer stays interpreted (a third of its instructions). It writes and refuses exactly what
        the generated writer does (a value not of its kind raises TypeError or AttributeError)."""
        out.append(self._head)
        out.append(_quoted(v[self._nonempty]))
        for f in self._plan:
            x = v[f.index]
            empty = f.empty
            if x is empty:  # the usual case, the default object itself: no comparison called
                continue
            if (x != empty) if f.compare else x:
                out.append(f.head)
                _coded_into(out, f.code, f.text, x)
        out.append("}")

    def read_all(self, v: list[Any], r: _Reader, where: str) -> tuple[Any, ...]:
        """Every record of the JSON array ``v`` (already known to be a list).

        A log writes the same few key orders over and over, so each item is read by
        the reader compiled for its key order (one lookup, the type checks inline).
        What that reader refuses, or a key order it cannot take, is read again by
        :meth:`_read_one`, which names the exact fault.
        """
        if _NATIVE:
            return tuple([self._read_one(item, r, where, n) for n, item in enumerate(v)])
        by_order = self._by_order
        try:  # every item of a key order met before, and taken: one pass, no per-item branches
            return tuple([by_order[tuple(item)](item) for item in v if type(item) is dict or _not_an_object()])
        except (GameError, KeyError, TypeError):
            pass  # an order met for the first time, or a refused item: item by item, as below
        compile_for, out = self._reader_for, []
        for n, item in enumerate(v):
            if type(item) is dict:
                order = tuple(item)
                read = by_order.get(order)
                if read is None:
                    read = compile_for(order)
                if read is not None:
                    try:
                        got = read(item)
                    except GameError:
                        got = None
                    if got is not None:
                        out.append(got)
                        continue
            out.append(self._read_one(item, r, where, n))
        return tuple(out)

    def _reader_for(self, order: tuple[str, ...]) -> Callable[[dict[str, Any]], Any] | None:
        """A reader for items with exactly these keys in this order; ``None`` when the order
        names an unknown field, lacks the non-empty one, or too many orders were met already
        (:data:`_KEY_ORDERS`: hostile input cannot grow the table without end).

        The reader raises a GameError (or returns ``None``) for an item it refuses; it never
        returns a value :meth:`_read_one` would refuse."""
        by_key = self._by_key
        if len(self._by_order) >= _KEY_ORDERS:
            return None
        if any(k not in by_key for k in order) or self._keys[self._nonempty] not in order:
            return None
        env: dict[str, Any] = {"new": tuple.__new__, "cls": self._cls, "r": _Reader(InvalidArgument)}
        body: list[str] = []
        checks: list[str] = []
        values = []
        for i, (k, kind) in enumerate(self._fields):
            if k not in order:
                env[f"d{i}"] = self._defaults[i]
                values.append(f"d{i}")
                continue
            env[f"t{i}"] = kind.json_type
            body.append(f"x{i} = v[{k!r}]")
            checks.append(f"type(x{i}) is not t{i}")
            values.append(f"x{i}")
        body.append(f"if {' or '.join(checks)} or not x{self._nonempty}: r.fail('', 'refused')")
        for i, (k, kind) in enumerate(self._fields):
            if k in order and kind.read is not None:
                env[f"r{i}"] = kind.read
                body.append(f"x{i} = r{i}(x{i}, r, '')")
        body.append(f"return new(cls, ({', '.join(values)},))")
        read = _compiled("v", body, env)
        self._by_order[order] = read
        return read

    def _read_one(self, item: Any, r: _Reader, where: str, n: int) -> Any:
        """Item ``n`` of the array at ``where``, field by field: the reference reader, naming the exact fault."""
        if type(item) is not dict:
            r.fail(f"{where}[{n}]", "expected an object")
        fields: dict[str, Any] = item
        vals = list(self._defaults)
        by_key = self._by_key
        for k, x in fields.items():
            got = by_key.get(k)
            if got is None:
                r.fail(f"{where}[{n}]", f"unknown field {k!r}")
            read = got.read
            if type(x) is not got.json_type:
                r.fail(f"{where}[{n}].{k}", f"expected {got.expected}")
            r.strings += got.strings + got.per_item * len(cast(Any, x)) if got.per_item else got.strings
            if read is None:
                vals[got.index] = x
                continue
            try:  # no path built unless the value is refused
                vals[got.index] = _read_known(got.read_code, read, x, r)
            except GameError:
                read(x, r, f"{where}[{n}].{k}")  # raises the same fault, with its path
                raise
        if not vals[self._nonempty]:
            r.fail(f"{where}[{n}]", f"missing or empty {self._keys[self._nonempty]}")
        return _new(self._cls, vals)

    def list_kind(self) -> _Kind:
        write = self.write

        def write_all(v: tuple[Any, ...]) -> list[dict[str, Any]]:
            return [write(x) for x in v]

        return _Kind("an array", list, self.read_all, write_all, sparse=self)


_EFFECT = _SparseRecord(
    Effect,
    "type",
    ("type", _STR),
    ("source", _STR),
    ("target", _STR),
    ("data", _SMAP),
    ("canceled", _BOOL),
    ("reason", _STR),
    ("phase", _STR),
    ("alive", _BOOL),
    ("scope", _SCOPE),
    ("key", _STR),
    ("value", _STR),
    ("actors", _STRS),
    ("role", _STR),
    ("vars", _SMAP),
    ("winners", _STRS),
)
_PLAYER = _Record(
    PlayerInfo,
    _Field("id", "id", _STR),
    _Field("role", "role", _STR),
    _Field("alive", "alive", _BOOL),
    _Field("vars", "vars", _SMAP),
    _Field("round_vars", "round_vars", _SMAP),
)
_DETOUR = _Record(Detour, _Field("player_id", "player_id", _STR), _Field("phase", "phase", _STR))
_SKILL_USE = _Record(
    SkillUse,
    _Field("player_id", "player_id", _STR),
    _Field("skill", "skill", _STR),
    _Field("targets", "targets", _STRS),
    _Field("phase", "phase", _STR),
    _Field("round", "round", _INT),
)


class EncodedEffects:
    """The JSON text of a growing log's effects, each encoded once.

    An engine keeps one and hands it to every :class:`GameLog` it makes, so saving
    after every move costs the new effects only, not the whole history again. The
    effects given must extend the ones seen before (an engine's log only grows).
    The new effects of each save are encoded together, in one call of the encoder.
    """

    __slots__ = ("_chunks", "_ends", "_lock")

    def __init__(self) -> None:
        self._chunks: list[str] = []
        """Comma-joined JSON text of consecutive effects, one chunk per save that added some."""
        self._ends: list[int] = []
        """How many effects the chunks up to each one hold (strictly increasing)."""
        self._lock = threading.Lock()

    def upto(self, effects: tuple[Effect, ...]) -> list[str]:
        """The JSON text of ``effects``, in pieces to be joined with commas."""
        n = len(effects)
        with self._lock:
            chunks, ends = self._chunks, self._ends
            done = ends[-1] if ends else 0
            if n > done:
                chunks.append(_effects_text(effects[done:]))
                ends.append(n)
                return chunks.copy()
            k = bisect_right(ends, n)
            pieces = chunks[:k]
            covered = ends[k - 1] if k else 0
        if covered < n:  # an older, shorter log: its tail is encoded again, not kept
            pieces.append(_effects_text(effects[covered:]))
        return pieces


def _effects_text(effects: tuple[Effect, ...]) -> str:
    """The comma-joined JSON text of ``effects`` (the inside of the log's array)."""
    try:
        if _NATIVE:
            out: list[str] = []
            record = _EFFECT  # a method called on a native value, not bound in a local: a native call
            for n, e in enumerate(effects):
                if n:
                    out.append(",")
                record.native_into(out, e)
            return "".join(out)
        text = _EFFECT.text
        return ",".join([text(e) for e in effects])
    except (TypeError, AttributeError):  # a value not of its kind: the encoder's way (see _as_text)
        write = _EFFECT.write
        return _encode([write(e) for e in effects])[1:-1]


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
        return _LOG.write(self)

    def to_json(self) -> bytes:
        """Compact, deterministic JSON bytes."""
        head = _LOG.text(self, _EFFECTS)
        body = _effects_text(self.effects) if self.encoded is None else ",".join(self.encoded.upto(self.effects))
        return (head[:-1] + ',"effects":[' + body + "]}").encode("ascii")

    @classmethod
    def from_dict(cls, v: Any, err: type[GameError] = InvalidLog, where: str = "log") -> GameLog:
        log: GameLog = _LOG.read(v, _Reader(err), where)
        return log

    @classmethod
    def from_json(cls, data: bytes | str) -> GameLog:
        """Decode and shape-check; raises :class:`InvalidLog`."""
        if _NATIVE and type(data) is bytes:  # a log read without the duplicate-key hook (see _saved_log)
            try:
                text = str(data, "utf-8")
            except UnicodeDecodeError:
                text = ""
            got = _saved_log(text, 0) if text.startswith("{") else None
            if got is not None and got[1] == len(text):
                return got[0]
        return cls.from_dict(read_json(data, InvalidLog))


def _decoded_log(version: int, rules_name: str, rules_version: str, effects: tuple[Effect, ...]) -> GameLog:
    """A decoded log (see :func:`_filled`): well typed, as its reader checked every field."""
    values = (rules_name, rules_version, effects, version, None, True)
    return _filled(GameLog.__new__(GameLog), _LOG_SETTERS, values)


def _setters(cls: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each named slot of ``cls`` (what ``object.__setattr__`` finds and calls
    for each, after copying its arguments and looking the name up: a quarter of its cost)."""
    return tuple(getattr(cls, name).__set__ for name in names)


_LOG_FIELDS: Final = ("rules_name", "rules_version", "effects", "version", "encoded", "well_typed")
_LOG_SETTERS: Final = _setters(GameLog, _LOG_FIELDS)


def _filled(value: _T, setters: tuple[Callable[[Any, Any], None], ...], values: tuple[Any, ...]) -> _T:
    """``value`` (a frozen dataclass made by ``__new__``) with its fields set in order, as its
    ``__init__`` would: that generated ``__init__`` is an interpreted frame (compiled, about 10k
    instructions for a log and 20k for a snapshot, several times what this costs)."""
    if len(values) != len(setters):
        raise TypeError(f"{type(value).__name__} has {len(setters)} fields")
    for i, put in enumerate(setters):
        put(value, values[i])
    return value


def engine_log(rules_name: str, rules_version: str, effects: tuple[Effect, ...], encoded: EncodedEffects) -> GameLog:
    """``GameLog(rules_name, rules_version, effects, encoded=encoded, well_typed=True)``: an
    engine's own log (see :func:`_filled`)."""
    values = (rules_name, rules_version, effects, LOG_VERSION, encoded, True)
    return _filled(GameLog.__new__(GameLog), _LOG_SETTERS, values)


_EFFECTS = ("effects",)
"""The field :meth:`GameLog.to_json` writes itself (from its encoded effects)."""

_LOG = _Record(
    _decoded_log,
    _Field("version", "version", _INT),
    _Field("name", "rules_name", _STR, group="rules"),
    _Field("version", "rules_version", _STR, group="rules"),
    _Field("effects", "effects", _EFFECT.list_kind()),
)


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
        if with_log:
            return _SNAPSHOT.write(self)
        return {"version": self.version, "log": None, **_SNAPSHOT.write(self, _HEAD)}

    def to_json(self) -> bytes:
        """Compact, deterministic JSON bytes (the log part reuses its encoded effects)."""
        rest = _SNAPSHOT.text(self, _HEAD).encode("ascii")
        return b'{"version":%d,"log":%s,%s' % (self.version, self.log.to_json(), rest[1:])

    @classmethod
    def from_json(cls, data: bytes | str | None) -> Snapshot:
        """Decode and shape-check; raises :class:`InvalidSnapshot` (``NilSnapshot`` for nothing)."""
        if data is None or (isinstance(data, (bytes, str)) and not data.strip()):
            raise NilSnapshot("no snapshot given")
        return cls.from_dict(read_json(data, InvalidSnapshot))

    @classmethod
    def from_dict(cls, v: Any) -> Snapshot:
        r = _Reader(InvalidSnapshot)
        if type(v) is not dict:
            r.fail("snapshot", "expected an object")
        version = v.get("version")
        if type(version) is not int:
            r.fail("snapshot.version", "expected an integer")
        if version not in _READABLE_SNAPSHOTS:
            # Unknown layout: only the log is read; the engine rebuilds from it.
            if "log" not in v:
                r.fail("snapshot", "missing field 'log'")
            log = _LOG.read(v["log"], r, "snapshot.log")
            return cls(log, "", 0, EMPTY_MAP, {}, None, (), (), EMPTY_MAP, (), version=version)
        snap: Snapshot = _SNAPSHOT.read(v, r, "snapshot", version)
        return snap


_SNAPSHOT_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Snapshot))
_SNAPSHOT_SETTERS: Final = _setters(Snapshot, _SNAPSHOT_FIELDS)


def board_snapshot(values: tuple[Any, ...]) -> Snapshot:
    """``Snapshot(*values)``, ``values`` every field in order (``version`` last): an engine's
    own snapshot (see :func:`_filled`)."""
    return _filled(Snapshot.__new__(Snapshot), _SNAPSHOT_SETTERS, values)


_HEAD = ("version", "log")
"""The fields :meth:`Snapshot.to_json` writes itself (the log from its own encoded text)."""
_PENDING = _SKILL_USE.list_kind()


def _read_snapshot(version: int, **attrs: Any) -> Snapshot:
    return Snapshot(**attrs)  # a version 1 snapshot is migrated to the current version: nothing was held


_SNAPSHOT = _Record(
    _read_snapshot,
    _Field("version", "version", _INT),
    _Field("log", "log", _LOG.kind()),
    _Field("phase", "phase", _STR),
    _Field("round", "round", _INT),
    _Field("vars", "vars", _SMAP),
    _Field("actors", "actors", _ACTORS),
    _Field("winners", "winners", _STRS._replace(expected="an array or null", nullable=True)),
    _Field("players", "players", _PLAYER.list_kind()),
    _Field("detours", "detours", _DETOUR.list_kind(), group="round_context"),
    _Field("vars", "round_vars", _SMAP, group="round_context"),
    _Field("held", "held", _HELD, group="round_context", since=2, default=()),
    _Field("pending", "pending", _PENDING),
    _Field("queue", "turns", _STRS, group="turns"),
    _Field("delayed", "delayed", _STRS, group="turns"),
    by_index=(tuple, _SNAPSHOT_FIELDS),  # a tuple of every field's value, as board_snapshot takes them
)


def _head_strings(layout: _Layout) -> int:
    """How many strings the JSON object of a record holds besides its lists' items: its keys and
    its string values (a record whose other fields are numbers and lists, in groups or not)."""
    n = 0
    for _, spec in layout:
        fields = (spec,) if isinstance(spec, _Field) else spec
        n += 1 + (0 if isinstance(spec, _Field) else len(spec)) + sum(f.kind.json_type is str for f in fields)
    return n


_LOG_HEAD_STRINGS: Final = _head_strings(_LOG._layout)


class _Refused(Exception):
    """Text :class:`_Canonical` does not take: the reference reader decides it."""


_map_of: Final = MappingProxyType
_MARKED: Final = bytes(b ^ 1 if b < 32 or b == 92 else b for b in range(256))
"""A byte table changing what no string of the writers' text holds unescaped, control characters
and the backslash that begins an escape, and nothing else (:func:`_canonical_log` refuses a text
that holds either: translated, it is no longer the same)."""


class _Canonical:
    """Reads the exact text this module's writers write, and nothing else: keys in the table's
    order, no space, ASCII (no escape, no control character: checked once for the whole text by
    :func:`_canonical_log`). What it reads, the strict reader reads as the same value (that text
    is JSON, its keys in order cannot repeat, and its strings mean their characters); anything
    else raises :class:`_Refused` (or ``IndexError`` at the end of the text), and the reference
    reader decides. Compiled, this costs a fraction of the JSON scanner's objects plus the
    record readers that check them: a character is an integer read in place, and a string
    is found by one search for its closing quote."""

    __slots__ = ("at", "text")

    def __init__(self, text: str, at: int) -> None:
        self.text = text
        self.at = at
        """Where the next value begins."""

    def expect(self, lit: str) -> None:
        at = self.at
        end = at + len(lit)
        if self.text[at:end] != lit:
            raise _Refused
        self.at = end

    def char(self, c: int) -> None:
        """The one character of code ``c``."""
        if ord(self.text[self.at]) != c:
            raise _Refused
        self.at += 1

    def string(self) -> str:
        text, i = self.text, self.at
        if ord(text[i]) != 34:  # '"'
            raise _Refused
        j = text.find('"', i + 1)
        if j < 0:
            raise _Refused
        self.at = j + 1
        return text[i + 1 : j]

    def integer(self) -> int:
        text, i = self.text, self.at
        j = i + 1 if ord(text[i]) == 45 else i  # '-'
        first = j
        while j < len(text) and 48 <= ord(text[j]) <= 57:
            j += 1
        if j == first or (ord(text[first]) == 48 and j > first + 1):  # no digit, or a leading zero
            raise _Refused
        self.at = j
        return int(text[i:j])

    def strs(self) -> tuple[str, ...]:
        self.char(91)  # '['
        if ord(self.text[self.at]) == 93:  # ']'
            self.at += 1
            return ()
        out = [self.string()]
        while ord(self.text[self.at]) == 44:  # ','
            self.at += 1
            out.append(self.string())
        self.char(93)
        return tuple(out)

    def smap(self) -> Mapping[str, str]:
        """A map of strings, its keys in increasing order (as :func:`_read_smap` wants, and so none repeated)."""
        self.char(123)  # '{'
        if ord(self.text[self.at]) == 125:  # '}'
            self.at += 1
            return EMPTY_MAP
        d: dict[str, str] = {}
        prev = ""
        while True:
            k = self.string()
            if d and k <= prev:
                raise _Refused
            self.char(58)  # ':'
            d[k] = self.string()
            prev = k
            if ord(self.text[self.at]) != 44:
                break
            self.at += 1
        self.char(125)
        return _map_of(d)

    def value(self, f: _Slot) -> Any:
        """The value of field ``f`` at :attr:`at`, as its kind reads it (a kind this reader does
        not know is refused)."""
        if f.nullable and ord(self.text[self.at]) == 110:  # 'n'
            self.expect("null")
            return None
        t = f.json_type
        if t is str:
            s = self.string()
            if f.read is None:
                return s
            if f.read_code != _READ_SCOPE:
                raise _Refused
            try:
                return _parse_scope(s)
            except GameError:
                raise _Refused from None
        if f.read is None:
            if t is bool:
                if ord(self.text[self.at]) == 116:  # 't'
                    self.expect("true")
                    return True
                self.expect("false")
                return False
            if t is int:
                return self.integer()
            raise _Refused
        if f.read_code == _READ_SMAP:
            return self.smap()
        if f.read_code == _READ_STRS:
            return self.strs()
        sparse = f.sparse
        if sparse is None:
            raise _Refused
        self.char(91)
        if ord(self.text[self.at]) == 93:
            self.at += 1
            return ()
        out = [self.sparse(sparse)]
        while ord(self.text[self.at]) == 44:
            self.at += 1
            out.append(self.sparse(sparse))
        self.char(93)
        return tuple(out)

    def sparse(self, rec: _SparseRecord) -> Any:
        """One record as :meth:`_SparseRecord.native_into` writes it: the non-empty field, then
        any others in the table's order."""
        self.expect(rec._head)
        vals = list(rec._defaults)
        first = self.value(rec._first)
        if not first:
            raise _Refused
        vals[rec._nonempty] = first
        text = self.text
        at = self.at
        lead = ord(text[at + 2]) if ord(text[at]) == 44 else -2  # the key's first character, after ',"'
        for f in rec._plan:
            if lead == -2:  # '}' or anything else: no field left
                break
            if f.lead != lead:
                continue
            head = f.head
            end = at + len(head)
            if text[at:end] != head:
                continue
            self.at = end
            vals[f.index] = self.value(f)
            at = self.at
            lead = ord(text[at + 2]) if ord(text[at]) == 44 else -2
        self.char(125)
        return _new(rec._cls, vals)

    def record(self, rec: _Record) -> Any:
        """One record as :func:`_flat_into` writes it, made as its reader makes it (by keyword;
        only for a record whose fields are all of the current version: the log's)."""
        plan = rec.plan()
        attrs: dict[str, Any] = {}
        for s in plan.slots:
            self.expect(s.head)
            attrs[s.attr] = self.value(s)
        self.expect(plan.close)
        return rec.make(**attrs)


def _canonical_log(text: str, start: int) -> tuple[GameLog, int] | None:
    """The log written at ``text[start]`` exactly as :meth:`GameLog.to_json` writes it, and where
    it ends; ``None`` for any other text (see :class:`_Canonical`)."""
    reader = _Canonical(text, start)
    try:
        log: GameLog = reader.record(_LOG)
        end = reader.at
        region = text[start:end].encode("ascii")
    except (_Refused, IndexError, UnicodeEncodeError):
        return None
    if region.translate(_MARKED) != region:  # one pass in C over the whole log
        return None
    return log, end


def _saved_log(text: str, start: int) -> tuple[GameLog, int] | None:
    """The log whose JSON begins at ``text[start]``, and where it ends, read without the
    duplicate-key hook (compiled: the hook is a Python call per object); ``None`` for anything
    the strict reader must decide: no log there, or no proof that no key repeats.

    The writers' own text is read by :func:`_canonical_log` (its key order proves none
    repeats); any other, with :func:`_no_repeated_key`'s proof, the strings counted as the log
    is read (its reader only accepts the strings, maps and lists of strings that its counts assume)."""
    got = _canonical_log(text, start)
    if got is not None:
        return got
    r = _Reader(InvalidLog)
    try:
        v, end = _scan_plain(text, start)
        log: GameLog = _LOG.read(v, r, "log")
    except (StopIteration, ValueError, RecursionError, GameError):
        return None
    if text.count('"', start, end) != 2 * (_LOG_HEAD_STRINGS + r.strings):
        return None
    return log, end


_SAVED_HEAD = f'{{"version":{SNAPSHOT_VERSION},"log":'
"""How :meth:`Snapshot.to_json` begins a snapshot of the current version."""
_scan: Final = make_scanner(_STRICT)  # type: ignore[arg-type]  # typeshed names the wrong context type
"""A scanner of the strict reader: the JSON value at an index and where it ends (``raw_decode``
without its interpreted frame; ``StopIteration`` where no value begins)."""
_scan_plain: Final = make_scanner(_PLAIN)  # type: ignore[arg-type]
""":data:`_scan` of :data:`_PLAIN`."""
_PENDING_AT = ',"pending":'
_NO_PENDING = _PENDING_AT + '[],"turns":'
"""Where a snapshot without pending submissions says so: its last occurrence is the top-level
field (only the turn queue, arrays of strings, comes after it)."""


class SavedSnapshot:
    """The JSON text of a current-version snapshot with only its log decoded.

    A verified restore replays the log anyway and needs the rest only to check it against
    the replayed board: comparing the rest of the text with that board's own text costs
    less than reading it (the players are most of it). Only the pending submissions are
    read, from their place in the text. Anything else (a text that differs in any byte,
    an unverified restore) reads the whole text with :meth:`full`, the reference reader.
    """

    __slots__ = ("log", "rest", "text")

    def __init__(self, log: GameLog, text: str, rest: int) -> None:
        self.log = log
        self.text = text
        self.rest = rest
        """Where the text after the log begins."""

    @classmethod
    def read(cls, data: bytes | str) -> SavedSnapshot | None:
        """The text with its log read strictly; ``None`` for anything that is not plainly a
        current-version snapshot with a well-formed log (the reference reader then decides)."""
        if type(data) is bytes:
            try:
                text = str(data, "utf-8")
            except UnicodeDecodeError:
                return None
        elif type(data) is str:
            text = data
        else:
            return None
        if not text.startswith(_SAVED_HEAD):
            return None
        start = len(_SAVED_HEAD)
        got = _saved_log(text, start) if _NATIVE else None
        if got is not None:
            return cls(got[0], text, got[1])
        try:
            v, end = _scan(text, start)
            log: GameLog = _LOG.read(v, _Reader(InvalidSnapshot), "snapshot.log")
        except (StopIteration, ValueError, RecursionError, GameError):
            return None
        return cls(log, text, end)

    def full(self) -> Snapshot:
        """The whole snapshot, as :meth:`Snapshot.from_json` reads it (raising its errors)."""
        return Snapshot.from_json(self.text)

    def pending_if(self, board: tuple[Any, ...]) -> tuple[SkillUse, ...] | None:
        """The pending submissions, when the text is exactly the text of the snapshot
        ``board_snapshot(board)`` (with this log and none pending) with them in place; ``None``
        when any other byte differs.

        Then :meth:`full` would read ``board``'s fields back (a snapshot's text reads back as
        the value written), and pending as read here (the same strict reader). Compiled, the
        text is written from the values themselves (no snapshot built)."""
        expected = _SNAPSHOT.text(board if _NATIVE else board_snapshot(board), _HEAD)
        cut = expected.rfind(_NO_PENDING)
        if cut < 0:
            return None
        text, at = self.text, self.rest
        cut += len(_PENDING_AT)
        if not (text.startswith(",", at) and text.startswith(expected[1:cut], at + 1)):
            return None
        tail = expected[cut + 2 :]
        if len(text) == at + cut + 2 + len(tail) and text.endswith("[]" + tail):
            return ()  # none pending, as the kernel writes it: what the scanner would read
        try:
            v, end = _scan(text, at + cut)
            if len(text) - end != len(tail) or not text.endswith(tail) or type(v) is not list:
                return None
            read = _PENDING.read
            assert read is not None
            pending: tuple[SkillUse, ...] = read(v, _Reader(InvalidSnapshot), _NO_PATH)
        except (StopIteration, ValueError, RecursionError, GameError):
            return None
        return pending


def coerce_log(log: GameLog | bytes | str | None) -> GameLog:
    """Accept a log value or its JSON; anything else is :class:`InvalidLog`."""
    return value_or_json(log, GameLog, GameLog.from_json, InvalidLog)


def coerce_snapshot(snap: Snapshot | bytes | str | None) -> Snapshot:
    """Accept a snapshot value or its JSON; anything else is :class:`InvalidSnapshot`."""
    if snap is None:
        raise NilSnapshot("no snapshot given")
    return value_or_json(snap, Snapshot, Snapshot.from_json, InvalidSnapshot)
