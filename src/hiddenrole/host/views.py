"""What one seat (or a spectator) reads of a table: :class:`TableView`, its parts, and :class:`Notice`.

A view holds nothing its reader may not see, and that includes its numbers. Each
reader has its own *version*: 1 for the table as dealt, plus one each time that
reader's view changed. Events and chat lines carry ``at``, the reader's version
when they arrived. The table's own move count (``Table.seq``) never appears in a
view or a notice, because it counts moves the reader cannot see (docs/DESIGN.md,
"Per-reader versions"). ``to_dict`` gives the JSON a server sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..gamedef import Outcome

__all__ = ["SeatPlayer", "SeatSelf", "SeenEvent", "ChatLine", "TableView", "Notice", "HostNotice"]


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Another seat as the reader knows it: ``role`` is ``""`` unless the reader may know it."""

    seat: str
    alive: bool
    role: str = ""


@dataclass(frozen=True, slots=True)
class SeatSelf:
    """What a seat knows about itself and may do now.

    ``targets``: for each allowed skill whose targets the rules limit now, the only ones
    the table accepts (the kernel's ``PlayerView.targets``); every picker offers those.
    """

    seat: str
    role: str
    camp: str
    alive: bool
    allowed_skills: tuple[str, ...]
    teammates: tuple[str, ...]
    role_info: Mapping[str, str]
    targets: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def targets_for(self, skill: str) -> tuple[str, ...] | None:
        """The only targets ``skill`` accepts now; ``None``: any its step's shape permits."""
        for k, only in self.targets:
            if k == skill:
                return only
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the ``me`` of a view; the server's board pushes use it too)."""
        return {
            "seat": self.seat,
            "role": self.role,
            "camp": self.camp,
            "alive": self.alive,
            "allowed_skills": list(self.allowed_skills),
            "teammates": list(self.teammates),
            "role_info": dict(self.role_info),
            "targets": {k: list(only) for k, only in self.targets},
        }


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """A published event the reader may see.

    ``at`` is the reader's version when the event reached it (in a :class:`HostNotice`:
    the table's sequence number, since the host sees every move).
    """

    at: int
    type: str
    source: str = ""
    target: str = ""
    data: Mapping[str, str] = field(default_factory=dict)
    canceled: bool = False
    """A vetoed action (e.g. a tied wolf vote): shown to whom the rules allow, marked as such."""
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = {"at": self.at, "type": self.type, "source": self.source, "target": self.target, "data": dict(self.data)}
        return d | ({"canceled": True, "reason": self.reason} if self.canceled else {})


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line said at the table that the reader heard; ``at`` as for :class:`SeenEvent`."""

    at: int
    sender: str
    text: str
    phase: str
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "sender": self.sender, "text": self.text, "phase": self.phase, "round": self.round}


@dataclass(frozen=True)
class TableView:
    """A table as one reader may see it. ``seat`` is ``None`` for a spectator.

    ``version`` is this reader's own version (see the module docstring); pass it as
    ``against=`` with a move decided on this view. ``moves`` lists the kinds of move
    the reader may make now; ``data`` is the game's public data (shaped by the
    reader's preferences); ``outcome`` appears once the table is over.
    """

    table: str
    version: int
    game: str
    seat: str | None
    phase: str
    round: int
    turn: str
    over: bool
    options: Mapping[str, Any]
    players: tuple[SeatPlayer, ...]
    me: SeatSelf | None
    moves: tuple[str, ...]
    data: Mapping[str, Any]
    events: tuple[SeenEvent, ...]
    chat: tuple[ChatLine, ...]
    outcome: Outcome | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        me = None if self.me is None else self.me.to_dict()
        return {
            "table": self.table,
            "version": self.version,
            "game": self.game,
            "seat": self.seat,
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn,
            "over": self.over,
            "options": dict(self.options),
            "players": [{"seat": p.seat, "alive": p.alive, "role": p.role} for p in self.players],
            "me": me,
            "moves": list(self.moves),
            "data": dict(self.data),
            "events": [e.to_dict() for e in self.events],
            "chat": [c.to_dict() for c in self.chat],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }


class Notice(NamedTuple):
    """What one reader is pushed after a move that changed its view, and only then.

    ``version`` is the reader's new version; ``events`` and ``chat`` are the lines that
    reached it with this move (each ``at == version``). A reader that missed notices
    catches up with ``Table.updates(seat, since)``, which returns the same shape.
    """

    table: str
    seat: str | None
    version: int
    events: tuple[SeenEvent, ...]
    chat: tuple[ChatLine, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seat": self.seat,
            "version": self.version,
            "events": [e.to_dict() for e in self.events],
            "chat": [c.to_dict() for c in self.chat],
        }


class HostNotice(NamedTuple):
    """Host only (a moderator, storage, the console's host mode): one accepted move, as the host sees it.

    ``seq`` is the table's sequence number; ``events`` and ``chat`` are what the move
    showed to anyone (``at == seq``); ``seats`` and ``spectator`` say which readers'
    views changed. Never forward one to a seat: it counts moves the seat cannot see.
    """

    table: str
    seq: int
    kind: str
    seat: str | None
    events: tuple[SeenEvent, ...]
    chat: tuple[ChatLine, ...]
    seats: tuple[str, ...]
    spectator: bool
