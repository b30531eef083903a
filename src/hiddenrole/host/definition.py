"""What a game declares to be hosted: :class:`GameDefinition` and the values its hooks exchange.

The kernel runs one game; a definition tells a host how to open *tables* of it:
how many seats, which options a table may set, which preferences a player may
set, what the game reports when it ends, whether a move may be taken back, and,
through hooks, how a table is dealt and which random draws a move needs.

Hooks are plain functions. Every one of them except ``arrange`` receives a
:class:`Context` (a detached god view plus the table's options and seats) and must be
pure: the same arguments give the same answer, so that replaying a log rebuilds the
same table. ``arrange`` receives only what a seat may already see, so preferences
can change how a seat sees things but never what it sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import hiddenrole as hr

from .errors import InvalidGame, InvalidOptions
from .options import Option, OptionKind, Settings, check_name

if TYPE_CHECKING:
    from .views import TableView

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
    "Move",
    "Context",
    "Draw",
    "Deal",
    "StatScope",
    "Statistic",
    "Outcome",
    "GameDefinition",
    "SetupHook",
    "DrawsHook",
    "AllowsHook",
    "OutcomeHook",
    "PublicHook",
    "PublicRolesHook",
    "ArrangeHook",
]

ACT: Final = "act"
"""A seat uses a skill (``engine.submit``)."""
SAY: Final = "say"
"""A seat speaks to whoever may hear it (``engine.send_message``)."""
END_TURN: Final = "end-turn"
"""The seat with the turn ends it early (``engine.end_turn``)."""
DELAY_TURN: Final = "delay-turn"
"""The seat with the turn waits until the others have acted (``engine.delay_turn``)."""
END_PHASE: Final = "end-phase"
"""The host resolves the phase and moves on (``engine.end_phase``)."""
UNDO: Final = "undo"
"""Take back the last move that still stands."""
MOVE_KINDS: Final = (ACT, SAY, END_TURN, DELAY_TURN, END_PHASE, UNDO)

MIN_SEATS: Final = 1
MAX_SEATS: Final = 64


class Move(NamedTuple):
    """One move, as a seat (or the host, ``seat=None``) makes it and the log records it."""

    kind: str
    seat: str | None = None
    skill: str = ""
    targets: tuple[str, ...] = ()
    text: str = ""


class Context(NamedTuple):
    """What a hook may read: a detached god view of the board, the rules and the table's settings.

    ``effects`` (the kernel's record so far) is filled for the ``outcome`` hook only,
    so that statistics can count what happened; other hooks see ``()``.
    """

    view: hr.GameView
    options: Settings
    seats: tuple[str, ...]
    rules: hr.Rules
    effects: tuple[hr.Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """One random draw a move needs; the table makes it and writes the result to a variable.

    ``choices``: the value is one of them, uniformly. With ``shuffle`` the value is all
    of them in a random order, joined by commas (a shuffled deck counts as one draw).
    """

    key: str
    choices: tuple[str, ...]
    scope: hr.VarScope = hr.GAME
    shuffle: bool = False

    @classmethod
    def die(cls, key: str, sides: int = 6, scope: hr.VarScope = hr.GAME) -> Draw:
        """A die showing 1..``sides``."""
        if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= 1000:
            raise InvalidGame(f"a die has 1..1000 sides, not {sides!r}")
        return cls(key, tuple(str(n) for n in range(1, sides + 1)), scope)

    @classmethod
    def pick(cls, key: str, choices: Sequence[str], scope: hr.VarScope = hr.GAME) -> Draw:
        """One of ``choices``."""
        return cls(key, tuple(choices), scope)

    @classmethod
    def shuffled(cls, key: str, items: Sequence[str], scope: hr.VarScope = hr.GAME) -> Draw:
        """``items`` in a random order."""
        return cls(key, tuple(items), scope, shuffle=True)

    def check(self) -> None:
        """Raise :class:`InvalidGame` if the hook built a draw the table cannot make."""
        if not isinstance(self.key, str) or not self.key:
            raise InvalidGame("a draw needs a variable name")
        if not isinstance(self.scope, hr.VarScope):
            raise InvalidGame(f"draw {self.key!r}: scope must be a hiddenrole.VarScope")
        if isinstance(self.choices, str) or not self.choices:
            raise InvalidGame(f"draw {self.key!r}: nothing to draw from")
        for c in self.choices:
            if not isinstance(c, str) or not c or (self.shuffle and "," in c):
                raise InvalidGame(f"draw {self.key!r}: bad value {c!r}")

    def make(self, rng: random.Random) -> str:
        """The drawn value (uses only ``rng``, so a replay draws the same)."""
        if self.shuffle:
            return ",".join(rng.sample(self.choices, len(self.choices)))
        return self.choices[rng.randrange(len(self.choices))]


@dataclass(frozen=True, slots=True)
class Deal:
    """How one table is set up: the rules to play and the role dealt to each seat."""

    rules: hr.Rules
    roles: Mapping[str, str]


class StatScope(StrEnum):
    TABLE = "table"
    SEAT = "seat"


@dataclass(frozen=True, slots=True)
class Statistic:
    """A whole number the game reports when it ends, for the table or for each seat."""

    name: str
    scope: StatScope

    @classmethod
    def table(cls, name: str) -> Statistic:
        return cls(name, StatScope.TABLE)

    @classmethod
    def seat(cls, name: str) -> Statistic:
        return cls(name, StatScope.SEAT)

    def __post_init__(self) -> None:
        check_name(self.name, "statistic name")
        try:
            object.__setattr__(self, "scope", StatScope(self.scope))
        except ValueError:
            raise InvalidGame(f"statistic {self.name!r}: scope must be 'table' or 'seat'") from None


def _int_map(raw: object, what: str) -> Mapping[str, int]:
    if not isinstance(raw, Mapping):
        raise InvalidGame(f"{what} must be a mapping of name to whole number")
    for k, v in raw.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int):
            raise InvalidGame(f"{what}: {k!r} must be a whole number, got {v!r}")
    return MappingProxyType(dict(sorted(raw.items())))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a table ended: the winning seats (none for a draw), the game's word, the statistics.

    A statistic the game leaves out reads as ``None``.
    """

    winners: tuple[str, ...]
    ending: str
    table: Mapping[str, int] = field(default_factory=dict)
    seats: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.winners, str) or not all(isinstance(w, str) for w in self.winners):
            raise InvalidGame("outcome winners must be a sequence of seat names")
        object.__setattr__(self, "winners", tuple(sorted(set(self.winners))))
        if not isinstance(self.ending, str) or not self.ending:
            raise InvalidGame("an outcome needs the game's word for the ending")
        object.__setattr__(self, "table", _int_map(self.table, "table statistics"))
        if not isinstance(self.seats, Mapping):
            raise InvalidGame("seat statistics must map each seat to its statistics")
        seats = {str(k): _int_map(v, f"statistics of seat {k!r}") for k, v in self.seats.items()}
        object.__setattr__(self, "seats", MappingProxyType(dict(sorted(seats.items()))))

    def stat(self, name: str) -> int | None:
        """A table statistic, or ``None`` if the game did not report it."""
        return self.table.get(name)

    def seat_stat(self, seat: str, name: str) -> int | None:
        """A seat statistic, or ``None`` if the game did not report it."""
        return self.seats.get(seat, {}).get(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "ending": self.ending,
            "table": dict(self.table),
            "seats": {s: dict(v) for s, v in self.seats.items()},
        }


