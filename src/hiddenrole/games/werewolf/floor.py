"""Bid for the floor (switch ``bid_for_floor``): Werewolf Arena's day discussion.

The day alternates two phases inside DAYTIME. In DAY every living player may BID once,
in secret, a level from ``"0"`` (rather listen) to ``"4"`` (must speak now); a seat
that does not bid counts as 0. The highest bid takes the floor; a tie goes to the
first tied seat in seat order after today's last speaker (the first seat at the first
turn), a rule of public facts only. The winner is announced (FLOOR, public, without
any bid) and holds DAY_FLOOR, the only one who may speak then, until DONE (or the
host ends the turn: SPEECH_ENDED, as in the ordered day). Then everyone bids again.
The day's discussion ends, and the vote follows, after ``floor_turns`` speaking turns
or as soon as nobody bids above 0 (FLOOR_CLOSED, public, says which).

Nobody ever sees a bid: not the other bidders, not the dead, not the winner's height.
What is public (who takes the floor, when the talk ends) depends on the bids and the
seats, never on a role.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

import hiddenrole as hr

from .resolution import Resolve, bind, resolve_day, resolve_speech
from .switches import Switches
from .vocab import (
    BID,
    BID_LEVELS,
    DAY,
    DAY_FLOOR,
    FLOOR,
    FLOOR_CLOSED,
    QUIET,
    TURNS_USED,
    VAR_FLOOR_LAST,
    VAR_FLOOR_TURNS,
    VOTE,
)

__all__ = [
    "bids",
    "floor_resolvers",
    "floor_turn_resolvers",
    "next_speaker",
    "resolve_bids",
    "resolve_floor",
    "turns_taken",
]


def turns_taken(view: hr.GameView) -> int:
    """Speaking turns given so far today."""
    raw = view.var(hr.ROUND, VAR_FLOOR_TURNS)
    return int(raw) if raw.isdigit() else 0


def bids(uses: Sequence[hr.SkillUse], view: hr.GameView) -> dict[str, int]:
    """Each living seat's bid: its first valid BID, else 0 (the dead do not bid)."""
    out = {p.id: 0 for p in view.alive_players()}
    seen: set[str] = set()
    for u in uses:
        if u.skill != BID or u.player_id not in out or u.player_id in seen or len(u.targets) != 1:
            continue
        seen.add(u.player_id)
        if u.target in BID_LEVELS:
            out[u.player_id] = BID_LEVELS.index(u.target)
    return out


def next_speaker(bid: dict[str, int], seats: Sequence[str], last: str) -> str:
    """The highest bidder; ties go to the first tied seat after ``last`` in seat order ("" if no bid > 0)."""
    top = max(bid.values(), default=0)
    if top <= 0:
        return ""
    order = sorted(seats)
    start = order.index(last) + 1 if last in order else 0
    rotation = order[start:] + order[:start]
    return next(pid for pid in rotation if bid.get(pid, 0) == top)


def _to_vote(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches, why: str) -> list[hr.Effect]:
    closed = hr.event(FLOOR_CLOSED, data=MappingProxyType({"turns": str(turns_taken(view)), "why": why}))
    return [closed, *resolve_day(uses, view, sw), hr.goto_phase(VOTE)]


def resolve_bids(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """DAY under ``bid_for_floor``: name the highest bidder for DAY_FLOOR, or close the talk."""
    speaker = next_speaker(bids(uses, view), view.player_ids(), view.var(hr.ROUND, VAR_FLOOR_LAST))
    if not speaker:
        return _to_vote(uses, view, sw, QUIET)
    turn = turns_taken(view) + 1
    return [
        hr.event(FLOOR, target=speaker, data=MappingProxyType({"turn": str(turn)})),
        hr.set_var(hr.ROUND, VAR_FLOOR_TURNS, str(turn)),
        hr.set_var(hr.ROUND, VAR_FLOOR_LAST, speaker),
        hr.set_actors(DAY_FLOOR, speaker),
    ]


def resolve_floor(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """DAY_FLOOR: after the day's last turn the vote follows; otherwise everyone bids again."""
    if turns_taken(view) >= sw.floor_turns:
        return _to_vote(uses, view, sw, TURNS_USED)
    return []


def floor_resolvers(sw: Switches) -> dict[str, Resolve]:
    """The phase resolvers ``bid_for_floor`` adds (DAY's replaced); none when it is off."""
    if not sw.bid_for_floor:
        return {}
    return {DAY: bind(resolve_bids, sw), DAY_FLOOR: bind(resolve_floor, sw)}


def floor_turn_resolvers(sw: Switches) -> dict[str, Resolve]:
    """The end of each DAY_FLOOR turn is announced like the ordered day's (SPEECH_ENDED)."""
    return {DAY_FLOOR: bind(resolve_speech, sw)} if sw.bid_for_floor else {}
