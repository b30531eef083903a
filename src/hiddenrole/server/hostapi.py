"""The one module of the server that knows the host :class:`~hiddenrole.host.Table` API.

Everything else in the server talks to a :class:`Game`: per-seat versions, per-seat
notices (version, new events, new chat) and views with no global counter in them.
Until the host layer numbers views per seat itself, this adapter derives it: after
every move it rebuilds each reader's view, and a reader's version advances only when
its view (with every move counter taken out) changed. A hidden move therefore
changes nobody's version but the mover's, and events and chat lines are numbered by
their place in the reader's own list, not by the table's move count.

The global sequence number (the log length) stays here, for storage's compare-and-set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import hiddenrole as hr
from hiddenrole.host import (
    END_PHASE,
    GameDefinition,
    Move,
    Outcome,
    StaleMove,
    Table,
    TableHeader,
    TableLog,
)
from hiddenrole.host.catalog import NAMES, get

__all__ = ["Game", "Notice", "Reader", "SPECTATOR", "definition", "game_names", "PhaseFacts"]

Reader = str | None
"""A seat name, or ``None`` for the spectator."""
SPECTATOR: Reader = None


class Notice(NamedTuple):
    """What one reader learns from one move: its new version and what it newly sees."""

    version: int
    events: tuple[dict[str, Any], ...]
    chat: tuple[dict[str, Any], ...]


class PhaseFacts(NamedTuple):
    """Host-only facts about the current phase, for the deadline policy (never sent to a seat)."""

    phase: str
    round: int
    over: bool
    timeout: float
    public_actors: bool
    """Every step of the phase is open to every living seat (so who may act is public)."""
    all_acted: bool
    """Every living seat that may act now has acted (only meaningful with ``public_actors``)."""


@dataclass(slots=True)
class _Seen:
    version: int = 0
    key: bytes = b""
    events: int = 0
    chat: int = 0
    marks: list[tuple[int, int]] = field(default_factory=lambda: [(0, 0)])
    """(events, chat) counts at each version, so a reconnecting reader can be resynced."""


def game_names() -> tuple[str, ...]:
    return NAMES


def definition(name: str) -> GameDefinition:
    """The catalog's definition (raises the host's ``InvalidGame`` for an unknown name)."""
    return get(name)


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    """A view dict without any global counter: events and chat numbered within the view."""
    view.pop("seq", None)
    for i, e in enumerate(view["events"], 1):
        e.pop("seq", None)
        e["n"] = i
    for i, c in enumerate(view["chat"], 1):
        c.pop("seq", None)
        c["n"] = i
    return view


class Game:
    """A hosted table with per-reader versions. Not thread-safe: the server serialises calls per table."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self.readers: tuple[Reader, ...] = (*table.seats, SPECTATOR)
        self._seen: dict[Reader, _Seen] = {r: _Seen() for r in self.readers}
        self.phase_serial = 0
        """Phases entered since the table opened (a phase entered again counts again)."""
        self._refresh()

    # ------------------------------------------------------------------ building

    @classmethod
    def open(
        cls,
        game: str,
        seats: int,
        options: Mapping[str, object] | None,
        seed: int | None,
        table_id: str,
    ) -> Game:
        return cls(Table.open(definition(game), seats, options, seed, table_id=table_id))

    @classmethod
    def fresh(cls, header: TableHeader) -> Game:
        """The table ``header`` describes, before any move (moves are then replayed with :meth:`play`,
        one by one, so every reader's version is what it was live)."""
        d = definition(header.game)
        if header.version != d.version:
            raise hr.RulesMismatch(f"stored table is {header.game} version {header.version}, host has {d.version}")
        return cls(Table(d, header))

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self._table.id

    @property
    def header(self) -> TableHeader:
        return self._table.header

    @property
    def seats(self) -> tuple[str, ...]:
        return self._table.seats

    @property
    def seq(self) -> int:
        """Host only: the global move count (storage's compare-and-set key)."""
        return self._table.seq

    @property
    def over(self) -> bool:
        return self._table.over

    @property
    def outcome(self) -> Outcome | None:
        return self._table.outcome

    @property
    def rules(self) -> hr.Rules:
        """The public rules (phase configuration) a bot reads to shape its targets."""
        return self._table.rules

    @property
    def auto_advance(self) -> bool:
        return self._table.definition.auto_advance

    def log(self) -> TableLog:
        return self._table.log()

    def last_move(self) -> LoggedMove:
        return self._table.moves()[-1]

    def version(self, reader: Reader) -> int:
        return self._seen[reader].version

    def view(self, reader: Reader) -> dict[str, Any]:
        """The reader's view as JSON-ready data, with its version and no global counter."""
        view = _strip(self._table.view(reader).to_dict())
        view["version"] = self._seen[reader].version
        return view

    def since(self, reader: Reader, version: int) -> Notice:
        """Everything the reader saw after ``version`` (for a reconnect)."""
        seen = self._seen[reader]
        if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= seen.version:
            raise StaleMove(f"version {version!r} is not one this reader has seen", version, seen.version)
        view = self.view(reader)
        ev, ch = seen.marks[version]
        return Notice(seen.version, tuple(view["events"][ev:]), tuple(view["chat"][ch:]))

    def facts(self) -> PhaseFacts:
        status = self._table.status()
        config = self._table.rules.config
        pc = config.phases.get(status.phase)
        acting = [s for s in (pc.steps if pc is not None else ()) if s.skill and s.role != hr.SYSTEM]
        public = bool(acting) and all(s.role == "" for s in acting)
        all_acted = False
        if public and not status.over:
            ready = self._table.readiness()
            all_acted = bool(ready.acted) and not ready.pending and not ready.optional
        return PhaseFacts(status.phase, status.round, status.over, config.phase_timeout(status.phase), public, all_acted)

    # ------------------------------------------------------------------ moving

    def check_against(self, reader: Reader, against: int | None) -> None:
        if against is None:
            return
        current = self._seen[reader].version
        if against != current:
            raise StaleMove(f"the move was made against version {against}, your view is at {current}", against, current)

    def play(self, move: Move) -> dict[Reader, Notice]:
        """Make ``move`` (the host's when ``move.seat`` is ``None``); the notices of the readers it changed.

        On a refusal the table is unchanged and the typed error propagates.
        """
        before = self._table.status()
        self._table.play(move)
        after = self._table.status()
        if move.kind == END_PHASE or (before.phase, before.round) != (after.phase, after.round):
            self.phase_serial += 1
        return self._refresh()

    def end_phase(self) -> dict[Reader, Notice]:
        return self.play(Move(END_PHASE))

    def _refresh(self) -> dict[Reader, Notice]:
        out: dict[Reader, Notice] = {}
        for reader in self.readers:
            view = _strip(self._table.view(reader).to_dict())
            key = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
            seen = self._seen[reader]
            if key == seen.key:
                continue
            first = not seen.key
            seen.key = key
            ev, ch = seen.events, seen.chat
            seen.events, seen.chat = len(view["events"]), len(view["chat"])
            if first:  # the view at opening is version 0; what it holds counts as seen at 0
                seen.marks[0] = (seen.events, seen.chat)
                continue
            seen.version += 1
            seen.marks.append((seen.events, seen.chat))
            out[reader] = Notice(seen.version, tuple(view["events"][ev:]), tuple(view["chat"][ch:]))
        return out