SetupHook = Callable[[Settings, tuple[str, ...], random.Random], Deal]
"""``(options, seats, rng) -> Deal``: the only hook that may use randomness, and only ``rng``."""
DrawsHook = Callable[[Move, Context], Iterable[Draw]]
"""``(move, ctx) -> draws``: the random draws ``move`` needs before the kernel sees it."""
AllowsHook = Callable[[Move, Context], str | None]
"""``(move, ctx) -> reason``: ``None`` or ``""`` allows; any text refuses the move with that reason."""
OutcomeHook = Callable[[Context, tuple[str, ...]], Outcome]
"""``(ctx, winning camps) -> Outcome``: called once, when the kernel says the game is over."""
PublicHook = Callable[[Context], Mapping[str, Any]]
"""``ctx -> data``: game data every seat and every spectator may see (JSON-ready values)."""
PublicRolesHook = Callable[[Context], Mapping[str, str]]
"""``ctx -> {seat: role}``: roles that are public now (e.g. all of them once the game is over)."""
ArrangeHook = Callable[["TableView", Settings], "TableView"]
"""``(view, preferences) -> view``: reorder or reshape what a seat already sees."""


@dataclass(frozen=True)
class GameDefinition:
    """Everything a host needs to open, run and replay tables of one game.

    ``version`` is the version of the rules as hosted: a log written under another
    version is refused, so bump it whenever a change could make an old log replay
    differently. ``setup`` deals a table; the other hooks are optional (see the
    type aliases above). With ``auto_advance`` the table ends a phase by itself as
    soon as the kernel says it is ready; otherwise the host sends ``end-phase``.
    """

    name: str
    version: str
    setup: SetupHook
    min_seats: int = 1
    max_seats: int = 64
    options: tuple[Option, ...] = ()
    preferences: tuple[Option, ...] = ()
    statistics: tuple[Statistic, ...] = ()
    undo: bool = False
    auto_advance: bool = False
    draws: DrawsHook | None = None
    allows: AllowsHook | None = None
    outcome: OutcomeHook | None = None
    public: PublicHook | None = None
    public_roles: PublicRolesHook | None = None
    arrange: ArrangeHook | None = None
    summary: str = ""

    def __post_init__(self) -> None:
        check_name(self.name, "game name")
        if not isinstance(self.version, str) or not self.version.strip():
            raise InvalidGame(f"game {self.name!r}: the rules version must be a non-empty text")
        for attr in ("min_seats", "max_seats"):
            value = getattr(self, attr)
            if isinstance(value, bool) or not isinstance(value, int) or not MIN_SEATS <= value <= MAX_SEATS:
                raise InvalidGame(f"game {self.name!r}: {attr} must be a whole number in {MIN_SEATS}..{MAX_SEATS}")
        if self.min_seats > self.max_seats:
            raise InvalidGame(f"game {self.name!r}: min_seats {self.min_seats} is above max_seats {self.max_seats}")
        for attr in ("options", "preferences", "statistics"):
            value = getattr(self, attr)
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise InvalidGame(f"game {self.name!r}: {attr} must be a sequence")
            object.__setattr__(self, attr, tuple(value))
        self._check_declared("option", self.options, Option)
        self._check_declared("preference", self.preferences, Option)
        self._check_declared("statistic", self.statistics, Statistic)
        for attr in ("undo", "auto_advance"):
            if not isinstance(getattr(self, attr), bool):
                raise InvalidGame(f"game {self.name!r}: {attr} must be true or false")
        if not callable(self.setup):
            raise InvalidGame(f"game {self.name!r}: setup must be a function")
        for attr in ("draws", "allows", "outcome", "public", "public_roles", "arrange"):
            hook = getattr(self, attr)
            if hook is not None and not callable(hook):
                raise InvalidGame(f"game {self.name!r}: {attr} must be a function or None")
        if not isinstance(self.summary, str):
            raise InvalidGame(f"game {self.name!r}: summary must be a text")

    def _check_declared(self, what: str, items: tuple[Any, ...], kind: type[Option] | type[Statistic]) -> None:
        seen: set[str] = set()
        for item in items:
            if not isinstance(item, kind):
                raise InvalidGame(f"game {self.name!r}: {what}s must be {kind.__name__} values, got {item!r}")
            if item.name in seen:
                raise InvalidGame(f"game {self.name!r}: two {what}s are named {item.name!r}")
            seen.add(item.name)

    # ------------------------------------------------------------------ settings

    def resolve_options(self, given: Mapping[str, object] | None = None) -> Settings:
        """The table options: defaults overlaid with ``given``; raises :class:`InvalidOptions`."""
        return Settings.resolve(self.options, given, what="option")

    def resolve_preferences(self, given: Mapping[str, object] | None = None) -> Settings:
        """A player's preferences; raises :class:`InvalidPreferences`."""
        return Settings.resolve(self.preferences, given, what="preference")

    def parse_options(self, texts: Mapping[str, str]) -> Settings:
        """Options typed as text (``"target": "30"``), read by each option's kind, then resolved."""
        return self.resolve_options(self._parse(self.options, texts, "option"))

    def parse_preferences(self, texts: Mapping[str, str]) -> Settings:
        """Preferences typed as text, read by each preference's kind, then resolved."""
        return self.resolve_preferences(self._parse(self.preferences, texts, "preference"))

    @staticmethod
    def _parse(declared: tuple[Option, ...], texts: Mapping[str, str], what: str) -> dict[str, object]:
        if not isinstance(texts, Mapping):
            raise InvalidOptions(f"{what}s must be a mapping of name to text")
        by_name = {o.name: o for o in declared}
        out: dict[str, object] = {}
        for name, text in texts.items():
            option = by_name.get(name)
            out[name] = text if option is None else option.parse(text)
        return out

    # ------------------------------------------------------------------ statistics

    def statistic_scope(self, name: str) -> StatScope | None:
        """Where ``name`` is declared, or ``None``."""
        for s in self.statistics:
            if s.name == name:
                return s.scope
        return None

    def check_outcome(self, outcome: object, seats: tuple[str, ...]) -> Outcome:
        """Raise :class:`InvalidGame` unless ``outcome`` names seats at the table and declared statistics."""
        if not isinstance(outcome, Outcome):
            raise InvalidGame(f"game {self.name!r}: outcome hook returned {type(outcome).__name__}, not an Outcome")
        at_table = set(seats)
        for w in outcome.winners:
            if w not in at_table:
                raise InvalidGame(f"game {self.name!r}: winner {w!r} is not a seat at this table")
        for name in outcome.table:
            self._check_stat(name, StatScope.TABLE)
        for seat, stats in outcome.seats.items():
            if seat not in at_table:
                raise InvalidGame(f"game {self.name!r}: statistics for {seat!r}, who is not at this table")
            for name in stats:
                self._check_stat(name, StatScope.SEAT)
        return outcome

    def _check_stat(self, name: str, scope: StatScope) -> None:
        declared = self.statistic_scope(name)
        if declared is None:
            raise InvalidGame(f"game {self.name!r}: statistic {name!r} is not declared")
        if declared is not scope:
            raise InvalidGame(f"game {self.name!r}: statistic {name!r} is declared per {declared.value}, not {scope}")

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description (for a lobby or a help screen)."""

        def opt(o: Option) -> dict[str, Any]:
            d: dict[str, Any] = {"name": o.name, "kind": o.kind.value, "default": o.default}
            if o.kind is OptionKind.INTEGER:
                d["minimum"], d["maximum"] = o.minimum, o.maximum
            if o.kind is OptionKind.CHOICE:
                d["choices"] = list(o.choices)
            if o.help:
                d["help"] = o.help
            return d

        return {
            "name": self.name,
            "version": self.version,
            "summary": self.summary,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": [opt(o) for o in self.options],
            "preferences": [opt(o) for o in self.preferences],
            "statistics": [{"name": s.name, "scope": s.scope.value} for s in self.statistics],
            "undo": self.undo,
        }
