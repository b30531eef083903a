"""The game benchmarks run (a fraction of a second each) and the calibration says what it should.

Nothing here asserts a timing: only that each script ends with its summary line and that
the calibrated ratio is the arithmetic the docs promise.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import calibration  # noqa: E402


def _quick_run(script: str, *args: str) -> str:
    """A benchmark script's output from a short run, which must succeed."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("script", ["werewolf_bench.py", "avalon_bench.py", "onenight_bench.py"])
def test_game_benchmark_quick_run_ends_with_its_summary_line(script: str) -> None:
    out = _quick_run(script, "0.2")
    lines = out.strip().splitlines()
    kind = script.removesuffix("_bench.py")
    assert re.fullmatch(rf"kind={kind}( \w+=\d+(\.\d+)?)+", lines[-1]), lines[-1]
    assert "calibration:" in out
    if calibration.reference_installed():
        assert "games_per_s_vs_go=" in lines[-1] and "ref_games_per_s=" in lines[-1]
    else:
        assert "_vs_go" not in out


def test_calibration_scales_rates_up_and_times_down_with_the_reference() -> None:
    half = calibration.Calibration(calibration.REFERENCE_RECORDED / 2)
    assert half.factor == 0.5
    assert half.go_here("werewolf_12p_games_per_s") == pytest.approx(713.0 / 2)
    assert half.go_here("replay_us") == pytest.approx(138.0 * 2)
    # As fast as Go would be here: 1.0, for a rate and for a time alike.
    assert half.ratio("werewolf_12p_games_per_s", 356.5) == pytest.approx(1.0)
    assert half.ratio("replay_us", 276.0) == pytest.approx(1.0)
    assert half.ratio("replay_us", 138.0) == pytest.approx(2.0)
    keys = half.keys({"games_per_s": 713.0, "other": 1.0}, {"games_per_s": "werewolf_12p_games_per_s"})
    assert keys == {"ref_games_per_s": calibration.REFERENCE_RECORDED / 2, "games_per_s_vs_go": pytest.approx(2.0)}


def test_a_paired_ratio_is_the_median_of_the_rounds_own_ratios() -> None:
    """Each round is judged against the reference slice next to it, not against the run's median."""
    r = calibration.REFERENCE_RECORDED
    # Three rounds: the machine at half, full and double the recorded speed, ours keeping pace
    # in the first two and falling behind in the third.
    cal = calibration.Calibration(
        r,
        (r / 2, r, 2 * r),
        ({"games_per_s": 713.0 / 2}, {"games_per_s": 713.0}, {"games_per_s": 713.0}),
    )
    assert cal.round_ratios("werewolf_12p_games_per_s", "games_per_s") == pytest.approx([1.0, 1.0, 0.5])
    assert cal.ratio("werewolf_12p_games_per_s", 1.0, "games_per_s") == pytest.approx(1.0)
    # Without a key (or a measure the rounds lack) it is the plain ratio of the figure given.
    assert cal.ratio("werewolf_12p_games_per_s", 713.0 / 2) == pytest.approx(0.5)
    assert cal.round_ratios("replay_us", "replay_us") == []
    line = cal.line("werewolf_12p_games_per_s", 600.0, "games_per_s")
    assert "ours/Go x1.00 (rounds x0.50-x1.00)" in line
    assert cal.keys({"games_per_s": 1.0}, {"games_per_s": "werewolf_12p_games_per_s"})["games_per_s_vs_go"] == (
        pytest.approx(1.0)
    )


def test_paired_runs_the_work_in_its_rounds_beside_the_reference() -> None:
    shares: list[float] = []

    def work(share: float) -> dict[str, float]:
        shares.append(share)
        return {"games_per_s": 100.0}

    cal = calibration.paired(work, 0.3, rounds=3)
    assert shares == pytest.approx([0.1, 0.1, 0.1])
    if calibration.reference_installed():
        assert len(cal.runs) == len(cal.rounds) == 3 and all(x > 0 for x in cal.runs)
        assert cal.reference_games_per_s == sorted(cal.runs)[1]
    else:
        assert cal.reference_games_per_s is None and cal.rounds == ()


def test_without_the_reference_no_ratio_is_given() -> None:
    none = calibration.Calibration(None)
    assert none.ratio("replay_us", 100.0) is None
    assert none.keys({"replay_us": 100.0}, {"replay_us": "replay_us"}) == {}
    assert "Go here" not in none.line("replay_us", 100.0)
    assert "not installed" in none.describe()


def test_harness_benchmark_quick_run_prints_its_ratios() -> None:
    last = _quick_run("harness_bench.py", "1", "1").strip().splitlines()[-1]
    assert re.fullmatch(r"kind=harness games=1( (fuzz|werewolf)_a[gh]_vs_bare=\d+\.\d+){4}", last), last


def test_policy_draws_are_the_draws_random_makes() -> None:
    """The policy's inline picks keep the benchmark's games those of ``rng.choice`` / ``rng.sample``."""
    import random

    import random_policy

    for seed in range(40):
        for n in range(1, random_policy.SAMPLE_POOL_MAX + 1):
            population = [f"p{i}" for i in range(n)]
            for k in range(min(n, 5) + 1):
                ours, theirs = random.Random(seed), random.Random(seed)
                assert random_policy.sample(ours.getrandbits, population, k) == theirs.sample(population, k)
                assert ours.getrandbits(32) == theirs.getrandbits(32)
            ours, theirs = random.Random(seed), random.Random(seed)
            assert population[random_policy._below(ours.getrandbits, n)] == theirs.choice(population)
    with pytest.raises(ValueError):
        random_policy.sample(random.Random(0).getrandbits, ["a"] * (random_policy.SAMPLE_POOL_MAX + 1), 1)


