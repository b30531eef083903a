"""What a game reports when a table ends: :class:`Outcome` and the :class:`Statistic` values it may carry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .errors import InvalidGame
from .options import check_name

__all__ = ["StatScope", "Statistic", "Outcome"]


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
