"""The game registry: every game a host can open, found through Python entry points.

A package makes a game available by declaring its definition under the entry point
group :data:`ENTRY_POINT_GROUP` in its own ``pyproject.toml``::

    [project.entry-points."hiddenrole.games"]
    chess = "chess_rules.hosting:DEFINITION"

The shipped games are declared the same way in hiddenrole's own ``pyproject.toml``,
so a third-party game reaches the catalog, the console and a server through exactly
the path the shipped ones take, with no edit to this package. :func:`register` adds
a definition in-process (a script, a test) without packaging it.

Discovery reads only installed metadata (no game module is imported until the game
is asked for). Every answer is sorted by name, so it depends neither on the order of
``sys.path`` nor on the order of entry points inside a distribution. A bad entry
never breaks the registry: an entry that fails to import, names something other than
a :class:`GameDefinition`, or names a definition of another name is
:class:`BrokenGame`; two different entries for one name are :class:`DuplicateGame`
(neither is served, because no order between packages says which one was meant).
Both only affect their own name: :func:`available` skips them and :func:`problems`
lists them.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from importlib import metadata
from typing import Final

from .definition import GameDefinition
from .errors import BrokenGame, DuplicateGame, InvalidGame, UnknownGame
from .options import NAME_PATTERN

__all__ = ["ENTRY_POINT_GROUP", "register", "unregister", "names", "get", "available", "problems", "refresh"]

ENTRY_POINT_GROUP: Final = "hiddenrole.games"
"""The entry point group a package declares its games under (name = game name, value = ``module:DEFINITION``)."""

_lock = threading.RLock()  # re-entrant: a game module may call register() while it is being loaded
_entries: dict[str, tuple[metadata.EntryPoint, ...]] | None = None
"""Entry points by game name (distinct values only), read from installed metadata on first use."""
_loaded: dict[str, GameDefinition | InvalidGame] = {}
"""What each entry point gave, a definition or the typed error; cached so a broken module is imported once."""
_registered: dict[str, GameDefinition] = {}
"""Definitions added in-process by :func:`register`."""


def _origin(ep: metadata.EntryPoint) -> str:
    dist = ep.dist
    where = f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"
    return f"{ep.value!r} from {where}"


def _discover() -> dict[str, tuple[metadata.EntryPoint, ...]]:
    global _entries
    if _entries is None:
        found: dict[str, dict[str, metadata.EntryPoint]] = {}
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            # The same value twice (one distribution seen through two paths) is one entry.
            found.setdefault(ep.name, {}).setdefault(ep.value, ep)
        _entries = {name: tuple(by_value[v] for v in sorted(by_value)) for name, by_value in sorted(found.items())}
    return _entries


def _load(name: str, entries: tuple[metadata.EntryPoint, ...]) -> GameDefinition | InvalidGame:
    if len(entries) > 1:
        claims = "; ".join(_origin(ep) for ep in entries)
        return DuplicateGame(f"game {name!r} is declared by more than one package ({claims}); none is served")
    ep = entries[0]
    if not NAME_PATTERN.fullmatch(name):
        return BrokenGame(f"game entry {name!r} ({_origin(ep)}): a game name is lowercase words joined by '-' or '_'")
    try:
        loaded = ep.load()
    except (Exception, SystemExit) as exc:  # an error in a third-party module is that game's problem only
        return BrokenGame(f"game {name!r} ({_origin(ep)}) cannot be loaded: {type(exc).__name__}: {exc}")
    if not isinstance(loaded, GameDefinition):
        return BrokenGame(f"game {name!r} ({_origin(ep)}) is a {type(loaded).__name__}, not a GameDefinition")
    if loaded.name != name:
        return BrokenGame(f"game {name!r} ({_origin(ep)}) defines a game named {loaded.name!r}")
    return loaded


def _lookup(name: str) -> GameDefinition | InvalidGame:
    entries = _discover().get(name)
    own = _registered.get(name)
    if entries is None:
        if own is None:
            known = ", ".join(names()) or "none; is hiddenrole installed (pip install -e .)?"
            return UnknownGame(f"no game {name!r} in the catalog (games: {known})")
        return own
    if own is not None:
        return DuplicateGame(f"game {name!r} is both registered in-process and declared by {_origin(entries[0])}")
    if name not in _loaded:
        _loaded[name] = _load(name, entries)
    return _loaded[name]


def names() -> tuple[str, ...]:
    """Every registered game name, sorted, whether or not it loads (no game module is imported)."""
    with _lock:
        return tuple(sorted(set(_discover()) | set(_registered)))


def get(name: str) -> GameDefinition:
    """The definition of ``name``.

    Raises :class:`UnknownGame` if no package declares it, :class:`BrokenGame` if its
    entry cannot be loaded, :class:`DuplicateGame` if two packages claim it (all three
    are :class:`InvalidGame`).
    """
    if not isinstance(name, str):
        raise UnknownGame(f"a game name is a text, not {type(name).__name__}")
    with _lock:
        found = _lookup(name)
    if isinstance(found, InvalidGame):
        raise type(found)(found.message)
    return found


def available() -> tuple[str, ...]:
    """The names whose definitions load now, sorted (imports every game module once)."""
    with _lock:
        return tuple(n for n in names() if isinstance(_lookup(n), GameDefinition))


def problems() -> Mapping[str, InvalidGame]:
    """Each registered name that does not load, with its typed error, sorted by name (for a diagnostic)."""
    with _lock:
        return {n: e for n in names() if isinstance(e := _lookup(n), InvalidGame)}


def register(definition: GameDefinition) -> GameDefinition:
    """Serve ``definition`` in this process without packaging it; returns it.

    Registering the same object again is a no-op. A name already taken by another
    registration or by an installed package raises :class:`DuplicateGame`.
    """
    if not isinstance(definition, GameDefinition):
        raise InvalidGame(f"register() takes a GameDefinition, not {type(definition).__name__}")
    with _lock:
        name = definition.name
        own = _registered.get(name)
        if own is definition:
            return definition
        if own is not None:
            raise DuplicateGame(f"game {name!r} is already registered in this process")
        entries = _discover().get(name)
        if entries is not None:
            raise DuplicateGame(f"game {name!r} is already declared by {_origin(entries[0])}")
        _registered[name] = definition
        return definition


def unregister(name: str) -> None:
    """Forget an in-process registration (installed packages are not affected); unknown names are ignored."""
    with _lock:
        _registered.pop(name, None)


def refresh() -> None:
    """Read installed entry points again on next use (after installing a package into a running process)."""
    global _entries
    with _lock:
        _entries = None
        _loaded.clear()
