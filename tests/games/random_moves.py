"""Kernel-level random moves for rules tests: the harness's picker, submitted.

Hosted tables use ``hiddenrole.agents.RandomAgent``; tests that drive a bare engine use
``hiddenrole.enginetest.random_submission`` through this one wrapper.
"""

from __future__ import annotations

import random

import hiddenrole as hr
import hiddenrole.enginetest as et


class EngineRandom:
    """Submits one random legal move for a player (a refused move is dropped)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, engine: hr.Engine, player_id: str) -> hr.SkillUse | None:
        choice = et.random_submission(engine, player_id, self.rng)
        if choice is None:
            return None
        try:
            return engine.submit(player_id, choice[0], choice[1])
        except hr.GameError:
            return None
