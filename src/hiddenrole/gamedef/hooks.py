"""The values a definition's hooks exchange with the table: moves, context, draws, deals, and the hook types.

Hooks are plain functions. Every one of them except ``arrange`` receives a
:class:`Context` (a detached god view plus the table's options and seats) and must be
pure: the same arguments give the same answer, so that replaying a log rebuilds the
same table. ``arrange`` receives only what a seat may already see, so preferences
can change how a seat sees things but never what it sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import hiddenrole as hr

from .errors import InvalidGame
from .options import Settings
from .outcome import Outcome

__all__ = [
    "ACT",
    "SAY",
    "END_TURN",
    "DELAY_TURN",
    "END_PHASE",
    "UNDO",
    "MOVE_KINDS",
    "Move",
    "Context",
    "Draw",
    "Deal",
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
ArrangeHook = Callable[[Any, Settings], Any]
"""``(view, preferences) -> view``: reorder or reshape what a seat already sees.

The view is the host's ``hiddenrole.host.TableView``, a frozen dataclass; the host
checks that the hook returns the same seat's view. It is typed ``Any`` here because
the view type belongs to the host, a layer above the games that declare this hook
(a game reshapes it with ``dataclasses.replace``)."""
