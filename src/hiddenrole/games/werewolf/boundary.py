"""Who may know what: event audiences, wolf teammates, speech, private role info.

What is public mirrors a moderated table: deaths (the dawn list, never its causes
unless a disclosure switch says so), eliminations with their ballots, tied votes,
gunshots, the start and the end, and (ordered or bid-for-the-floor day) who holds the
floor; a bid for the floor is seen by nobody. Each actor
alone learns the outcome of their own action (a protection, a potion, a check, a
skipped last action), and so does every cancelled action. The wolves, as one actor,
learn their night vote.
"""

from __future__ import annotations

from collections.abc import Mapping

import hiddenrole as hr

from .resolution import cell, night_kill_target
from .vocab import (
    ACTOR,
    CHECK,
    DAWN,
    DAY,
    DAY_FLOOR,
    ELIMINATE,
    EVIL,
    FLOOR,
    FLOOR_CLOSED,
    INFO_ANTIDOTE,
    INFO_CAN_SHOOT,
    INFO_KILL_TARGET,
    INFO_POISON,
    KILL,
    NIGHT_WOLF,
    PACK,
    POISON,
    PROTECT,
    PUBLIC,
    SAVE,
    SHOOT,
    SKIP,
    SPEECH_ENDED,
    VAR_ANTIDOTE,
    VAR_DEATH_CAUSE,
    VAR_GUN,
    VAR_POISON,
    VOTE_TIED,
)

__all__ = [
    "CORE_EVENTS",
    "Audience",
    "floor_speech",
    "gun_info",
    "ordered_speech",
    "speech",
    "teammates",
    "witch_info",
]

CORE_EVENTS: Mapping[str, str] = {
    hr.GAME_STARTED: PUBLIC,
    hr.GAME_ENDED: PUBLIC,
    DAWN: PUBLIC,
    ELIMINATE: PUBLIC,
    VOTE_TIED: PUBLIC,
    SHOOT: PUBLIC,
    SPEECH_ENDED: PUBLIC,
    FLOOR: PUBLIC,
    FLOOR_CLOSED: PUBLIC,
    KILL: PACK,
    PROTECT: ACTOR,
    SAVE: ACTOR,
    POISON: ACTOR,
    CHECK: ACTOR,
    SKIP: ACTOR,
}
"""Audience class of every event the core emits."""


def _camp(cell: Mapping[str, str]) -> str:
    """A seat's camp, ``""`` if none, read with ``in`` and ``[]``: compiled, ``get`` on a read-only
    map is a method call that calls the dict's in turn (and every view of every seat reads one)."""
    # hr.VAR_CAMP: a literal compiled code inlines (vocab's alias of it is a name looked up per read).
    return cell[hr.VAR_CAMP] if hr.VAR_CAMP in cell else ""  # noqa: SIM401


_kept_pack: tuple[tuple[hr.PlayerInfo, ...], tuple[str, ...]] = ((), ())
"""The last pack found, with the ``all_players`` tuple it was read from. That tuple is the same
object until a player record changes, and each wolf's view of a board (and each PACK event) asks
for the same pack: kept, it is one scan per board instead of one per wolf. One slot, replaced as a
whole (another engine, or thread, finds either the old pair or the new one)."""


def _pack(view: hr.GameView) -> tuple[str, ...]:
    """The evil camp's ids, dead members included, in id order."""
    global _kept_pack
    players = view.all_players()
    kept = _kept_pack
    if kept[0] is players:
        return kept[1]
    pack = tuple([p.id for p in players if _camp(p.vars) == EVIL])
    _kept_pack = (players, pack)
    return pack


class Audience:
    """Routes events by class; a cancelled event reaches only its actor.

    Types not in the table answer ``None`` (unknown), so a host notices an extension
    that forgot to declare its events instead of silently leaking or dropping them.
    """

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[str, str]) -> None:
        self._table = dict(table)

    def audience(self, event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
        cls = self._table.get(event.type)
        if cls == PACK:
            return _pack(view)
        if event.canceled:
            return (event.source,) if event.source else ()
        if cls == PUBLIC:
            return view.player_ids()
        if cls == ACTOR:
            return (event.source,) if event.source else ()
        return None


def teammates(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    """The evil camp knows itself (dead members included); nobody else knows anyone."""
    me = view.player(player_id)
    if me is None or _camp(me.vars) != EVIL:
        return ()
    return tuple([i for i in _pack(view) if i != player_id])


def speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    """Wolves whisper during the wolves' phase, the living talk by day, the dead never."""
    me = view.player(sender_id)
    if me is None or not me.alive:
        return ()
    if view.phase == DAY:
        return tuple([p.id for p in view.alive_players()])
    if view.phase == NIGHT_WOLF and _camp(me.vars) == EVIL:
        return tuple([p.id for p in view.alive_players() if _camp(p.vars) == EVIL])
    return ()


def ordered_speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    """``ordered_day``: by day only the living player holding the floor speaks, to all the living.

    Once everyone has spoken nobody holds the floor, so the table falls silent until
    the vote. The night is as in :func:`speech`: the wolves still whisper freely.
    """
    if view.phase != DAY:
        return speech(sender_id, view)
    me = view.player(sender_id)
    if me is None or not me.alive or view.turn() != sender_id:
        return ()
    return tuple(p.id for p in view.alive_players())


def floor_speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    """``bid_for_floor``: the bidding is silent; on DAY_FLOOR only the living player holding
    the floor speaks, to all the living, until DONE. The night is as in :func:`speech`."""
    if view.phase == DAY:
        return ()
    if view.phase != DAY_FLOOR:
        return speech(sender_id, view)
    me = view.player(sender_id)
    if me is None or not me.alive or view.turn() != sender_id:
        return ()
    return tuple(p.id for p in view.alive_players())


def witch_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    """The witch's potions, and tonight's victim while she is alive and can still heal."""
    me = view.player(player_id)
    if me is None:
        return {}
    # Written in key order (antidote, kill_target, poison): the kernel keeps a sorted copy, and a
    # dict already in order is copied rather than sorted.
    out: dict[str, str] = {}
    heals = bool(cell(me.vars, VAR_ANTIDOTE))
    if heals:
        out[INFO_ANTIDOTE] = hr.VAR_PRESENT
        victim = night_kill_target(view)
        if me.alive and victim:
            out[INFO_KILL_TARGET] = victim
    if cell(me.vars, VAR_POISON):
        out[INFO_POISON] = hr.VAR_PRESENT
    return out


def gun_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    """Whether an armed player's gun would fire: always while alive, after death it depends."""
    me = view.player(player_id)
    if me is None:
        return {}
    gun = cell(me.vars, VAR_GUN)
    if not gun:
        return {}
    works = me.alive or cell(me.vars, VAR_DEATH_CAUSE) in gun.split(",")
    return {INFO_CAN_SHOOT: "yes" if works else "no"}
