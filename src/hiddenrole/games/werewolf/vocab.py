"""Werewolf's vocabulary: every phase, role, skill, event, camp and variable key.

All values are plain strings. Some strings name several things on purpose (``VOTE``
is a phase and a skill, ``KILL`` a skill and an event): the kernel never mixes the
namespaces, and hosts read them more easily that way.
"""

from __future__ import annotations

from typing import Final

import hiddenrole as hr

# ---------------------------------------------------------------- phases
NIGHT: Final = "NIGHT"
"""Compound phase grouping the night; entering it clears the round's markers."""
NIGHT_GUARD: Final = "NIGHT_GUARD"
NIGHT_WOLF: Final = "NIGHT_WOLF"
NIGHT_WITCH: Final = "NIGHT_WITCH"
NIGHT_SEER: Final = "NIGHT_SEER"
NIGHT_RESOLVE: Final = "NIGHT_RESOLVE"
NIGHT_LAST_ACTION: Final = "NIGHT_LAST_ACTION"
"""Detour phase: one trip per player who died in the night (replaces the seed's NIGHT_HUNTER)."""
DAYTIME: Final = "DAYTIME"
"""Compound phase grouping the day; leaving it ends the round."""
DAY: Final = "DAY"
VOTE: Final = "VOTE"
DAY_FLOOR: Final = "DAY_FLOOR"
"""Bid-for-the-floor day only: the seat that won the bid speaks, then says DONE."""
DAY_LAST_ACTION: Final = "DAY_LAST_ACTION"
"""Detour phase: one trip per player who died by day (replaces the seed's DAY_HUNTER)."""

LAST_ACTION_PHASES: Final = (NIGHT_LAST_ACTION, DAY_LAST_ACTION)

# ---------------------------------------------------------------- roles
WEREWOLF: Final = "WEREWOLF"
SEER: Final = "SEER"
WITCH: Final = "WITCH"
HUNTER: Final = "HUNTER"
VILLAGER: Final = "VILLAGER"
GUARD: Final = "GUARD"
MODERATOR: Final = hr.SYSTEM
"""The announcement steps' role: nobody sits in it."""

# ---------------------------------------------------------------- skills (SKIP and ANNOUNCE are the kernel's)
KILL: Final = "KILL"
CHECK: Final = "CHECK"
PROTECT: Final = "PROTECT"
ANTIDOTE: Final = "ANTIDOTE"
POISON: Final = "POISON"
SHOOT: Final = "SHOOT"
DONE: Final = "DONE"
"""Ordered or bid-for-the-floor day: the speaker yields the floor (ends their turn)."""
BID: Final = "BID"
"""Bid-for-the-floor day only: how urgently the seat wants to speak; its one target is a
member of the :data:`BID_POOL` pool, ``"0"`` (rather listen) to ``"4"`` (must speak now)."""
SKIP: Final = hr.SKIP
ANNOUNCE: Final = hr.ANNOUNCE

# ---------------------------------------------------------------- events (and KILL, PROTECT, POISON, ...)
SAVE: Final = "SAVE"
ELIMINATE: Final = "ELIMINATE"
VOTE_TIED: Final = "VOTE_TIED"
DAWN: Final = "DAWN"
"""The moderator's morning announcement: who died in the night, never how."""
SPEECH_ENDED: Final = "SPEECH_ENDED"
"""Ordered or bid-for-the-floor day, public: the source's turn to speak is over (``how``: DONE or CUT)."""
FLOOR: Final = "FLOOR"
"""Bid-for-the-floor day, public: the target won the bid and speaks next (``turn``: 1, 2, ...).
The bids themselves are never told to anyone."""
FLOOR_CLOSED: Final = "FLOOR_CLOSED"
"""Bid-for-the-floor day, public: the discussion is over and the vote follows (``why``:
:data:`QUIET` when no seat bid above 0, :data:`TURNS_USED` when the day's turns are spent)."""
QUIET: Final = "quiet"
TURNS_USED: Final = "turns"
CUT: Final = "CUT"
"""``how`` of a SPEECH_ENDED whose turn the host ended (a timer, say) before DONE."""

# ---------------------------------------------------------------- camps and categories
GOOD: Final = "GOOD"
EVIL: Final = "EVIL"
WOLF: Final = "WOLF"
GOD: Final = "GOD"
"""Category of the good camp's special roles (神职)."""
# VILLAGER doubles as the category of plain villagers.

# ---------------------------------------------------------------- victory modes
SIDE_WIPE: Final = "SIDE_WIPE"
"""屠边: wolves win by wiping out every special role or every villager."""
TOWN_WIPE: Final = "TOWN_WIPE"
"""Wolves win once the good camp can no longer outnumber them."""
VICTORY_MODES: Final = (SIDE_WIPE, TOWN_WIPE)

