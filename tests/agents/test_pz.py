"""PettingZoo AEC environments: the API and seed tests, masks that offer exactly the legal actions,
and whole games played through the environment to a ±1 reward."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from hiddenrole.agents.pz import HiddenRoleEnv, env

GAMES = ("werewolf", "missions", "onenight")


@pytest.mark.parametrize("game", GAMES)
def test_the_environment_passes_the_pettingzoo_api_and_seed_tests(game: str) -> None:
    api_test(env(game), num_cycles=100, verbose_progress=False)
    seed_test(lambda: env(game), num_cycles=30)


@pytest.mark.parametrize("game", GAMES)
def test_masks_offer_exactly_the_legal_actions_and_games_end_with_rewards(game: str) -> None:
    e: HiddenRoleEnv = env(game)
    rng = np.random.default_rng(3)
    for seed in range(3):
        e.reset(seed=seed)
        total = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter(max_iter=5000):
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            assert obs["observation"].shape == e.observation_spaces[agent]["observation"].shape
            mask = obs["action_mask"]
            seat_obs = e._obs
            assert seat_obs is not None and seat_obs.seat == agent
            for i in np.flatnonzero(mask):
                skill, targets = e.actions[i]
                seat_obs.parse({"skill": skill, "targets": list(targets)})  # raises if not legal
            legal = [i for i in np.flatnonzero(mask) if i != 0]
            e.step(int(rng.choice(legal)) if legal else 0)
        assert e._table is not None and e._table.over
        assert sorted(set(total.values())) in ([-1.0, 1.0], [1.0], [-1.0])


def test_the_encoding_is_a_function_of_the_observation_only() -> None:
    e: HiddenRoleEnv = env("werewolf")
    e.reset(seed=5)
    obs = e._obs
    assert obs is not None
    again = e.encode(obs)
    assert np.array_equal(e.observe(e.agent_selection)["observation"], again)
    assert sum(k for _, k in e.encoding) == again.shape[0]
