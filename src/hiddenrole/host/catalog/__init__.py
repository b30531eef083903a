"""Definitions of the games this package ships, by name.

Each module defines ``DEFINITION``. Modules are imported on first use, so a game
whose rules package is missing or broken only fails when it is asked for.
"""

from __future__ import annotations

import importlib
import threading

from ..definition import GameDefinition
from ..errors import InvalidGame

__all__ = ["NAMES", "get", "available"]

NAMES: tuple[str, ...] = ("missions", "onenight", "race", "redblue", "werewolf")
"""Every game the catalog knows, sorted."""

_lock = threading.Lock()
_cache: dict[str, GameDefinition] = {}


def get(name: str) -> GameDefinition:
    """The definition of ``name``; :class:`InvalidGame` if there is none or it cannot be loaded."""
    if name not in NAMES:
        raise InvalidGame(f"no game {name!r} in the catalog (games: {', '.join(NAMES)})")
    with _lock:
        found = _cache.get(name)
        if found is not None:
            return found
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ImportError as exc:
            raise InvalidGame(f"game {name!r} cannot be loaded: {exc}") from None
        definition = getattr(module, "DEFINITION", None)
        if not isinstance(definition, GameDefinition):
            raise InvalidGame(f"game {name!r}: its catalog module defines no DEFINITION")
        _cache[name] = definition
        return definition


def available() -> tuple[str, ...]:
    """The games whose definitions load now."""
    out = []
    for name in NAMES:
        try:
            get(name)
        except InvalidGame:
            continue
        out.append(name)
    return tuple(out)
