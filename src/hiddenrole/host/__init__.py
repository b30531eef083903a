"""Hosting: tables whose truth is a log, per-seat views, a publisher, and the catalog of games.

The kernel (:mod:`hiddenrole`) runs one game and knows no seats, options, clock,
storage or randomness. This layer adds exactly those, for whoever hosts games: a
web app, a chat bot, an AI arena. A :class:`GameDefinition` says how to open tables
of a game; a :class:`Table` is one game, rebuilt at any time by replaying its
:class:`TableLog`; a :class:`Publisher` tells subscribers which table changed and
nothing else, and each seat then reads its own :meth:`Table.view`.

See ``docs/HOST.md``. Definitions and the values they exchange live one layer
down, in :mod:`hiddenrole.gamedef` (re-exported here); each rules package declares
its own, and the host finds them through the registry (:mod:`hiddenrole.host.catalog`).
Games never import this package, and this package names no game.
"""

from ..gamedef import (
    ACT,
    DELAY_TURN,
    END_PHASE,
    END_TURN,
    MOVE_KINDS,
    SAY,
    UNDO,
    Context,
    Deal,
    Draw,
    GameDefinition,
    Move,
    Option,
    OptionKind,
    OptionValue,
    Outcome,
    Settings,
    Statistic,
    StatScope,
)
from .errors import (
    HOST_ERROR_CODES,
    BrokenGame,
    DuplicateGame,
    InvalidGame,
    InvalidMove,
    InvalidOptions,
    InvalidPreferences,
    InvalidSeats,
    InvalidTableLog,
    LogMismatch,
    MoveRefused,
    SeatNotFound,
    StaleMove,
    UndoRefused,
    UnknownGame,
    error_for_code,
)
from .log import LOG_FORMAT, LoggedMove, TableEnd, TableHeader, TableLog
from .publisher import Changed, Publisher
from .table import MAX_AUTO_PHASES, MAX_SAY, MAX_SEED, Table, verify
from .views import ChatLine, SeatPlayer, SeatSelf, SeenEvent, TableView

__all__ = [
    "ACT",
    "SAY",
    "END_TURN",
    "DELAY_TURN",
    "END_PHASE",
    "UNDO",
    "MOVE_KINDS",
    "MAX_AUTO_PHASES",
    "MAX_SAY",
    "MAX_SEED",
    "LOG_FORMAT",
    "BrokenGame",
    "Changed",
    "ChatLine",
    "Context",
    "Deal",
    "Draw",
    "DuplicateGame",
    "GameDefinition",
    "HOST_ERROR_CODES",
    "InvalidGame",
    "InvalidMove",
    "InvalidOptions",
    "InvalidPreferences",
    "InvalidSeats",
    "InvalidTableLog",
    "LogMismatch",
    "LoggedMove",
    "Move",
    "MoveRefused",
    "Option",
    "OptionKind",
    "OptionValue",
    "Outcome",
    "Publisher",
    "SeatNotFound",
    "SeatPlayer",
    "SeatSelf",
    "SeenEvent",
    "Settings",
    "StaleMove",
    "StatScope",
    "Statistic",
    "Table",
    "TableEnd",
    "TableHeader",
    "TableLog",
    "TableView",
    "UndoRefused",
    "UnknownGame",
    "error_for_code",
    "verify",
]
