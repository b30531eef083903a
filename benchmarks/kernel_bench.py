"""Kernel micro- and macro-benchmarks on a synthetic, werewolf-shaped 12-player ruleset.

Run ``python benchmarks/kernel_bench.py`` (about 15-30 s; ``--quick`` for a smoke run,
``--profile`` to also print where full games, snapshot round trips and replays spend
their time). The last
line is a machine-readable summary::

    kind=kernel submit_us=... end_phase_us=... player_view_us=... snapshot_rt_us=... replay_us=... games_per_s=...

Each operation is timed apart from the others with ``time.perf_counter_ns``: single
calls (``submit``, ``end_phase``, snapshot round trip, replay) are timed one by one
and summarised by their median; ``player_view`` is timed in batches and summarised by
the best batch. Full games are timed in batches without any per-call timer and
summarised by the best batch.

The ruleset lives in this file on purpose: it uses only the public kernel API and
knows nothing of the real werewolf package, so the numbers measure the kernel alone.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import calibration
import hiddenrole as hr

# ---------------------------------------------------------------------- vocabulary

WOLF, SEER, WITCH, GUARD, HUNTER, VILLAGER = "WOLF", "SEER", "WITCH", "GUARD", "HUNTER", "VILLAGER"
GOOD, EVIL = "GOOD", "EVIL"

NIGHT = "NIGHT"
N_GUARD, N_WOLF, N_WITCH, N_SEER = "NIGHT_GUARD", "NIGHT_WOLF", "NIGHT_WITCH", "NIGHT_SEER"
DAY_VOTE, HUNTER_SHOT = "DAY_VOTE", "HUNTER_SHOT"

PROTECT, KILL, SAVE, POISON, CHECK, VOTE, SHOOT = "PROTECT", "KILL", "SAVE", "POISON", "CHECK", "VOTE", "SHOOT"
NO_TARGET = frozenset({hr.SKIP, SAVE})
"""Skills the random policy submits without a target."""

# Rule events (the kernel treats all of them as inert, publishable events).
DIED, SPARED, CHECKED, EXILED, TIED = "DIED", "SPARED", "CHECKED", "EXILED", "TIED"
PUBLIC_EVENTS = frozenset({DIED, EXILED, TIED, hr.GAME_STARTED, hr.GAME_ENDED})

# Variables.
V_PROTECTED, V_VICTIM, V_SAVED, V_POISONED = "protected", "victim", "saved", "poisoned"
V_ANTIDOTE, V_POISON = "antidote", "poison"
V_AFTER_SHOT = "after_shot"

TABLE: tuple[str, ...] = (WOLF,) * 4 + (SEER, WITCH, GUARD, HUNTER) + (VILLAGER,) * 4
"""Twelve seats: four wolves, four specials, four villagers."""


# ---------------------------------------------------------------------- resolvers


def _first_target(uses: Sequence[hr.SkillUse], skill: str) -> str:
    """The first submitted target of ``skill`` (submissions arrive in submission order)."""
    for u in uses:
        if u.skill == skill and u.target:
            return u.target
    return ""


def _plurality(targets: Iterable[str]) -> str:
    """The unique most-named target, or ``""`` on a tie or no votes."""
    tally = Counter(t for t in targets if t)
    if not tally:
        return ""
    ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return ""
    return ranked[0][0]


def resolve_guard(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    target = _first_target(uses, PROTECT)
    return [hr.set_var(hr.ROUND, V_PROTECTED, target)] if target else []


def resolve_wolves(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    first: dict[str, str] = {}
    for u in uses:
        if u.skill == KILL:
            first.setdefault(u.player_id, u.target)
    victim = _plurality(first.values())
    return [hr.set_var(hr.ROUND, V_VICTIM, victim)] if victim else []


def resolve_witch(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    for u in uses:
        me = hr.GAME.of(u.player_id)
        if u.skill == SAVE and view.var(me, V_ANTIDOTE) and view.var(hr.ROUND, V_VICTIM):
            out += [hr.set_var(hr.ROUND, V_SAVED, hr.VAR_PRESENT), hr.set_var(me, V_ANTIDOTE, "")]
            break
        if u.skill == POISON and view.var(me, V_POISON) and u.target:
            out += [hr.set_var(hr.ROUND, V_POISONED, u.target), hr.set_var(me, V_POISON, "")]
            break
    return out


def _deaths(ids: Iterable[str], view: hr.GameView, why: str, resume: str) -> list[hr.Effect]:
    """Eliminate ``ids`` (sorted); a dying hunter owes a shot, after which play resumes at ``resume``."""
    out: list[hr.Effect] = []
    for pid in sorted(set(ids)):
        p = view.player(pid)
        if p is None or not p.alive:
            continue
        out += [hr.Effect(DIED, target=pid).with_data("cause", why), hr.set_alive(pid, False)]
        if p.role == HUNTER:
            out += [hr.detour(pid, HUNTER_SHOT), hr.set_var(hr.GAME, V_AFTER_SHOT, resume)]
    return out


def resolve_seer_and_dawn(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The seer learns a camp (a private event); then the night's deaths are settled."""
    out: list[hr.Effect] = []
    for u in uses:
        if u.skill == CHECK and u.target:
            target = view.player(u.target)
            camp = target.vars.get(hr.VAR_CAMP, "") if target is not None else ""
            out.append(hr.Effect(CHECKED, u.player_id, u.target).with_data("camp", camp))
            break
    dying = []
    victim = view.var(hr.ROUND, V_VICTIM)
    if victim and not view.var(hr.ROUND, V_SAVED):
        dying.append(victim)
    poisoned = view.var(hr.ROUND, V_POISONED)
    if poisoned:
        dying.append(poisoned)
    return out + _deaths(dying, view, "night", DAY_VOTE)


