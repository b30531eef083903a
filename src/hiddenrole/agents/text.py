"""The one place an :class:`~hiddenrole.agents.Observation` becomes words.

A rules package may ship a narrator, ``hiddenrole.games.<name>.narration``, with a
``RULES_SUMMARY`` text and ``describe(event, observation) -> str | None`` (the game's
own words for an event as this seat sees it). Without one, or where it answers
``None``, a generic line is written from the event's type, source, target and data.
Everything rendered comes from the observation, so the text holds no more than it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .observation import LegalAction, Observation, SeenEvent

__all__ = ["render", "rules_summary", "describe_event", "describe_action"]


def _narration(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"hiddenrole.games.{game}.narration")
    except ImportError:
        return None


def rules_summary(game: str) -> str:
    """The game's rules in a few lines, from its narrator; a generic sentence without one."""
    module = _narration(game)
    summary = getattr(module, "RULES_SUMMARY", "") if module is not None else ""
    if isinstance(summary, str) and summary:
        return summary
    return (
        f"This is a game of {game}, a hidden-role game. Each seat holds a role; your camp wins together. "
        "You see only what your seat may know. Choose one of the legal actions each time you are asked."
    )


def describe_event(event: SeenEvent, obs: Observation) -> str:
    """One line for ``event`` as ``obs``'s seat saw it."""
    module = _narration(obs.game)
    describe: Callable[..., Any] | None = getattr(module, "describe", None) if module is not None else None
    if describe is not None:
        try:
            said = describe(event, obs)
        except (TypeError, AttributeError, KeyError):
            said = None
        if isinstance(said, str) and said:
            return said
    parts = [event.type]
    if event.source:
        parts.append(f"by {event.source}")
    if event.target:
        parts.append(f"on {event.target}")
    if event.data:
        parts.append("(" + ", ".join(f"{k}={v}" for k, v in sorted(event.data.items())) + ")")
    if event.canceled:
        parts.append(f"[canceled: {event.reason or 'no effect'}]")
    return " ".join(parts)


def describe_action(la: LegalAction) -> str:
    """One line for a legal action: the skill, how many targets and which."""
    if la.max_targets == 0:
        return f"- {la.skill} (no target)"
    count = str(la.min_targets) if la.min_targets == la.max_targets else f"{la.min_targets} to {la.max_targets}"
    kind = "centre card(s)" if la.pool else "target(s)"
    distinct = ", all different" if la.distinct and la.max_targets > 1 else ""
    return f"- {la.skill}: {count} {kind}{distinct} among {', '.join(la.candidates)}"


def render(obs: Observation) -> str:
    """The whole observation as plain text: who you are, the table, what you saw and heard, what you may do."""
    lines = [f"You are seat {obs.seat}. Your role: {obs.role}" + (f" (camp {obs.camp})." if obs.camp else ".")]
    if not obs.alive:
        lines.append("You have been eliminated.")
    if obs.teammates:
        lines.append(f"Your teammates: {', '.join(obs.teammates)}.")
    if obs.role_info:
        lines.append("What your role tells you: " + "; ".join(f"{k} = {v}" for k, v in sorted(obs.role_info.items())))
    lines.append(f"Phase {obs.phase}, round {obs.round}." + (f" It is {obs.turn}'s turn." if obs.turn else ""))
    seats = []
    for p in obs.players:
        bits = [p.seat]
        if p.role and p.seat != obs.seat:
            bits.append(p.role)
        bits.append("alive" if p.alive else "dead")
        seats.append(f"{bits[0]} ({', '.join(bits[1:])})")
    lines.append("Players: " + "; ".join(seats) + ".")
    if obs.data:
        lines.append("Table: " + "; ".join(f"{k} = {v}" for k, v in sorted(obs.data.items())))
    if obs.events:
        lines.append("What you have seen, oldest first:")
        lines += [f"  {e.index + 1}. {describe_event(e, obs)}" for e in obs.events]
    if obs.chat:
        lines.append("What you have heard:")
        lines += [f"  [{c.phase} {c.round}] {c.sender}: {c.text}" for c in obs.chat]
    if obs.over:
        lines.append(f"The game is over ({obs.ending}). Winners: {', '.join(obs.winners) or 'nobody'}.")
    elif obs.legal:
        lines.append("You may now use one of these skills, or pass:")
        lines += [describe_action(la) for la in obs.legal]
        if obs.can_say:
            lines.append("You may also speak to the table (field `say`).")
    else:
        lines.append("You have no skill to use now; you may pass" + (" or speak." if obs.can_say else "."))
    if obs.error:
        lines.append(f"Your previous answer was refused: {obs.error}")
    return "\n".join(lines)
