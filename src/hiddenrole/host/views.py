"""What one seat (or a spectator) reads of a table: :class:`TableView` and its parts.

A view is built fresh for each reader from the table's current state and holds
nothing that reader may not see. ``to_dict`` gives the JSON a server sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..gamedef import Outcome

__all__ = ["SeatPlayer", "SeatSelf", "SeenEvent", "ChatLine", "TableView"]


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Another seat as the reader knows it: ``role`` is ``""`` unless the reader may know it."""

    seat: str
    alive: bool
    role: str = ""


@dataclass(frozen=True, slots=True)
class SeatSelf:
    """What a seat knows about itself and may do now."""

    seat: str
    role: str
    camp: str
    alive: bool
    allowed_skills: tuple[str, ...]
    teammates: tuple[str, ...]
    role_info: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """A published event the reader may see, with the sequence number of the move that caused it."""

    seq: int
    type: str
    source: str = ""
    target: str = ""
    data: Mapping[str, str] = field(default_factory=dict)
    canceled: bool = False
    """A vetoed action (e.g. a tied wolf vote): shown to whom the rules allow, marked as such."""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line said at the table that the reader heard."""

    seq: int
    sender: str
    text: str
    phase: str
    round: int


@dataclass(frozen=True)
class TableView:
    """A table as one reader may see it. ``seat`` is ``None`` for a spectator.

    ``moves`` lists the kinds of move the reader may make now; ``data`` is the game's
    public data (shaped by the reader's preferences); ``outcome`` appears once the
    table is over.
    """

    table: str
    seq: int
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
        me = None
        if self.me is not None:
            m = self.me
            me = {
                "seat": m.seat,
                "role": m.role,
                "camp": m.camp,
                "alive": m.alive,
                "allowed_skills": list(m.allowed_skills),
                "teammates": list(m.teammates),
                "role_info": dict(m.role_info),
            }
        return {
            "table": self.table,
            "seq": self.seq,
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
            "events": [
                {"seq": e.seq, "type": e.type, "source": e.source, "target": e.target, "data": dict(e.data)}
                | ({"canceled": True, "reason": e.reason} if e.canceled else {})
                for e in self.events
            ],
            "chat": [
                {"seq": c.seq, "sender": c.sender, "text": c.text, "phase": c.phase, "round": c.round}
                for c in self.chat
            ],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }
