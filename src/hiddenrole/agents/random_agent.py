"""A bot that makes a uniformly random legal move: the opponent for smoke tests,
benchmarks and console games with empty seats."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import hiddenrole as hr

__all__ = ["RandomAgent", "TargetChooser", "legal_step"]

TargetChooser = Callable[[hr.PlayerView, hr.PhaseStep, random.Random], Sequence[str] | None]
"""A game's own target rule for a step (``None``: use the generic one)."""


def legal_step(rules: hr.Rules, view: hr.PlayerView, skill: str) -> hr.PhaseStep | None:
    """The public step that lets ``view``'s player use ``skill`` now (:meth:`hr.Config.step_for`)."""
    return rules.config.step_for(view.phase, skill, view.self.role)


class RandomAgent:
    """Picks one allowed skill uniformly, then targets that satisfy the step's shape.

    Generic targets: ``SKIP`` takes none; a step with a target pool samples its
    declared count from the pool; otherwise ``max(1, min_targets)`` distinct living
    players other than the actor (dead ones too when the step allows dead targets).
    A game with targets the kernel cannot describe (e.g. a team whose size depends
    on the mission) passes ``choose_targets``.
    """

    def __init__(self, rules: hr.Rules, rng: random.Random, choose_targets: TargetChooser | None = None) -> None:
        self.rules = rules
        self.rng = rng
        self.choose_targets = choose_targets

    def decide(self, view: hr.PlayerView) -> tuple[str, tuple[str, ...]] | None:
        """The move for this seat now, or ``None`` when it has nothing to do."""
        if not view.allowed_skills:
            return None
        skill = self.rng.choice(view.allowed_skills)
        step = legal_step(self.rules, view, skill)
        if step is None or skill == hr.SKIP:
            return (skill, ())
        if self.choose_targets is not None:
            custom = self.choose_targets(view, step, self.rng)
            if custom is not None:
                return (skill, tuple(custom))
        return (skill, self._targets(view, step))

    def _targets(self, view: hr.PlayerView, step: hr.PhaseStep) -> tuple[str, ...]:
        want = max(1, step.min_targets)
        if step.max_targets is not None:
            want = min(want, step.max_targets)
        if want == 0:
            return ()
        if step.target_pool:
            pool = list(self.rules.config.target_pools[step.target_pool])
            return tuple(self.rng.sample(pool, min(want, len(pool))))
        candidates = [p.id for p in view.players if (p.alive or step.allow_dead_target) and p.id != view.player_id]
        if not candidates:
            return ()
        if step.distinct_targets or want > 1:
            return tuple(self.rng.sample(candidates, min(want, len(candidates))))
        return (self.rng.choice(candidates),)

    def act(self, engine: hr.Engine, player_id: str) -> hr.SkillUse | None:
        """Decide and submit for ``player_id``; a refused move is dropped (returns ``None``)."""
        move = self.decide(engine.player_view(player_id))
        if move is None:
            return None
        try:
            return engine.submit(player_id, move[0], move[1])
        except hr.GameError:
            return None
