"""The Resistance and Avalon in words: events, the seat's next move and what it knows.

Every function is pure: its text is built from its arguments alone (the event as the
seat received it and that seat's :class:`hiddenrole.PlayerView`), so narration can never
tell a seat more than the engine already did. The shared shape of every game's
narration module is documented in ``docs/NARRATION.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr
from hiddenrole.gamedef import words

from .play import KEY_EVIL, KEY_FELLOW_EVIL, KEY_MERLIN_OR_MORGANA
from .tables import team_size
from .vocab import (
    APPROVE,
    ASSASSINATE,
    ASSASSINATED,
    ASSASSINATION,
    EVIL,
    FAIL,
    FAIL_REFUSED,
    GOOD,
    HAMMER,
    LEADER,
    MISSION,
    MISSION_FAILED,
    MISSION_SUCCEEDED,
    NO_NOMINATION,
    NOMINATE,
    NOMINATED,
    PROPOSE_PHASES,
    REJECT,
    REVEAL,
    ROLES,
    SUCCESS,
    TEAM_APPROVED,
    TEAM_REJECTED,
    TEAM_VOTE,
    VOTED,
    display_name,
)

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
    "In The Resistance and Avalon a table of five to ten players is split into a good majority and a "
    "hidden evil minority who know each other. Five missions are played. For each one the leader, a "
    "seat that moves on after every vote, names a team of the size the mission needs; everyone then "
    "votes in public to approve or reject it, and the team goes only if approvals outnumber "
    "rejections. Five rejected teams in a row hand the game to evil. Team members secretly play a "
    "success or a fail card (a good player's card always counts as a success); only the number of "
    "fail cards is announced, and one fail sinks a mission (two on the fourth mission at tables of "
    "seven or more). Three failed missions win for evil; three successful ones win for good, unless "
    "the assassin then names Merlin. In Avalon, Merlin sees the evil players (except Mordred) and "
    "Percival sees Merlin and Morgana without knowing which is which; Oberon is evil but unknown to "
    "the others. Table talk is open to all."
)
"""The rules in a paragraph of our own words, for an agent's prompt."""

_SKILLS: Final[Mapping[str, str]] = {
    NOMINATE: "Nominate a team",
    APPROVE: "Approve",
    REJECT: "Reject",
    SUCCESS: "Play success",
    FAIL: "Play fail",
    ASSASSINATE: "Assassinate",
}
_PHASES: Final[Mapping[str, str]] = {
    REVEAL: "Night: eyes open",
    **{phase: f"Team nomination ({size} players)" for size, phase in PROPOSE_PHASES.items()},
    TEAM_VOTE: "Team vote",
    MISSION: "Mission",
    ASSASSINATION: "Assassination",
    hr.START: "Before the game",
    hr.END: "The game is over",
}

EVENTS: Final = frozenset(
    {
        hr.GAME_STARTED,
        hr.GAME_ENDED,
        LEADER,
        NOMINATED,
        NO_NOMINATION,
        VOTED,
        TEAM_APPROVED,
        TEAM_REJECTED,
        HAMMER,
        MISSION_SUCCEEDED,
        MISSION_FAILED,
        FAIL_REFUSED,
        ASSASSINATED,
    }
)
"""Every event type this module phrases; others get a plain fallback."""


# ---------------------------------------------------------------- words


def _humane(value: str) -> str:
    """A fallback display name: the game's ``MS_`` prefix dropped (see :func:`hiddenrole.gamedef.words.humane`)."""
    return words.humane(value, "MS_")


def role_name(role: str) -> str:
    """The role's name on its card (Avalon's names)."""
    return display_name(role) if role in ROLES else _humane(role)


def camp_name(camp: str) -> str:
    """The side a camp stands for."""
    return display_name(camp) if camp in (GOOD, EVIL) else _humane(camp)


def skill_name(skill: str) -> str:
    """A short label for a skill (a button, a menu line)."""
    return words.named(_SKILLS, skill, "MS_")


def phase_name(phase: str) -> str:
    """The phase as the table calls it."""
    return words.named(_PHASES, phase, "MS_")


def _team(text: str, viewer: hr.PlayerView | None) -> str:
    return words.and_list(words.who(p, viewer) for p in words.ids(text))


def _cards(n: str) -> str:
    return "1 fail card" if n == "1" else f"{n or 'no'} fail cards"


# ---------------------------------------------------------------- events


