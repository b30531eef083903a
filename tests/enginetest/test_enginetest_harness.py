"""The harness passes correct rulesets, is reproducible, and its helpers do what they say."""

from __future__ import annotations

import ast
import dataclasses
import random
from collections.abc import Callable
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.enginetest import fuzzgame
from hiddenrole.games import redblue


def redblue_spec(games: int = 200, **changes: object) -> et.Spec:
    def setup(rng: random.Random) -> et.Game:
        reds = rng.randint(1, 3)
        blues = rng.randint(2, 4)
        return et.Game(redblue.rules(), et.deal(rng, {redblue.RED: reds, redblue.BLUE: blues}))

    spec = et.Spec(
        name="redblue",
        setup=setup,
        games=games,
        max_steps=60,
        want_end=True,
        must_see=(redblue.OUT, redblue.TIE, "won:RED", "won:BLUE"),
        leaks=et.LeakCheck(viewers_per_game=2, roles=(redblue.RED, redblue.BLUE), chat=et.default_chat),
    )
    return dataclasses.replace(spec, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- correct rulesets pass


def test_fuzzgame_passes_every_invariant_over_200_games() -> None:
    report = et.run(fuzzgame.fuzz_spec(games=200))
    assert report.games == 200
    assert report.finished == 200
    assert report.leak_pairs >= 40
    assert report.labels["shielded"] > 0
    assert report.labels["set_actors"] > 0
    assert report.labels[f"phase:{fuzzgame.FALLOUT}"] > 0


def test_redblue_passes_every_invariant_over_200_games() -> None:
    report = et.run(redblue_spec(200))
    assert report.games == report.finished == 200
    assert report.leak_viewers[redblue.RED] > 0
    assert report.leak_viewers[redblue.BLUE] > 0
    assert report.labels[redblue.OUT] > 0


def test_run_is_deterministic() -> None:
    first = et.run(fuzzgame.fuzz_spec(games=15, leak_games=5))
    second = et.run(fuzzgame.fuzz_spec(games=15, leak_games=5))
    assert first == second
    shifted = et.run(fuzzgame.fuzz_spec(games=15, start=100, leak_games=5))
    assert shifted != first


def test_run_one_plays_the_same_game_as_run() -> None:
    whole = et.run(fuzzgame.fuzz_spec(games=3, leak_games=0))
    parts = [et.run_one(fuzzgame.fuzz_spec(games=3, leak_games=0), seed) for seed in range(3)]
    assert whole.steps == sum(p.steps for p in parts)
    assert whole.labels == sum((p.labels for p in parts), type(whole.labels)())


def test_act_none_only_ends_phases() -> None:
    spec = redblue_spec(3, act=None, want_end=False, must_see=(), max_steps=5, leaks=None)
    report = et.run(spec)
    assert report.finished == 0
    assert report.steps == 15
    assert report.labels[redblue.TIE] == 15


def test_report_summary_names_labels_and_counts() -> None:
    report = et.run(redblue_spec(5, must_see=()))
    text = report.summary()
    assert text.startswith("redblue: 5 games (5 finished)")
    assert "OUT=" in text


# ---------------------------------------------------------------------- failure messages


def test_invariant_error_names_invariant_seed_step_and_how_to_reproduce() -> None:
    err = et.InvariantError("demo", et.Invariant.SNAPSHOT, "line one\nline two", seed=17, step=4)
    text = str(err)
    assert "enginetest[demo]: invariant A (snapshot round trip) broken at seed 17, step 4" in text
    assert "  line two" in text
    assert "et.run_one" not in text and "enginetest.run_one(spec, seed=17)" in text
    assert isinstance(err, AssertionError)
    assert (err.invariant, err.seed, err.step) == (et.Invariant.SNAPSHOT, 17, 4)


def test_run_wide_errors_have_no_seed() -> None:
    err = et.InvariantError("demo", et.Invariant.MUST_SEE, "never seen")
    assert "seed" not in str(err)


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": ""},
        {"games": -1},
        {"max_steps": 0},
        {"must_see": "OUT"},
        {"setup": 3},
    ],
)
def test_spec_rejects_bad_arguments(kwargs: dict[str, object]) -> None:
    base: dict[str, object] = {"name": "x", "setup": lambda rng: None}
    base.update(kwargs)
    with pytest.raises(hr.InvalidArgument):
        et.Spec(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: et.LeakCheck(roles="RED"), id="roles-is-a-string"),  # type: ignore[arg-type]
        pytest.param(lambda: et.LeakCheck(attempts=0), id="no-attempts"),
        pytest.param(lambda: et.Public(""), id="public-without-name"),
        pytest.param(lambda: et.Public("x", event_types="OUT"), id="event-types-is-a-string"),  # type: ignore[arg-type]
    ],
)
def test_leakcheck_and_public_reject_bad_arguments(build: Callable[[], object]) -> None:
    with pytest.raises(hr.InvalidArgument):
        build()


def test_game_rejects_duplicate_or_missing_seats() -> None:
    with pytest.raises(hr.InvalidArgument):
        et.Game(redblue.rules(), (("p0", "RED"), ("p0", "BLUE")))
    with pytest.raises(hr.InvalidArgument):
        et.Game(redblue.rules(), ())


