"""Per-reader records: each seat's (and the spectator's) version, events, chat and last view.

A table keeps one :class:`Reader` per seat and one for spectators. After a move it
computes the new *core* of each reader that move could have touched (the view
without its events, chat and version), compares it with the last one, and counts
a change (version + 1) only when the core differs or a line reached the reader.
So a version is a function of the reader's own views, nothing else: the number of
moves it did not see never shows (docs/DESIGN.md, "Per-reader versions").
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..gamedef import Outcome
from .views import ChatLine, Notice, SeatPlayer, SeatSelf, SeenEvent, TableView

__all__ = ["Core", "Reader"]


class Core(NamedTuple):
    """The part of a view that is compared to decide whether it changed."""

    phase: str
    round: int
    turn: str
    over: bool
    players: tuple[SeatPlayer, ...]
    me: SeatSelf | None
    moves: tuple[str, ...]
    data: Mapping[str, Any]
    outcome: Outcome | None


@dataclass(slots=True)
class Reader:
    """One reader's record. ``version`` is 0 until the dealt table is first observed."""

    seat: str | None
    version: int = 0
    core: Core | None = None
    events: list[SeenEvent] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)
    cached: TableView | None = None

    def update(
        self, core: Core | None, events: list[SeenEvent], chat: list[ChatLine]
    ) -> tuple[int, list[SeenEvent], list[ChatLine]] | None:
        """File a new core (``None``: unchanged) and new lines; the new version and lines, or ``None``.

        ``events`` and ``chat`` come stamped with the next version (``version + 1``): new lines
        always change the view, and the table shares one stamped line among readers at one version.
        """
        if not (events or chat) and (core is None or core == self.core):
            return None
        self.version = at = self.version + 1
        if core is not None:
            self.core = core
        if events:
            self.events.extend(events)
        if chat:
            self.chat.extend(chat)
        self.cached = None
        return at, events, chat

    def view(self, table: str, game: str, options: Mapping[str, Any]) -> TableView:
        """The assembled view (cached until the next change)."""
        got = self.cached
        if got is None:
            c = self.core
            assert c is not None
            got = TableView(
                table,
                self.version,
                game,
                self.seat,
                c.phase,
                c.round,
                c.turn,
                c.over,
                options,
                c.players,
                c.me,
                c.moves,
                c.data,
                tuple(self.events),
                tuple(self.chat),
                c.outcome,
            )
            self.cached = got
        return got

    def since(self, table: str, version: int) -> Notice:
        """Everything that reached this reader after ``version`` (a reconnecting client's catch-up)."""
        ev = self.events[bisect_right(self.events, version, key=lambda e: e.at) :]
        ch = self.chat[bisect_right(self.chat, version, key=lambda c: c.at) :]
        return Notice(table, self.seat, self.version, tuple(ev), tuple(ch))
