"""The one place an :class:`~hiddenrole.agents.Observation` becomes words.

Each rules package ships a narrator, ``hiddenrole.games.<name>.narration`` (see
docs/NARRATION.md): ``RULES_SUMMARY``, ``describe(event, viewer)``, ``identity(view)``
and ``prompt(view)``, all pure functions of a kernel ``PlayerView`` and an event. The
observation is turned back into exactly those kernel values (:func:`player_view`,
:func:`kernel_event`), from its own fields only, so the text holds no more than the
observation. A game without a narrator gets generic lines. The legal actions are
always listed with their skill ids too, since an agent answers with ids.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

import hiddenrole as hr

from .observation import LegalAction, Observation, SeenEvent

__all__ = ["render", "rules_summary", "describe_event", "describe_action", "player_view", "kernel_event"]


@functools.cache
def _narration(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"hiddenrole.games.{game}.narration")
    except ImportError:
        return None


def _call(game: str, name: str, *args: Any) -> str | None:
    module = _narration(game)
    fn = getattr(module, name, None) if module is not None else None
    if fn is None:
        return None
    said = fn(*args)
    return said if isinstance(said, str) and said else None


def player_view(obs: Observation) -> hr.PlayerView:
    """The kernel view the observation stands for (what the narrators read)."""
    return hr.PlayerView(
        obs.seat,
        obs.round,
        obs.phase,
        hr.SelfInfo(obs.seat, obs.role, obs.alive, obs.camp),
        tuple(hr.PublicPlayerInfo(p.seat, p.alive, p.role) for p in obs.players),
        tuple(la.skill for la in obs.legal),
        obs.teammates,
        dict(obs.role_info),
        obs.turn,
        tuple((la.skill, la.candidates) for la in obs.legal if la.candidates),
    )


def kernel_event(event: SeenEvent) -> hr.Event:
    return hr.Event(event.type, event.source, event.target, dict(event.data), event.canceled, event.reason)


def rules_summary(game: str) -> str:
    """The game's rules in a paragraph, from its narrator; a generic sentence without one."""
    module = _narration(game)
    summary = getattr(module, "RULES_SUMMARY", "") if module is not None else ""
    if isinstance(summary, str) and summary:
        return summary
    return (
        f"This is a game of {game}, a hidden-role game. Each seat holds a role; your camp wins together. "
        "You see only what your seat may know. Choose one of the legal actions each time you are asked."
    )


def describe_event(event: SeenEvent, obs: Observation) -> str | None:
    """One line for ``event`` as ``obs``'s seat saw it (``None``: nothing to show)."""
    module = _narration(obs.game)
    if module is not None and hasattr(module, "describe"):
        return _call(obs.game, "describe", kernel_event(event), player_view(obs))
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


def describe_action(la: LegalAction, game: str = "") -> str:
    """One line for a legal action: its id (and display name), how many targets and which."""
    name = _call(game, "skill_name", la.skill) if game else None
    label = f"{la.skill} ({name})" if name and name != la.skill else la.skill
    if la.max_targets == 0:
        return f"- {label}: no target"
    count = str(la.min_targets) if la.min_targets == la.max_targets else f"{la.min_targets} to {la.max_targets}"
    kind = "centre card(s)" if la.pool else "target(s)"
    distinct = ", all different" if la.distinct and la.max_targets > 1 else ""
    return f"- {label}: {count} {kind}{distinct} among {', '.join(la.candidates)}"


def render(obs: Observation) -> str:
    """The whole observation as plain text: who you are, the table, what you saw and heard, what you may do."""
    view = player_view(obs)
    who = _call(obs.game, "identity", view)
    if who is None:
        who = f"You are seat {obs.seat}. Your role: {obs.role}" + (f" (camp {obs.camp})." if obs.camp else ".")
        if obs.teammates:
            who += f" Your teammates: {', '.join(obs.teammates)}."
        if obs.role_info:
            who += " What your role tells you: " + "; ".join(f"{k} = {v}" for k, v in sorted(obs.role_info.items()))
    lines = [who]
    if not obs.alive:
        lines.append("You have been eliminated.")
    lines.append(f"Phase {obs.phase}, round {obs.round}." + (f" It is {obs.turn}'s turn." if obs.turn else ""))
    seats = []
    for p in obs.players:
        bits = [_call(obs.game, "role_name", p.role) or p.role] if p.role and p.seat != obs.seat else []
        bits.append("alive" if p.alive else "dead")
        seats.append(f"{p.seat} ({', '.join(bits)})")
    lines.append("Players: " + "; ".join(seats) + ".")
    if obs.data:
        lines.append("Table: " + "; ".join(f"{k} = {v}" for k, v in sorted(obs.data.items())))
    said = [(e.index, describe_event(e, obs)) for e in obs.events]
    if said:
        lines.append("What you have seen, oldest first:")
        lines += [f"  {i + 1}. {text}" for i, text in said if text]
    if obs.chat:
        lines.append("What you have heard:")
        lines += [f"  [{c.phase} {c.round}] {c.sender}: {c.text}" for c in obs.chat]
    if obs.over:
        lines.append(f"The game is over ({obs.ending}). Winners: {', '.join(obs.winners) or 'nobody'}.")
    else:
        now = _call(obs.game, "prompt", view)
        if now:
            lines.append(now)
        if obs.legal:
            lines.append("Legal actions now (answer with the skill id), or pass:")
            lines += [describe_action(la, obs.game) for la in obs.legal]
            if obs.can_say:
                lines.append("You may also speak to the table (field `say`).")
        else:
            lines.append("You have no skill to use now; you may pass" + (" or speak." if obs.can_say else "."))
    if obs.error:
        lines.append(f"Your previous answer was refused: {obs.error}")
    return "\n".join(lines)
