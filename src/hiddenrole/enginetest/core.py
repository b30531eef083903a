"""The harness's vocabulary: invariant ids, the error, a deal, a turn, an observation.

Plain immutable data and a few callable types; nothing here drives an engine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import hiddenrole as hr

__all__ = [
    "Act",
    "ChatScript",
    "Game",
    "Invariant",
    "InvariantError",
    "Labeler",
    "Observation",
    "Public",
    "Turn",
    "Twin",
]


class Invariant(StrEnum):
    """Identifiers of what the harness checks; the value is what a failure prints."""

    SNAPSHOT = "A"
    """A snapshot JSON round trip restores an engine that behaves identically."""
    REPLAY = "B"
    """The log survives JSON and replays to identical bytes and behaviour."""
    WHO_ACTS = "C"
    """allowed_skills, player_view and phase_info/readiness agree on who may act."""
    STABLE = "D"
    """Asking the same question twice gives the same answer."""
    STATUS = "E"
    """Status is coherent and rounds never decrease."""
    FINISHED = "F"
    """A finished game stays finished and survives a save round trip."""
    PRIMITIVES = "G"
    """Kernel primitives never reach an event handler."""
    LEAK = "H"
    """A seat cannot tell apart two deals that differ only in what it may not know."""
    CRASH = "CRASH"
    """The ruleset, the act function or the engine raised during play."""
    WANT_END = "WANT_END"
    """A game did not finish within ``max_steps`` although the spec wants every game to end."""
    MUST_SEE = "MUST_SEE"
    """A label the spec must see never occurred in the whole run."""
    COVERAGE = "COVERAGE"
    """A viewer role the leak check must cover was never checked."""

    @property
    def meaning(self) -> str:
        """A few words saying what the invariant is about."""
        return _TITLES[self]


_TITLES = {
    Invariant.SNAPSHOT: "snapshot round trip",
    Invariant.REPLAY: "log replay",
    Invariant.WHO_ACTS: "who may act",
    Invariant.STABLE: "stable queries",
    Invariant.STATUS: "status coherence",
    Invariant.FINISHED: "finished game stays finished",
    Invariant.PRIMITIVES: "primitives never published",
    Invariant.LEAK: "indistinguishability",
    Invariant.CRASH: "crash during play",
    Invariant.WANT_END: "game must end",
    Invariant.MUST_SEE: "must-see labels",
    Invariant.COVERAGE: "viewer coverage",
}


class InvariantError(AssertionError):
    """An invariant broke. Carries everything needed to reproduce it from the seed alone.

    It is an ``AssertionError`` so pytest reports it as a test failure, not an error.
    ``seed`` and ``step`` are ``None`` for run-wide checks (must-see labels, coverage).
    ``step`` counts the phases ended so far (0 is just after ``start``).
    """

    def __init__(
        self,
        spec_name: str,
        invariant: Invariant,
        detail: str,
        *,
        seed: int | None = None,
        step: int | None = None,
    ) -> None:
        self.spec_name = spec_name
        self.invariant = invariant
        self.detail = detail
        self.seed = seed
        self.step = step
        super().__init__(self._text())

    def _text(self) -> str:
        where = ""
        if self.seed is not None:
            where = f" at seed {self.seed}"
            if self.step is not None:
                where += f", step {self.step}"
        head = (
            f"enginetest[{self.spec_name}]: invariant {self.invariant.value} ({self.invariant.meaning}) broken{where}"
        )
        tail = ""
        if self.seed is not None:
            tail = f"\n  reproduce: enginetest.run_one(spec, seed={self.seed})"
        body = "\n".join("  " + line for line in self.detail.splitlines())
        return f"{head}\n{body}{tail}"


@dataclass(frozen=True, slots=True)
class Game:
    """One deal: the rules to play and who sits where.

    ``seats`` are ``(player_id, role)`` pairs, seated in the given order.
    ``engine_type`` lets a test run a wrapper (a subclass of :class:`hiddenrole.Engine`);
    its ``restore`` and ``replay`` class methods are the ones checked.
    """

    rules: hr.Rules
    seats: tuple[tuple[str, hr.RoleType], ...]
    engine_type: type[hr.Engine] = hr.Engine

    def __post_init__(self) -> None:
        seats = tuple((str(pid), str(role)) for pid, role in self.seats)
        object.__setattr__(self, "seats", seats)
        if not seats:
            raise hr.InvalidArgument("a Game needs at least one seat")
        if len({pid for pid, _ in seats}) != len(seats):
            raise hr.InvalidArgument("a Game's seat ids must be unique")

    def role_of(self, player_id: str) -> hr.RoleType:
        for pid, role in self.seats:
            if pid == player_id:
                return role
        raise hr.PlayerNotFound(f"no seat {player_id!r}")

    def describe(self) -> str:
        """``p0=RED p1=BLUE ...`` for failure messages."""
        return " ".join(f"{pid}={role}" for pid, role in self.seats)


@dataclass(slots=True)
class Turn:
    """What an act function gets once per step, before the phase ends.

    ``rng`` is the game's own generator (seeded from ``seed``); use nothing else for
    randomness so the game replays from its seed. ``label`` records a ruleset label.
    """

    engine: hr.Engine
    rng: random.Random
    seed: int
    step: int
    game: Game
    labels: Counter[str] = field(default_factory=Counter)

    def label(self, *names: str) -> None:
        """Count ``names`` as seen (for :attr:`Spec.must_see` and the report)."""
        for n in names:
            self.labels[n] += 1


Act = Callable[[Turn], None]
"""Submit whatever this step's players do; called once per step while the game runs."""
Labeler = Callable[[hr.Engine, tuple[hr.Effect, ...]], Iterable[str]]
"""Extra labels from the effects one ``end_phase`` returned (cancelled and internal included)."""
ChatScript = Callable[[str, hr.PhaseType, int], str | None]
"""``(sender, phase, round) -> line`` or ``None`` to stay quiet; must not depend on roles."""


