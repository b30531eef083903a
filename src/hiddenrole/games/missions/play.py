"""Resolvers, victory and the information boundary of the missions ruleset.

Everything here is a plain function of a read-only :class:`hiddenrole.GameView`, so
each rule can be tested on a hand-made :class:`hiddenrole.Board`. The rule numbers
(M1..M19) refer to the list in the package docstring.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Final

import hiddenrole as hr

from .boards import check_composition
from .chart import HAMMER_AT, MISSIONS, WINS_NEEDED, fails_of, team_size_of
from .vocab import (
    APPROVE,
    ASSASSIN,
    ASSASSINATE,
    ASSASSINATED,
    ASSASSINATION,
    EVENTS,
    EVIL,
    FAIL,
    FAIL_REFUSED,
    GOOD,
    HAMMER,
    LEADER,
    MERLIN,
    MINION,
    MISSION,
    MISSION_FAILED,
    MISSION_SUCCEEDED,
    MORDRED,
    MORGANA,
    NO_NOMINATION,
    NOMINATE,
    NOMINATED,
    OBERON,
    PERCIVAL,
    PROPOSE_2,
    PROPOSE_PHASES,
    REJECT,
    REVEAL,
    ROLES,
    SUCCESS,
    TEAM_APPROVED,
    TEAM_REJECTED,
    TEAM_VOTE,
    VAR_ASSASSINATION,
    VAR_LEADER,
    VAR_REJECTS,
    VAR_RESULTS,
    VAR_TEAM,
    VOTED,
    camp_of,
)

__all__ = [
    "RULES_NAME",
    "RULES_VERSION",
    "PUBLIC_EVENTS",
    "config",
    "rules",
    "resolve_reveal",
    "resolve_nomination",
    "resolve_team_vote",
    "resolve_mission",
    "resolve_assassination",
    "check_victory",
    "audience",
    "teammates",
    "evil_info",
    "merlin_info",
    "percival_info",
    "speech",
    "setup_game",
    "current_mission",
    "scoreboard",
]

RULES_NAME = "missions"
RULES_VERSION = "1"

PUBLIC_EVENTS = (EVENTS - {FAIL_REFUSED}) | {hr.GAME_STARTED, hr.GAME_ENDED}
"""Events every player sees (M18). A cancelled event goes to its source only."""

KEY_EVIL = "evil"
"""Merlin's role info: the evil players he sees, comma-separated (M2)."""
KEY_MERLIN_OR_MORGANA = "merlin_or_morgana"
"""Percival's role info: Merlin and Morgana, sorted, not told apart (M3)."""
KEY_FELLOW_EVIL = "fellow_evil"
"""An evil player's role info: the other evil players they know, comma-separated, without
their roles (M4). Oberon has no such entry."""

# Event payloads are built as one read-only map with its keys in sorted order (what a chain of
# ``Effect.with_data`` calls produces), so an event costs one map, not one copy per entry.
# The two ballots are the kernel's constant maps: a vote puts one in every seat's VOTED event,
# and the kernel takes its own constant maps without re-reading them.
_APPROVED_BALLOT: Final = hr.constant_map({"vote": "approve"})
_REJECTED_BALLOT: Final = hr.constant_map({"vote": "reject"})
_GOOD_CARD: Final = "a good player's card is always a success"
"""Why a good player's FAIL is refused (the cancelled FAIL_REFUSED's reason)."""
_tuple_new: Final = tuple.__new__
_EFFECT: Final = hr.Effect  # compiled: a C static (``hr.Effect`` is a module attribute read per call)
_EMPTY: Final = hr.Effect._field_defaults["data"]
"""The kernel's shared empty map: an Effect's default ``data`` and ``vars``."""


def _refused(kind: str, source: str, reason: str) -> hr.Effect:
    """``hr.event(kind, source).cancel(reason)``, the same value built as one tuple (in
    :class:`hiddenrole.Effect`'s field order): ``cancel`` is a method of the NamedTuple, a
    Python-level method call compiled, several times the cost of building the event."""
    return _tuple_new(_EFFECT, (kind, source, "", _EMPTY, True, reason, "", False, hr.GAME, "", "", (), "", _EMPTY, ()))


