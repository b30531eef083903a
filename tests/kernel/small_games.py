"""Two small rulesets, `mini` and `counter`, and the drivers the kernel tests share.

``mini`` is a tiny werewolf-like game that touches every kernel mechanism the
persistence and boundary tests need: player, round and game variables, named actors
via a detour (a dead hunter's shot), a goto, private and public rule events,
teammates, role info and a victory rule. ``counter`` is a never-ending one-phase
game whose resolver counts what it resolved, so lost or doubled submissions show.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

import hiddenrole as hr

WOLF, SEER, HUNTER, VILLAGER = "WOLF", "SEER", "HUNTER", "VILLAGER"
NIGHT, DAY, SHOOT = "NIGHT", "DAY", "SHOOT"
KILL, CHECK, VOTE, SHOT = "KILL", "CHECK", "VOTE", "SHOT"
KILLED, SEEN, LYNCHED, SHOT_DOWN, DEALT = "KILLED", "SEEN", "LYNCHED", "SHOT_DOWN", "DEALT"
TOWN = "TOWN"

ROSTER: tuple[tuple[str, str], ...] = (
    ("h1", HUNTER),
    ("s1", SEER),
    ("v1", VILLAGER),
    ("v2", VILLAGER),
    ("v3", VILLAGER),
    ("w1", WOLF),
    ("w2", WOLF),
)


def mini_config() -> hr.Config:
    """Night (wolves kill, seer checks) and day (everyone votes or skips), plus a detour phase."""
    return hr.Config(
        start_phase=NIGHT,
        phases={
            NIGHT: hr.PhaseConfig(
                steps=(hr.PhaseStep(WOLF, KILL, required=True), hr.PhaseStep(SEER, CHECK)),
                next_phase=DAY,
                on_enter=(hr.CLEAR_ROUND_VARS,),
            ),
            DAY: hr.PhaseConfig(
                steps=(
                    hr.PhaseStep("", VOTE, required=True, multiple=True, group="ballot"),
                    hr.PhaseStep("", hr.SKIP, group="ballot"),
                ),
                next_phase=NIGHT,
                on_exit=(hr.ADVANCE_ROUND,),
            ),
            SHOOT: hr.PhaseConfig(steps=(hr.PhaseStep(HUNTER, SHOT),), next_phase=NIGHT),
        },
    )


def _first(uses: Sequence[hr.SkillUse], skill: str) -> dict[str, str]:
    """Each player's first target for ``skill`` (later submissions are ignored)."""
    got: dict[str, str] = {}
    for u in uses:
        if u.skill == skill and u.target:
            got.setdefault(u.player_id, u.target)
    return got


def _eliminate(view: hr.GameView, victim: str, event: str, source: str, back_to: str) -> list[hr.Effect]:
    out = [hr.Effect(event, source=source, target=victim), hr.set_alive(victim, False)]
    p = view.player(victim)
    if p is not None and p.role == HUNTER:
        out += [hr.set_var(hr.GAME, "return_to", back_to), hr.detour(victim, SHOOT)]
    return out


