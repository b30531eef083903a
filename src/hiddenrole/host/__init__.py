"""Hosting: game definitions, tables whose truth is a log, per-seat views, a publisher.

The kernel (:mod:`hiddenrole`) runs one game and knows no seats, options, clock,
storage or randomness. This layer adds exactly those, for whoever hosts games: a
web app, a chat bot, an AI arena. A :class:`GameDefinition` says how to open tables
of a game; a :class:`Table` is one game, rebuilt at any time by replaying its
:class:`TableLog`. Each seat (and the spectators) has its own view with its own
version, and :meth:`Table.subscribe` pushes a :class:`Notice` to a reader exactly
when its view changed; nothing a seat receives counts moves it cannot see.

See ``docs/HOST.md``. Games never import this package; it imports them (see
:mod:`hiddenrole.host.catalog`).
"""

from .definition import (
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
    Outcome,
    Statistic,
    StatScope,
)
from .errors import (
    HOST_ERROR_CODES,
    ChatLimitReached,
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
    error_for_code,
)
from .log import LOG_FORMAT, LoggedMove, TableEnd, TableHeader, TableLog
from .notices import HostCallback, NoticeCallback
from .options import Option, OptionKind, OptionValue, Settings
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
    "Changed",
    "ChatLimitReached",
    "ChatLine",
    "Context",
    "Deal",
    "Draw",
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
    "default_table_id",
    "error_for_code",
    "verify",
]
