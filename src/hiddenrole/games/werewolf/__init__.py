"""Werewolf (狼人杀), Chinese table rules with the zh-Wikipedia baseline.

Roles (camp / category)
    WEREWOLF (EVIL / WOLF) kills at night by majority. SEER, WITCH, GUARD, HUNTER
    (GOOD / GOD): the seer checks a camp, the witch holds one antidote and one poison,
    the guard protects, the hunter shoots after death unless poisoned. VILLAGER
    (GOOD / VILLAGER) has no power. Roles are data (:class:`RoleSpec`); extensions add
    more (:mod:`.idiot` for 白痴, :mod:`.wolfking` for 狼王) without touching the core.

Phases
    NIGHT [NIGHT_GUARD, NIGHT_WOLF, NIGHT_WITCH, NIGHT_SEER, NIGHT_RESOLVE,
    NIGHT_LAST_ACTION*] then DAYTIME [DAY, VOTE, DAY_LAST_ACTION*]; a round is one
    night and one day. ``*`` phases are detours: one trip per death, for every dead
    player whatever the role. Every phase opens with a moderator announcement
    (:data:`ANNOUNCEMENTS`) and carries an advisory timeout (:data:`TIMEOUTS`).

Switches (:class:`Switches`, defaults first)
    witch_can_save_self=False, witch_can_use_both_potions=False,
    guard_can_protect_self=True, guard_can_repeat=False, guarded_kill_is_empty=True,
    guard_and_save_dies=True, victory_mode=SIDE_WIPE (or TOWN_WIPE),
    announce_death_causes=False (a disclosure switch), ordered_day=False (when on,
    DAY is SEQUENTIAL: the living speak in turn in seat order, each ending their turn
    with DONE, or the host ends it with ``engine.end_turn``), bid_for_floor=False and
    floor_turns=8 (when on, the living bid in secret for the floor, the highest bidder
    speaks in DAY_FLOOR, for at most floor_turns turns a day; see :mod:`.floor`).

What is public
    Everyone (dead players too) sees: the start and end of the game; the dawn list of
    the night's dead in id order, without causes; eliminations with the public ballots
    and tied votes; gunshots (a shooter shows their card); under ordered_day, whose
    turn it is and each SPEECH_ENDED. The phase sequence and each
    player's own view never depend on hidden roles: the seed's hunter-only phase,
    which told the table who the hunter was, is replaced by a last action owed by
    every dead player (a non-shooter may only SKIP, and nobody else learns which).
    Private: each actor learns the outcome of their own action (PROTECT, SAVE,
    POISON, CHECK, SKIP) and every cancelled action goes to its actor alone; the
    wolves as one actor see their KILL vote; wolves know each other; the witch sees
    her potions and, while she can heal, tonight's victim; an armed player sees
    whether the gun would fire. By design some events depend on hidden roles
    (:func:`disclosing_events`): the seer's own CHECK, the end of the game, and an
    extension's declared reveals (the idiot's flipped card). ``announce_death_causes``
    deliberately adds the causes to the dawn list (:attr:`Switches.disclosures`).

Use
    ``engine = werewolf.new_game(12, seed=1)`` deals the standard board to p00..p11 and
    starts; ``werewolf.rules(Switches(...), extensions=(idiot.EXTENSION,))`` gives the
    :class:`hiddenrole.Rules` for any host. The rules version records extensions and
    non-default switches, so a save is only ever resumed under the same house rules.

Differences from the Go seed
    NIGHT_HUNTER/DAY_HUNTER became NIGHT_LAST_ACTION/DAY_LAST_ACTION for every death;
    KILL and POISON are no longer public (DAWN is); the round ends when the day's last
    actions are done (compound DAYTIME) rather than on leaving VOTE.

Rules (each one a test named ``test_R<n>_...``)
    R1 every role has a camp and a category; the witch starts with both potions.
    R2 switches are validated; a bad value raises :class:`hiddenrole.InvalidConfig`.
    R3 night order guard, wolves, witch, seer, dawn; then talk and vote; round = night+day.
    R4 the guard protects one player: not himself unless allowed, not the same player
       two nights running unless allowed (a night off resets that).
    R5 the wolves' unique majority picks the victim; a tie or no vote is no kill.
    R6 the antidote saves only tonight's victim, once per game, not the witch herself
       unless allowed, not on a night she already used the poison unless allowed.
    R7 the poison kills anyone but the witch, once per game, one potion per night.
    R8 the seer learns a camp, never a role.
    R9 dawn: guarded and saved dies iff guard_and_save_dies; guarded only survives iff
       guarded_kill_is_empty; saved only survives; otherwise the victim dies.
    R10 the night's dead, poisoned included, die in id order under one announcement.
    R11 every dead player owes a last action; only an armed role may shoot.
    R12 a shot kills and the victim's own last action follows (chains); a poisoned
        hunter's gun does not fire.
    R13 the unique most-voted player is eliminated; a tie or no votes eliminates
        nobody (no run-off); the dead do not vote.
    R14 no living wolf: good wins; no living good player: evil wins.
    R15 side wipe: evil wins when every special role or every villager is dead.
    R16 town wipe: evil wins when the living good are no more than the living evil.
    R17 victory waits until every last action is done; a decided board cannot start.
    R18 event audiences are as listed under "What is public".
    R19 the evil camp knows itself, dead members included; nobody else knows anyone.
    R20 wolves talk during NIGHT_WOLF, the living during DAY, the dead never.
    R21 role info: the witch's potions and victim; an armed role's gun status.
    R22 presets for 6 to 12 players; seeded dealing to seats p00.. .
    R23 entry points build ready rules from switches and extensions.
    R24 ordered_day: DAY goes round the living in seat order, one turn each, ended by
        DONE or by the host's end_turn (a public SPEECH_ENDED, how=DONE or CUT); the
        dead get no turn; the phase is ready once everyone has spoken. Off by default,
        and the default rules and version are unchanged.
    R25 ordered_day: only the living player holding the floor speaks (to all the
        living), nobody once the round is over; the wolves' night talk stays free.
    R26 ordered_day: the floor is public: who speaks when is the same whatever the
        deal, and a snapshot or a log taken mid-discussion resumes the same turn.
    R27 bid_for_floor: the living bid 0-4 in secret (no bid counts as 0, the dead do
        not bid); the highest bid takes the floor (public FLOOR), ties to the first
        tied seat after today's last speaker; the speaker alone talks until DONE;
        then a new bid; after floor_turns turns, or when nobody bids above 0, the
        vote (public FLOOR_CLOSED). Not combinable with ordered_day; off by default.
    X1 (:mod:`.idiot`) an idiot exiled by vote turns the card over, survives, loses the vote.
    X2 (:mod:`.wolfking`) the wolf king kills with the pack and shoots after death, not after poison.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

import hiddenrole as hr

from .boards import BOARDS, MAX_PLAYERS, MIN_PLAYERS, board, deal, seat_ids, shuffle_deck, shuffled
from .boundary import CORE_EVENTS, Audience, floor_speech, gun_info, ordered_speech, speech, teammates, witch_info
from .floor import floor_resolvers, floor_turn_resolvers
from .legality import USABLE_SKILLS, Usable
from .phases import (
    ANNOUNCEMENTS,
    BID_DAY_ANNOUNCEMENT,
    DEFAULT_TIMEOUT,
    FLOOR_ANNOUNCEMENT,
    ORDERED_DAY_ANNOUNCEMENT,
    TIMEOUTS,
    announcement,
    build_config,
)
from .resolution import (
    death,
    first_uses,
    night_kill_target,
    resolve_day,
    resolve_guard,
    resolve_last_action,
    resolve_night,
    resolve_seer,
    resolve_speech,
    resolve_vote,
    resolve_witch,
    resolve_wolves,
    resolvers,
    turn_resolvers,
)
from .roles import CORE_ROLES, GUN_CAUSES, Extension, InterceptorLike, RoleInfoLike, RoleSpec, camp_vars
from .seating import seating
from .switches import DISCLOSURE_SWITCHES, FLOOR_TURNS, MAX_FLOOR_TURNS, Switches
from .victory import KILLING_PHASES, Victory, check_victory
from .vocab import *  # noqa: F403  (the vocabulary is part of this package's public names)
from .vocab import CHECK, WITCH
from .vocab import __all__ as _VOCAB

NAME: Final = "werewolf"
VERSION: Final = "1"


def _roles(extensions: tuple[Extension, ...]) -> tuple[RoleSpec, ...]:
    specs = list(CORE_ROLES)
    for ext in extensions:
        specs.extend(ext.roles)
    names = [s.role for s in specs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise hr.InvalidConfig(f"role declared twice: {', '.join(dupes)}")
    return tuple(specs)


def _events(extensions: tuple[Extension, ...]) -> dict[str, str]:
    table = dict(CORE_EVENTS)
    for ext in extensions:
        for etype, cls in ext.events:
            if etype in table or etype in hr.KERNEL_EVENTS:
                raise hr.InvalidConfig(f"extension {ext.name!r} redeclares event {etype!r}")
            table[etype] = cls
    return table


_DEFAULT_SWITCHES = Switches()
"""The house rules when none are given (immutable, so one value serves every call)."""


@lru_cache(maxsize=64)
def _build(sw: Switches, extensions: tuple[Extension, ...], extra: tuple[InterceptorLike, ...]) -> hr.Rules:
    specs = _roles(extensions)
    info: dict[str, RoleInfoLike] = {WITCH: witch_info}
    for spec in specs:
        if spec.gun:
            info[spec.role] = gun_info
    for ext in extensions:
        info.update(ext.role_info)
    if len({e.name for e in extensions}) != len(extensions):
        raise hr.InvalidConfig("an extension is listed twice")
    interceptors = (*(i for e in extensions for i in e.interceptors), *extra)
    return hr.Rules(
        build_config(specs, ordered_day=sw.ordered_day, bid_for_floor=sw.bid_for_floor),
        name=NAME,
        version=version_of(sw, extensions),
        resolvers={**resolvers(sw), **floor_resolvers(sw)},
        turn_resolvers={**turn_resolvers(sw), **floor_turn_resolvers(sw)},
        victory=Victory(sw.victory_mode),
        # An interceptor (an extension's or the host's) may write a death in any phase: then every phase is asked.
        victory_after=None if interceptors else KILLING_PHASES,
        role_setup={s.role: seating(s) for s in specs},
        role_info=info,
        audience=Audience(_events(extensions)),
        teammates=teammates,
        speech=floor_speech if sw.bid_for_floor else ordered_speech if sw.ordered_day else speech,
        interceptors=interceptors,
        usable=Usable(sw),
        usable_skills=USABLE_SKILLS,
    )


def _sequence(values: object, what: str) -> tuple[object, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise hr.InvalidArgument(f"{what} must be a sequence")
    return tuple(values)


def _extensions(values: object) -> tuple[Extension, ...]:
    out: list[Extension] = []
    for v in _sequence(values, "extensions"):
        if not isinstance(v, Extension):
            raise hr.InvalidArgument(f"extensions must hold Extension values, got {v!r}")
        out.append(v)
    return tuple(out)


def _interceptors(values: object) -> tuple[InterceptorLike, ...]:
    out: list[InterceptorLike] = []
    for v in _sequence(values, "extra_interceptors"):
        if isinstance(v, hr.Interceptor) or callable(v):
            out.append(v)
        else:
            raise hr.InvalidArgument(f"interceptor {v!r} is neither callable nor has .intercept()")
    return tuple(out)


def version_of(switches: Switches | None = None, extensions: Sequence[Extension] = ()) -> str:
    """The rules version: ``"1"``, then ``+name`` per extension, then non-default switches.

    Snapshots and logs record it, so a game is never resumed under other house rules.
    """
    sw = Switches() if switches is None else switches
    names = sorted(e.name for e in _extensions(extensions))
    changed = sw.changed()
    tail = ";" + ",".join(f"{k}={v}" for k, v in changed) if changed else ""
    return "+".join((VERSION, *names)) + tail


def rules(
    switches: Switches | None = None,
    *,
    extensions: Sequence[Extension] = (),
    extra_interceptors: Sequence[InterceptorLike] = (),
) -> hr.Rules:
    """Ready-to-play rules: the core roles plus ``extensions``, under ``switches``.

    The version (:func:`version_of`) records the extensions and the switches that differ
    from the defaults, so a saved game cannot be resumed under other house rules.
    Equal arguments return the same (immutable) value.
    """
    if switches is None and extensions == () and extra_interceptors == ():
        return _build(_DEFAULT_SWITCHES, (), ())  # the usual table: no switch object to build and check
    sw = _DEFAULT_SWITCHES if switches is None else switches
    if not isinstance(sw, Switches):
        raise hr.InvalidArgument("switches must be a Switches value")
    exts = _extensions(extensions)
    extra = _interceptors(extra_interceptors)
    try:
        hash((sw, exts, extra))
    except TypeError:  # an unhashable interceptor object: build without the cache
        return _build.__wrapped__(sw, exts, extra)
    return _build(sw, exts, extra)


def disclosing_events(extensions: Sequence[Extension] = ()) -> frozenset[str]:
    """Event types whose content reveals hidden roles to their audience, by design.

    The seer's CHECK (to the seer), the end of the game (to everyone), and whatever the
    extensions declare in ``reveals``. An information-boundary check should expect two
    deals to differ from such an event on, and nowhere before it.
    """
    return frozenset({hr.GAME_ENDED, CHECK, *(e for ext in _extensions(extensions) for e in ext.reveals)})


def new_game(
    players: int | Sequence[str] = 12,
    seed: int = 0,
    *,
    switches: Switches | None = None,
    extensions: Sequence[Extension] = (),
    extra_interceptors: Sequence[InterceptorLike] = (),
    start: bool = True,
) -> hr.Engine:
    """An engine with a seeded deal seated (and started unless ``start=False``).

    ``players`` is a preset size (6-12, see :data:`BOARDS`) or an explicit card list.
    Seats are ``p00``, ``p01``, ... and receive the shuffled cards in order.
    """
    # What ``deal`` gives, seated at once (one lock round trip, not one per seat), without the dict;
    # a preset's cards are known good and skip the card checks.
    deck = shuffle_deck(board(players), seed) if isinstance(players, int) else shuffled(players, seed)
    seats = zip(seat_ids(len(deck)), deck, strict=True)
    engine = hr.Engine(rules(switches, extensions=extensions, extra_interceptors=extra_interceptors))
    engine.add_players(seats)
    if start:
        engine.start()
    return engine


def restore(
    snapshot: hr.Snapshot | bytes | str,
    switches: Switches | None = None,
    *,
    extensions: Sequence[Extension] = (),
    extra_interceptors: Sequence[InterceptorLike] = (),
) -> hr.Engine:
    """Resume a saved game under the same switches and extensions it was played with."""
    return hr.Engine.restore(rules(switches, extensions=extensions, extra_interceptors=extra_interceptors), snapshot)


def replay(
    log: hr.GameLog | bytes | str,
    switches: Switches | None = None,
    *,
    extensions: Sequence[Extension] = (),
    extra_interceptors: Sequence[InterceptorLike] = (),
) -> hr.Engine:
    """Rebuild a game from its log under the same switches and extensions."""
    return hr.Engine.replay(rules(switches, extensions=extensions, extra_interceptors=extra_interceptors), log)


__all__ = [
    *_VOCAB,
    "ANNOUNCEMENTS",
    "BID_DAY_ANNOUNCEMENT",
    "BOARDS",
    "CORE_EVENTS",
    "CORE_ROLES",
    "DEFAULT_TIMEOUT",
    "DISCLOSURE_SWITCHES",
    "FLOOR_ANNOUNCEMENT",
    "FLOOR_TURNS",
    "MAX_FLOOR_TURNS",
    "GUN_CAUSES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "ORDERED_DAY_ANNOUNCEMENT",
    "TIMEOUTS",
    "VERSION",
    "Audience",
    "Extension",
    "InterceptorLike",
    "RoleInfoLike",
    "RoleSpec",
    "Switches",
    "Victory",
    "announcement",
    "board",
    "build_config",
    "camp_vars",
    "check_victory",
    "deal",
    "death",
    "floor_resolvers",
    "floor_speech",
    "floor_turn_resolvers",
    "disclosing_events",
    "first_uses",
    "gun_info",
    "new_game",
    "night_kill_target",
    "ordered_speech",
    "resolve_day",
    "resolve_guard",
    "resolve_last_action",
    "resolve_night",
    "resolve_seer",
    "resolve_speech",
    "resolve_vote",
    "resolve_witch",
    "resolve_wolves",
    "replay",
    "resolvers",
    "restore",
    "rules",
    "seat_ids",
    "speech",
    "teammates",
    "turn_resolvers",
    "version_of",
    "witch_info",
]