def _plain_play(engine: Any, rules: Any, rng: Any, chooser: Any) -> None:
    """The benchmark's policy as its docstring states it, written plainly: every seat asked in id order,
    ``rng.choice`` / ``rng.sample`` for every pick (none for a lone skill), the list of the others copied."""
    import hiddenrole as hr

    while not engine.status().over:
        phase = engine.status().phase
        alive = engine.alive_player_ids()
        for pid in engine.player_ids():
            skills = engine.allowed_skills(pid)
            if not skills:
                continue
            skill = skills[0] if len(skills) == 1 else rng.choice(skills)  # a lone skill takes no draw
            targets: Any = ()
            custom = chooser(engine, pid, skill, alive, rng) if chooser is not None and skill != hr.SKIP else None
            if custom is not None:
                targets = custom
            elif skill != hr.SKIP:
                step = rules.config.step_for(phase, skill, engine.player_info(pid).role)
                others = [a for a in alive if a != pid]
                if step is None:
                    pass
                elif step.target_pool:
                    targets = rng.sample(rules.config.target_pools[step.target_pool], max(1, step.min_targets))
                elif others and step.min_targets > 1:
                    targets = rng.sample(others, min(step.min_targets, len(others)))
                elif others:
                    targets = (rng.choice(others),)
            with contextlib.suppress(hr.GameError):
                engine.submit(pid, skill, targets)
        engine.end_phase()


@pytest.mark.parametrize("kind", ["werewolf", "avalon", "onenight"])
def test_the_policy_loop_plays_the_games_the_plain_policy_plays(kind: str) -> None:
    """The benchmark's loop (``who_acts``, draws inline) is the policy its docstring states: the same
    games, log for log, as the plain version above."""
    import importlib
    import random

    import random_policy

    bench = importlib.import_module(f"{kind}_bench")
    chooser = getattr(bench, "choose", None)
    for seed in range(6):
        rules, fast = bench.new_game(seed)
        fast.start()
        random_policy.play(fast, rules, random.Random(seed), random_policy.Tally(), chooser=chooser, extras=())
        rules, plain = bench.new_game(seed)
        plain.start()
        _plain_play(plain, rules, random.Random(seed), chooser)
        assert fast.log().to_json() == plain.log().to_json()


def test_goals_table_marks_a_goal_met_only_at_or_above_its_target() -> None:
    import goals

    results = {
        "pure": {"werewolf": {"games_per_s_vs_go": 0.84, "replay_us_vs_go": 1.0}},
        "compiled": {"werewolf": {"games_per_s_vs_go": 0.85}},
    }
    rows = {line.split(" | ")[0].strip("| "): line for line in goals.table(results).splitlines()}
    assert rows["random 12p werewolf game"].endswith("| x0.84 | x0.85 (met) |")
    assert rows["replay from the log object"].endswith("| x1.00 (met) | - |")
    assert rows["random 7p Avalon game"].endswith("| - | - |")


def test_goals_runs_are_summarised_by_their_median_and_range() -> None:
    import goals

    runs = {
        "new": {"werewolf": [{"games_per_s_vs_go": 0.80}, {"games_per_s_vs_go": 0.90}, {"games_per_s_vs_go": 0.86}]},
        "base": {"werewolf": [{"games_per_s_vs_go": 0.70, "replay_us_vs_go": 1.2}, {"games_per_s_vs_go": 0.74}]},
    }
    results, ranges = goals.summarise(runs)
    assert results["new"]["werewolf"]["games_per_s_vs_go"] == 0.86
    assert ranges["new"]["werewolf"]["games_per_s_vs_go"] == (0.80, 0.90)
    assert results["base"]["werewolf"] == {"games_per_s_vs_go": 0.72, "replay_us_vs_go": 1.2}
    rows = {line.split(" | ")[0].strip("| "): line for line in goals.table(results, ranges).splitlines()}
    assert rows["random 12p werewolf game"].endswith("| x0.86 (met) [x0.80-x0.90] | x0.72 [x0.70-x0.74] |")


def test_extras_benchmark_quick_run_prints_every_set_against_none() -> None:
    last = _quick_run("extras_bench.py", "0.3", "onenight").strip().splitlines()[-1]
    assert last.startswith("kind=onenight none_vs_none=1.00 ")
    names = [name for name, _ in re.findall(r"(\w+)_vs_none=(\d+\.\d+)", last)]
    assert names == ["none", "views", "snapshot", "replay", "all"]


@pytest.mark.parametrize("extras", [(), ("views",), ("snapshot", "replay")])
def test_the_extras_change_what_is_measured_not_the_game(extras: tuple[str, ...]) -> None:
    """Each extra is timed apart and leaves the game as it is: the log of a game is the same with
    any set of extras, and a tally records samples for exactly the extras asked for."""
    import random

    import random_policy

    new_game, chooser = random_policy.game_of("werewolf")
    for seed in range(3):
        rules, bare = new_game(seed)
        bare.start()
        random_policy.play(bare, rules, random.Random(seed), random_policy.Tally(), chooser=chooser, extras=())
        rules, measured = new_game(seed)
        measured.start()
        tally = random_policy.Tally()
        random_policy.play(measured, rules, random.Random(seed), tally, chooser=chooser, extras=extras)
        assert measured.log().to_json() == bare.log().to_json()
        assert bool(tally.view_ns) == ("views" in extras)
        assert bool(tally.snapshot_ns) == ("snapshot" in extras)
        assert bool(tally.replay_ns) == bool(tally.replay_json_ns) == ("replay" in extras)