def test_run_rejects_something_that_is_not_a_spec() -> None:
    with pytest.raises(hr.InvalidArgument):
        et.run("redblue")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidArgument):
        et.run_one("redblue", 0)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- helpers


def test_deal_pads_ids_and_keeps_role_counts() -> None:
    seats = et.deal(random.Random(1), {"WOLF": 4, "VILLAGER": 8})
    assert [pid for pid, _ in seats] == [f"p{i:02d}" for i in range(12)]
    roles = [r for _, r in seats]
    assert roles.count("WOLF") == 4 and roles.count("VILLAGER") == 8
    assert et.deal(random.Random(1), {"WOLF": 4, "VILLAGER": 8}) == seats
    assert et.deal(random.Random(2), ["A", "B", "C"], prefix="s")[0][0] == "s0"
    with pytest.raises(hr.InvalidArgument):
        et.deal(random.Random(1), "WOLF")
    with pytest.raises(hr.InvalidArgument):
        et.deal(random.Random(1), {})


PLAYERS = [("a", True), ("b", True), ("c", False), ("d", True)]


def test_choose_targets_honours_count_self_and_dead_rules() -> None:
    rng = random.Random(0)
    step = hr.PhaseStep("R", "HIT", min_targets=2, max_targets=2, distinct_targets=True, allow_self_target=False)
    for _ in range(50):
        got = et.choose_targets(step, "a", PLAYERS, {}, rng)
        assert got is not None and len(got) == 2 and len(set(got)) == 2
        assert "a" not in got and "c" not in got
    dead_ok = hr.PhaseStep("R", "DIG", min_targets=1, max_targets=1, allow_dead_target=True)
    seen = {et.choose_targets(dead_ok, "a", PLAYERS, {}, rng) for _ in range(100)}
    assert ("c",) in seen


def test_choose_targets_uses_pools_and_gives_up_when_impossible() -> None:
    rng = random.Random(0)
    peek = hr.PhaseStep("R", "PEEK", target_pool="CENTER", min_targets=2, max_targets=2, distinct_targets=True)
    got = et.choose_targets(peek, "a", PLAYERS, {"CENTER": ("0", "1", "2")}, rng)
    assert got is not None and set(got) <= {"0", "1", "2"} and len(set(got)) == 2
    greedy = hr.PhaseStep("R", "HIT", min_targets=4, max_targets=4, distinct_targets=True)
    assert et.choose_targets(greedy, "a", PLAYERS, {}, rng) is None


def test_choose_targets_unconstrained_skill_aims_at_one_player_skip_at_none() -> None:
    rng = random.Random(0)
    assert len(et.choose_targets(hr.PhaseStep("R", "VOTE"), "a", PLAYERS, {}, rng) or ()) == 1
    assert et.choose_targets(hr.PhaseStep("R", hr.SKIP), "a", PLAYERS, {}, rng) == ()


def test_find_step_prefers_the_role_specific_step() -> None:
    config = fuzzgame.rules().config
    step = et.find_step(config, fuzzgame.ACT, fuzzgame.RED, fuzzgame.STRIKE)
    assert step is not None and step.role == fuzzgame.RED
    anyone = et.find_step(config, fuzzgame.FALLOUT, fuzzgame.BLUE, fuzzgame.CURSE)
    assert anyone is not None and anyone.role == ""
    assert et.find_step(config, fuzzgame.TALLY, fuzzgame.BLUE, fuzzgame.STRIKE) is None
    assert et.find_step(config, "NOPE", fuzzgame.BLUE, fuzzgame.STRIKE) is None


def test_permute_others_keeps_the_side_and_moves_the_rest() -> None:
    game = et.Game(redblue.rules(), (("p0", "RED"), ("p1", "BLUE"), ("p2", "RED"), ("p3", "BLUE"), ("p4", "BLUE")))
    side = frozenset({"p0"})
    twins = list(et.permute_others(game, side, random.Random(3)))
    assert twins
    assert len({t.seats for t in twins}) == len(twins)
    for t in twins:
        assert t.role_of("p0") == "RED"
        assert t.seats != game.seats
        assert sorted(r for _, r in t.seats) == sorted(r for _, r in game.seats)


def test_permute_others_yields_nothing_when_the_others_share_one_role() -> None:
    game = et.Game(redblue.rules(), (("p0", "RED"), ("p1", "BLUE"), ("p2", "BLUE")))
    assert list(et.permute_others(game, frozenset({"p0"}), random.Random(0))) == []


def test_random_policy_only_makes_submissions_the_kernel_accepts() -> None:
    engine = hr.Engine(fuzzgame.rules())
    for pid, role in et.deal(random.Random(5), {fuzzgame.RED: 3, fuzzgame.BLUE: 3}):
        engine.add_player(pid, role)
    engine.start()
    game = et.Game(fuzzgame.rules(), (("p0", "RED"),))
    turn = et.Turn(engine, random.Random(0), 0, 0, game)
    et.random_policy(turn)
    assert {u.player_id for u in engine.pending_uses()} == set(engine.player_ids())


def test_enginetest_uses_only_the_public_kernel_api() -> None:
    root = Path(et.__file__).parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("hiddenrole"), f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name == "hiddenrole" or not alias.name.startswith("hiddenrole"), path.name
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "hr":
                assert node.attr in hr.__all__, f"{path.name} uses hr.{node.attr}"
