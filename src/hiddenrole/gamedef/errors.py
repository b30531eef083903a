"""Typed errors of game definitions and of the game registry, each with a stable code.

They live below the games so that a rules package can raise them from its own
definition (``InvalidOptions`` naming the option a deal cannot honour) without
importing the host. The host re-exports them and lists their codes with its own.
"""

from __future__ import annotations

import hiddenrole as hr

__all__ = [
    "InvalidGame",
    "InvalidOptions",
    "InvalidPreferences",
    "UnknownGame",
    "BrokenGame",
    "DuplicateGame",
]


class InvalidGame(hr.GameError):
    """A game definition, or what one of its hooks returned, does not hold together."""

    code = "INVALID_GAME"


class InvalidOptions(hr.GameError):
    """A table option is unknown or has a value the game does not allow.

    ``option`` names the culprit (``""`` when the options as a whole are malformed).
    """

    code = "INVALID_OPTIONS"

    def __init__(self, message: str = "", option: str = "") -> None:
        super().__init__(message)
        self.option = option


class InvalidPreferences(InvalidOptions):
    """A player preference is unknown or has a value the game does not allow."""

    code = "INVALID_PREFERENCES"


class UnknownGame(InvalidGame):
    """No game of that name is registered (a typo, or its package is not installed)."""

    code = "UNKNOWN_GAME"


class BrokenGame(InvalidGame):
    """A registered game cannot be loaded: its module fails to import, or it names no valid definition.

    Only that game is affected; the registry still serves every other one.
    """

    code = "BROKEN_GAME"


class DuplicateGame(InvalidGame):
    """Two packages (or two registrations) claim the same game name; neither is served."""

    code = "DUPLICATE_GAME"