def resolve_night(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    for seer, target in sorted(_first(uses, CHECK).items()):
        tp = view.player(target)
        camp = tp.vars.get(hr.VAR_CAMP, "") if tp is not None else ""
        out += [
            hr.Effect(SEEN, source=seer, target=target).with_data("camp", camp),
            hr.set_var(hr.ROUND.of(seer), "checked", target),
            hr.set_var(hr.GAME.of(seer), "saw_" + target, camp),
        ]
    kills = _first(uses, KILL)
    if kills:
        wolf = min(kills)
        out += _eliminate(view, kills[wolf], KILLED, wolf, DAY)
    out.append(hr.set_var(hr.ROUND, "night", str(view.round)))
    return out


def resolve_day(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    tally: dict[str, int] = {}
    for target in _first(uses, VOTE).values():
        tally[target] = tally.get(target, 0) + 1
    if not tally:
        return [hr.set_var(hr.GAME, "last_day", "quiet")]
    top = max(tally.values())
    leaders = sorted(t for t, n in tally.items() if n == top)
    if len(leaders) > 1:
        return [hr.set_var(hr.GAME, "last_day", "tie")]
    return [hr.set_var(hr.GAME, "last_day", leaders[0]), *_eliminate(view, leaders[0], LYNCHED, "", NIGHT)]


def resolve_shoot(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    shots = _first(uses, SHOT)
    for hunter, target in sorted(shots.items()):
        out += [hr.Effect(SHOT_DOWN, source=hunter, target=target), hr.set_alive(target, False)]
    back = view.var(hr.GAME, "return_to") or NIGHT
    return [*out, hr.set_var(hr.GAME, "return_to", ""), hr.goto_phase(back)]


def victory(view: hr.GameView) -> tuple[str, ...] | None:
    wolves = len(view.alive_player_ids_by_role(WOLF))
    others = len(view.alive_players()) - wolves
    if wolves == 0:
        return (TOWN,)
    if wolves >= others:
        return (WOLF,)
    return None


def camp_of(player_id: str, role: str) -> dict[str, str]:
    return {hr.VAR_CAMP: WOLF if role == WOLF else TOWN, "secret": "s-" + player_id, "blank": ""}


def wolves_know_wolves(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    p = view.player(player_id)
    if p is None or p.role != WOLF:
        return ()
    return tuple(q.id for q in view.all_players() if q.role == WOLF)


def seer_notes(player_id: str, view: hr.GameView) -> dict[str, str]:
    p = view.player(player_id)
    if p is None:
        return {}
    return {k: v for k, v in p.vars.items() if k.startswith("saw_")}


def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
    if event.type == SEEN:
        return (event.source,)
    if event.type in (KILLED, LYNCHED, SHOT_DOWN, hr.GAME_STARTED, hr.GAME_ENDED, DEALT):
        return view.player_ids()
    return None


def game_setup(view: hr.GameView) -> list[hr.Effect]:
    return [hr.set_var(hr.GAME, "dealt", str(len(view.player_ids()))), hr.Effect(DEALT)]


def mini_rules(**overrides: Any) -> hr.Rules:
    """The mini ruleset; keyword arguments replace single fields of the ``Rules``."""
    base = hr.Rules(
        mini_config(),
        name="mini",
        version="1",
        resolvers={NIGHT: resolve_night, DAY: resolve_day, SHOOT: resolve_shoot},
        victory=victory,
        role_setup={r: camp_of for r in (WOLF, SEER, HUNTER, VILLAGER)},
        game_setup=game_setup,
        role_info={SEER: seer_notes},
        audience=audience,
        teammates=wolves_know_wolves,
    )
    return dataclasses.replace(base, **overrides) if overrides else base


def mini_game(rules: hr.Rules | None = None, roster: Iterable[tuple[str, str]] = ROSTER) -> hr.Engine:
    """A mini engine with ``roster`` seated, not started."""
    engine = hr.Engine(rules if rules is not None else mini_rules())
    for pid, role in roster:
        engine.add_player(pid, role)
    return engine


def started_mini(rules: hr.Rules | None = None) -> hr.Engine:
    engine = mini_game(rules)
    engine.start()
    return engine


def play_until_hunter_detour() -> hr.Engine:
    """Night 1: wolves kill the hunter, so the next phase is the hunter's SHOOT detour."""
    engine = started_mini()
    engine.submit("w1", KILL, ["h1"])
    engine.submit("s1", CHECK, ["w2"])
    engine.end_phase()
    assert engine.status().phase == SHOOT
    return engine


def rich_engine() -> hr.Engine:
    """Mid-game with a dead player, a pending detour, named actors, every var cell and a pending use."""
    engine = play_until_hunter_detour()
    engine.submit("h1", SHOT, ["w1"])
    return engine


def finished_mini() -> hr.Engine:
    """A short deterministic game that ends with the town winning (both wolves voted out)."""
    engine = started_mini()
    engine.submit("w1", KILL, ["v3"])
    engine.submit("s1", CHECK, ["w1"])
    engine.end_phase()
    for pid in engine.alive_player_ids():
        engine.submit(pid, VOTE, ["w1"])
    engine.end_phase()
    engine.submit("w2", KILL, ["v2"])
    engine.end_phase()
    for pid in engine.alive_player_ids():
        engine.submit(pid, VOTE, ["w2"])
    engine.end_phase()
    assert engine.status().over
    return engine


# ---------------------------------------------------------------- counter ruleset

LOOP, ACT, TICK = "LOOP", "ACT", "TICK"


def resolve_count(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Adds the number of resolved submissions to a game counter."""
    total = int(view.var(hr.GAME, "count") or "0") + len(uses)
    return [hr.set_var(hr.GAME, "count", str(total)), hr.Effect(TICK).with_data("n", str(len(uses)))]


def counter_rules(**overrides: Any) -> hr.Rules:
    config = hr.Config(
        start_phase=LOOP,
        phases={
            LOOP: hr.PhaseConfig(
                steps=(hr.PhaseStep("", ACT, multiple=True, allow_dead_target=True),),
                next_phase=LOOP,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            )
        },
    )
    base = hr.Rules(config, name="counter", resolvers={LOOP: resolve_count})
    return dataclasses.replace(base, **overrides) if overrides else base


def counter_game(players: int = 4, rules: hr.Rules | None = None) -> hr.Engine:
    engine = hr.Engine(rules if rules is not None else counter_rules())
    for i in range(players):
        engine.add_player(f"p{i}", "ANY")
    engine.start()
    return engine


# ---------------------------------------------------------------- random play

Action = tuple[str, ...]


def random_action(engine: hr.Engine, rng: random.Random) -> Action:
    """A plausible next move: mostly legal submissions, sometimes bad ones, sometimes the end."""
    if rng.random() < 0.2:
        return ("end",)
    ids = engine.player_ids()
    pid = rng.choice(ids)
    skills = engine.allowed_skills(pid)
    skill = rng.choice(skills) if skills and rng.random() < 0.85 else rng.choice((KILL, VOTE, "", "NOPE"))
    target = rng.choice((*ids, "ghost")) if rng.random() < 0.95 else ""
    return ("submit", pid, skill, target)


def perform(engine: hr.Engine, action: Action) -> str:
    """Run one action; return a comparable outcome (result or error code)."""
    try:
        if action[0] == "end":
            return repr(engine.end_phase())
        _, pid, skill, target = action
        return repr(engine.submit(pid, skill, [target] if target else []))
    except hr.GameError as exc:
        return "error:" + exc.code


def snap_bytes(engine: hr.Engine) -> bytes:
    return engine.snapshot().to_json()
