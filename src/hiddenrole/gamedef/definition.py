"""What a game declares to be hosted: :class:`GameDefinition`.

The kernel runs one game; a definition tells a host how to open *tables* of it:
how many seats (and how many by default), which options a table may set, which
preferences a player may set, what the game reports when it ends, whether a move
may be taken back, and, through hooks (:mod:`.hooks`), how a table is dealt and
which random draws a move needs. It lives below the games so that each rules
package declares its own definition next to its rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .defaults import roles_public_at_end
from .errors import InvalidGame, InvalidOptions
from .hooks import AllowsHook, ArrangeHook, DrawsHook, OutcomeHook, PublicHook, PublicRolesHook, SetupHook
from .options import Option, OptionKind, Settings, check_name
from .outcome import Outcome, Statistic, StatScope

__all__ = ["MIN_SEATS", "MAX_SEATS", "GameDefinition"]

MIN_SEATS: Final = 1
MAX_SEATS: Final = 64


@dataclass(frozen=True)
class GameDefinition:
    """Everything a host needs to open, run and replay tables of one game.

    ``version`` is the version of the rules as hosted: a log written under another
    version is refused, so bump it whenever a change could make an old log replay
    differently. ``setup`` deals a table; the other hooks are optional (see
    :mod:`.hooks`). ``public_roles`` defaults to the shared rule of hidden-role games,
    every role revealed once the game is over (:func:`.defaults.roles_public_at_end`).
    ``default_seats`` is the seat count a lobby or console offers first (``0``, the
    default, means ``min_seats``). With ``auto_advance`` the table ends a phase by
    itself as soon as the kernel says it is ready; otherwise the host sends ``end-phase``.
    """

    name: str
    version: str
    setup: SetupHook
    min_seats: int = 1
    max_seats: int = 64
    default_seats: int = 0
    options: tuple[Option, ...] = ()
    preferences: tuple[Option, ...] = ()
    statistics: tuple[Statistic, ...] = ()
    undo: bool = False
    auto_advance: bool = False
    draws: DrawsHook | None = None
    allows: AllowsHook | None = None
    outcome: OutcomeHook | None = None
    public: PublicHook | None = None
    public_roles: PublicRolesHook | None = roles_public_at_end
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
        seats = self.default_seats
        if (
            isinstance(seats, bool)
            or not isinstance(seats, int)
            or not (seats == 0 or self.min_seats <= seats <= self.max_seats)
        ):
            raise InvalidGame(
                f"game {self.name!r}: default_seats must be 0 or a whole number in {self.min_seats}..{self.max_seats}"
            )
        object.__setattr__(self, "default_seats", seats or self.min_seats)
        for attr in ("options", "preferences", "statistics"):
            value = getattr(self, attr)
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise InvalidGame(f"game {self.name!r}: {attr} must be a sequence")
            object.__setattr__(self, attr, tuple(value))
        self._check_declared("option", self.options, Option)
        self._check_declared("preference", self.preferences, Option)
        for declared in (self.options, self.preferences):
            self._check_requires(declared)
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

    def _check_requires(self, declared: tuple[Option, ...]) -> None:
        """Each ``requires`` names another declared option and a value that option may hold."""
        by_name = {o.name: o for o in declared}
        for o in declared:
            if o.requires is None:
                continue
            other, value = o.requires
            target = by_name.get(other)
            if target is None:
                raise InvalidGame(f"game {self.name!r}: option {o.name!r} requires {other!r}, which is not declared")
            problem = target.problem(value)
            if problem:
                raise InvalidGame(f"game {self.name!r}: option {o.name!r} requires {other}={value!r}: {problem}")

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
            if o.requires is not None:
                d["requires"] = {"option": o.requires[0], "value": o.requires[1]}
            return d

        return {
            "name": self.name,
            "version": self.version,
            "summary": self.summary,
            "seats": {"min": self.min_seats, "max": self.max_seats, "default": self.default_seats},
            "options": [opt(o) for o in self.options],
            "preferences": [opt(o) for o in self.preferences],
            "statistics": [{"name": s.name, "scope": s.scope.value} for s in self.statistics],
            "undo": self.undo,
        }
