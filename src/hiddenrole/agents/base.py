"""The agent protocol: an observation in, an action out.

Anything with an ``act(observation) -> Action`` method is an agent: a script, a
heuristic, a language model, a person at a keyboard, an RL policy. An agent that
wants to speak in phases where nobody has a skill to use (werewolf's free day) sets
``talks = True``; the runner then asks it once per such phase with no legal skills.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .observation import Action, Observation

__all__ = ["Agent", "PassAgent"]


@runtime_checkable
class Agent(Protocol):
    """Answers what its seat does now, from that seat's :class:`Observation` only."""

    def act(self, obs: Observation) -> Action:
        """The action for ``obs`` (``Action()`` passes). ``obs.error`` says why the last answer was refused."""
        ...


class PassAgent:
    """Never does anything: the neutral seat for tests and for a seat nobody fills."""

    talks = False

    def act(self, obs: Observation) -> Action:
        return Action()
