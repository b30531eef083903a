"""Agent seats: bots, heuristics, language models and RL policies play through one interface.

An agent receives an :class:`Observation` built only from its seat's host view
(:func:`observe`), with the legal actions now and a JSON Schema of a valid answer,
and answers with an :class:`Action`. :class:`SeatRunner` plays a host table with one
agent per seat. See ``docs/AGENTS.md``.
"""

from .base import Agent, PassAgent
from .errors import AGENT_ERROR_CODES, InvalidAction, UnknownAgent
from .observation import (
    MAX_REASONING,
    Action,
    LegalAction,
    Observation,
    Player,
    SeenChat,
    SeenEvent,
    legal_actions,
    observe,
    observe_table,
)
from .random_agent import RandomAgent, random_targets
from .registry import AGENT_NAMES, make_agent, register, seat_rng
from .runner import (
    MAX_ATTEMPTS,
    MAX_DECISIONS,
    MAX_IDLE_PHASES,
    Decision,
    GameRecord,
    SeatRunner,
    play,
)

__all__ = [
    "AGENT_ERROR_CODES",
    "AGENT_NAMES",
    "MAX_ATTEMPTS",
    "MAX_DECISIONS",
    "MAX_IDLE_PHASES",
    "MAX_REASONING",
    "Action",
    "Agent",
    "Decision",
    "GameRecord",
    "InvalidAction",
    "LegalAction",
    "Observation",
    "PassAgent",
    "Player",
    "RandomAgent",
    "SeatRunner",
    "SeenChat",
    "SeenEvent",
    "UnknownAgent",
    "legal_actions",
    "make_agent",
    "observe",
    "observe_table",
    "play",
    "random_targets",
    "register",
    "seat_rng",
]
