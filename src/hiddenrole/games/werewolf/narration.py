"""Werewolf in words: what a seat may read about an event, its own seat and its next move.

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

from .idiot import IDIOT, IDIOT_REVEALED
from .resolution import NO_VOTES, WOLVES_TIED
from .vocab import (
    ANTIDOTE,
    BID,
    CHECK,
    CUT,
    DAWN,
    DAY,
    DAY_FLOOR,
    DAY_LAST_ACTION,
    DAYTIME,
    DONE,
    ELIMINATE,
    EVIL,
    FLOOR,
    FLOOR_CLOSED,
    GOOD,
    GUARD,
    HUNTER,
    INFO_ANTIDOTE,
    INFO_CAN_SHOOT,
    INFO_KILL_TARGET,
    INFO_POISON,
    KILL,
    NIGHT,
    NIGHT_GUARD,
    NIGHT_LAST_ACTION,
    NIGHT_RESOLVE,
    NIGHT_SEER,
    NIGHT_WITCH,
    NIGHT_WOLF,
    POISON,
    PROTECT,
    QUIET,
    SAVE,
    SEER,
    SHOOT,
    SKIP,
    SPEECH_ENDED,
    VILLAGER,
    VOTE,
    VOTE_TIED,
    WEREWOLF,
    WITCH,
)
from .wolfking import WOLF_KING

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
    "Werewolf is played by a village with a few werewolves hidden among it. Each night the werewolves "
    "secretly agree on one victim; the guard may protect one player, the witch holds one healing potion "
    "that can save the night's victim and one poison that can kill anyone, and the seer learns whether "
    "one player is on the werewolves' side. At dawn the moderator names the night's dead, never how "
    "they died. By day the living talk and then vote in public; the single most-voted player is "
    "eliminated, and a tie eliminates nobody. Every dead player gets a last action, but only an armed "
    "role such as the hunter can use it to shoot someone (not after being poisoned). The village wins "
    "when no werewolf is left; the werewolves win when all the special roles or all the plain "
    "villagers are dead. Dead players never speak; the werewolves may whisper to each other at night."
)
"""The rules in a paragraph of our own words, for an agent's prompt."""

_ROLES: Final[Mapping[str, str]] = {
    WEREWOLF: "Werewolf",
    SEER: "Seer",
    WITCH: "Witch",
    GUARD: "Guard",
    HUNTER: "Hunter",
    VILLAGER: "Villager",
    IDIOT: "Idiot",
    WOLF_KING: "Wolf King",
}
_CAMPS: Final[Mapping[str, str]] = {GOOD: "the village", EVIL: "the werewolves"}
_SKILLS: Final[Mapping[str, str]] = {
    KILL: "Kill",
    CHECK: "Check",
    PROTECT: "Protect",
    ANTIDOTE: "Antidote",
    POISON: "Poison",
    SHOOT: "Shoot",
    SKIP: "Pass",
    DONE: "Done speaking",
    BID: "Bid for the floor",
    VOTE: "Vote",
}
_PHASES: Final[Mapping[str, str]] = {
    NIGHT: "Night",
    NIGHT_GUARD: "Night: the guard",
    NIGHT_WOLF: "Night: the werewolves",
    NIGHT_WITCH: "Night: the witch",
    NIGHT_SEER: "Night: the seer",
    NIGHT_RESOLVE: "Dawn",
    NIGHT_LAST_ACTION: "Dawn: last actions",
    DAYTIME: "Day",
    DAY: "Day: discussion",
    DAY_FLOOR: "Day: the floor",
    VOTE: "Day: the vote",
    DAY_LAST_ACTION: "Day: last action",
    hr.START: "Before the game",
    hr.END: "The game is over",
}
_CAUSES: Final[Mapping[str, str]] = {
    KILL: "killed by the werewolves",
    POISON: "poisoned",
    SHOOT: "shot",
    VOTE: "voted out",
}

EVENTS: Final = frozenset(
    {
        hr.GAME_STARTED,
        hr.GAME_ENDED,
        DAWN,
        ELIMINATE,
        VOTE_TIED,
        SHOOT,
        SPEECH_ENDED,
        FLOOR,
        FLOOR_CLOSED,
        KILL,
        PROTECT,
        SAVE,
        POISON,
        CHECK,
        SKIP,
        IDIOT_REVEALED,
    }
)
"""Every event type this module phrases (the core's and the idiot's); others get a plain fallback."""