def resolve_vote(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    first: dict[str, str] = {}
    for u in uses:
        first.setdefault(u.player_id, u.target if u.skill == VOTE else "")
    out = _plurality(first.values())
    if not out:
        return [hr.Effect(TIED)]
    return [hr.Effect(EXILED, target=out), *_deaths((out,), view, "vote", N_GUARD)]


def resolve_shot(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    resume = view.var(hr.GAME, V_AFTER_SHOT) or DAY_VOTE
    target = _first_target(uses, SHOOT)
    out = _deaths((target,), view, "shot", resume) if target else []
    return [*out, hr.set_var(hr.GAME, V_AFTER_SHOT, ""), hr.goto_phase(resume)]


# ---------------------------------------------------------------------- other extension points


def victory(view: hr.GameView) -> tuple[str, ...] | None:
    wolves = others = 0
    for p in view.alive_players():
        if p.role == WOLF:
            wolves += 1
        else:
            others += 1
    if wolves == 0:
        return (GOOD,)
    if wolves >= others:
        return (EVIL,)
    return None


def guard_shield(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Interceptor: a night death of the protected player becomes a private SPARED event."""
    night_death = effect.sets_alive() is False and view.in_phase(NIGHT)
    if night_death and view.var(hr.ROUND, V_PROTECTED) == effect.target:
        return [hr.Effect(SPARED, target=effect.target)]
    return None


def camp_setup(camp: str, **extra: str) -> Callable[[str, str], Mapping[str, str]]:
    seat_vars = {hr.VAR_CAMP: camp, **extra}
    return lambda player_id, role: seat_vars


def witch_info(player_id: str, view: hr.GameView) -> dict[str, str]:
    me = hr.GAME.of(player_id)
    info = {V_ANTIDOTE: view.var(me, V_ANTIDOTE), V_POISON: view.var(me, V_POISON)}
    if view.phase == N_WITCH and info[V_ANTIDOTE]:
        info[V_VICTIM] = view.var(hr.ROUND, V_VICTIM)
    return info


def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
    if event.type in PUBLIC_EVENTS:
        return view.player_ids()
    if event.type == CHECKED:
        return (event.source,)
    if event.type == SPARED:
        return view.alive_player_ids_by_role(GUARD)
    return None


def teammates(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    me = view.player(player_id)
    if me is None or me.role != WOLF:
        return ()
    return tuple(p.id for p in view.all_players() if p.role == WOLF)


def speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    me = view.player(sender_id)
    if me is None or not me.alive:
        return ()
    if view.in_phase(NIGHT):
        return view.alive_player_ids_by_role(WOLF) if me.role == WOLF else ()
    return tuple(p.id for p in view.alive_players())


def rules() -> hr.Rules:
    """The synthetic ruleset: a compound night of four role steps, a day vote, a hunter detour."""
    step = hr.PhaseStep
    phases = {
        NIGHT: hr.PhaseConfig(on_enter=(hr.CLEAR_ROUND_VARS,)),
        N_GUARD: hr.PhaseConfig(
            steps=(
                step(GUARD, PROTECT, required=True, group="g", max_targets=1),
                step(GUARD, hr.SKIP, group="g", max_targets=0),
            ),
            next_phase=N_WOLF,
            parent=NIGHT,
        ),
        N_WOLF: hr.PhaseConfig(
            steps=(step(WOLF, KILL, required=True, multiple=True),), next_phase=N_WITCH, parent=NIGHT
        ),
        N_WITCH: hr.PhaseConfig(
            steps=(
                step(WITCH, SAVE, required=True, group="w", max_targets=0),
                step(WITCH, POISON, group="w", max_targets=1, allow_self_target=False),
                step(WITCH, hr.SKIP, group="w", max_targets=0),
            ),
            next_phase=N_SEER,
            parent=NIGHT,
        ),
        N_SEER: hr.PhaseConfig(
            steps=(step(SEER, CHECK, required=True, max_targets=1),), next_phase=DAY_VOTE, parent=NIGHT
        ),
        DAY_VOTE: hr.PhaseConfig(
            steps=(step("", VOTE, required=True, multiple=True, group="v"), step("", hr.SKIP, group="v")),
            next_phase=N_GUARD,
            on_exit=(hr.ADVANCE_ROUND,),
        ),
        HUNTER_SHOT: hr.PhaseConfig(steps=(step(HUNTER, SHOOT, allow_self_target=False),), next_phase=DAY_VOTE),
    }
    return hr.Rules(
        hr.Config(start_phase=N_GUARD, phases=phases, default_timeout=30.0),
        name="kernel-bench",
        version="1",
        resolvers={
            N_GUARD: resolve_guard,
            N_WOLF: resolve_wolves,
            N_WITCH: resolve_witch,
            N_SEER: resolve_seer_and_dawn,
            DAY_VOTE: resolve_vote,
            HUNTER_SHOT: resolve_shot,
        },
        victory=victory,
        role_setup={
            WOLF: camp_setup(EVIL),
            WITCH: camp_setup(GOOD, antidote=hr.VAR_PRESENT, poison=hr.VAR_PRESENT),
            **{r: camp_setup(GOOD) for r in (SEER, GUARD, HUNTER, VILLAGER)},
        },
        role_info={WITCH: witch_info},
        audience=audience,
        teammates=teammates,
        speech=speech,
        interceptors=(guard_shield,),
    )


# ---------------------------------------------------------------------- the random policy


def new_game(r: hr.Rules, rng: random.Random) -> hr.Engine:
    """Seat p00..p11 with the table's roles dealt by ``rng``, and start."""
    roles = list(TABLE)
    rng.shuffle(roles)
    engine = hr.Engine(r)
    for i, role in enumerate(roles):
        engine.add_player(f"p{i:02d}", role)
    engine.start()
    return engine


def act(engine: hr.Engine, rng: random.Random, timer: list[int] | None = None) -> int:
    """Every player, in id order, submits one uniformly chosen allowed skill. Returns submits.

    Single-target skills aim at a uniform living player other than the actor (alive at
    the start of the phase). With ``timer``, each ``submit`` call's duration is appended.
    """
    alive = engine.alive_player_ids()
    n = 0
    for pid, skills in engine.who_acts():
        skill = rng.choice(skills)
        targets: tuple[str, ...] = ()
        if skill not in NO_TARGET:
            others = [a for a in alive if a != pid]
            if not others:
                continue
            targets = (rng.choice(others),)
        if timer is None:
            engine.submit(pid, skill, targets)
        else:
            t0 = time.perf_counter_ns()
            engine.submit(pid, skill, targets)
            timer.append(time.perf_counter_ns() - t0)
        n += 1
    return n


def play(
    r: hr.Rules,
    seed: int,
    max_phases: int = 200,
    submit_ns: list[int] | None = None,
    end_ns: list[int] | None = None,
) -> tuple[hr.Engine, int, int]:
    """One full game under the random policy; returns the engine, phases and submits."""
    rng = random.Random(seed)
    engine = new_game(r, rng)
    phases = submits = 0
    while phases < max_phases and not engine.status().over:
        submits += act(engine, rng, submit_ns)
        if end_ns is None:
            engine.end_phase()
        else:
            t0 = time.perf_counter_ns()
            engine.end_phase()
            end_ns.append(time.perf_counter_ns() - t0)
        phases += 1
    return engine, phases, submits


def advance_to(r: hr.Rules, seed: int, phases: int) -> hr.Engine:
    """A game of ``seed`` after ``phases`` phases (or at its end), with the next phase's actions submitted."""
    rng = random.Random(seed)
    engine = new_game(r, rng)
    for _ in range(phases):
        if engine.status().over:
            break
        act(engine, rng)
        engine.end_phase()
    if not engine.status().over:
        act(engine, rng)
    return engine


# ---------------------------------------------------------------------- measurements

GO = {
    "game_us_per_submit": "submit_us",
    "player_view_us": "player_view_us",
    "snapshot_rt_us": "snapshot_roundtrip_us",
    "replay_us": "replay_us",
    "games_per_s": "werewolf_12p_games_per_s",
}
"""Our measures and the Go figures (``calibration.GO_RECORDED``) they are calibrated against. ``end_phase``
has none: Go's 9.1 us comes from its CHANGELOG, measured on a machine nobody calibrated; Go's submit figure
is its game time per submission, so it is set against ours, not against one timed call."""


def median_us(samples: Sequence[int]) -> float:
    return statistics.median(samples) / 1000.0


def bench_calls(r: hr.Rules, games: int) -> dict[str, float]:
    """``submit`` and ``end_phase`` timed one call at a time inside full random games."""
    submit_ns: list[int] = []
    end_ns: list[int] = []
    for seed in range(games):
        play(r, seed, submit_ns=submit_ns, end_ns=end_ns)
    return {
        "submit_us": median_us(submit_ns),
        "submit_mean_us": statistics.fmean(submit_ns) / 1000.0,
        "end_phase_us": median_us(end_ns),
        "end_phase_mean_us": statistics.fmean(end_ns) / 1000.0,
        "submit_n": float(len(submit_ns)),
        "end_phase_n": float(len(end_ns)),
    }


def engine_at_witch(r: hr.Rules) -> hr.Engine:
    """A game standing in NIGHT_WITCH (like the Go PlayerView benchmark), round 2 if it gets there."""
    for seed in range(100):
        rng = random.Random(seed)
        engine = new_game(r, rng)
        while not engine.status().over:
            st = engine.status()
            if st.phase == N_WITCH and st.round >= 2:
                return engine
            act(engine, rng)
            engine.end_phase()
    raise RuntimeError("no seed reached NIGHT_WITCH in round 2")


def bench_player_view(r: hr.Rules, reps: int, inner: int) -> dict[str, float]:
    """Every player's view, ``inner`` times per batch; best and median batch per call."""
    engine = engine_at_witch(r)
    ids = engine.player_ids()
    per_call: list[float] = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for _ in range(inner):
            for pid in ids:
                engine.player_view(pid)
        per_call.append((time.perf_counter_ns() - t0) / (inner * len(ids)) / 1000.0)
    return {"player_view_us": min(per_call), "player_view_median_us": statistics.median(per_call)}


def bench_snapshot(r: hr.Rules, iters: int) -> dict[str, float]:
    """snapshot -> to_json -> Snapshot.from_json -> Engine.restore, after phase 5, pending actions included."""
    engine = advance_to(r, seed=7, phases=5)
    samples: list[int] = []
    size = 0
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        data = engine.snapshot().to_json()
        again = hr.Engine.restore(r, hr.Snapshot.from_json(data))
        samples.append(time.perf_counter_ns() - t0)
        size = len(data)
    assert again.snapshot().to_json() == data, "snapshot round trip is not byte-identical"
    return {"snapshot_rt_us": median_us(samples), "snapshot_bytes": float(size)}


def bench_replay(r: hr.Rules, iters: int) -> dict[str, float]:
    """log -> to_json -> Engine.replay, on a finished game."""
    engine, _, _ = play(r, seed=11)
    log = engine.log()
    samples: list[int] = []
    for _ in range(iters):
        t0 = time.perf_counter_ns()
        again = hr.Engine.replay(r, log.to_json())
        samples.append(time.perf_counter_ns() - t0)
    assert again.status() == engine.status(), "replay does not reach the same result"
    return {"replay_us": median_us(samples), "log_effects": float(len(log.effects))}


def bench_games(r: hr.Rules, seconds: float, batch: int) -> dict[str, float]:
    """Full games (build, seat, start, play to the end) back to back, no per-call timers.

    Games run in batches of ``batch`` seeds; the rate reported is the best batch's (the
    least disturbed by other load on the machine), with the overall rate beside it.
    """
    games = phases = submits = 0
    winners: Counter[str] = Counter()
    best_ns_per_game = float("inf")
    best_ns_per_submit = float("inf")
    t_start = time.perf_counter_ns()
    deadline = t_start + int(seconds * 1e9)
    while games == 0 or time.perf_counter_ns() < deadline:
        t0 = time.perf_counter_ns()
        batch_submits = 0
        for _ in range(batch):
            engine, ph, sub = play(r, seed=10_000 + games)
            games += 1
            phases += ph
            batch_submits += sub
            winners["+".join(engine.status().winners) or "none"] += 1
        elapsed = time.perf_counter_ns() - t0
        submits += batch_submits
        best_ns_per_game = min(best_ns_per_game, elapsed / batch)
        best_ns_per_submit = min(best_ns_per_submit, elapsed / batch_submits)
    overall_s = (time.perf_counter_ns() - t_start) / 1e9
    return {
        "games_per_s": 1e9 / best_ns_per_game,
        "games_per_s_overall": games / overall_s,
        "game_ms": best_ns_per_game / 1e6,
        "games": float(games),
        "phases_per_game": phases / games,
        "submits_per_game": submits / games,
        "game_us_per_submit": best_ns_per_submit / 1000.0,
        "evil_share": winners[EVIL] / games,
    }


def _profiled(work: Callable[[], object], top: int) -> str:
    prof = cProfile.Profile()
    prof.enable()
    work()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def profile_report(r: hr.Rules, quick: bool, top: int = 15) -> str:
    """cProfile, sorted by own time, of full games, snapshot round trips and replays."""
    n = 3 if quick else 200

    def games() -> None:
        for seed in range(n):
            engine, _, _ = play(r, seed=20_000 + seed)
            for pid in engine.player_ids():
                engine.player_view(pid)

    at5 = advance_to(r, seed=7, phases=5)

    def snapshots() -> None:
        for _ in range(n):
            hr.Engine.restore(r, hr.Snapshot.from_json(at5.snapshot().to_json()))

    finished = play(r, seed=11)[0].log()

    def replays() -> None:
        for _ in range(n):
            hr.Engine.replay(r, finished.to_json())

    parts = [("full games", games), ("snapshot round trips", snapshots), ("replays", replays)]
    return "\n".join(f"== profile: {n} {name}\n{_profiled(fn, top)}" for name, fn in parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a few iterations of everything (smoke test)")
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of full games")
    args = parser.parse_args(argv)
    q = args.quick
    r = rules()

    cal = calibration.measure(quick=q, runs=2)
    res: dict[str, float] = {}
    res |= bench_calls(r, games=5 if q else 400)
    res |= bench_player_view(r, reps=3 if q else 30, inner=5 if q else 100)
    res |= bench_snapshot(r, iters=5 if q else 400)
    res |= bench_replay(r, iters=5 if q else 400)
    res |= bench_games(r, seconds=0.2 if q else 10.0, batch=5 if q else 25)

    cal = calibration.measure(quick=q, runs=1, before=cal)

    print(f"synthetic 12-player ruleset, Python {sys.version.split()[0]}")
    print(cal.describe())
    rows = (
        ("", "submit (median, one call)", res["submit_us"]),
        ("game_us_per_submit", "submit (game time / submits)", res["game_us_per_submit"]),
        ("", "end_phase (median, one call)", res["end_phase_us"]),
        ("player_view_us", "player_view (best batch)", res["player_view_us"]),
        ("snapshot_rt_us", "snapshot JSON round trip", res["snapshot_rt_us"]),
        ("replay_us", "replay from log JSON (median)", res["replay_us"]),
        ("games_per_s", "full 12-player games (best)", res["games_per_s"]),
    )
    for key, label, ours in rows:
        print(cal.line(GO[key], ours, label) if key in GO else f"  {label:>30}: ours {ours:11.1f} us")
    print(
        f"means: submit {res['submit_mean_us']:.2f} us over {res['submit_n']:.0f} calls, "
        f"end_phase {res['end_phase_mean_us']:.2f} us over {res['end_phase_n']:.0f} calls; "
        f"player_view median batch {res['player_view_median_us']:.2f} us"
    )
    print(
        f"games: {res['games']:.0f} played, {res['games_per_s_overall']:.0f}/s overall; "
        f"{res['phases_per_game']:.1f} phases and {res['submits_per_game']:.1f} submits per game, "
        f"evil wins {res['evil_share']:.0%}; snapshot {res['snapshot_bytes']:.0f} bytes; "
        f"replayed log {res['log_effects']:.0f} effects"
    )
    ratios = cal.keys({k: res[k] for k in GO}, GO)
    if ratios:
        print("kind=calibration " + " ".join(f"{k}={v:.2f}" for k, v in ratios.items()))
    if args.profile:
        print(profile_report(r, q))
    print(
        f"kind=kernel submit_us={res['submit_us']:.2f} end_phase_us={res['end_phase_us']:.2f} "
        f"player_view_us={res['player_view_us']:.2f} snapshot_rt_us={res['snapshot_rt_us']:.1f} "
        f"replay_us={res['replay_us']:.1f} games_per_s={res['games_per_s']:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
