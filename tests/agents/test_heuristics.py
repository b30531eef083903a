"""The heuristic agents answer only legal actions and beat random on the same deals
(a small paired sample here; benchmarks/arena_winrates.py measures 1000 games)."""

from __future__ import annotations

import pytest

from hiddenrole.agents.arena import ArenaSpec, play_game

SIDES = {"werewolf": ("GOOD", 12), "missions": ("GOOD", 8), "onenight": ("VILLAGE", 40)}


@pytest.mark.parametrize("game", sorted(SIDES))
def test_the_heuristic_side_beats_random_on_the_same_deals(game: str) -> None:
    side, n = SIDES[game]
    heur = ArenaSpec(game, n, {side: "heuristic", "*": "random"})
    base = ArenaSpec(game, n, {"*": "random"})
    wins = {"heuristic": 0, "random": 0}
    for i in range(n):
        for name, spec in (("heuristic", heur), ("random", base)):
            r = play_game(spec, i)
            assert not r["truncated"]
            wins[name] += side in r["winning_camps"]
            if name == "heuristic":
                errors = [d for ds in r["reasoning"].values() for d in ds if d.get("error")]
                heuristic_errors = [d for d in errors if r["agents"][d["seat"]] == "heuristic"]
                assert not heuristic_errors, heuristic_errors[:3]
    assert wins["heuristic"] > wins["random"], wins