# ---------------------------------------------------------------- reading the board


def _camp(p: hr.PlayerInfo) -> str:
    """The seated camp; hand-made boards without one fall back to the role's camp.

    Read with ``in`` and ``[]``: compiled, ``get`` on a read-only map is a method call that calls
    the dict's in turn."""
    cells = p.vars
    camp = cells[hr.VAR_CAMP] if hr.VAR_CAMP in cells else ""  # noqa: SIM401
    return camp or camp_of(p.role)


def _results(view: hr.GameView) -> str:
    return view.var(hr.GAME, VAR_RESULTS)


def current_mission(view: hr.GameView) -> int:
    """The mission being played (1..5): one more than the missions finished."""
    return len(_results(view)) + 1


def _rejects(view: hr.GameView) -> int:
    raw = view.var(hr.GAME, VAR_REJECTS)
    return int(raw) if raw.isdigit() else 0


def _team(view: hr.GameView) -> tuple[str, ...]:
    return tuple([t for t in view.var(hr.ROUND, VAR_TEAM).split(",") if t])


def _next_after(ids: tuple[str, ...], leader: str) -> str:
    """Leadership passes to the next seat in id order (``ids``, the board's), wrapping around (M9).

    One indexed scan (compiled, a native loop) rather than ``in`` and then ``index``."""
    n = len(ids)
    for i in range(n):
        if ids[i] == leader:
            return ids[(i + 1) % n]
    return ids[0]


# ---------------------------------------------------------------- effect builders


def _open_nomination(players: int, mission: int, leader: str) -> list[hr.Effect]:
    """Name ``leader`` in the nomination phase sized for ``mission`` at a table of ``players`` and go there."""
    phase = PROPOSE_PHASES[team_size_of(players, mission)]
    return [hr.set_actors(phase, leader), hr.goto_phase(phase)]


def _lead(leader: str) -> list[hr.Effect]:
    """Hand the lead to ``leader``, publicly."""
    return [hr.set_var(hr.GAME, VAR_LEADER, leader), hr.event(LEADER, target=leader)]


def _rejected(view: hr.GameView, approvals: int, rejections: int, team: str) -> list[hr.Effect]:
    """A team that will not go: count it (M10), end on the fifth, else pass the lead (M9)."""
    n = _rejects(view) + 1
    rejects = str(n)
    data = {"approvals": str(approvals), "rejections": str(rejections), "rejects": rejects, "team": team}
    out = [hr.event(TEAM_REJECTED, data=MappingProxyType(data)), hr.set_var(hr.GAME, VAR_REJECTS, rejects)]
    if n >= HAMMER_AT:
        out.append(hr.event(HAMMER, data=MappingProxyType({"rejects": rejects})))
        return out
    ids = view.player_ids()  # a new tuple per call: asked once here
    nxt = _next_after(ids, view.var(hr.GAME, VAR_LEADER))
    out += _lead(nxt)
    out += _open_nomination(len(ids), current_mission(view), nxt)
    return out


# ---------------------------------------------------------------- resolvers


