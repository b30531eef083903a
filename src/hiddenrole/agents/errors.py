"""Typed errors of the agent layer, each with a stable code (see :mod:`hiddenrole.errors`)."""

from __future__ import annotations

import hiddenrole as hr

__all__ = ["InvalidAction", "UnknownAgent", "AGENT_ERROR_CODES"]


class InvalidAction(hr.GameError):
    """An agent's answer is not one of the actions its observation offers (wrong skill, targets, shape).

    Raised before anything reaches the table, so the table is unchanged; the message is
    written to be fed back to the agent (an LLM reads it and tries again).
    """

    code = "INVALID_ACTION"


class UnknownAgent(hr.GameError):
    """An agent name the registry does not know, or one that does not play this game."""

    code = "UNKNOWN_AGENT"


AGENT_ERROR_CODES = (InvalidAction.code, UnknownAgent.code)