# ---------------------------------------------------------------- words


def role_name(role: str) -> str:
    """The role's name on its card."""
    return words.named(_ROLES, role)


def camp_name(camp: str) -> str:
    """The side a camp stands for, as a player says it."""
    return words.named(_CAMPS, camp)


def skill_name(skill: str) -> str:
    """A short label for a skill (a button, a menu line)."""
    return words.named(_SKILLS, skill)


def phase_name(phase: str) -> str:
    """The phase as the moderator calls it."""
    return words.named(_PHASES, phase)


def _votes(n: int) -> str:
    return f"{n} vote" if n == 1 else f"{n} votes"


def _tally(text: str) -> str:
    """``p3:2,p4:1`` -> ``p3 2 votes, p4 1 vote``."""
    parts = []
    for item in words.ids(text):
        pid, _, n = item.partition(":")
        parts.append(f"{pid} {_votes(int(n))}" if n.isdigit() else pid)
    return ", ".join(parts)


def _ballots(text: str) -> str:
    """``p1>p4,p2>p4`` -> ``p1 for p4, p2 for p4``."""
    return ", ".join(f"{v} for {t}" for v, _, t in (item.partition(">") for item in words.ids(text)))


def _reason(event: hr.Event) -> str:
    return event.reason or "refused"


# ---------------------------------------------------------------- events