# ---------------------------------------------------------------- audience classes
PUBLIC: Final = "public"
"""Every seated player, dead or alive."""
ACTOR: Final = "actor"
"""The event's source only."""
PACK: Final = "pack"
"""Every player of the evil camp, dead or alive."""
AUDIENCE_CLASSES: Final = (PUBLIC, ACTOR, PACK)

# ---------------------------------------------------------------- variable keys
VAR_CAMP: Final = hr.VAR_CAMP
VAR_CATEGORY: Final = "category"
VAR_KILL_TARGET: Final = "wolf.kill_target"
"""Round, unowned: tonight's victim as the wolves chose it."""
VAR_PROTECTED: Final = "guard.protected"
"""Round, per player: guarded tonight."""
VAR_SAVED: Final = "witch.saved"
"""Round, per player: healed by the antidote tonight."""
VAR_POISONED: Final = "witch.poisoned"
"""Round, per player: poisoned tonight."""
VAR_GUARD_LAST_TARGET: Final = "guard.last_target"
VAR_GUARD_LAST_ROUND: Final = "guard.last_round"
VAR_ANTIDOTE: Final = "witch.antidote"
VAR_POISON: Final = "witch.poison"
VAR_GUN: Final = "gun"
"""Game, per player: comma list of death causes after which the player may SHOOT."""
VAR_DEATH_CAUSE: Final = "death.cause"
"""Game, per player: KILL, POISON, VOTE or SHOOT (god view only)."""
VAR_NO_VOTE: Final = "vote.lost"
"""Game, per player: this player no longer votes (set by extensions such as the idiot)."""

VAR_FLOOR_TURNS: Final = "floor.turns"
"""Round, unowned: speaking turns given so far today (bid-for-the-floor day)."""
VAR_FLOOR_LAST: Final = "floor.last"
"""Round, unowned: today's last speaker, where the tie-break's seat rotation starts."""

# ---------------------------------------------------------------- bid levels
BID_POOL: Final = "bid"
"""The target pool of BID: the bid levels."""
BID_LEVELS: Final = ("0", "1", "2", "3", "4")
"""0: I would rather listen; 1: I may say something; 2: I have something to add;
3: I have something important; 4: I must speak now (Werewolf Arena's scale)."""

# ---------------------------------------------------------------- role info keys
INFO_ANTIDOTE: Final = "antidote"
INFO_POISON: Final = "poison"
INFO_KILL_TARGET: Final = "kill_target"
INFO_CAN_SHOOT: Final = "can_shoot"

__all__ = [
    "ACTOR",
    "ANNOUNCE",
    "ANTIDOTE",
    "AUDIENCE_CLASSES",
    "BID",
    "BID_LEVELS",
    "BID_POOL",
    "CHECK",
    "CUT",
    "DAWN",
    "DAY",
    "DAYTIME",
    "DAY_FLOOR",
    "DAY_LAST_ACTION",
    "DONE",
    "ELIMINATE",
    "EVIL",
    "FLOOR",
    "FLOOR_CLOSED",
    "GOD",
    "GOOD",
    "GUARD",
    "HUNTER",
    "INFO_ANTIDOTE",
    "INFO_CAN_SHOOT",
    "INFO_KILL_TARGET",
    "INFO_POISON",
    "KILL",
    "LAST_ACTION_PHASES",
    "MODERATOR",
    "NIGHT",
    "NIGHT_GUARD",
    "NIGHT_LAST_ACTION",
    "NIGHT_RESOLVE",
    "NIGHT_SEER",
    "NIGHT_WITCH",
    "NIGHT_WOLF",
    "PACK",
    "POISON",
    "PROTECT",
    "PUBLIC",
    "QUIET",
    "SAVE",
    "SEER",
    "SHOOT",
    "SIDE_WIPE",
    "SKIP",
    "SPEECH_ENDED",
    "TOWN_WIPE",
    "TURNS_USED",
    "VAR_ANTIDOTE",
    "VAR_CAMP",
    "VAR_CATEGORY",
    "VAR_DEATH_CAUSE",
    "VAR_FLOOR_LAST",
    "VAR_FLOOR_TURNS",
    "VAR_GUARD_LAST_ROUND",
    "VAR_GUARD_LAST_TARGET",
    "VAR_GUN",
    "VAR_KILL_TARGET",
    "VAR_NO_VOTE",
    "VAR_POISON",
    "VAR_POISONED",
    "VAR_PROTECTED",
    "VAR_SAVED",
    "VICTORY_MODES",
    "VILLAGER",
    "VOTE",
    "VOTE_TIED",
    "WEREWOLF",
    "WITCH",
    "WOLF",
]
