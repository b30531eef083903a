"""Incremental observations: each seat's history kept from the events the table pushes to it.

Building an observation from a seat's full view converts every event the seat ever
saw again at every decision, so a game's cost grew with the square of its length.
A :class:`SeatFeed` subscribes to each seat's notices (``Table.subscribe``), converts
only the new lines as they arrive, and hands :func:`observe` the history it holds.
What it holds is exactly what was pushed to that seat, so the boundary is the host's
per-seat notices and nothing else. A guard compares the history's length and last
version with the view's; on any mismatch (an undone move rewrote the history) the
seat's history is rebuilt from its view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hiddenrole.host import Notice, Table, TableView

from .observation import Observation, SeenChat, SeenEvent, observe, seen_chat, seen_events

__all__ = ["SeatFeed"]


class _History:
    __slots__ = ("chat", "chat_at", "events", "events_at", "frozen")

    def __init__(self) -> None:
        self.events: list[SeenEvent] = []
        self.chat: list[SeenChat] = []
        self.events_at = 0
        self.chat_at = 0
        self.frozen: tuple[tuple[SeenEvent, ...], tuple[SeenChat, ...]] | None = None

    def reset(self, view: TableView) -> None:
        self.events = seen_events(view.events)
        self.chat = seen_chat(view.chat)
        self.events_at = view.events[-1].at if view.events else 0
        self.chat_at = view.chat[-1].at if view.chat else 0
        self.frozen = None

    def push(self, notice: Notice) -> None:
        if notice.events:
            self.events.extend(seen_events(notice.events, len(self.events)))
            self.events_at = notice.events[-1].at
            self.frozen = None
        if notice.chat:
            self.chat.extend(seen_chat(notice.chat, len(self.chat)))
            self.chat_at = notice.chat[-1].at
            self.frozen = None

    def matches(self, view: TableView) -> bool:
        return (
            len(self.events) == len(view.events)
            and len(self.chat) == len(view.chat)
            and (not view.events or view.events[-1].at == self.events_at)
            and (not view.chat or view.chat[-1].at == self.chat_at)
        )

    def history(self) -> tuple[tuple[SeenEvent, ...], tuple[SeenChat, ...]]:
        if self.frozen is None:
            self.frozen = (tuple(self.events), tuple(self.chat))
        return self.frozen


class SeatFeed:
    """Per seat, the observation history built from the notices ``table`` pushes to that seat.

    Use as a :class:`~hiddenrole.agents.SeatRunner` ``observe_fn`` (the runner does by
    default); :meth:`close` unsubscribes.
    """

    def __init__(self, table: Table, seats: Iterable[str] | None = None) -> None:
        self.table = table
        self._histories: dict[str, _History] = {}
        self._unsubscribe: list[Callable[[], None]] = []
        for seat in sorted(seats if seats is not None else table.seats):
            h = self._histories[seat] = _History()
            self._unsubscribe.append(table.subscribe(seat, h.push))
            h.reset(table.view(seat))

    def __call__(self, table: Table, seat: str, error: str) -> Observation:
        """``seat``'s observation now (the runner's ``observe_fn`` signature)."""
        view = table.view(seat)
        h = self._histories.get(seat) if table is self.table else None
        if h is None:
            return observe(view, table.rules.config, error)
        if not h.matches(view):
            h.reset(view)
        return observe(view, table.rules.config, error, history=h.history())

    def close(self) -> None:
        for off in self._unsubscribe:
            off()
        self._unsubscribe.clear()
