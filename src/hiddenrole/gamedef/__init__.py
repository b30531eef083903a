"""Game definitions: what a rules package declares so that hosts can open tables of it.

This layer sits between the kernel and the games. It holds the plain data a
definition is made of (:class:`Option` and :class:`Settings`, :class:`Statistic`,
:class:`Outcome`, :class:`Deal`, :class:`Draw`, :class:`Move`, :class:`Context`),
:class:`GameDefinition` itself, the defaults every hidden-role game shares, and the
:mod:`registry` through which a host finds games. It uses only the standard library
and the kernel's public API, so each rules package can export its own definition
(``hiddenrole.games.<name>.hosting``) without knowing any host.

See ``docs/HOST.md`` (section "Adding a game").
"""

from . import registry, words
from .defaults import SURVIVAL_STATISTICS, roles_public_at_end, survival
from .definition import MAX_SEATS, MIN_SEATS, GameDefinition
from .errors import BrokenGame, DuplicateGame, InvalidGame, InvalidOptions, InvalidPreferences, UnknownGame
from .hooks import (
    ACT,
    DELAY_TURN,
    END_PHASE,
    END_TURN,
    MOVE_KINDS,
    SAY,
    UNDO,
    AllowsHook,
    ArrangeHook,
    Context,
    Deal,
    Draw,
    DrawsHook,
    Move,
    OutcomeHook,
    PublicHook,
    PublicRolesHook,
    SetupHook,
)
from .options import NAME_PATTERN, Option, OptionKind, OptionValue, Settings, check_name
from .outcome import Outcome, Statistic, StatScope
from .registry import ENTRY_POINT_GROUP

__all__ = [
    "ACT",
    "SAY",
    "END_TURN",
    "DELAY_TURN",
    "END_PHASE",
    "UNDO",
    "MOVE_KINDS",
    "MIN_SEATS",
    "MAX_SEATS",
    "NAME_PATTERN",
    "ENTRY_POINT_GROUP",
    "SURVIVAL_STATISTICS",
    "AllowsHook",
    "ArrangeHook",
    "BrokenGame",
    "Context",
    "Deal",
    "Draw",
    "DrawsHook",
    "DuplicateGame",
    "GameDefinition",
    "InvalidGame",
    "InvalidOptions",
    "InvalidPreferences",
    "Move",
    "Option",
    "OptionKind",
    "OptionValue",
    "Outcome",
    "OutcomeHook",
    "PublicHook",
    "PublicRolesHook",
    "SetupHook",
    "Settings",
    "StatScope",
    "Statistic",
    "UnknownGame",
    "check_name",
    "registry",
    "words",
    "roles_public_at_end",
    "survival",
]
