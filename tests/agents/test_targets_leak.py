"""The legal targets offered to a seat (``PlayerView.targets``, ``SeatSelf.targets``, an
observation's ``candidates``) are part of what it receives: a rules gate whose allowed
targets hang on a hidden role must turn the twin-deal check red; the shipped rules keep it
green, for a seat whose targets are limited (the guard) and for a plain voter."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import legality
from hiddenrole.games.werewolf.legality import Usable

from .support import first_private_divergence

SEEDS = range(3)
_RULES_CACHE = ww._build  # the ruleset's cache of built rules (functools.lru_cache)


def _plant(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, skill: str) -> list[int]:
    """Planted rules gate: ``skill`` may only target non-wolves (a hidden role decides the offer).
    Returns a list that counts the calls, so a plant nobody reaches cannot pass for a catch.

    The ruleset caches its built rules (with the gate and its declared skills bound in), so the cache is emptied
    before the plant and again after the test, when the plant is gone."""
    real = Usable.usable
    _RULES_CACHE.cache_clear()
    request.addfinalizer(_RULES_CACHE.cache_clear)
    calls: list[int] = []

    def usable(
        self: Usable, player_id: str, sk: str, view: hr.GameView, submitted: Sequence[hr.SkillUse] = ()
    ) -> str | tuple[str, ...] | None:
        got = real(self, player_id, sk, view, submitted)
        if sk != skill or isinstance(got, str):
            return got
        calls.append(1)
        allowed = tuple(p.id for p in view.alive_players()) if got is None else got
        return tuple(t for t in allowed if (p := view.player(t)) is None or p.role != ww.WEREWOLF)

    monkeypatch.setattr(Usable, "usable", usable)
    # The plant gates ``skill``: the rules must say so, or the engine never asks (Rules.usable_skills).
    monkeypatch.setattr(ww, "USABLE_SKILLS", legality.USABLE_SKILLS | {skill})
    return calls


@pytest.mark.parametrize(("role", "skill"), [(ww.GUARD, ww.PROTECT), (ww.VILLAGER, ww.VOTE)])
def test_a_target_gate_on_a_hidden_role_is_caught(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, role: str, skill: str
) -> None:
    calls = _plant(monkeypatch, request, skill)
    found = [first_private_divergence("werewolf", seed, None, max_pairs=6, viewer_role=role)[2] for seed in SEEDS]
    assert calls, "the planted gate was never consulted"
    assert any(found), "offered targets that depend on a hidden role went unnoticed"


@pytest.mark.parametrize("role", [ww.GUARD, ww.VILLAGER])
def test_the_shipped_target_gates_keep_the_twins_identical(role: str) -> None:
    compared = 0
    for seed in SEEDS:
        _, n, leak = first_private_divergence("werewolf", seed, None, max_pairs=6, viewer_role=role)
        assert leak is None, leak
        compared += n
    assert compared >= 5, "the twins diverged publicly at once: the test compared almost nothing"