@dataclass(frozen=True, slots=True)
class Observation:
    """One thing a seat of the viewer's side received during a leak check.

    ``kind`` is ``"view"``, ``"event"``, ``"message"``, ``"speak"`` (the sender's own
    attempt to talk) or ``"submit"`` (the result of the side's own submission).
    ``value`` is the private part as plain data (dicts with sorted keys, lists,
    strings, numbers); ``public`` is the part declared public (``None`` if nothing),
    and ``public_only`` marks an observation that is public as a whole. ``step`` and
    ``phase`` are for reporting and redaction only.
    """

    step: int
    seat: str
    kind: str
    phase: hr.PhaseType
    value: Any
    public: Any = None
    public_only: bool = False

    def key(self) -> tuple[str, str, str]:
        """What must match between the two deals (the private part)."""
        return (self.seat, self.kind, repr(self.value))

    def full_key(self) -> tuple[str, str, str, str, bool]:
        return (self.seat, self.kind, repr(self.value), repr(self.public), self.public_only)


@dataclass(frozen=True, slots=True)
class Public:
    """Information a table deliberately makes public, declared by name.

    ``name`` should be the rule switch (or house rule) that makes it public, so a
    reader of the spec sees why. Declared information is still compared between the
    two deals, but differently: when it differs, the deals have become legitimately
    distinguishable (the table told everyone something that tells them apart), and the
    comparison ends there without a leak. Until then, everything else must match.

    - ``event_types``: events of these types are public as a whole;
    - ``data_keys``: these keys of any event's data are public (the rest of the
      event stays private);
    - ``phases``: everything observed in these phases (views, chat, the side's
      submissions, events produced when the phase ends) is public, so a phase that
      exists in one deal only (a moderator openly calling the hunter) ends the
      comparison instead of being a leak;
    - ``role_info_keys``: these keys of a view's ``role_info`` are public;
    - ``redact``: a last-resort function applied to every observation; it may rewrite
      it or return ``None`` to leave it out of the comparison entirely.
    """

    name: str
    event_types: frozenset[hr.EventType] = frozenset()
    data_keys: frozenset[str] = frozenset()
    phases: frozenset[hr.PhaseType] = frozenset()
    role_info_keys: frozenset[str] = frozenset()
    redact: Callable[[Observation], Observation | None] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise hr.InvalidArgument("a Public declaration needs a name")
        for attr in ("event_types", "data_keys", "phases", "role_info_keys"):
            value = getattr(self, attr)
            if isinstance(value, str):
                raise hr.InvalidArgument(f"Public.{attr} must be a collection of str, not a str")
            object.__setattr__(self, attr, frozenset(value))


Twin = Callable[[Game, frozenset[str], random.Random], Iterable[Game]]
"""``(deal, side, rng) -> candidate deals``; the harness keeps the first one the side cannot
tell apart at the start. The default permutes the roles of the seats outside the side."""