def describe(event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
    """One sentence for ``event`` as ``viewer`` received it (``None``: a spectator), or ``None``.

    ``None`` means a front end shows nothing (kernel bookkeeping). The sentence uses only
    the event's own fields and the viewer's id; actions are told in the second person to
    their actor.
    """
    if event.type in hr.INTERNAL_EVENTS:
        return None
    mine = bool(event.source) and event.source == words.me(viewer)
    d = event.data
    t = event.type
    if t == hr.GAME_STARTED:
        return "The game begins. Night falls on the village."
    if t == hr.GAME_ENDED:
        return _ended(words.ids(d.get("winners", "")), viewer)
    if t == DAWN:
        return _dawn(d, viewer)
    if t == ELIMINATE:
        votes = d.get("votes", "")
        count = f" with {_votes(int(votes))}" if votes.isdigit() else ""
        ballots = f" Ballots: {_ballots(d['ballots'])}." if d.get("ballots") else ""
        return f"{words.who(event.target, viewer)} is voted out{count}.{ballots}"
    if t == VOTE_TIED:
        between = words.ids(d.get("between", ""))
        ballots = f" Ballots: {_ballots(d['ballots'])}." if d.get("ballots") else ""
        if between:
            tied = words.and_list(words.who(p, viewer) for p in between)
            return f"The vote is tied between {tied}: nobody is eliminated.{ballots}"
        return "Nobody voted: nobody is eliminated."
    if t == SPEECH_ENDED:
        if d.get("how") == CUT:
            return (
                "Your time is up; the floor passes on."
                if mine
                else f"{event.source} ran out of time; the floor passes on."
            )
        return "You have finished speaking." if mine else f"{event.source} has finished speaking."
    if t == FLOOR:
        return "You take the floor." if event.target == words.me(viewer) else f"{event.target} takes the floor."
    if t == FLOOR_CLOSED:
        if d.get("why") == QUIET:
            return "Nobody asks for the floor: the discussion is over and the vote follows."
        turns = d.get("turns", "")
        count = f"{turns} speaking turns" if turns.isdigit() else "speaking turns"
        return f"The day's {count} are used up: the vote follows."
    if t == IDIOT_REVEALED:
        who = words.who(event.target, viewer)
        return (
            f"{who} turns over the Idiot card instead of leaving: {event.target} stays in the game but no longer votes."
        )
    if t == KILL:
        return _kill(event)
    if t == SHOOT:
        if event.canceled:
            whose = "Your" if mine else f"{event.source}'s"
            return f"{whose} last shot does not fire: {_reason(event)}."
        shooter = "You fire" if mine else f"{event.source} fires"
        return f"{shooter} a last shot at {words.who(event.target, viewer)}, who dies."
    if t in (PROTECT, SAVE, POISON, CHECK, SKIP):
        return _private(event, mine)
    return _fallback(event, viewer)


def _ended(winners: list[str], viewer: hr.PlayerView | None) -> str:
    if not winners:
        return "The game is over: nobody wins."
    text = f"The game is over. Winners: {words.and_list(camp_name(w) for w in winners)}."
    if viewer is not None and viewer.self.camp:
        text += " You won." if viewer.self.camp in winners else " You lost."
    return text


def _dawn(d: Mapping[str, str], viewer: hr.PlayerView | None) -> str:
    dead = words.ids(d.get("dead", ""))
    if not dead:
        return "Dawn. Nobody died in the night."
    causes = dict(item.partition(":")[::2] for item in words.ids(d.get("causes", "")))
    named = []
    for p in dead:
        notes = ["you"] if p == words.me(viewer) else []
        if causes.get(p):
            notes.append(_CAUSES.get(causes[p], words.humane(causes[p])))
        named.append(f"{p} ({', '.join(notes)})" if notes else p)
    return f"Dawn. {words.and_list(named)} died in the night."


def _kill(event: hr.Event) -> str:
    tally = _tally(event.data.get("tally", ""))
    votes = f" ({tally})" if tally else ""
    if not event.canceled:
        return f"The werewolves chose {event.target} as tonight's victim{votes}."
    if event.reason == WOLVES_TIED:
        return f"The werewolves' vote is split: no kill tonight{votes}."
    if event.reason == NO_VOTES:
        return "The werewolves did not vote: no kill tonight."
    return f"The werewolves' kill fails: {_reason(event)}."


_DONE: Final[Mapping[str, tuple[str, str]]] = {
    PROTECT: ("You protect {t} tonight.", "The guard protects {t} tonight."),
    SAVE: ("You use the antidote on {t}.", "The witch uses the antidote on {t}."),
    POISON: ("You poison {t}.", "The witch poisons {t}."),
    SKIP: ("You pass your last action.", "{s} passes their last action."),
}
_FAILED: Final[Mapping[str, str]] = {
    PROTECT: "Your protection of {t} is refused",
    SAVE: "Your antidote on {t} is refused",
    POISON: "Your poison on {t} is refused",
    CHECK: "Your check of {t} is refused",
    SKIP: "Your pass is refused",
}


def _private(event: hr.Event, mine: bool) -> str:
    """An actor's own action: told to that actor (or to a host) in words."""
    t, s = event.target or "nobody", event.source
    if event.canceled:
        head = _FAILED[event.type].format(t=t)
        if not mine:
            head = head.replace("Your", f"{s}'s", 1)
        return f"{head}: {_reason(event)}."
    if event.type == CHECK:
        side = event.data.get("good")
        verdict = "on the werewolves' side" if side == "false" else "good" if side == "true" else "of unknown side"
        return f"Your check: {t} is {verdict}." if mine else f"The seer's check: {t} is {verdict}."
    own, other = _DONE[event.type]
    return (own if mine else other).format(t=t, s=s)


def _fallback(event: hr.Event, viewer: hr.PlayerView | None) -> str:
    """An event type this module does not know (a third-party extension): its name in words."""
    return words.unknown_event(event, viewer)


# ---------------------------------------------------------------- the seat


def _living(view: hr.PlayerView, *, others: bool = False, skill: str = "") -> list[str]:
    """The living players (without the seat when ``others``), narrowed to the targets the rules allow ``skill`` now."""
    ids = [p.id for p in view.players if p.alive and not (others and p.id == view.player_id)]
    only = dict(view.targets).get(skill) if skill else None
    return ids if only is None else [i for i in ids if i in only]


def _choose(verb: str, ids: list[str]) -> str:
    return f"Choose 1 player to {verb}: {', '.join(ids)}." if ids else f"There is nobody left to {verb}."


def prompt(view: hr.PlayerView) -> str:
    """What the seat may do now, in words, naming every player it may target."""
    if view.phase == hr.END:
        return "The game is over."
    skills = view.allowed_skills
    if not skills:
        return f"{phase_name(view.phase)}. {_waiting(view)}"
    info = view.role_info
    lines = _withheld(view, skills)
    for skill in skills:
        if skill == SKIP and len(skills) == 1 and not lines:
            lines.append("You died: pass to close your last action.")
        elif skill == KILL:
            lines.append(_choose("kill", _living(view)))
        elif skill == PROTECT:
            lines.append(_choose("protect", _living(view, skill=PROTECT)))
        elif skill == CHECK:
            lines.append(_choose("check", _living(view, others=True)))
        elif skill == ANTIDOTE:
            lines.append(_antidote(info))
        elif skill == POISON:
            if info.get(INFO_POISON):
                lines.append(_choose("poison", _living(view, others=True, skill=POISON)))
            else:
                lines.append("Your poison is used up.")
        elif skill == SHOOT:
            if info.get(INFO_CAN_SHOOT) == "no":
                lines.append("Your gun will not fire after this death.")
            else:
                lines.append(_choose("shoot", _living(view)))
        elif skill == VOTE:
            lines.append(f"Vote for 1 player to eliminate: {', '.join(_living(view))}.")
        elif skill == DONE:
            lines.append("It is your turn to speak; say done when you have finished.")
        elif skill == BID:
            lines.append(
                "Bid for the floor, in secret: 0 (you would rather listen), 1, 2, 3 or 4 (you must speak now); "
                "the highest bid speaks next."
            )
        elif skill == SKIP:
            jammed = SHOOT in skills and info.get(INFO_CAN_SHOOT) == "no"
            lines.append("Or pass." if len(skills) > 1 and not jammed else "Pass to close your last action.")
        else:
            lines.append(f"You may {skill_name(skill).lower()}.")
    return f"{phase_name(view.phase)}. " + " ".join(lines)


def _withheld(view: hr.PlayerView, skills: tuple[str, ...]) -> list[str]:
    """Why the seat's role skills that the rules refuse now are not offered (from its role info)."""
    info = view.role_info
    out: list[str] = []
    if view.phase == NIGHT_WITCH and view.self.role == WITCH:
        if ANTIDOTE not in skills:
            victim = info.get(INFO_KILL_TARGET, "")
            if info.get(INFO_ANTIDOTE) and victim == view.player_id:
                out.append("Tonight's victim is you: the antidote cannot save its own witch.")
            else:
                out.append(_antidote(info))
        if POISON not in skills:
            held = info.get(INFO_POISON)
            out.append("One potion a night: the poison waits for another night." if held else "Your poison is used up.")
    if SHOOT not in skills and SKIP in skills and info.get(INFO_CAN_SHOOT) == "no":
        out.append("Your gun will not fire after this death.")
    return out


def _antidote(info: Mapping[str, str]) -> str:
    if not info.get(INFO_ANTIDOTE):
        return "Your antidote is used up."
    victim = info.get(INFO_KILL_TARGET, "")
    if victim:
        return f"Tonight's victim is {victim}: you may save {victim} with the antidote."
    return "Nobody was attacked tonight: there is no one to save."


def _waiting(view: hr.PlayerView) -> str:
    if not view.self.alive:
        return "You are dead: you watch in silence."
    if view.phase == DAY_FLOOR:
        return f"{view.turn} holds the floor; listen." if view.turn else "The speaker has finished."
    if view.phase == DAY:
        if view.turn and view.turn != view.player_id:
            return f"{view.turn} holds the floor; wait for your turn."
        return "Talk with the living; the vote follows."
    if view.phase in (NIGHT_LAST_ACTION, DAY_LAST_ACTION):
        return "A dead player is taking their last action."
    return "Nothing to do for you now: keep your eyes closed."


def identity(view: hr.PlayerView) -> str:
    """Who the seat is and what it privately knows, in words."""
    me = view.self
    side = f"; you play for {camp_name(me.camp)}" if me.camp else ""
    parts = [f"You are {view.player_id}, the {role_name(me.role)}{side}."]
    if not me.alive:
        parts.append("You are dead.")
    if view.teammates:
        parts.append(f"Your fellow werewolves: {words.and_list(view.teammates)}.")
    info = view.role_info
    if INFO_ANTIDOTE in info or INFO_POISON in info or me.role == WITCH:
        held = [name for key, name in ((INFO_ANTIDOTE, "the antidote"), (INFO_POISON, "the poison")) if info.get(key)]
        parts.append(f"You still hold {words.and_list(held)}." if held else "Both your potions are used up.")
        if info.get(INFO_KILL_TARGET):
            parts.append(f"Tonight's victim is {info[INFO_KILL_TARGET]}.")
    if INFO_CAN_SHOOT in info:
        parts.append("Your gun would fire." if info[INFO_CAN_SHOOT] == "yes" else "Your gun will not fire.")
    known = [f"{p.id} is the {role_name(p.role)}" for p in view.players if p.role and p.id != view.player_id]
    if known:
        parts.append(f"Known cards: {words.and_list(known)}.")
    return " ".join(parts)