def describe(event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
    """One sentence for ``event`` as ``viewer`` received it (``None``: a spectator), or ``None``.

    ``None`` means a front end shows nothing (kernel bookkeeping). The sentence uses only
    the event's own fields and the viewer's id.
    """
    if event.type in hr.INTERNAL_EVENTS:
        return None
    d = event.data
    t = event.type
    mine = bool(event.source) and event.source == words.me(viewer)
    if t == hr.GAME_STARTED:
        return "The game begins: everyone closes their eyes, and those who may see open them."
    if t == hr.GAME_ENDED:
        return _ended(words.ids(d.get("winners", "")), viewer)
    if t == LEADER:
        return "You are now the leader." if event.target == words.me(viewer) else f"{event.target} is now the leader."
    if t == NOMINATED:
        if event.canceled:
            who = "Your" if mine else f"{event.source}'s"
            return f"{who} nomination is refused: {event.reason or 'not a legal team'}."
        who = "You nominate" if mine else f"{event.source} nominates"
        return f"{who} {_team(d.get('team', ''), viewer)} for mission {d.get('mission', '?')}."
    if t == NO_NOMINATION:
        mission = d.get("mission", "?")
        who = "You" if mine else event.source
        return f"{who} nominated nobody for mission {mission}: it counts as a rejected team."
    if t == VOTED:
        choice = "approve" if d.get("vote") == "approve" else "reject"
        return f"You vote to {choice}." if mine else f"{event.source} votes to {choice}."
    if t in (TEAM_APPROVED, TEAM_REJECTED):
        return _team_vote(event, viewer)
    if t == HAMMER:
        return f"{d.get('rejects', 'Five')} teams rejected in a row: evil wins the game."
    if t in (MISSION_SUCCEEDED, MISSION_FAILED):
        verdict = "succeeds" if t == MISSION_SUCCEEDED else "fails"
        team = _team(d.get("team", ""), viewer)
        need = d.get("fails_needed", "")
        needed = f", {need} needed to sink it" if need and need != "1" else ""
        return (
            f"Mission {d.get('mission', '?')} {verdict} with {_cards(d.get('fails', ''))}{needed}; the team was {team}."
        )
    if t == FAIL_REFUSED:
        reason = event.reason or "a good player's card is always a success"
        return f"Your fail card is refused: {reason}." if mine else f"{event.source}'s fail card is refused: {reason}."
    if t == ASSASSINATED:
        if not event.target:
            return "The assassin names nobody: good wins."
        if d.get("hit") == "true":
            return f"The assassin names {words.who(event.target, viewer)}, who is Merlin: evil wins."
        return f"The assassin names {words.who(event.target, viewer)}, who is not Merlin: good wins."
    return words.unknown_event(event, viewer, "MS_")


def _ended(winners: list[str], viewer: hr.PlayerView | None) -> str:
    if not winners:
        return "The game is over: nobody wins."
    text = f"The game is over. Winners: {words.and_list(camp_name(w) for w in winners)}."
    if viewer is not None and viewer.self.camp:
        text += " You won." if viewer.self.camp in winners else " You lost."
    return text


def _team_vote(event: hr.Event, viewer: hr.PlayerView | None) -> str:
    d = event.data
    score = f"{d.get('approvals', '0')}\u2013{d.get('rejections', '0')}"
    team = _team(d.get("team", ""), viewer)
    if event.type == TEAM_APPROVED:
        return f"Team {team} approved {score}: the mission goes ahead."
    rejects = d.get("rejects", "")
    streak = f" ({rejects} in a row)" if rejects else ""
    if not team:
        return f"No team to vote on: rejected{streak}."
    return f"Team {team} rejected {score}{streak}."


# ---------------------------------------------------------------- the seat


def prompt(view: hr.PlayerView) -> str:
    """What the seat may do now, in words, naming every player it may pick."""
    if view.phase == hr.END:
        return "The game is over."
    skills = view.allowed_skills
    head = phase_name(view.phase)
    if not skills:
        return f"{head}. {_waiting(view)}"
    lines: list[str] = []
    if NOMINATE in skills:
        size = team_size(view)
        everyone = ", ".join(p.id for p in view.players if p.alive)
        lines.append(
            f"You lead mission {view.round}: choose {size} players for the team (you may include yourself): {everyone}."
        )
    if APPROVE in skills or REJECT in skills:
        lines.append("Vote on the nominated team: approve or reject.")
    if SUCCESS in skills or FAIL in skills:
        note = " (as a good player, your card always counts as a success)" if view.self.camp == GOOD else ""
        lines.append(f"You are on the mission: play a success or a fail card{note}.")
    if ASSASSINATE in skills:
        others = ", ".join(p.id for p in view.players if p.alive and p.id != view.player_id)
        lines.append(f"Name 1 player you believe is Merlin: {others}.")
    for skill in skills:
        if skill not in _SKILLS:
            lines.append(f"You may {skill_name(skill).lower()}.")
    return f"{head}. " + " ".join(lines)


def _waiting(view: hr.PlayerView) -> str:
    if view.phase == REVEAL:
        return "Those who may see each other open their eyes; nothing to submit."
    if view.phase in PROPOSE_PHASES.values():
        return f"The leader is choosing a team of {team_size(view)} for mission {view.round}."
    if view.phase == TEAM_VOTE:
        return "There is no team to vote on."
    if view.phase == MISSION:
        return "The team is on the mission; wait for the result."
    if view.phase == ASSASSINATION:
        return "The assassin is choosing whom to name as Merlin."
    return "Nothing to do for you now."


def identity(view: hr.PlayerView) -> str:
    """Who the seat is and what it privately knows, in words."""
    me = view.self
    side = f"; you play for {camp_name(me.camp)}" if me.camp else ""
    parts = [f"You are {view.player_id}, {role_name(me.role)}{side}."]
    info = view.role_info
    if KEY_EVIL in info:
        seen = words.ids(info[KEY_EVIL])
        parts.append(f"You see these players as evil: {words.and_list(seen)}." if seen else "You see no evil player.")
    if KEY_MERLIN_OR_MORGANA in info:
        seen = words.ids(info[KEY_MERLIN_OR_MORGANA])
        if len(seen) > 1:
            parts.append(f"Merlin and Morgana are {words.and_list(seen)}, and you cannot tell which is which.")
        elif seen:
            # Percival is dealt only with Merlin, so one seat seen is Merlin: no Morgana sits here.
            parts.append(f"You see {seen[0]} as Merlin; there is no Morgana at this table.")
    if KEY_FELLOW_EVIL in info:
        seen = words.ids(info[KEY_FELLOW_EVIL])
        parts.append(
            f"Your fellow evil players are {words.and_list(seen)}; you are not told their roles."
            if seen
            else "You know no other evil player."
        )
    known = [f"{p.id} is {role_name(p.role)}" for p in view.players if p.role and p.id != view.player_id]
    if known:
        parts.append(f"Known cards: {words.and_list(known)}.")
    return " ".join(parts)
