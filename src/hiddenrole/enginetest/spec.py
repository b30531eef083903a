"""What a rules author hands to :func:`run`, and the report it hands back."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import hiddenrole as hr

from .core import Act, ChatScript, Game, Labeler, Public, Twin
from .policy import permute_others, random_policy

__all__ = ["LeakCheck", "Report", "Spec"]


@dataclass(frozen=True, slots=True)
class LeakCheck:
    """Settings of invariant H (indistinguishability).

    For each checked game the harness picks viewer seats: one seat of every role in
    ``roles`` that the deal contains, then random seats up to ``viewers_per_game``.
    ``games`` limits H to the first that many games of the run (``None``: all).
    ``roles`` is also a promise: the run fails (``COVERAGE``) if one of them was never
    checked as a viewer. ``chat`` makes every seat say a line each step so that who
    hears whom is compared too. ``attempts`` bounds how many candidate twin deals are
    tried per viewer. ``max_steps`` caps the steps of the two games played per viewer
    (``None``: the spec's ``max_steps``): with every seat outside the side abstaining,
    many of them stall (nobody dies) and would otherwise run to the spec's limit,
    repeating the same few observations round after round.
    """

    viewers_per_game: int = 1
    roles: tuple[hr.RoleType, ...] = ()
    games: int | None = None
    public: tuple[Public, ...] = ()
    chat: ChatScript | None = None
    twin: Twin = permute_others
    attempts: int = 64
    max_steps: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.roles, str):
            raise hr.InvalidArgument("LeakCheck.roles must be a sequence of roles, not a str")
        object.__setattr__(self, "roles", tuple(self.roles))
        object.__setattr__(self, "public", tuple(self.public))
        for p in self.public:
            if not isinstance(p, Public):
                raise hr.InvalidArgument("LeakCheck.public holds Public declarations")
        if self.viewers_per_game < 0 or self.attempts < 1:
            raise hr.InvalidArgument("LeakCheck needs viewers_per_game >= 0 and attempts >= 1")
        if self.games is not None and self.games < 0:
            raise hr.InvalidArgument("LeakCheck.games must be None or >= 0")
        if self.max_steps is not None and self.max_steps < 1:
            raise hr.InvalidArgument("LeakCheck.max_steps must be None or >= 1")


@dataclass(frozen=True, slots=True)
class Spec:
    """A fuzz run: how to deal a game from a seed, how seats act, and what to expect.

    Games use seeds ``start .. start + games - 1``; each gets ``random.Random(seed)``
    for ``setup`` and then for ``act``, so any game replays from its seed alone.
    ``act`` ``None`` only ends phases. ``want_end`` fails a game that reaches
    ``max_steps`` unfinished. Every label in ``must_see`` must occur at least once in
    the run (labels: event types, ``phase:<name>`` for every phase visited,
    ``won:<camp>``/``won:none``, plus :meth:`Turn.label` and ``labeler`` output).
    ``leaks`` configures invariant H; ``None`` turns it off.
    """

    name: str
    setup: Callable[[random.Random], Game]
    act: Act | None = random_policy
    games: int = 100
    start: int = 0
    max_steps: int = 200
    want_end: bool = False
    must_see: tuple[str, ...] = ()
    labeler: Labeler | None = None
    leaks: LeakCheck | None = field(default_factory=LeakCheck)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise hr.InvalidArgument("a Spec needs a name")
        if not callable(self.setup):
            raise hr.InvalidArgument("Spec.setup must be a function of a random.Random")
        if self.games < 0 or self.max_steps < 1:
            raise hr.InvalidArgument("Spec needs games >= 0 and max_steps >= 1")
        if isinstance(self.must_see, str):
            raise hr.InvalidArgument("Spec.must_see must be a sequence of labels, not a str")
        object.__setattr__(self, "must_see", tuple(self.must_see))

    @property
    def seeds(self) -> range:
        return range(self.start, self.start + self.games)


@dataclass(slots=True)
class Report:
    """What a run saw. Deterministic for a given spec (no timings)."""

    name: str
    games: int = 0
    finished: int = 0
    steps: int = 0
    labels: Counter[str] = field(default_factory=Counter)
    leak_pairs: int = 0
    leak_viewers: Counter[hr.RoleType] = field(default_factory=Counter)
    leak_skipped: Counter[hr.RoleType] = field(default_factory=Counter)

    @property
    def unfinished(self) -> int:
        return self.games - self.finished

    def summary(self) -> str:
        """One paragraph for a test log: games, steps, the label counts."""
        labels = ", ".join(f"{k}={v}" for k, v in sorted(self.labels.items()))
        viewers = ", ".join(f"{k}={v}" for k, v in sorted(self.leak_viewers.items()))
        return (
            f"{self.name}: {self.games} games ({self.finished} finished), {self.steps} steps; "
            f"H pairs {self.leak_pairs} [{viewers}]; labels: {labels}"
        )
