"""One Night Ultimate Werewolf in words: events, the seat's next move and what it knows.

Every function is pure: its text is built from its arguments alone (the event as the
seat received it and that seat's :class:`hiddenrole.PlayerView`), so narration can never
tell a seat more than the engine already did. A card a seat looked at is always told as
it was at the moment of looking: later swaps may have moved it. The shared shape of
every game's narration module is documented in ``docs/NARRATION.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr
from hiddenrole.gamedef import words

from .boundary import KEY_MASONS, KEY_WOLVES
from .vocab import (
    CENTER_SLOTS,
    DAY,
    DISPLAY_NAMES,
    DRINK,
    DRUNK_SWAP,
    HUNTER_HIT,
    INSOMNIA,
    LEARN_SELF,
    LYNCHED,
    MEDDLE,
    MEDDLED,
    MINION,
    NIGHT_DRUNK,
    NIGHT_INSOMNIAC,
    NIGHT_MASON,
    NIGHT_MINION,
    NIGHT_ROBBER,
    NIGHT_SEER,
    NIGHT_TROUBLEMAKER,
    NIGHT_WEREWOLF,
    NO_ONE_DIES,
    PEEK,
    PEEKED,
    ROB,
    ROBBED,
    SEER_CENTER,
    SEER_LOOK,
    SEER_PLAYER,
    TANNER_CAMP,
    VILLAGE,
    VOTE,
    VOTE_PHASE,
    VOTED,
    WEREWOLF,
    WOLF,
    center_key,
    learn_center_key,
    learn_player_key,
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
    "One Night Ultimate Werewolf lasts one night, one short day and a single vote. Each player is "
    "dealt a card and three more lie face down in the centre. At night the roles wake in a fixed "
    "order: the werewolves see each other (a lone werewolf may look at one centre card), the minion "
    "sees the werewolves, the masons see each other, the seer looks at another player's card or at "
    "two centre cards, the robber swaps cards with another player and looks at the new card, the "
    "troublemaker swaps two other players' cards unseen, the drunk swaps their card with a centre card "
    "unseen, and the insomniac looks at their own card last. The card you hold at the end, which may "
    "no longer be the card you were dealt, decides your side. By day everyone talks, then everyone "
    "votes for another player at once; the players with the most votes die, unless nobody gets more "
    "than one vote. The village wins if a werewolf dies (or, with no werewolf among the players, if "
    "nobody dies); the werewolves win if none of them dies; the tanner wins alone by dying. A hunter "
    "who dies takes the player they voted for down too. Nobody speaks at night."
)
"""The rules in a paragraph of our own words, for an agent's prompt."""

_CAMPS: Final[Mapping[str, str]] = {VILLAGE: "the village", WOLF: "the werewolves", TANNER_CAMP: "the tanner"}
_SKILLS: Final[Mapping[str, str]] = {
    PEEK: "Look at a centre card",
    SEER_PLAYER: "Look at a player's card",
    SEER_CENTER: "Look at two centre cards",
    ROB: "Rob a player",
    MEDDLE: "Swap two players' cards",
    DRINK: "Take a centre card",
    VOTE: "Vote",
}
_PHASES: Final[Mapping[str, str]] = {
    NIGHT_WEREWOLF: "Night: the werewolves",
    NIGHT_MINION: "Night: the minion",
    NIGHT_MASON: "Night: the masons",
    NIGHT_SEER: "Night: the seer",
    NIGHT_ROBBER: "Night: the robber",
    NIGHT_TROUBLEMAKER: "Night: the troublemaker",
    NIGHT_DRUNK: "Night: the drunk",
    NIGHT_INSOMNIAC: "Night: the insomniac",
    DAY: "Day: discussion",
    VOTE_PHASE: "The vote",
    hr.START: "Before the game",
    hr.END: "The game is over",
}

EVENTS: Final = frozenset(
    {
        hr.GAME_STARTED,
        hr.GAME_ENDED,
        PEEKED,
        SEER_LOOK,
        ROBBED,
        MEDDLED,
        DRUNK_SWAP,
        INSOMNIA,
        VOTED,
        LYNCHED,
        NO_ONE_DIES,
        HUNTER_HIT,
    }
)
"""Every event type this module phrases; others get a plain fallback."""


# ---------------------------------------------------------------- words


def _humane(value: str) -> str:
    """A fallback display name: the game's ``ON_`` prefix dropped (see :func:`hiddenrole.gamedef.words.humane`)."""
    return words.humane(value, "ON_")


def role_name(role: str) -> str:
    """The card's name."""
    return words.named(DISPLAY_NAMES, role, "ON_")


def camp_name(camp: str) -> str:
    """The side a camp stands for."""
    return words.named(_CAMPS, camp, "ON_")


def skill_name(skill: str) -> str:
    """A short label for a skill (a button, a menu line)."""
    return words.named(_SKILLS, skill, "ON_")


def phase_name(phase: str) -> str:
    """The phase as the moderator calls it."""
    return words.named(_PHASES, phase, "ON_")


def _card(role: str) -> str:
    return f"the {role_name(role)} card" if role else "an unknown card"


def _slot(slot: str) -> str:
    return f"centre card {slot}"


# ---------------------------------------------------------------- events


