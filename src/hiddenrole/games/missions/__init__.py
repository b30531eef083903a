"""Missions: The Resistance and Avalon on the hiddenrole kernel.

Nobody is ever eliminated. Five missions are played; each starts with a leader who
nominates a team, the whole table votes on it in public, and an approved team secretly
plays success or fail cards. Three failed missions, or five rejected teams in a row,
win for evil; three successful missions win for good unless the assassin then names
Merlin.

Quick start::

    import hiddenrole
    from hiddenrole.games import missions
    engine = missions.new_engine("avalon", players=7, roles=("percival", "morgana"), seed=1)
    # restore / replay with the same rules value:
    hiddenrole.Engine.restore(missions.rules(), engine.snapshot())

Rules (each has a test named after it, ``test_M1_...`` and so on)
------------------------------------------------------------------
M1  A table has 5 to 10 players and exactly 2, 2, 3, 3, 3, 4 evil seats (for 5..10).
    Servant, Merlin and Percival are GOOD; minion, assassin, Morgana, Mordred and
    Oberon are EVIL. ``start`` refuses an illegal table with ``hr.InvalidBoard``.
M2  Merlin sees every evil player except Mordred (Oberon included): role info ``evil``.
M3  Percival sees Merlin and Morgana as one sorted list, not which is which: role
    info ``merlin_or_morgana``.
M4  Evil players know who the other evil players are, not which role each holds:
    role info ``fellow_evil`` lists their ids. Oberon sees no one and no evil player
    sees him. Nobody has kernel teammates, so no view ever shows another seat's role.
M5  The game opens in ``MS_REVEAL`` (eyes open; nothing to submit). Then the first
    seat in id order leads mission 1.
M6  Nomination: in ``MS_PROPOSE_<k>`` only the leader may act, with one ``MS_NOMINATE``
    carrying exactly k distinct players, k being the mission's team size (the leader may
    include themself). One phase per team size lets the kernel refuse any other shape
    at submission (``hr.SkillNotAllowed``), so a bad nomination never costs a vote.
    ``team_size(view)`` tells a bot holding only its player view the size.
M7  A leader who lets the phase end without nominating forfeits (``MS_NO_NOMINATION``):
    the vote phase that follows names nobody to vote and rejects the empty team, so a
    forfeit counts as a rejected team (M9, M10).
M8  Team vote: everyone may vote ``MS_APPROVE`` or ``MS_REJECT``; the first ballot of
    each player counts and is public; the team goes only if approvals outnumber
    rejections (a tie, or no ballots, rejects).
M9  Leadership passes to the next seat in id order after every vote and every forfeit.
M10 Rejected teams in a row are counted (approval resets the count); the fifth gives
    evil the game (``MS_HAMMER``).
M11 Mission: only team members play, one card each (``MS_SUCCESS``/``MS_FAIL``); the
    only result told is one public event with the number of fails. There is no event
    per card. A member who plays no card counts as a success.
M12 A good player's fail is refused (a cancelled ``MS_FAIL_REFUSED`` shown to that
    player alone) and counts as a success.
M13 Fails needed: two on mission 4 at tables of 7 or more, else one.
M14 Three failed missions: evil wins.
M15 Three successful missions: the assassin, if the table has one, gets a detour to
    ``MS_ASSASSINATION``; without one, good wins.
M16 The assassin names one other player. Merlin: evil wins; anyone else, or nobody:
    good wins. The public result does not say who the assassin is.
M17 Round = mission number: the round advances on leaving ``MS_MISSION`` (so the
    assassination takes place in the round after the last mission).
M18 Every rule event is public except refused fails and cancelled events, which go to
    their source alone. Table talk is open: everyone hears everyone.
M19 Presets: ``resistance`` (servants and minions only) and ``avalon`` (Merlin and the
    Assassin, plus any of Percival, Morgana, Mordred, Oberon, filled with servants and
    minions), for 5..10 players. A composition is valid only with the right evil count,
    each special role at most once, and each role's partner present (Merlin with the
    Assassin, Percival with Merlin, Morgana with Percival, Mordred with Merlin).
    Roles are dealt to seat ids by ``random.Random(seed)``.

What is public
--------------
Everyone sees: every seat id (all alive, always), the phase and round, the leader,
every nomination, every ballot, each mission's result with its fail count and team,
the rejection count, the assassin's target and whether it hit, the end of the game.
Each player alone sees: their own role and camp, their role info (Merlin, Percival),
the ids of their fellow evil players (M4, never their roles), their own refused fail. Nobody sees who played which card,
nor who the assassin is. The phase sequence depends only on public facts (table size,
composition, nominations, ballots, results), never on where the roles sit.
"""

from __future__ import annotations

from .boards import (
    AVALON,
    OPTIONAL_ROLES,
    REQUIRES,
    RESISTANCE,
    VARIANTS,
    check_composition,
    composition,
    deal,
    parse_role,
    seat_ids,
)
from .engines import engine_from_seats, new_engine, random_submission
from .play import (
    KEY_EVIL,
    KEY_FELLOW_EVIL,
    KEY_MERLIN_OR_MORGANA,
    PUBLIC_EVENTS,
    RULES_NAME,
    RULES_VERSION,
    audience,
    check_victory,
    config,
    current_mission,
    evil_info,
    merlin_info,
    percival_info,
    resolve_assassination,
    resolve_mission,
    resolve_nomination,
    resolve_reveal,
    resolve_team_vote,
    rules,
    scoreboard,
    setup_game,
    speech,
    teammates,
)
from .tables import (
    EVIL_COUNTS,
    HAMMER_AT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISSIONS,
    TEAM_SIZES,
    WINS_NEEDED,
    evil_count,
    fails_needed,
    mission_team_size,
    team_size,
)
from .vocab import *  # noqa: F403 - the vocabulary is part of the package surface
from .vocab import __all__ as _vocab_all

__all__ = [
    *_vocab_all,
    "AVALON",
    "EVIL_COUNTS",
    "HAMMER_AT",
    "KEY_EVIL",
    "KEY_FELLOW_EVIL",
    "KEY_MERLIN_OR_MORGANA",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MISSIONS",
    "OPTIONAL_ROLES",
    "PUBLIC_EVENTS",
    "REQUIRES",
    "RESISTANCE",
    "RULES_NAME",
    "RULES_VERSION",
    "TEAM_SIZES",
    "VARIANTS",
    "WINS_NEEDED",
    "audience",
    "check_composition",
    "check_victory",
    "composition",
    "config",
    "current_mission",
    "deal",
    "engine_from_seats",
    "evil_count",
    "evil_info",
    "fails_needed",
    "merlin_info",
    "mission_team_size",
    "new_engine",
    "parse_role",
    "percival_info",
    "random_submission",
    "resolve_assassination",
    "resolve_mission",
    "resolve_nomination",
    "resolve_reveal",
    "resolve_team_vote",
    "rules",
    "scoreboard",
    "seat_ids",
    "setup_game",
    "speech",
    "team_size",
    "teammates",
]
