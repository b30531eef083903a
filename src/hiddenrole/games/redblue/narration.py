"""Red versus blue in words: the vote's result and the seat's next move.

Every function is pure: its text is built from its arguments alone (the event and the
seat's :class:`hiddenrole.PlayerView`). The shape is every game's narration shape
(``docs/NARRATION.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr
from hiddenrole.gamedef import words

from . import BLUE, OUT, RED, TIE, VOTE

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
    "Red versus blue is the smallest hidden-role game: every player is secretly red or blue. Each "
    "round all living players vote in public for one player; the single most-voted player is out, "
    "and a tie or no vote puts nobody out. A side wins when the other side has nobody left; a red "
    "and a blue left alone end the game with no winner."
)
"""The rules in a paragraph of our own words, for an agent's prompt."""

_SIDES: Final[Mapping[str, str]] = {RED: "Red", BLUE: "Blue"}
_PHASES: Final[Mapping[str, str]] = {"VOTE": "The vote", hr.START: "Before the game", hr.END: "The game is over"}

EVENTS: Final = frozenset({hr.GAME_STARTED, hr.GAME_ENDED, OUT, TIE})
"""Every event type this module phrases; others get a plain fallback."""


def role_name(role: str) -> str:
    """Red or Blue."""
    return words.named(_SIDES, role)


def camp_name(camp: str) -> str:
    """The side's colour (the camp is the role)."""
    return words.named(_SIDES, camp)


def skill_name(skill: str) -> str:
    """A short label for a skill (a button, a menu line)."""
    return "Vote" if skill == VOTE else words.humane(skill)


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
    if event.type == hr.GAME_STARTED:
        return "The game begins."
    if event.type == hr.GAME_ENDED:
        winners = [w for w in d.get("winners", "").split(",") if w]
        if not winners:
            return "The game is over: nobody wins."
        text = f"The game is over. Winners: {words.and_list(camp_name(w) for w in winners)}."
        if viewer is not None and viewer.self.camp:
            text += " You won." if viewer.self.camp in winners else " You lost."
        return text
    if event.type == OUT:
        who = "You are" if event.target == words.me(viewer) else f"{event.target} is"
        votes = d.get("votes", "")
        return f"{who} out with {votes} {'vote' if votes == '1' else 'votes'}." if votes else f"{who} out."
    if event.type == TIE:
        between = [p for p in d.get("between", "").split(",") if p]
        if between:
            return f"The vote is tied between {words.and_list(between)}: nobody is out."
        return "Nobody voted: nobody is out."
    return words.unknown_event(event, None)


def prompt(view: hr.PlayerView) -> str:
    """What the seat may do now, in words, naming whom it may vote for."""
    if view.phase == hr.END:
        return "The game is over."
    if VOTE in view.allowed_skills:
        others = ", ".join(p.id for p in view.players if p.alive and p.id != view.player_id)
        return f"{phase_name(view.phase)}. Vote for 1 player to put out: {others}."
    if not view.self.alive:
        return f"{phase_name(view.phase)}. You are out: you watch."
    return f"{phase_name(view.phase)}. Nothing to do for you now."


def identity(view: hr.PlayerView) -> str:
    """Who the seat is."""
    side = role_name(view.self.role).lower()
    out = "" if view.self.alive else " You are out."
    return f"You are {view.player_id}, on the {side} side.{out}"