def describe(event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
    """One sentence for ``event`` as ``viewer`` received it (``None``: a spectator), or ``None``.

    ``None`` means a front end shows nothing (kernel bookkeeping). Night results are
    told in the second person to the player who acted (a host reading them gets the
    third person); the sentence uses only the event's own fields and the viewer's id.
    """
    if event.type in hr.INTERNAL_EVENTS:
        return None
    d = event.data
    t = event.type
    you = bool(event.source) and event.source == words.me(viewer)
    actor = "You" if you else event.source
    if t == hr.GAME_STARTED:
        return "The game begins: everyone closes their eyes for the night."
    if t == hr.GAME_ENDED:
        winners = words.ids(d.get("winners", ""))
        if not winners:
            return "The game is over: nobody wins."
        return f"The game is over. Winners: {words.and_list(camp_name(w) for w in winners)}."
    if t == PEEKED:
        return f"{actor} {'look' if you else 'looks'} at {_slot(d.get('center', '?'))}: {_card(d.get('card', ''))}."
    if t == SEER_LOOK:
        if event.target:
            whose = f"{event.target}'s card"
            return f"{actor} {'look' if you else 'looks'} at {whose}: {_card(d.get('card', ''))}."
        seen = [f"{_slot(s)} is {_card(d[center_key(s)])}" for s in CENTER_SLOTS if center_key(s) in d]
        return f"{actor} {'look' if you else 'looks'} at the centre: {words.and_list(seen)}."
    if t == ROBBED:
        verb = "swap" if you else "swaps"
        holds = "now hold" if you else "now holds"
        return f"{actor} {verb} cards with {event.target} and {holds} {_card(d.get('card', ''))}."
    if t == MEDDLED:
        return f"{actor} {'swap' if you else 'swaps'} the cards of {event.target} and {d.get('with', '?')}."
    if t == DRUNK_SWAP:
        slot = _slot(d.get("center", "?"))
        if d.get("default"):
            return f"{'You' if you else event.source} made no choice and {'take' if you else 'takes'} {slot} unseen."
        return f"{actor} {'swap' if you else 'swaps'} {'your' if you else 'their'} card with {slot} without looking."
    if t == INSOMNIA:
        return (
            f"{actor} {'wake' if you else 'wakes'} and {'see' if you else 'sees'} {_card(d.get('card', ''))} in hand."
        )
    if t == VOTED:
        return f"{'You vote' if you else event.source + ' votes'} for {words.who(event.target, viewer)}."
    if t == LYNCHED:
        votes = d.get("votes", "")
        return (
            f"{words.who(event.target, viewer)} dies with {votes} votes."
            if votes
            else f"{words.who(event.target, viewer)} dies."
        )
    if t == NO_ONE_DIES:
        return "Nobody received more than one vote: nobody dies."
    if t == HUNTER_HIT:
        hunter, hit = words.who(event.source, viewer), words.who(event.target, viewer)
        return f"{hunter} held the Hunter card and takes {hit} down too."
    return words.unknown_event(event, viewer, "ON_")


# ---------------------------------------------------------------- the seat


def _others(view: hr.PlayerView) -> str:
    return ", ".join(p.id for p in view.players if p.alive and p.id != view.player_id)


_CENTRE: Final = ", ".join(CENTER_SLOTS)


def prompt(view: hr.PlayerView) -> str:
    """What the seat may do now, in words, naming every player or centre card it may pick."""
    if view.phase == hr.END:
        return "The game is over."
    skills = view.allowed_skills
    head = phase_name(view.phase)
    if not skills:
        if view.phase == DAY:
            return f"{head}. Talk with everyone; the vote follows."
        return f"{head}. Nothing to do for you now: keep your eyes closed."
    lines: list[str] = []
    if PEEK in skills:
        lines.append(f"You are the only werewolf: you may look at 1 centre card ({_CENTRE}).")
    if SEER_PLAYER in skills or SEER_CENTER in skills:
        lines.append(f"Look at 1 other player's card ({_others(view)}) or at 2 centre cards ({_CENTRE}).")
    if ROB in skills:
        lines.append(f"Choose 1 other player to rob (you take their card and look at it): {_others(view)}.")
    if MEDDLE in skills:
        lines.append(f"Choose 2 other players whose cards to swap: {_others(view)}.")
    if DRINK in skills:
        lines.append(
            f"Choose 1 centre card to take without looking ({_CENTRE}); with no choice you get card {CENTER_SLOTS[0]}."
        )
    if VOTE in skills:
        lines.append(f"Vote for 1 other player: {_others(view)}.")
    for skill in skills:
        if skill not in _SKILLS:
            lines.append(f"You may {skill_name(skill).lower()}.")
    return f"{head}. " + " ".join(lines)


def identity(view: hr.PlayerView) -> str:
    """Who the seat is and what it privately knows, in words (every looked-at card as it was then)."""
    me = view.self
    parts = [f"You are {view.player_id}; you were dealt {_card(me.role)}."]
    info = view.role_info
    if KEY_WOLVES in info:
        wolves = words.ids(info[KEY_WOLVES])
        if me.role == WEREWOLF:
            parts.append(f"The other werewolves: {words.and_list(wolves)}." if wolves else "You are the only werewolf.")
        elif me.role == MINION:
            parts.append(f"The werewolves: {words.and_list(wolves)}." if wolves else "No player was dealt a werewolf.")
    if KEY_MASONS in info:
        masons = words.ids(info[KEY_MASONS])
        parts.append(
            f"The other masons: {words.and_list(masons)}." if masons else "The other mason card is in the centre."
        )
    if info.get(LEARN_SELF):
        parts.append(f"When you last looked, you held {_card(info[LEARN_SELF])}.")
    for p in view.players:
        seen = info.get(learn_player_key(p.id))
        if seen:
            parts.append(f"When you looked, {p.id} held {_card(seen)}.")
    for slot in CENTER_SLOTS:
        seen = info.get(learn_center_key(slot))
        if seen:
            parts.append(f"When you looked, {_slot(slot)} was {_card(seen)}.")
    return " ".join(parts)
