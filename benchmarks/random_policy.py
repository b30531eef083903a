"""The random policy shared by the game benchmarks, and the timing loop around it.

Timed apart from play: every player's view once per phase; a snapshot JSON round trip
(snapshot -> bytes -> verified restore) after phase 5; at the end, replay of the log
object (``replay_us``) and replay from freshly encoded JSON bytes (``replay_json_us``:
encode + decode + replay).

Policy (mirrors the Go benchmark): each phase, for every player in id order, take
``allowed_skills``; if empty skip; pick one uniformly; ``SKIP`` takes no target; a
step with a target pool draws its count from the pool; a step needing ``n > 1``
targets draws ``n`` distinct living players other than self; any other skill takes one
uniform target among players alive at the start of the phase other than self. Then end
the phase. Stop at game over or ``max_phases``. A game may override targets for a skill
(e.g. a mission team whose size the kernel cannot know).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import calibration
import hiddenrole as hr

Chooser = Callable[[hr.Engine, str, str, Sequence[str], random.Random], Sequence[str] | None]
"""(engine, player, skill, alive-at-phase-start, rng) -> targets, or None for the generic rule."""


@dataclass
class Tally:
    games: int = 0
    phases: int = 0
    submits: int = 0
    refused: int = 0
    play_ns: int = 0
    view_ns: list[float] = field(default_factory=list)
    snapshot_ns: list[int] = field(default_factory=list)
    replay_ns: list[int] = field(default_factory=list)
    replay_json_ns: list[int] = field(default_factory=list)
    winners: dict[str, int] = field(default_factory=dict)


def play(
    engine: hr.Engine,
    rules: hr.Rules,
    rng: random.Random,
    tally: Tally,
    *,
    chooser: Chooser | None = None,
    max_phases: int = 200,
    measure: bool = True,
) -> None:
    """Play one started game to its end under the policy, timing the extras apart."""
    cfg = rules.config
    step_for = cfg.step_for
    pools = cfg.target_pools
    ids = engine.player_ids()
    roles = {pid: engine.player_info(pid).role for pid in ids}
    phases = 0
    t_play = 0
    while phases < max_phases and not engine.status().over:
        if measure:
            t0 = time.perf_counter_ns()
            for pid in ids:
                engine.player_view(pid)
            tally.view_ns.append((time.perf_counter_ns() - t0) / len(ids))
        t0 = time.perf_counter_ns()
        phase = engine.status().phase
        alive = engine.alive_player_ids()
        for pid in ids:
            skills = engine.allowed_skills(pid)
            if not skills:
                continue
            skill = skills[0] if len(skills) == 1 else rng.choice(skills)
            targets: Sequence[str] = ()
            if skill != hr.SKIP:
                custom = chooser(engine, pid, skill, alive, rng) if chooser is not None else None
                if custom is not None:
                    targets = custom
                else:
                    step = step_for(phase, skill, roles[pid])
                    targets = _generic_targets(step, pid, alive, pools, rng)
            try:
                engine.submit(pid, skill, targets)
                tally.submits += 1
            except hr.GameError:
                tally.refused += 1
        engine.end_phase()
        phases += 1
        t_play += time.perf_counter_ns() - t0
        if measure and phases == 5:
            t0 = time.perf_counter_ns()
            snap = engine.snapshot().to_json()
            hr.Engine.restore(rules, snap)
            tally.snapshot_ns.append(time.perf_counter_ns() - t0)
    if measure:
        log = engine.log()
        t0 = time.perf_counter_ns()
        hr.Engine.replay(rules, log)
        tally.replay_ns.append(time.perf_counter_ns() - t0)
        fresh = hr.GameLog(log.rules_name, log.rules_version, log.effects)  # no cached encoding
        t0 = time.perf_counter_ns()
        hr.Engine.replay(rules, fresh.to_json())
        tally.replay_json_ns.append(time.perf_counter_ns() - t0)
    tally.games += 1
    tally.phases += phases
    tally.play_ns += t_play
    key = ",".join(engine.status().winners) or "-"
    tally.winners[key] = tally.winners.get(key, 0) + 1


def _generic_targets(
    step: hr.PhaseStep | None,
    pid: str,
    alive: Sequence[str],
    pools: dict[str, tuple[str, ...]] | object,
    rng: random.Random,
) -> Sequence[str]:
    if step is None:
        return ()
    if step.target_pool:
        pool = list(pools[step.target_pool])  # type: ignore[index]
        return rng.sample(pool, max(1, step.min_targets))
    others = [a for a in alive if a != pid]
    if not others:
        return ()
    n = max(1, step.min_targets)
    if n == 1:
        return (rng.choice(others),)
    return rng.sample(others, min(n, len(others)))


def report(
    kind: str, tally: Tally, wall_s: float, cal: calibration.Calibration, go: Mapping[str, str] | None = None
) -> None:
    """Print the numbers, calibrated ratios against Go (``go``: our key -> Go figure), then the summary line."""
    play_s = tally.play_ns / 1e9
    print(f"{kind}: {tally.games} games in {wall_s:.1f} s wall ({play_s:.2f} s of play timed)")
    print(
        f"  per game: {tally.phases / tally.games:.1f} phases, {tally.submits / tally.games:.1f} submits"
        f" ({tally.refused / tally.games:.1f} refused)"
    )
    total = sum(tally.winners.values())
    print("  winners: " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(tally.winners.items())))
    ours = {
        "games_per_s": tally.games / play_s,
        "phases_per_s": tally.phases / play_s,
        "submits_per_s": tally.submits / play_s,
        "playerview_us": _median_us(tally.view_ns),
        "snapshot_roundtrip_us": _median_us(tally.snapshot_ns),
        "replay_us": _median_us(tally.replay_ns),
        "replay_json_us": _median_us(tally.replay_json_ns),
    }
    print(cal.describe())
    go = go or {}
    for key, value in ours.items():
        print(cal.line(go[key], value, key) if key in go else f"  {key:>30}: ours {value:11.1f}")
    sys.stdout.flush()
    print(f"kind={kind} " + " ".join(f"{k}={v:.2f}" for k, v in (ours | cal.keys(ours, go)).items()))


def _median_us(samples: Sequence[float]) -> float:
    return statistics.median(samples) / 1000 if samples else 0.0


def run(
    kind: str,
    new_game: Callable[[int], tuple[hr.Rules, hr.Engine]],
    *,
    seconds: float,
    chooser: Chooser | None = None,
    go: Mapping[str, str] | None = None,
    max_phases: int = 200,
) -> Tally:
    """Play seeded games (seed 0, 1, …) for about ``seconds`` and report, calibrated in the same run.

    ``go`` maps our measure (``games_per_s``, ``playerview_us``...) to the name of its
    Go figure in :data:`calibration.GO_RECORDED`. The reference runs before and after
    the games (``seconds`` under 1: a quick smoke run, one short reference run).
    """
    quick = seconds < 1
    cal = calibration.measure(quick=quick, runs=2)
    tally = Tally()
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds or tally.games == 0:
        t0 = time.perf_counter_ns()
        rules, engine = new_game(seed)
        engine.start()
        tally.play_ns += time.perf_counter_ns() - t0  # building the table counts as play, as in Go
        play(engine, rules, random.Random(seed), tally, chooser=chooser, max_phases=max_phases)
        seed += 1
    wall = time.perf_counter() - start
    if not quick:
        cal = calibration.measure(runs=1, before=cal)
    report(kind, tally, wall, cal, go)
    return tally
