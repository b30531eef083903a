"""Helpers for testing a ruleset's pieces without running a game.

Lay out a position by hand with :class:`Board` and :func:`seat`, hand ``board.view()``
to a resolver, fold its effects back with :meth:`Board.apply` (the engine's own write
point, without interceptors) and assert on the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .effects import EMPTY_MAP, Effect, VarScope, coerce_effects, frozen_map
from .errors import InvalidArgument
from .state import GameView, State
from .views import Detour, PlayerInfo
from .vocab import VAR_PRESENT, PhaseType, RoleType

__all__ = ["Board", "seat", "mark"]


def seat(player_id: str, role: RoleType, alive: bool = True, vars: Mapping[str, str] | None = None) -> PlayerInfo:
    """A player record for a hand-made board."""
    if not isinstance(player_id, str) or not player_id or not isinstance(role, str):
        raise InvalidArgument("seat() needs a non-empty id and a role")
    return PlayerInfo(player_id, role, bool(alive), frozen_map(vars))


def mark(player: PlayerInfo, *keys: str) -> PlayerInfo:
    """``player`` with round markers ``keys`` set to :data:`VAR_PRESENT`."""
    rv = dict(player.round_vars)
    for k in keys:
        rv[k] = VAR_PRESENT
    return player._replace(round_vars=frozen_map(rv))


@dataclass(frozen=True)
class Board:
    """A position laid out by hand. ``ancestry`` lists the phase's compound parents;
    ``detours`` is the round's detour queue (head first)."""

    players: tuple[PlayerInfo, ...] = ()
    round: int = 1
    phase: PhaseType = ""
    ancestry: tuple[PhaseType, ...] = ()
    vars: Mapping[str, str] = field(default_factory=lambda: EMPTY_MAP)
    round_vars: Mapping[str, str] = field(default_factory=lambda: EMPTY_MAP)
    actors: Mapping[PhaseType, tuple[str, ...]] = field(default_factory=dict)
    detours: tuple[Detour, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "ancestry", tuple(self.ancestry))
        object.__setattr__(self, "detours", tuple(Detour(*d) for d in self.detours))
        if self.round == 0:
            object.__setattr__(self, "round", 1)

    def _state(self) -> State:
        s = State()
        s.phase = self.phase
        s.ancestry = self.ancestry
        s.round = self.round
        for p in self.players:
            s.seat(p._replace(vars=frozen_map(p.vars), round_vars=frozen_map(p.round_vars)))
        s.vars = dict(self.vars)
        s.round_vars = dict(self.round_vars)
        s.actors = {k: tuple(v) for k, v in self.actors.items()}
        s.detours = list(self.detours)
        return s

    def view(self) -> GameView:
        """A read-only view of this position, as an extension point would get it."""
        return GameView(self._state())

    def apply(self, effects: Iterable[Effect]) -> Board:
        """The board after ``effects``, through the engine's single write point."""
        s = self._state()
        for e in coerce_effects(effects, "Board.apply"):
            s.apply(e)
        players = s.players
        return Board(
            tuple(players[i] for i in s.order),
            s.round,
            s.phase,
            s.ancestry,
            frozen_map(s.vars),
            frozen_map(s.round_vars),
            dict(s.actors),
            tuple(s.detours),
        )

    def player(self, player_id: str) -> PlayerInfo | None:
        for p in self.players:
            if p.id == player_id:
                return p
        return None

    def var(self, scope: VarScope, key: str) -> str:
        return self._state().get_var(scope, key)
