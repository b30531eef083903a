"""The random agent: a uniformly chosen legal action, decided only from the observation.

This is the package's one random player for hosted tables (console bots, arena,
benchmarks of agents). The kernel-level harness (``hiddenrole.enginetest``) sits below
this layer and keeps its own engine-level picker, ``enginetest.choose_targets``.
"""

from __future__ import annotations

import random

from .observation import Action, LegalAction, Observation

__all__ = ["RandomAgent", "random_targets"]


def random_targets(la: LegalAction, rng: random.Random) -> tuple[str, ...]:
    """Targets that fit ``la``: a uniform count in its bounds (one when the rules leave it open: 0..1)."""
    if la.max_targets == 0 or not la.candidates:
        return ()
    lo, hi = la.min_targets, la.max_targets
    n = 1 if (lo, hi) == (0, 1) else rng.randint(lo, hi)
    if la.distinct:
        return tuple(rng.sample(la.candidates, min(n, len(la.candidates))))
    return tuple(rng.choice(la.candidates) for _ in range(n))


class RandomAgent:
    """Picks one legal skill uniformly (extras such as taunts only when nothing else is offered).

    Deterministic given its seeded ``rng`` and the observations it receives.
    """

    talks = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        moving = [la for la in obs.legal if not la.out_of_turn] or list(obs.legal)
        if not moving:
            return Action()
        la = self.rng.choice(moving)
        return Action(la.skill, random_targets(la, self.rng))
