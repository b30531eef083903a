"""The host's catalog: the games it can open, as the registry serves them.

A thin view of :mod:`hiddenrole.gamedef.registry` (which finds games through the
``hiddenrole.games`` entry point group), kept so that hosts can write
``from hiddenrole.host.catalog import get``. Nothing here names a game.
"""

from __future__ import annotations

from ..gamedef.registry import available, get, names, problems

__all__ = ["get", "names", "available", "problems"]
