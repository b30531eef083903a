"""Agents by name, for command lines and the console: ``make_agent(name, game, seat, rng)``.

Names: ``random`` (any game), ``heuristic`` (werewolf, missions, onenight), ``pass``,
and ``llm`` (an OpenAI-compatible model named by ``HIDDENROLE_LLM_MODEL``, served at
``HIDDENROLE_LLM_BASE_URL``: see :mod:`hiddenrole.agents.llm`). A seat's agent gets its
own ``random.Random``; derive it from the table seed and the seat (see
:func:`seat_rng`) so a game replays with the same choices.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Final

from .base import Agent, PassAgent
from .errors import UnknownAgent
from .heuristics import HEURISTICS
from .random_agent import RandomAgent

__all__ = ["AGENT_NAMES", "make_agent", "seat_rng", "register"]

_FACTORIES: dict[str, Callable[[str, str, random.Random], Agent]] = {}


def register(name: str, factory: Callable[[str, str, random.Random], Agent]) -> None:
    """Add an agent name: ``factory(game, seat, rng) -> Agent``."""
    _FACTORIES[name] = factory


def _heuristic(game: str, seat: str, rng: random.Random) -> Agent:
    cls = HEURISTICS.get(game)
    if cls is None:
        raise UnknownAgent(f"no heuristic agent for {game!r} (games: {', '.join(sorted(HEURISTICS))})")
    return cls()


def _llm(game: str, seat: str, rng: random.Random) -> Agent:
    from .llm import LLMAgent, model_from_env

    return LLMAgent(model_from_env(), rng=rng)


register("random", lambda game, seat, rng: RandomAgent(rng))
register("llm", _llm)
register("heuristic", _heuristic)
register("pass", lambda game, seat, rng: PassAgent())

AGENT_NAMES: Final = ("heuristic", "llm", "pass", "random")
"""Names every install knows (``llm`` needs the ``llm`` extra and ``HIDDENROLE_LLM_MODEL``)."""


def make_agent(name: str, game: str, seat: str, rng: random.Random) -> Agent:
    """The agent called ``name`` for ``seat`` at a table of ``game``; :class:`UnknownAgent` if there is none."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise UnknownAgent(f"no agent {name!r} (agents: {', '.join(sorted(_FACTORIES))})")
    return factory(game, seat, rng)


def seat_rng(seed: int, seat: str) -> random.Random:
    """A seat's own random stream from a table seed: independent of other seats and of dict order."""
    digest = hashlib.sha256(f"{seed}|{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
