"""The random policy shared by the game benchmarks, and the timing loop around it.

Timed apart from play: every player's view once per phase; a snapshot JSON round trip
(snapshot -> bytes -> verified restore) after phase 5; at the end, replay of the log
object (``replay_us``) and replay from freshly encoded JSON bytes (``replay_json_us``:
encode + decode + replay). A move releases nothing the views built: the engine frees a stale view
when the next one is asked for (``EngineBase._spent``), so what views cost, freeing included, lands
on ``playerview_us``; a board's views freed inside ``end_phase`` once made timed play 1.6x slower.

Policy (mirrors the Go benchmark): each phase, every player in id order whose
``allowed_skills`` is not empty (the seats ``Engine.who_acts`` yields, each asked when the loop
reaches it: the same seats and answers as the Go benchmark's loop asking every seat, in one
native call per acting seat); pick one uniformly; ``SKIP`` takes no target; a
step with a target pool draws its count from the pool; a step needing ``n > 1``
targets draws ``n`` distinct living players other than self; any other skill takes one
uniform target among players alive at the start of the phase other than self. Then end
the phase. Stop at game over or ``max_phases``. A game may override targets for a skill
(e.g. a mission team whose size the kernel cannot know).
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from bisect import bisect_left
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

import calibration
import hiddenrole as hr

VIEWS, SNAPSHOT, REPLAY = "views", "snapshot", "replay"
EXTRAS: tuple[str, ...] = (VIEWS, SNAPSHOT, REPLAY)
"""What :func:`play` does per game apart from the timed play (see the module's docstring)."""

Chooser = Callable[[hr.Engine, str, str, Sequence[str], random.Random], Sequence[str] | None]
"""(engine, player, skill, alive-at-phase-start, rng) -> targets, or None for the generic rule."""

KINDS = ("werewolf", "avalon", "onenight")
"""The game benchmarks (``<kind>_bench.py``) whose games :func:`game_of` hands out."""


def game_of(kind: str) -> tuple[Callable[[int], tuple[hr.Rules, hr.Engine]], Chooser | None]:
    """A game benchmark's ``new_game(seed)`` and its target chooser (``None``: the generic rule)."""
    if kind not in KINDS:
        raise SystemExit(f"unknown kind {kind!r}; one of {', '.join(KINDS)}")
    bench = importlib.import_module(f"{kind}_bench")
    return bench.new_game, getattr(bench, "choose", None)


@dataclass
class Tally:
    """What a run (or one slice of it) played and timed."""

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

    def add(self, other: Tally) -> None:
        """Fold a slice's tally into the run's."""
        self.games += other.games
        self.phases += other.phases
        self.submits += other.submits
        self.refused += other.refused
        self.play_ns += other.play_ns
        self.view_ns += other.view_ns
        self.snapshot_ns += other.snapshot_ns
        self.replay_ns += other.replay_ns
        self.replay_json_ns += other.replay_json_ns
        for k, v in other.winners.items():
            self.winners[k] = self.winners.get(k, 0) + v

    def measures(self) -> dict[str, float]:
        """The benchmark's figures from this tally (rates per second of play, median times in us)."""
        play_s = max(self.play_ns, 1) / 1e9
        return {
            "games_per_s": self.games / play_s,
            "phases_per_s": self.phases / play_s,
            "submits_per_s": self.submits / play_s,
            "playerview_us": _median_us(self.view_ns),
            "snapshot_roundtrip_us": _median_us(self.snapshot_ns),
            "replay_us": _median_us(self.replay_ns),
            "replay_json_us": _median_us(self.replay_json_ns),
        }


def play(
    engine: hr.Engine,
    rules: hr.Rules,
    rng: random.Random,
    tally: Tally,
    *,
    chooser: Chooser | None = None,
    max_phases: int = 200,
    extras: Collection[str] = EXTRAS,
) -> None:
    """Play one started game to its end under the policy, timing the extras apart.

    The loop is written for the interpreter (the benchmark's own code is not compiled):
    locals instead of attribute reads, one status read per phase, and the uniform picks drawn
    from ``rng.getrandbits`` directly (:func:`_below`, :func:`sample`), making exactly the
    draws ``rng.choice`` and ``rng.sample`` would: the same games, in fewer Python frames.

    ``extras`` names the timed-apart extras done (of :data:`EXTRAS`; ``()``: play alone, as
    ``instructions.py`` counts it; ``benchmarks/extras_bench.py`` turns them off one at a time)."""
    cfg = rules.config
    step_for = cfg.step_for
    pools = cfg.target_pools
    getrandbits = rng.getrandbits
    who_acts = engine.who_acts
    submit = engine.submit
    end_phase = engine.end_phase
    status = engine.status
    alive_ids = engine.alive_player_ids
    perf = time.perf_counter_ns
    skip = hr.SKIP
    refusal = hr.GameError
    ids = engine.player_ids()
    views = VIEWS in extras
    roles = {pid: engine.player_info(pid).role for pid in ids}
    phases = submits = refused = 0
    t_play = 0
    st = status()
    while phases < max_phases and not st.over:
        if views:
            t0 = perf()
            for pid in ids:
                engine.player_view(pid)
            tally.view_ns.append((perf() - t0) / len(ids))
        t0 = perf()
        phase = st.phase
        alive = alive_ids()
        for pid, skills in who_acts():
            n = len(skills)
            if n == 1:
                skill = skills[0]
            else:
                # random.Random.choice's draw: getrandbits(n.bit_length()) until below n.
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                skill = skills[r]
            targets: Sequence[str] = ()
            if skill != skip:
                custom = chooser(engine, pid, skill, alive, rng) if chooser is not None else None
                if custom is not None:
                    targets = custom
                else:
                    step = step_for(phase, skill, roles[pid])
                    if step is None:
                        pass
                    elif step.target_pool or step.min_targets > 1:
                        targets = _pool_or_many_targets(step, pid, alive, pools, getrandbits)
                    else:
                        # One uniform target among the living other than self (the common case,
                        # inline: a call and a copy of the list were about 5% of a compiled werewolf
                        # game), the same draw as ``others[_below(len(others))]``.
                        m = len(alive)
                        me = bisect_left(alive, pid)  # the living are in id order: about four comparisons
                        if me < m and alive[me] == pid:
                            m -= 1
                        elif pid in alive:  # not in id order after all (never so far): find it by search
                            me = alive.index(pid)
                            m -= 1
                        else:
                            me = m
                        if m:
                            k = m.bit_length()
                            r = getrandbits(k)
                            while r >= m:
                                r = getrandbits(k)
                            targets = (alive[r if r < me else r + 1],)
            try:
                submit(pid, skill, targets)
                submits += 1
            except refusal:
                refused += 1
        end_phase()
        phases += 1
        t_play += perf() - t0
        st = status()
        if phases == 5 and SNAPSHOT in extras:
            t0 = perf()
            snap = engine.snapshot().to_json()
            hr.Engine.restore(rules, snap)
            tally.snapshot_ns.append(perf() - t0)
    if REPLAY in extras:
        log = engine.log()
        t0 = perf()
        hr.Engine.replay(rules, log)
        tally.replay_ns.append(perf() - t0)
        fresh = hr.GameLog(log.rules_name, log.rules_version, log.effects)  # no cached encoding
        t0 = perf()
        hr.Engine.replay(rules, fresh.to_json())
        tally.replay_json_ns.append(perf() - t0)
    tally.games += 1
    tally.phases += phases
    tally.submits += submits
    tally.refused += refused
    tally.play_ns += t_play
    key = ",".join(st.winners) or "-"
    tally.winners[key] = tally.winners.get(key, 0) + 1


SAMPLE_POOL_MAX = 21
"""Populations up to this size are sampled by :func:`sample` exactly as ``random.Random.sample``
samples them (its pool method, for ``k`` up to 5); the policy's are a table's seats or a pool."""


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A uniform int in ``[0, n)`` from the draws ``random.Random`` makes for it (``_randbelow``)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def sample(getrandbits: Callable[[int], int], population: Sequence[str], k: int) -> list[str]:
    """``k`` distinct picks from ``population``, the same as ``random.Random.sample`` for a population
    of at most :data:`SAMPLE_POOL_MAX` and ``k`` at most 5: each pick takes a uniform slot of
    the ones left, and the last slot left fills the hole (checked in tests/benchmarks)."""
    n = len(population)
    if n > SAMPLE_POOL_MAX or not 0 <= k <= min(n, 5):
        raise ValueError(f"sample of {k} from {n}: outside what this policy draws")
    pool = list(population)
    out = []
    for i in range(k):
        j = _below(getrandbits, n - i)
        out.append(pool[j])
        pool[j] = pool[n - i - 1]
    return out


def _pool_or_many_targets(
    step: hr.PhaseStep,
    pid: str,
    alive: Sequence[str],
    pools: Mapping[str, tuple[str, ...]],
    getrandbits: Callable[[int], int],
) -> Sequence[str]:
    """The targets of a step with a pool or of more than one target (:func:`play` draws the one
    target of any other step itself)."""
    if step.target_pool:
        return sample(getrandbits, pools[step.target_pool], max(1, step.min_targets))
    others = list(alive)
    if pid in others:
        others.remove(pid)
    if not others:
        return ()
    return sample(getrandbits, others, min(step.min_targets, len(others)))


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
    ours = tally.measures()
    print(cal.describe())
    go = go or {}
    for key, value in ours.items():
        print(cal.line(go[key], value, key) if key in go else f"  {key:>30}: ours {value:11.1f}")
    sys.stdout.flush()
    print(f"kind={kind} " + " ".join(f"{k}={v:.2f}" for k, v in (ours | cal.keys(ours, go)).items()))


def _median_us(samples: Sequence[float]) -> float:
    return statistics.median(samples) / 1000 if samples else 0.0


def play_for(
    new_game: Callable[[int], tuple[hr.Rules, hr.Engine]],
    seconds: float,
    first_seed: int,
    *,
    chooser: Chooser | None = None,
    max_phases: int = 200,
    extras: Collection[str] = EXTRAS,
) -> Tally:
    """Seeded games (``first_seed``, the next, ...) played by :func:`play` for about ``seconds``, at
    least one: their tally (``games`` of them; building each table counts as play, as in Go)."""
    part = Tally()
    seed = first_seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or part.games == 0:
        t0 = time.perf_counter_ns()
        rules, engine = new_game(seed)
        engine.start()
        part.play_ns += time.perf_counter_ns() - t0
        play(engine, rules, random.Random(seed), part, chooser=chooser, max_phases=max_phases, extras=extras)
        seed += 1
    return part


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
    Go figure in :data:`calibration.GO_RECORDED`. The games are played in
    :data:`calibration.PAIRED_ROUNDS` slices, each next to a slice of the reference
    (:func:`calibration.paired`; ``seconds`` under 1: a quick smoke run, one round).
    """
    rounds = 1 if seconds < 1 else calibration.PAIRED_ROUNDS
    tally = Tally()
    seed = 0

    def work(share: float) -> dict[str, float]:
        nonlocal seed
        part = play_for(new_game, share, seed, chooser=chooser, max_phases=max_phases)
        seed += part.games
        tally.add(part)
        return part.measures()

    start = time.perf_counter()
    cal = calibration.paired(work, seconds, rounds)
    wall = time.perf_counter() - start
    report(kind, tally, wall, cal, go)
    return tally
