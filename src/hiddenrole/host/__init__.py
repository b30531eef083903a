"""Hosting: tables whose truth is a log, per-seat views, a publisher, and the catalog of games.

The kernel (:mod:`hiddenrole`) runs one game and knows no seats, options, clock,
storage or randomness. This layer adds exactly those, for whoever hosts games: a
web app, a chat bot, an AI arena. A :class:`GameDefinition` says how to open tables
of a game; a :class:`Table` is one game, rebuilt at any time by replaying its
:class:`TableLog`. Each seat (and the spectators) has its own view with its own
version, and :meth:`Table.subscribe` pushes a :class:`Notice` to a reader exactly
when its view changed; nothing a seat receives counts moves it cannot see.

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
    ChatLimitReached,
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
    TooManyTargets,
    UndoRefused,
    UnknownGame,
    error_for_code,
)
from .log import LOG_FORMAT, LoggedMove, TableEnd, TableHeader, TableLog
from .notices import HostCallback, NoticeCallback
from .publisher import Changed, Publisher
from .table import (
    MAX_AUTO_PHASES,
    MAX_SAY,
    MAX_SAYS_PER_PHASE,
    MAX_SEED,
    MAX_TARGETS,
    Table,
    default_table_id,
    verify,
)
from .views import ChatLine, HostNotice, Notice, SeatPlayer, SeatSelf, SeenEvent, TableView

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
    "MAX_SAYS_PER_PHASE",
    "MAX_SEED",
    "MAX_TARGETS",
    "LOG_FORMAT",
    "BrokenGame",
    "Changed",
    "ChatLimitReached",
    "ChatLine",
    "Context",
    "Deal",
    "Draw",
    "DuplicateGame",
    "GameDefinition",
    "HOST_ERROR_CODES",
    "HostCallback",
    "HostNotice",
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
    "Notice",
    "NoticeCallback",
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
    "TooManyTargets",
    "UndoRefused",
    "UnknownGame",
    "default_table_id",
    "error_for_code",
    "verify",
]
