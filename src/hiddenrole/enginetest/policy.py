"""Random play and random deals, driven only by a seeded ``random.Random``.

The target picker reads the phase's :class:`hiddenrole.PhaseStep` (public
configuration) and the players' aliveness, so a submission it makes is always one the
kernel must accept: if ``submit`` refuses it, the "who may act" answers lied.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping, Sequence

import hiddenrole as hr

from .core import Game, Turn

__all__ = ["choose_targets", "deal", "find_step", "permute_others", "random_policy", "random_submission"]


def find_step(config: hr.Config, phase: hr.PhaseType, role: hr.RoleType, skill: hr.SkillType) -> hr.PhaseStep | None:
    """The step that governs ``role`` using ``skill`` in ``phase`` (kept name for :meth:`hr.Config.step_for`)."""
    return config.step_for(phase, skill, role)


def choose_targets(
    step: hr.PhaseStep,
    me: str,
    players: Sequence[tuple[str, bool]],
    pools: Mapping[str, tuple[str, ...]],
    rng: random.Random,
    only: Collection[str] | None = None,
) -> tuple[str, ...] | None:
    """Random targets that satisfy ``step``; ``None`` when no legal choice exists.

    ``players`` are ``(id, alive)`` pairs; ``only``, when given, the only targets the
    rules allow now (:meth:`hiddenrole.Engine.allowed_targets`). A step without target constraints gets one
    target (none for :data:`hiddenrole.SKIP`), because most such skills aim at someone.
    """
    if step.target_pool:
        eligible = list(pools.get(step.target_pool, ()))
    else:
        eligible = [pid for pid, alive in players if (alive or step.allow_dead_target)]
        if not step.allow_self_target:
            eligible = [pid for pid in eligible if pid != me]
    if only is not None:
        eligible = [pid for pid in eligible if pid in only]
    if not step.checks_targets:
        if step.skill == hr.SKIP or not eligible:
            return ()
        return (rng.choice(eligible),)
    lo = step.min_targets
    hi = step.max_targets if step.max_targets is not None else max(lo, 1)
    if step.distinct_targets:
        hi = min(hi, len(eligible))
    if hi < lo or (lo > 0 and not eligible):
        return None
    n = rng.randint(lo, hi)
    if step.distinct_targets:
        return tuple(rng.sample(eligible, n))
    return tuple(rng.choice(eligible) for _ in range(n))


def random_submission(
    engine: hr.Engine, player_id: str, rng: random.Random, allowed: tuple[hr.SkillType, ...] | None = None
) -> tuple[hr.SkillType, tuple[str, ...]] | None:
    """One uniformly chosen allowed skill of ``player_id`` with random legal targets (``allowed``:
    the seat's ``allowed_skills`` when the caller has just asked, as ``who_acts`` does)."""
    if allowed is None:
        allowed = engine.allowed_skills(player_id)
    if not allowed:
        return None
    skill = rng.choice(allowed)
    status = engine.status()
    step = find_step(engine.rules.config, status.phase, engine.player_info(player_id).role, skill)
    if step is None:
        return None
    players = [(pid, engine.player_info(pid).alive) for pid in engine.player_ids()]
    only = engine.allowed_targets(player_id, skill)
    targets = choose_targets(step, player_id, players, engine.rules.config.target_pools, rng, only)
    if targets is None:
        return None
    return skill, targets


def random_policy(turn: Turn) -> None:
    """Every seat with allowed skills (in id order) submits one, chosen uniformly, with random targets."""
    engine = turn.engine
    for pid, allowed in engine.who_acts():
        choice = random_submission(engine, pid, turn.rng, allowed)
        if choice is not None:
            engine.submit(pid, choice[0], choice[1])


def deal(
    rng: random.Random, roles: Mapping[hr.RoleType, int] | Sequence[hr.RoleType], prefix: str = "p"
) -> tuple[tuple[str, hr.RoleType], ...]:
    """Seats ``p0..pN`` (zero-padded so ids sort like seats) holding ``roles`` in random order.

    ``roles`` is either a role -> count mapping or a list of roles.
    """
    if isinstance(roles, Mapping):
        pool = [r for r in sorted(roles) for _ in range(roles[r])]
    else:
        if isinstance(roles, str):
            raise hr.InvalidArgument("deal() needs a list of roles or a role -> count mapping, not a str")
        pool = list(roles)
    if not pool:
        raise hr.InvalidArgument("deal() needs at least one role")
    rng.shuffle(pool)
    width = len(str(len(pool) - 1))
    return tuple((f"{prefix}{i:0{width}d}", role) for i, role in enumerate(pool))


def permute_others(game: Game, side: frozenset[str], rng: random.Random) -> Iterator[Game]:
    """Candidate twins: the same deal with the roles of seats outside ``side`` moved around.

    First a dozen random permutations (they move the most information), then every
    swap of two outside seats holding different roles, in random order (these keep
    most of a viewer's knowledge, e.g. Merlin's list of evil seats, intact).
    """
    others = [i for i, (pid, _) in enumerate(game.seats) if pid not in side]
    roles = [game.seats[i][1] for i in others]
    if len(set(roles)) < 2:
        return
    seen = {tuple(roles)}

    def build(new_roles: Sequence[hr.RoleType]) -> Game:
        seats = list(game.seats)
        for i, role in zip(others, new_roles, strict=True):
            seats[i] = (seats[i][0], role)
        return Game(game.rules, tuple(seats), game.engine_type)

    for _ in range(12):
        shuffled = list(roles)
        rng.shuffle(shuffled)
        if tuple(shuffled) not in seen:
            seen.add(tuple(shuffled))
            yield build(shuffled)
    swaps = [(a, b) for a in range(len(roles)) for b in range(a + 1, len(roles)) if roles[a] != roles[b]]
    rng.shuffle(swaps)
    for a, b in swaps:
        swapped = list(roles)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        if tuple(swapped) not in seen:
            seen.add(tuple(swapped))
            yield build(swapped)
