"""The board and its single write point.

:meth:`State.apply` is the only code that changes a board. The engine, replay and
:class:`~hiddenrole.testing.Board` all go through it, so a rule tested on a hand-made
board behaves exactly as it will in a game. Player records are immutable and
replaced on write (copy-on-write), which makes views and clones cheap.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .effects import EMPTY_MAP, Effect, VarScope, is_constant_map, sorted_ids
from .errors import InvalidArgument
from .views import Detour, PlayerInfo, PublicPlayerInfo, RoundContext
from .vocab import DETOUR, SET_ACTORS, SET_ALIVE, SET_VAR, START, Camp, PhaseAction, PhaseType, RoleType

__all__ = ["GameView"]

WRITES: Final = frozenset({SET_VAR, SET_ALIVE, SET_ACTORS, DETOUR})
"""The effect types :meth:`State.apply` acts on; every other type (rule events) changes nothing."""


class State:
    """Mutable board owned by one engine (or one Board). Not public."""

    __slots__ = (
        "_alive",
        "_alive_ids",
        "_all",
        "_blank",
        "_dead",
        "_index",
        "_marked",
        "_public",
        "_rows",
        "actors",
        "ancestry",
        "delayed",
        "detours",
        "held",
        "order",
        "phase",
        "players",
        "round",
        "round_vars",
        "turns",
        "vars",
        "winners",
    )

    def __init__(self) -> None:
        self.phase: PhaseType = START
        self.ancestry: tuple[PhaseType, ...] = ()
        self.round = 0
        self.players: dict[str, PlayerInfo] = {}
        self.order: list[str] = []
        self.vars: dict[str, str] = {}
        self.round_vars: dict[str, str] = {}
        self.detours: list[Detour] = []
        self.actors: dict[PhaseType, tuple[str, ...]] = {}
        self.winners: tuple[Camp, ...] | None = None
        self.turns: list[str] = []
        self.delayed: tuple[str, ...] = ()
        self.held: tuple[PhaseAction, ...] = ()
        """Round actions held while a detour is owed; they land when the queue drains."""
        self._alive: tuple[PlayerInfo, ...] | None = None
        self._alive_ids: tuple[str, ...] | None = None
        self._all: tuple[PlayerInfo, ...] | None = None
        self._public: tuple[PublicPlayerInfo, ...] | None = None
        self._index: dict[str, int] | None = None
        self._rows: list[PlayerInfo] | None = None
        """Every record in seat order, kept current by each write (one store where the record
        changes): :meth:`all_players` is a copy of it, not a lookup per seat. ``None`` once seating
        changes, rebuilt when next read; ``_index`` (seat -> place) likewise, apart (a board that is
        only read, as a restored one checked against its text, never needs it)."""
        self._dead = 0
        """How many seated players are dead: while none is, the living are every record."""
        self._blank: dict[str, tuple[str, ...] | None] | None = None
        self._marked: set[str] = set()
        """Every player who may hold round markers (a superset): :meth:`reset_round` visits these
        alone instead of every player (it runs once per round, in play and in every replay)."""

    def clone(self) -> State:
        c = State()
        c.phase = self.phase
        c.ancestry = self.ancestry
        c.round = self.round
        c.players = dict(self.players)
        c.order = list(self.order)
        c._index = self._index  # replaced or dropped, never changed, by seat()
        c._blank = self._blank  # likewise
        c._rows = None if self._rows is None else list(self._rows)
        c._dead = self._dead
        c._marked = set(self._marked)
        c.vars = dict(self.vars)
        c.round_vars = dict(self.round_vars)
        c.detours = list(self.detours)
        c.actors = dict(self.actors)
        c.winners = self.winners
        c.turns = list(self.turns)
        c.delayed = self.delayed
        c.held = self.held
        return c

    def same_as(self, other: State) -> bool:
        """Whether ``other`` holds exactly this board (every field a view or a rule can read)."""
        return (
            self.phase == other.phase
            and self.round == other.round
            and self.turns == other.turns
            and self.players == other.players
            and self.vars == other.vars
            and self.round_vars == other.round_vars
            and self.actors == other.actors
            and self.ancestry == other.ancestry
            and self.order == other.order
            and self.detours == other.detours
            and self.winners == other.winners
            and self.delayed == other.delayed
            and self.held == other.held
        )

    def seat(self, info: PlayerInfo) -> None:
        pid = info[0]
        alive = info[2]
        round_vars = info[4]
        old = self.players.get(pid)
        if old is None:
            self._place(pid)
        elif not old[2]:
            self._dead -= 1
        if not alive:
            self._dead += 1
        self.players[pid] = info
        if round_vars:
            self._marked.add(pid)
        self._reseated()

    def add(self, info: PlayerInfo) -> None:
        """Seat a new player (``info``'s id not seated), alive and with no round markers: the
        engine's seating, :meth:`seat` without the cases it cannot meet."""
        pid = info[0]
        self._place(pid)
        self.players[pid] = info
        self._reseated()

    def _place(self, pid: str) -> None:
        """Put a newly seated id in seat order."""
        order = self.order
        if not order or order[-1] < pid:
            order.append(pid)  # players usually arrive in id order (a log, a snapshot, a table)
        else:
            insort(order, pid)

    def _reseated(self) -> None:
        """Drop everything derived from seating; rebuilt when next needed, so seating a table costs
        no rebuild per seat."""
        self._index = self._rows = None
        self._alive = self._alive_ids = self._all = self._public = None
        self._blank = None

    def _store_row(self, pid: str, rec: PlayerInfo) -> None:
        """Keep ``_rows`` current after ``pid``'s record was replaced by ``rec`` (nothing while it is dropped).

        The seat's place is found in seat order by identity (a record's id is the seated id itself:
        records are made from the seated one), a few instructions a seat compiled, where a lookup in
        ``_index`` cost about 130 and building it, once per seating, about 2,000; the index serves
        when the scan finds no identical id."""
        rows = self._rows
        if rows is None:
            return
        for n, seated in enumerate(self.order):
            if seated is pid:
                rows[n] = rec
                return
        rows[self._places()[pid]] = rec

    def _placed(self) -> list[PlayerInfo]:
        """``_rows``, rebuilt if seating changed since it was last built."""
        rows = self._rows
        if rows is None:
            players = self.players
            rows = self._rows = [players[i] for i in self.order]
        return rows

    def _places(self) -> dict[str, int]:
        """``_index``, rebuilt if seating changed since it was last built."""
        index = self._index
        if index is None:
            index = self._index = {pid: n for n, pid in enumerate(self.order)}
        return index

    def blank_by_seat(self) -> dict[str, tuple[str, ...] | None]:
        """A fresh dict of every seat id to ``()``, in seat order: a copy of a template kept until
        seating changes (copying costs a fraction of building it; who-acts takes one per board)."""
        blank = self._blank
        if blank is None:
            # A comprehension, not ``dict.fromkeys``: compiled, that is a method call on ``dict``
            # (about 5,000 instructions for a 12-seat table, the comprehension's native loop 2,000).
            blank = self._blank = {pid: () for pid in self.order}
        return blank.copy()

    def alive_players(self) -> tuple[PlayerInfo, ...]:
        cached = self._alive
        if cached is None:
            # Filtered from the kept records (both are dropped together when a record changes, and a
            # phase reads both: the victory check the records, who-acts the living), with no lookup
            # per seat; the records themselves while nobody is dead. A list comprehension, not a
            # generator, here and below: the interpreter resumes a generator frame per item.
            seated = self.all_players()
            if self._dead:
                cached = self._alive = tuple([p for p in seated if p[2]])  # ``[2]``: compiled, a tuple read
            else:
                cached = self._alive = seated
        return cached

    def all_players(self) -> tuple[PlayerInfo, ...]:
        """Every player record, sorted by id; the same tuple until a record changes, so a
        rule may memoise a function of the records by the tuple's identity."""
        cached = self._all
        if cached is None:
            cached = self._all = tuple(self._placed())
        return cached

    def alive_ids(self) -> tuple[str, ...]:
        """The ids of :meth:`alive_players` (cached the same way)."""
        cached = self._alive_ids
        if cached is None:
            cached = self._alive_ids = tuple([p[0] for p in self.alive_players()])  # ``[0]``: the id, a tuple read
        return cached

    def public_infos(self, viewer: str, revealed: tuple[str, ...]) -> tuple[PublicPlayerInfo, ...]:
        """Every player as ``viewer`` sees them: ids and aliveness, roles of ``viewer`` and
        ``revealed`` only. The role-free base is cached until a player record changes."""
        base = self._public
        if base is None:
            players = self.players
            # From the tuple (the NamedTuple's keyword ``__new__`` is a Python frame per seat, even
            # compiled), the aliveness read by position; rebuilt when seating or aliveness changes.
            base = self._public = tuple([_new(_PUBLIC, (i, players[i][2], "")) for i in self.order])
        out = list(base)
        index = self._places()
        players = self.players
        n = index.get(viewer)
        if n is not None:
            p = players[viewer]
            out[n] = _new(_PUBLIC, (viewer, p[2], p[1]))
        for pid in revealed:
            n = index.get(pid)
            if n is not None:
                p = players[pid]
                out[n] = _new(_PUBLIC, (pid, p[2], p[1]))
        return tuple(out)

    def reset_round(self) -> None:
        """Clear round variables, every player's round markers and the detour queue."""
        self.round_vars = {}
        self.detours = []
        self.held = ()
        if not self._marked:
            return
        changed = False
        players = self.players
        for pid in self._marked:
            pid, role, alive, game_vars, round_vars = players[pid]
            if round_vars:
                new = players[pid] = _new(_PLAYER, (pid, role, alive, game_vars, EMPTY_MAP))
                self._store_row(pid, new)
                changed = True
        self._marked = set()
        if changed:
            self._alive = self._all = None  # records changed, who is alive did not (as in apply)

    def get_var(self, scope: VarScope, key: str) -> str:
        # By position: compiled, an attribute read is a generic lookup; in Python, unpacking a tuple
        # subclass goes through an iterator.
        per_round = scope[0]
        owner = scope[1]
        if owner:
            p = self.players.get(owner)
            if p is None:
                return ""
            cell = p[4] if per_round else p[3]  # round_vars, vars: tuple reads, compiled
            # ``in`` and ``[]``, not ``get``: compiled, ``get`` on a read-only map is a method call
            # that calls the dict's in turn.
            return cell[key] if key in cell else ""  # noqa: SIM401
        return (self.round_vars if per_round else self.vars).get(key, "")

    def apply(self, e: Effect) -> None:
        """The single write point. Cancelled effects and rule events change nothing.

        The effect's fields are read by position and the record it changes unpacked once, then
        rebuilt directly (``NamedTuple._replace`` and attribute reads cost several calls per write,
        compiled each a generic lookup: this runs for every effect of live play and of every
        replay, rule events included). The changed record is stored in its seat's row too, so the
        next :meth:`all_players` is a copy, not a lookup per seat."""
        # Effect's fields: type, source, target, data, canceled, reason, phase, alive, scope, key,
        # value, actors, role, vars, winners (0 to 14).
        if e[4]:
            return
        t = e[0]
        if t == SET_VAR:
            scope = e[8]
            per_round = scope[0]
            owner = scope[1]
            if owner:
                players = self.players
                p = players.get(owner)
                if p is None:
                    return
                pid, role, alive, game_vars, round_vars = p
                cell = round_vars if per_round else game_vars
                new = _with(cell, e[9], e[10])
                if new is cell:
                    return
                if per_round:
                    rec = _new(_PLAYER, (pid, role, alive, game_vars, new))
                    self._marked.add(pid)
                else:
                    rec = _new(_PLAYER, (pid, role, alive, new, round_vars))
                players[pid] = rec
                self._store_row(pid, rec)
                # A variable write replaces a record, not who is alive: the living ids and the
                # role-free public rows (ids and aliveness alone) stay; replay and every night's
                # markers write variables far more often than anyone dies.
                self._alive = self._all = None
            else:
                d = self.round_vars if per_round else self.vars
                key = e[9]
                value = e[10]
                if value:
                    d[key] = value
                elif key in d:
                    del d[key]  # not ``pop(key, None)``: compiled, a generic method call
        elif t == SET_ALIVE:
            p = self.players.get(e[2])
            alive = e[7]
            if p is not None and p[2] != alive:
                pid, role, _, game_vars, round_vars = p
                rec = self.players[pid] = _new(_PLAYER, (pid, role, alive, game_vars, round_vars))
                self._store_row(pid, rec)
                self._dead += -1 if alive else 1
                self._alive = self._alive_ids = self._all = self._public = None
        elif t == SET_ACTORS:
            named = e[11]
            players = self.players
            for i in named:
                if i not in players:  # an unseated id is dropped (rare): the seated ones, then sorted
                    named = tuple([i for i in named if i in players])
                    break
            self.actors[e[6]] = sorted_ids(named)  # set_actors' tuple itself, already sorted and unique
        elif t == DETOUR:
            source = e[1]
            phase = e[6]
            if phase and source:
                self.detours.append(_new(Detour, (source, phase)))  # no NamedTuple __new__ frame


WRITES_KEPT: Final = 4096
"""How many maps :func:`_with` remembers the writes of (a bound: beyond it writes are made afresh)."""
_KEPT_WRITES: Final[dict[int, dict[str, dict[str, Mapping[str, str]]]]] = {}
"""By a variable map's identity, then key, then value: the map that write makes. Only immutable maps
are entered, each kept alive for good (so its identity is never another's): the empty map and the
kernel's constant maps (kept by :mod:`~hiddenrole.effects`), and each map a remembered write made (a
read-only view of a dict nobody else holds, kept as the value of that write)."""


def _with(cell: Mapping[str, str], key: str, value: str) -> Mapping[str, str]:
    """:func:`_written`, remembered when ``cell`` is immutable (see :data:`_KEPT_WRITES`).

    Why: rules write the same few variables with the same few values game after game (One Night's
    seats start from one constant map per card, then swap cards and learn them; werewolf's seats
    likewise mark and clear), and copying the map and freezing the copy cost about 2,000
    instructions a write, compiled, three lookups about 450. Maps are values: a record holding a
    remembered map reads, compares and saves as a fresh one would. Only writes that make a new map
    are remembered (an unchanged map or an emptied one is rare), so the bound holds every entry."""
    known = _KEPT_WRITES.get(id(cell))
    if known is not None:
        writes = known.get(key)
        if writes is not None:
            got = writes.get(value)
            if got is not None:
                return got
    elif len(_KEPT_WRITES) < WRITES_KEPT and (cell is EMPTY_MAP or is_constant_map(cell)):
        known = _KEPT_WRITES.setdefault(id(cell), {})
    made = _written(cell, key, value)
    if known is not None and made is not cell and made is not EMPTY_MAP and len(_KEPT_WRITES) < WRITES_KEPT:
        # The memo is shared by every engine, and engines in other threads write at the same time
        # (pure Python may switch threads between any two steps): each step is one dict call, so no
        # entry is ever replaced, and a map is entered as a key only once the memo holds it (an
        # identity whose object died could be another map's). Another thread's equal map, entered
        # first, is taken instead of this one.
        kept = known.setdefault(key, {}).setdefault(value, made)
        if kept is not made:
            return kept
        _KEPT_WRITES.setdefault(id(made), {})  # a map just made: its own writes are remembered too
    return made


def _written(cell: Mapping[str, str], key: str, value: str) -> Mapping[str, str]:
    """Copy-on-write update of a read-only variable map; returns ``cell`` if unchanged.

    The map is copied whole first (a read-only map's own copy is the underlying dict's;
    ``dict(proxy)`` goes key by key) and the copy read natively: no generic iteration or
    lookup per key of the map (compiled, each a generic call). A new key that sorts after
    every key is added to the copy; else one ordered pass places it. A map whose keys are not
    sorted (only a hand-made record can hold one) is left to :func:`_with_unsorted` (which
    also adds a key that sorts last at the end)."""
    if cell is EMPTY_MAP:  # a record's first variable: nothing to copy
        return _PROXY({key: value}) if value else cell
    # Copied first, then read natively: ``in`` and ``[]`` on the read-only map are generic calls
    # through it, and almost every write changes the map (an unchanged value, the rare case, pays
    # the copy for nothing).
    d = cell.copy() if type(cell) is _PROXY else dict(cell)
    if key in d:
        if d[key] == value:
            return cell
        if value == "":
            del d[key]
            return _PROXY(d) if d else EMPTY_MAP
        d[key] = value  # the keys keep their order
        return _PROXY(d)
    if value == "":
        return cell
    last = ""
    for k in d:  # the last key, read natively with no comparison
        last = k
    if last < key:
        # Usually: the new key sorts after every key (or the map is empty). Added at the end, sorted
        # or not, as :func:`_with_unsorted` would too: only a key placed earlier needs the order.
        d[key] = value
        return _PROXY(d)
    prev = ""
    for k in d:
        if k < prev:
            return _with_unsorted(cell, key, value)
        prev = k
    out = {}
    placed = False
    for k, v in d.items():
        if not placed and key < k:
            out[key] = value
            placed = True
        out[k] = v
    return _PROXY(out)


def _with_unsorted(cell: Mapping[str, str], key: str, value: str) -> Mapping[str, str]:
    """:func:`_written` of a new key in a map whose keys are not sorted: the keys stay in their
    order when ``key`` sorts last, else the map is sorted."""
    d = dict(cell)
    last = next(reversed(d))
    d[key] = value
    if key > last:
        return MappingProxyType(d)
    return MappingProxyType(dict(sorted(d.items())))


_new: Final = tuple.__new__
_PROXY: Final = MappingProxyType
"""Read from a C static by compiled code (an imported name is a module dict lookup)."""
_PLAYER: Final[type[PlayerInfo]] = PlayerInfo
"""The record class, read from a C static by the compiled write point (a class name is a dict lookup)."""
_PUBLIC: Final[type[PublicPlayerInfo]] = PublicPlayerInfo
"""Likewise, the public row class (views build one per seat)."""


class GameView:
    """Read-only view of a board, handed to every extension point.

    It offers facts, never judgements. During one batch of effects it reflects the
    effects applied so far. Extension points must not keep it past their call.
    """

    __slots__ = ("_s",)

    def __init__(self, state: State) -> None:
        self._s = state

    @property
    def phase(self) -> PhaseType:
        return self._s.phase

    @property
    def round(self) -> int:
        return self._s.round

    def in_phase(self, phase: PhaseType) -> bool:
        """True if ``phase`` is the current phase or one of its compound ancestors."""
        return phase == self._s.phase or phase in self._s.ancestry

    def player(self, player_id: str) -> PlayerInfo | None:
        return self._s.players.get(player_id)

    def player_ids(self) -> tuple[str, ...]:
        """Every seated player, sorted."""
        return tuple(self._s.order)

    def all_players(self) -> tuple[PlayerInfo, ...]:
        """Every player, eliminated ones included, sorted by id.

        The same tuple is returned until a player record changes (records are replaced on
        write), so a rule that depends on the records alone may memoise on its identity."""
        return self._s.all_players()

    def alive_players(self) -> tuple[PlayerInfo, ...]:
        """Every living player, sorted by id (rules may rely on the order)."""
        return self._s.alive_players()

    def alive_player_ids_by_role(self, role: RoleType) -> tuple[str, ...]:
        """Living players holding ``role``, sorted."""
        return tuple([p[0] for p in self._s.alive_players() if p[1] == role])  # id, role: tuple reads

    def var(self, scope: VarScope, key: str) -> str:
        """One variable cell, ``""`` when unset."""
        return self._s.get_var(scope, key)

    def round_context(self) -> RoundContext:
        s = self._s
        return RoundContext(tuple(s.detours), MappingProxyType(dict(sorted(s.round_vars.items()))))

    def turn(self) -> str:
        """Whose turn it is in a turn-ordered phase (``""``: nobody's, or not turn-ordered)."""
        return self._s.turns[0] if self._s.turns else ""

    def actors(self, phase: PhaseType) -> tuple[str, ...] | None:
        """Players named to act in ``phase``, or ``None`` if nobody was named."""
        return self._s.actors.get(phase)

    def same_board(self, other: GameView) -> bool:
        """Whether ``other`` shows exactly the same board: every fact either view can report is equal.

        A host uses it to skip re-running its own pure hooks (and rebuilding views) after
        a move that left the board as it was; it costs a few comparisons, not a copy.
        """
        if not isinstance(other, GameView):
            raise InvalidArgument("same_board compares two GameViews")
        return other._s is self._s or self._s.same_as(other._s)
