"""The dice race in words: rolls, taunts and the finish, and whose turn it is.

Every function is pure: its text is built from its arguments alone (the event and the
seat's :class:`hiddenrole.PlayerView`). Nothing in a race is secret, but the shape is
the same as every hidden-role game's narration (``docs/NARRATION.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr
from hiddenrole.gamedef import words

from . import FINISHED, RACE, RACER, ROLL, ROLLED, TAUNT, TAUNTED

__all__ = [
    "EVENTS",
    "RULES_SUMMARY",
    "camp_name",
    "describe",
    "identity",
    "phase_name",
    "prompt",
    "role_name",
    "skill_name",
]

RULES_SUMMARY: Final = (
    "The race is a dice game for two to four racers with nothing hidden. Racers take turns in seat "
    "order; on your turn you roll one die and move forward that many squares. On the short track, "
    "reaching or passing the finish is enough; on the long track you must land on the finish exactly, "
    "and any excess bounces you back. The race ends when the round in which somebody finished is "
    "complete, so everyone gets the same number of rolls, and every racer on the finish wins. At any "
    "time you may taunt another racer, which changes nothing but the mood."
)
"""The rules in a paragraph of our own words, for an agent's prompt."""

_SKILLS: Final[Mapping[str, str]] = {ROLL: "Roll the die", TAUNT: "Taunt"}
_PHASES: Final[Mapping[str, str]] = {RACE: "The race", hr.START: "Before the race", hr.END: "The race is over"}

EVENTS: Final = frozenset({hr.GAME_STARTED, hr.GAME_ENDED, ROLLED, FINISHED, TAUNTED})
"""Every event type this module phrases; others get a plain fallback."""


def role_name(role: str) -> str:
    """Every seat is a racer."""
    return "Racer" if role == RACER else words.humane(role)


def camp_name(camp: str) -> str:
    """Every racer is its own side, named by its seat id."""
    return camp


def skill_name(skill: str) -> str:
    """A short label for a skill (a button, a menu line)."""
    return words.named(_SKILLS, skill)


def phase_name(phase: str) -> str:
    """The phase's name."""
    return words.named(_PHASES, phase)


def describe(event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
    """One sentence for ``event`` as ``viewer`` received it (``None``: a spectator), or ``None``.

    ``None`` means a front end shows nothing (kernel bookkeeping).
    """
    if event.type in hr.INTERNAL_EVENTS:
        return None
    d = event.data
    you = bool(event.source) and event.source == words.me(viewer)
    actor = "You" if you else event.source
    if event.type == hr.GAME_STARTED:
        return "The race begins."
    if event.type == hr.GAME_ENDED:
        winners = [w for w in d.get("winners", "").split(",") if w]
        if not winners:
            return "The race is over: nobody wins."
        mine = " You win!" if words.me(viewer) in winners else ""
        return f"The race is over. {'Winner' if len(winners) == 1 else 'Winners'}: {words.and_list(winners)}.{mine}"
    if event.type == ROLLED:
        roll = f"{actor} {'roll' if you else 'rolls'} a {d.get('die', '?')}"
        start, end = d.get("from", "?"), d.get("to", "?")
        if d.get("bounced"):
            return f"{roll} on square {start}, too far past the finish: bounced back to square {end}."
        return f"{roll} and {'move' if you else 'moves'} from square {start} to square {end}."
    if event.type == FINISHED:
        return f"{actor} {'reach' if you else 'reaches'} the finish!"
    if event.type == TAUNTED:
        target = "you" if event.target == words.me(viewer) else event.target
        return f"{actor} {'taunt' if you else 'taunts'} {target}."
    return words.unknown_event(event, None)


def prompt(view: hr.PlayerView) -> str:
    """What the seat may do now, in words, naming whom it may taunt."""
    if view.phase == hr.END:
        return "The race is over."
    skills = view.allowed_skills
    others = ", ".join(p.id for p in view.players if p.alive and p.id != view.player_id)
    lines = []
    if ROLL in skills:
        lines.append("Your turn: roll the die.")
    elif view.turn:
        lines.append(f"It is {view.turn}'s turn to roll.")
    if TAUNT in skills:
        lines.append(f"You may taunt 1 other racer: {others}.")
    for skill in skills:
        if skill not in _SKILLS:
            lines.append(f"You may {skill_name(skill).lower()}.")
    if not lines:
        lines.append("Nothing to do for you now.")
    return f"{phase_name(view.phase)}. " + " ".join(lines)


def identity(view: hr.PlayerView) -> str:
    """Who the seat is."""
    return f"You are {view.player_id}, a racer; every racer races for themself."