def resolve_reveal(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Night of eyes opening: nothing to resolve; the first seat leads mission 1 (M5)."""
    ids = view.player_ids()
    leader = ids[0]
    return [*_lead(leader), *_open_nomination(len(ids), 1, leader)]


def resolve_nomination(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The leader's one submission carries the whole team (M6); none forfeits (M7)."""
    leader = view.var(hr.GAME, VAR_LEADER)
    mission = current_mission(view)
    number = str(mission)
    pick: hr.SkillUse | None = None
    for u in uses:  # the leader's first nomination (a loop: ``next`` over a generator is a Python-level call)
        if u.player_id == leader and u.skill == NOMINATE:
            pick = u
            break
    if pick is None:
        return _forfeit(leader, number)
    ids = view.player_ids()
    size = team_size_of(len(ids), mission)
    targets = pick.targets
    team = ",".join(sorted(targets))
    event = hr.event(NOMINATED, leader, data=MappingProxyType({"mission": number, "team": team}))
    if not _is_team(targets, size, ids):
        # Only reachable when the kernel's step check was bypassed (hand-made boards).
        return [event.cancel(f"a team for mission {mission} is {size} distinct players"), *_forfeit(leader, number)]
    return [event, hr.set_var(hr.ROUND, VAR_TEAM, team)]


def _forfeit(leader: str, number: str) -> list[hr.Effect]:
    """No team for mission ``number``: the vote phase still follows, with nobody named to vote,
    and rejects the empty team there. Looping straight back to the nomination would lose the
    next leader's naming, which the kernel consumes on leaving a phase. (Built only when needed:
    naming the empty vote is most of a nomination's cost.)"""
    return [hr.event(NO_NOMINATION, leader, data=MappingProxyType({"mission": number})), hr.set_actors(TEAM_VOTE)]


def _is_team(targets: tuple[str, ...], size: int, ids: tuple[str, ...]) -> bool:
    """Whether ``targets`` are ``size`` distinct seated players (a team is a handful of seats:
    comparing them pairwise costs less than building a set)."""
    if len(targets) != size:
        return False
    for i in range(size):
        t = targets[i]
        if t not in ids:
            return False
        for j in range(i):
            if targets[j] == t:
                return False
    return True


def resolve_team_vote(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Public vote, first ballot per player; approved only by a strict majority (M8)."""
    ballots: dict[str, bool] = {}
    yes = 0
    for u in uses:
        pid = u.player_id
        skill = u.skill
        if skill in (APPROVE, REJECT) and pid not in ballots and view.player(pid) is not None:
            approve = skill == APPROVE
            ballots[pid] = approve
            yes += approve
    out = [hr.event(VOTED, p, data=_APPROVED_BALLOT if ballots[p] else _REJECTED_BALLOT) for p in sorted(ballots)]
    no = len(ballots) - yes
    team = _team(view)
    text = ",".join(team)
    if not team or yes <= no:
        return out + _rejected(view, yes, no, text)
    data = MappingProxyType({"approvals": str(yes), "rejections": str(no), "team": text})
    tally = hr.event(TEAM_APPROVED, data=data)
    lead = _lead(_next_after(view.player_ids(), view.var(hr.GAME, VAR_LEADER)))
    return [*out, tally, hr.set_var(hr.GAME, VAR_REJECTS, ""), hr.set_actors(MISSION, *team), *lead]


def resolve_mission(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Team members play one card each; only the count of fails is told (M11-M13)."""
    team = _team(view)
    cards: dict[str, str] = {}
    for u in uses:
        if u.player_id in team and u.skill in (SUCCESS, FAIL):
            cards.setdefault(u.player_id, u.skill)
    out: list[hr.Effect] = []
    fails = 0
    for pid in sorted(cards):
        if cards[pid] != FAIL:
            continue
        p = view.player(pid)
        if p is not None and _camp(p) == EVIL:
            fails += 1
        else:
            out.append(_refused(FAIL_REFUSED, pid, _GOOD_CARD))
    mission = current_mission(view)
    players = len(view.player_ids())
    need = fails_of(players, mission)
    failed = fails >= need
    data = {"fails": str(fails), "fails_needed": str(need), "mission": str(mission), "team": ",".join(team)}
    out.append(hr.event(MISSION_FAILED if failed else MISSION_SUCCEEDED, data=MappingProxyType(data)))
    results = _results(view) + ("F" if failed else "S")
    out.append(hr.set_var(hr.GAME, VAR_RESULTS, results))
    if results.count("S") >= WINS_NEEDED:
        assassin = _assassin(view)
        if assassin:
            out.append(hr.detour(assassin, ASSASSINATION))
        return out
    if results.count("F") >= WINS_NEEDED or mission >= MISSIONS:
        return out
    out += _open_nomination(players, mission + 1, view.var(hr.GAME, VAR_LEADER))
    return out


def _assassin(view: hr.GameView) -> str:
    return next((p.id for p in view.all_players() if p.role == ASSASSIN), "")


def resolve_assassination(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The assassin names one other player; naming Merlin wins for evil (M16).

    The public event carries no source: who the assassin is stays unsaid.
    """
    target = ""
    for u in uses:
        p = view.player(u.player_id)
        if p is None or p.role != ASSASSIN or u.skill != ASSASSINATE or len(u.targets) != 1:
            continue
        if u.target != p.id and view.player(u.target) is not None:
            target = u.target
            break
    victim = view.player(target) if target else None
    hit = victim is not None and victim.role == MERLIN
    return [
        hr.event(ASSASSINATED, target=target, data=MappingProxyType({"hit": "true" if hit else "false"})),
        hr.set_var(hr.GAME, VAR_ASSASSINATION, "hit" if hit else "miss"),
    ]


# ---------------------------------------------------------------- victory


def check_victory(view: hr.GameView) -> tuple[str, ...] | None:
    """Hammer, three fails, or three successes followed by the assassination (M10, M14-M16)."""
    if _rejects(view) >= HAMMER_AT:
        return (EVIL,)
    results = _results(view)
    if results.count("F") >= WINS_NEEDED:
        return (EVIL,)
    if results.count("S") < WINS_NEEDED:
        return None
    shot = view.var(hr.GAME, VAR_ASSASSINATION)
    if shot == "hit":
        return (EVIL,)
    if shot == "miss" or not _assassin(view):
        return (GOOD,)
    return None


# ---------------------------------------------------------------- information boundary


def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
    """Cancelled events and refused fails reach their source only; the rest is public (M18)."""
    if event.canceled or event.type == FAIL_REFUSED:
        return (event.source,) if event.source else ()
    if event.type in PUBLIC_EVENTS:
        return view.player_ids()
    return None


def teammates(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    """Who an evil player knows to be evil: every other evil player except Oberon, who
    knows and is known by none (M4). Good players know no one this way.

    Told as role info (:func:`evil_info`), not as the kernel's teammates, which would
    show each teammate's role: at a real table the evil players see *who* is evil,
    never which card each of them holds.
    """
    me = view.player(player_id)
    if me is None or me.role == OBERON or _camp(me) != EVIL:
        return ()
    return tuple(p.id for p in view.all_players() if p.id != player_id and _camp(p) == EVIL and p.role != OBERON)


def evil_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    """An evil player's private knowledge: the ids of their fellow evil players, no roles (M4)."""
    return {KEY_FELLOW_EVIL: ",".join(teammates(player_id, view))}


def merlin_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    """Merlin sees every evil player except Mordred; Oberon included (M2)."""
    seen = [p.id for p in view.all_players() if _camp(p) == EVIL and p.role != MORDRED]
    return {KEY_EVIL: ",".join(seen)}


def percival_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    """Percival sees Merlin and Morgana as one sorted list, not which is which (M3)."""
    seen = [p.id for p in view.all_players() if p.role in (MERLIN, MORGANA) and p.id != player_id]
    return {KEY_MERLIN_OR_MORGANA: ",".join(seen)}


def speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    """Table talk is open: everyone hears everyone, always (M18)."""
    return view.player_ids()


def setup_game(view: hr.GameView) -> list[hr.Effect]:
    """Refuse to start an illegal table (M1, M19); the game itself needs no setup effects."""
    # Legality ignores seat order; sorted, the list is the one dealt and composed (checked once, remembered).
    check_composition(sorted(p.role for p in view.all_players()))
    return []


def _role_setup(player_id: str, role: str) -> dict[str, str]:
    return {hr.VAR_CAMP: camp_of(role)}


# ---------------------------------------------------------------- public summary


def scoreboard(view: hr.GameView) -> dict[str, str]:
    """The public state of the table, for hosts and consoles (never a secret in it).

    Keys: ``mission``, ``results`` (``S``/``F`` per finished mission), ``successes``,
    ``fails``, ``rejects``, ``leader``, ``team`` (current nomination), ``team_size`` and
    ``fails_needed`` (of the current mission, when one is still to play).
    """
    results = _results(view)
    mission = current_mission(view)
    out = {
        "mission": str(mission),
        "results": results,
        "successes": str(results.count("S")),
        "fails": str(results.count("F")),
        "rejects": str(_rejects(view)),
        "leader": view.var(hr.GAME, VAR_LEADER),
        "team": ",".join(_team(view)),
    }
    n = len(view.player_ids())
    if mission <= MISSIONS and n in range(5, 11):
        out["team_size"] = str(team_size_of(n, mission))
        out["fails_needed"] = str(fails_of(n, mission))
    return out


# ---------------------------------------------------------------- assembly


def _watch(*roles: str) -> tuple[hr.PhaseStep, ...]:
    return tuple(hr.PhaseStep(r) for r in roles)


def config() -> hr.Config:
    """The phase graph (M5-M17); the same for every board, so one Rules serves all tables."""
    vote = (
        hr.PhaseStep("", APPROVE, required=True, multiple=True, group="vote"),
        hr.PhaseStep("", REJECT, required=True, multiple=True, group="vote"),
    )
    card = (
        hr.PhaseStep("", SUCCESS, required=True, multiple=True, group="card"),
        hr.PhaseStep("", FAIL, required=True, multiple=True, group="card"),
    )
    phases: dict[str, hr.PhaseConfig] = {
        # Who opens their eyes at night; watch-only steps, listed for a narrator.
        REVEAL: hr.PhaseConfig(
            steps=_watch(MERLIN, PERCIVAL, MINION, ASSASSIN, MORGANA, MORDRED),
            next_phase=PROPOSE_2,
            timeout=15,
        ),
        TEAM_VOTE: hr.PhaseConfig(steps=vote, next_phase=MISSION, timeout=30),
        # The exit is always chosen by the resolver (next nomination, detour or end).
        MISSION: hr.PhaseConfig(steps=card, next_phase=PROPOSE_2, timeout=30, on_exit=(hr.ADVANCE_ROUND,)),
        ASSASSINATION: hr.PhaseConfig(
            steps=(
                hr.PhaseStep(
                    ASSASSIN, ASSASSINATE, required=True, min_targets=1, max_targets=1, allow_self_target=False
                ),
            ),
            next_phase=hr.END,
            timeout=90,
        ),
    }
    for size, phase in PROPOSE_PHASES.items():
        step = hr.PhaseStep("", NOMINATE, required=True, min_targets=size, max_targets=size, distinct_targets=True)
        phases[phase] = hr.PhaseConfig(steps=(step,), next_phase=TEAM_VOTE, timeout=60, on_enter=(hr.CLEAR_ROUND_VARS,))
    return hr.Config(start_phase=REVEAL, phases=phases, default_timeout=30)


@functools.cache
def rules() -> hr.Rules:
    """The missions ruleset (one immutable value; every table uses the same one)."""
    resolvers: dict[str, Callable[[Sequence[hr.SkillUse], hr.GameView], list[hr.Effect]]] = {
        REVEAL: resolve_reveal,
        TEAM_VOTE: resolve_team_vote,
        MISSION: resolve_mission,
        ASSASSINATION: resolve_assassination,
    }
    for phase in PROPOSE_PHASES.values():
        resolvers[phase] = resolve_nomination
    return hr.Rules(
        config(),
        name=RULES_NAME,
        version=RULES_VERSION,
        resolvers=resolvers,
        victory=check_victory,
        # What the checker reads changes only there: the rejects (team vote), the results (mission)
        # and the shot (assassination); reveal and nominations never decide.
        victory_after=frozenset({TEAM_VOTE, MISSION, ASSASSINATION}),
        role_setup={role: _role_setup for role in sorted(ROLES)},
        game_setup=setup_game,
        role_info={
            MERLIN: merlin_info,
            PERCIVAL: percival_info,
            **dict.fromkeys((ASSASSIN, MINION, MORDRED, MORGANA), evil_info),
        },
        audience=audience,
        speech=speech,
    )
