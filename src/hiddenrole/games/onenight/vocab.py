"""Every value the One Night ruleset owns: roles, phases, skills, events, camps, keys.

Phase, role, skill and event values all start with ``ON_`` so that they can never
collide with another ruleset's values (a cross-ruleset test checks this). Display
names for people live apart from the values, in :data:`DISPLAY_NAMES`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

import hiddenrole as hr

__all__ = [
    "WEREWOLF",
    "MINION",
    "MASON",
    "SEER",
    "ROBBER",
    "TROUBLEMAKER",
    "DRUNK",
    "INSOMNIAC",
    "VILLAGER",
    "HUNTER",
    "TANNER",
    "ROLES",
    "BOX_COPIES",
    "DISPLAY_NAMES",
    "VILLAGE",
    "WOLF",
    "TANNER_CAMP",
    "CAMPS",
    "camp_of",
    "NIGHT_WEREWOLF",
    "NIGHT_MINION",
    "NIGHT_MASON",
    "NIGHT_SEER",
    "NIGHT_ROBBER",
    "NIGHT_TROUBLEMAKER",
    "NIGHT_DRUNK",
    "NIGHT_INSOMNIAC",
    "DAY",
    "VOTE_PHASE",
    "PHASES",
    "PEEK",
    "SEER_PLAYER",
    "SEER_CENTER",
    "ROB",
    "MEDDLE",
    "DRINK",
    "VOTE",
    "SKILLS",
    "PEEKED",
    "SEER_LOOK",
    "ROBBED",
    "MEDDLED",
    "DRUNK_SWAP",
    "INSOMNIA",
    "VOTED",
    "LYNCHED",
    "NO_ONE_DIES",
    "HUNTER_HIT",
    "EVENTS",
    "PRIVATE_EVENTS",
    "PUBLIC_EVENTS",
    "CENTER_POOL",
    "CENTER_SLOTS",
    "VAR_CARD",
    "VAR_VOTE_SETTLED",
    "LEARN_SELF",
    "center_key",
    "learn_player_key",
    "learn_center_key",
]

# Roles (= cards). The kernel role of a seat is the card *dealt*; the game variable
# VAR_CARD is the card *held now*.
WEREWOLF: Final = "ON_WEREWOLF"
MINION: Final = "ON_MINION"
MASON: Final = "ON_MASON"
SEER: Final = "ON_SEER"
ROBBER: Final = "ON_ROBBER"
TROUBLEMAKER: Final = "ON_TROUBLEMAKER"
DRUNK: Final = "ON_DRUNK"
INSOMNIAC: Final = "ON_INSOMNIAC"
VILLAGER: Final = "ON_VILLAGER"
HUNTER: Final = "ON_HUNTER"
TANNER: Final = "ON_TANNER"

ROLES: Final[tuple[hr.RoleType, ...]] = (
    WEREWOLF,
    MINION,
    MASON,
    SEER,
    ROBBER,
    TROUBLEMAKER,
    DRUNK,
    INSOMNIAC,
    VILLAGER,
    HUNTER,
    TANNER,
)

BOX_COPIES: Final = MappingProxyType(
    {
        WEREWOLF: 2,
        MINION: 1,
        MASON: 2,
        SEER: 1,
        ROBBER: 1,
        TROUBLEMAKER: 1,
        DRUNK: 1,
        INSOMNIAC: 1,
        VILLAGER: 3,
        HUNTER: 1,
        TANNER: 1,
    }
)
"""How many copies of each card the box holds; a deck may use at most these."""

DISPLAY_NAMES: Final = MappingProxyType(
    {
        WEREWOLF: "Werewolf",
        MINION: "Minion",
        MASON: "Mason",
        SEER: "Seer",
        ROBBER: "Robber",
        TROUBLEMAKER: "Troublemaker",
        DRUNK: "Drunk",
        INSOMNIAC: "Insomniac",
        VILLAGER: "Villager",
        HUNTER: "Hunter",
        TANNER: "Tanner",
    }
)

# Camps: who scores together. A card's camp never changes, but a *player's* camp is the
# camp of the card they hold at the end, which swaps can change.
VILLAGE: Final = "VILLAGE"
WOLF: Final = "WOLF"
TANNER_CAMP: Final = "TANNER"
CAMPS: Final[tuple[hr.Camp, ...]] = (VILLAGE, WOLF, TANNER_CAMP)


def camp_of(card: hr.RoleType) -> hr.Camp:
    """The camp a card scores for: werewolf and minion for WOLF, tanner alone, the rest VILLAGE."""
    if card in (WEREWOLF, MINION):
        return WOLF
    if card == TANNER:
        return TANNER_CAMP
    return VILLAGE


# Phases: a straight line, the night in the rulebook's waking order, then day and vote.
NIGHT_WEREWOLF: Final = "ON_NIGHT_WEREWOLF"
NIGHT_MINION: Final = "ON_NIGHT_MINION"
NIGHT_MASON: Final = "ON_NIGHT_MASON"
NIGHT_SEER: Final = "ON_NIGHT_SEER"
NIGHT_ROBBER: Final = "ON_NIGHT_ROBBER"
NIGHT_TROUBLEMAKER: Final = "ON_NIGHT_TROUBLEMAKER"
NIGHT_DRUNK: Final = "ON_NIGHT_DRUNK"
NIGHT_INSOMNIAC: Final = "ON_NIGHT_INSOMNIAC"
DAY: Final = "ON_DAY"
VOTE_PHASE: Final = "ON_VOTE"
PHASES: Final[tuple[hr.PhaseType, ...]] = (
    NIGHT_WEREWOLF,
    NIGHT_MINION,
    NIGHT_MASON,
    NIGHT_SEER,
    NIGHT_ROBBER,
    NIGHT_TROUBLEMAKER,
    NIGHT_DRUNK,
    NIGHT_INSOMNIAC,
    DAY,
    VOTE_PHASE,
)

# Skills.
PEEK: Final = "ON_PEEK"
SEER_PLAYER: Final = "ON_SEER_PLAYER"
SEER_CENTER: Final = "ON_SEER_CENTER"
ROB: Final = "ON_ROB"
MEDDLE: Final = "ON_MEDDLE"
DRINK: Final = "ON_DRINK"
VOTE: Final = "ON_VOTE"
SKILLS: Final[tuple[hr.SkillType, ...]] = (PEEK, SEER_PLAYER, SEER_CENTER, ROB, MEDDLE, DRINK, VOTE)

# Rule events. Night results are private to the actor; the vote and its deaths are public.
PEEKED: Final = "ON_PEEKED"
SEER_LOOK: Final = "ON_SEER_LOOK"
ROBBED: Final = "ON_ROBBED"
MEDDLED: Final = "ON_MEDDLED"
DRUNK_SWAP: Final = "ON_DRUNK_SWAP"
INSOMNIA: Final = "ON_INSOMNIA"
VOTED: Final = "ON_VOTED"
LYNCHED: Final = "ON_LYNCHED"
NO_ONE_DIES: Final = "ON_NO_ONE_DIES"
HUNTER_HIT: Final = "ON_HUNTER_HIT"
PRIVATE_EVENTS: Final = frozenset({PEEKED, SEER_LOOK, ROBBED, MEDDLED, DRUNK_SWAP, INSOMNIA})
PUBLIC_EVENTS: Final = frozenset({VOTED, LYNCHED, NO_ONE_DIES, HUNTER_HIT, hr.GAME_STARTED, hr.GAME_ENDED})
EVENTS: Final[tuple[hr.EventType, ...]] = tuple(sorted(PRIVATE_EVENTS | (PUBLIC_EVENTS - hr.KERNEL_EVENTS)))

# Centre cards are kernel targets from a named pool, so the kernel validates choices.
CENTER_POOL: Final = "ON_CENTER"
CENTER_SLOTS: Final[tuple[str, str, str]] = ("0", "1", "2")

# Variables (god view only; players see knowledge through role info).
VAR_CARD: Final = "card"
"""Game variable of each player: the card they hold now."""
VAR_VOTE_SETTLED: Final = "vote.settled"
"""Game variable set once the vote is resolved; victory is decided only then."""
LEARN_SELF: Final = "learn.self"
"""Game variable of a player: their own card, as of the moment they last looked."""


def center_key(slot: str) -> str:
    """Game variable holding the card now in centre slot ``slot`` ("0".."2")."""
    return f"center.{slot}"


def learn_player_key(player_id: str) -> str:
    """Player variable: ``player_id``'s card as of the moment the owner saw it."""
    return f"learn.player.{player_id}"


def learn_center_key(slot: str) -> str:
    """Player variable: centre slot ``slot`` as of the moment the owner saw it."""
    return f"learn.center.{slot}"
