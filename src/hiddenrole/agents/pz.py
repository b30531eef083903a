"""PettingZoo AEC environments for the hidden-role games (the ``rl`` extra: pettingzoo, gymnasium, numpy).

``env = hiddenrole.agents.pz.env("werewolf")`` is a standard AEC environment: one
agent per seat, ``reset(seed=...)`` deals the table from that seed, ``last()`` gives
the selected seat's observation, and ``step(action)`` plays its answer. The host's
work (ending phases when nobody owes anything) happens inside ``step``.

Observation: a dict with ``observation`` (a fixed-size ``float32`` vector, the
encoding below, computed from the seat's :class:`~hiddenrole.agents.Observation`
only) and ``action_mask`` (``int8``, 1 for each action legal now; all zero for a seat
that is not selected). Rewards: +1 to each winning seat, -1 to the others, at the end.

Actions: a fixed list per game and seat count, index 0 is *pass*; then every
``(skill, targets)`` the phase configuration can offer, in sorted order: for each
step, every combination of its declared target count from its target universe
(the seats, or the step's target pool). :attr:`HiddenRoleEnv.actions` lists them.

Encoding (``HiddenRoleEnv.encoding`` names each block and its size):
``role`` one-hot over the game's roles; ``camp`` one-hot; ``phase`` one-hot over the
configuration's phases; ``round`` (the round number / 20) and ``alive``; per seat, in
table order: alive, is me, teammate, holds the turn, the role shown for it (one-hot)
and whether my role info names it; ``info`` one bit per role-info key in the game's
key list; ``events``: the hashing trick over what I saw: each event's kind (its type
plus its non-seat data values) is hashed to one of :data:`EVENT_BUCKETS` buckets,
counted per bucket for the seat that caused it and the seat it targeted; ``ballots``:
votes I saw, voter x target counts (werewolf's and One Night's public ballots).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import hiddenrole as hr
from hiddenrole.host import MAX_SEED, Table
from hiddenrole.host.catalog import get

from .arena import DEFAULT_SEATS
from .observation import Action, Observation
from .runner import MAX_DECISIONS, SeatRunner

__all__ = ["HiddenRoleEnv", "env", "EVENT_BUCKETS", "MAX_ROUNDS"]

EVENT_BUCKETS: Final = 32
"""Buckets of the hashed event encoding."""
MAX_ROUNDS: Final = 20.0
"""Round numbers are divided by this."""


def _roles(game: str) -> tuple[str, ...]:
    if game == "werewolf":
        from hiddenrole.games import werewolf as ww
        from hiddenrole.games.werewolf import idiot, wolfking

        return tuple(
            sorted({ww.WEREWOLF, ww.SEER, ww.WITCH, ww.HUNTER, ww.VILLAGER, ww.GUARD, idiot.IDIOT, wolfking.WOLF_KING})
        )
    if game == "missions":
        from hiddenrole.games import missions as ms

        return tuple(sorted(ms.ROLES))
    if game == "onenight":
        from hiddenrole.games import onenight as on

        return tuple(sorted(on.BOX_COPIES))
    raise hr.InvalidArgument(f"no environment for {game!r} (werewolf, missions, onenight)")


_CAMPS: Final[Mapping[str, tuple[str, ...]]] = {
    "werewolf": ("EVIL", "GOOD"),
    "missions": ("EVIL", "GOOD"),
    "onenight": ("", "TANNER", "VILLAGE", "WOLF"),
}
_INFO_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    "werewolf": ("antidote", "can_shoot", "kill_target", "poison"),
    "missions": ("evil", "merlin_or_morgana"),
    "onenight": ("learn.center.0", "learn.center.1", "learn.center.2", "learn.self", "masons", "wolves"),
}


def _bucket(kind: str) -> int:
    return int.from_bytes(hashlib.sha256(kind.encode()).digest()[:4], "big") % EVENT_BUCKETS


class HiddenRoleEnv(AECEnv):  # type: ignore[misc]
    """One table of ``game`` as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "hiddenrole_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.definition = get(game)
        self.n = seats if seats is not None else DEFAULT_SEATS.get(game, self.definition.min_seats)
        self.table_options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"hiddenrole_{game}_v0")
        probe = Table.open(self.definition, self.n, self.table_options, seed=0, table_id="probe")
        self.seats: tuple[str, ...] = probe.seats
        self.config: hr.Config = probe.rules.config
        self.roles = _roles(game)
        self.camps = _CAMPS[game]
        self.phases = tuple(sorted(self.config.phases))
        self.info_keys = _INFO_KEYS[game]
        self.actions: tuple[tuple[str | None, tuple[str, ...]], ...] = ((None, ()), *self._action_list())
        self._index = {a: i for i, a in enumerate(self.actions)}
        r, n = len(self.roles), self.n
        self.encoding: tuple[tuple[str, int], ...] = (
            ("role", r),
            ("camp", len(self.camps)),
            ("phase", len(self.phases)),
            ("round_alive", 2),
            ("seats", n * (4 + r + 1)),
            ("info", len(self.info_keys)),
            ("events", EVENT_BUCKETS * n * 2),
            ("ballots", n * n),
        )
        size = sum(k for _, k in self.encoding)
        self.possible_agents = list(self.seats)
        self.agents = list(self.seats)
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (len(self.actions),), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.seats}
        self.action_spaces = {a: gymnasium.spaces.Discrete(len(self.actions)) for a in self.seats}
        self._table: Table | None = None
        self._runner: SeatRunner | None = None
        self._obs: Observation | None = None
        self._steps = 0

    # ------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def _action_list(self) -> list[tuple[str, tuple[str, ...]]]:
        found: set[tuple[str, tuple[str, ...]]] = set()
        for pc in self.config.phases.values():
            for step in pc.steps:
                if not step.skill or step.role == hr.SYSTEM:
                    continue
                universe = tuple(self.config.target_pools.get(step.target_pool, ())) if step.target_pool else self.seats
                if step.skill == hr.SKIP or step.max_targets == 0:
                    counts: range = range(0, 1)
                elif not step.checks_targets:
                    counts = range(1, 2)
                else:
                    hi = step.max_targets if step.max_targets is not None else max(step.min_targets, 1)
                    counts = range(step.min_targets, min(hi, len(universe)) + 1)
                for k in counts:
                    for combo in itertools.combinations(universe, k):
                        found.add((step.skill, combo))
        return sorted(found)

    # ------------------------------------------------------------- AEC

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        s = seed if seed is not None else secrets.randbelow(MAX_SEED)
        self._table = Table.open(self.definition, self.n, self.table_options, seed=s, table_id="env")
        self._runner = SeatRunner(self._table, {seat: _Inverted() for seat in self.seats}, talk=False)
        self.agents = list(self.seats)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._advance()

    def _advance(self) -> None:
        """Select the next seat that owes a decision, or end the game for everyone."""
        assert self._runner is not None and self._table is not None
        got = self._runner.next_decision() if self._steps < MAX_DECISIONS else None
        if got is not None:
            self.agent_selection, self._obs = got
            return
        self._obs = None
        outcome = self._table.outcome
        winners = set(outcome.winners) if outcome is not None else set()
        over = self._table.over
        for a in self.agents:
            self.rewards[a] = (1.0 if a in winners else -1.0) if over else 0.0
            self.terminations[a] = over
            self.truncations[a] = not over
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._runner is not None and self._obs is not None
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        skill, targets = self.actions[int(action)] if action is not None else (None, ())
        obs = self._obs
        chosen = Action(skill, targets)
        acted, _ = self._runner.apply(agent, obs, chosen)
        if acted is None or (acted is False and skill is not None):
            self._runner.apply(agent, obs, Action())  # an illegal index, or a refused move, counts as a pass
        self._steps += 1
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        assert self._table is not None
        obs = self._obs if (self._obs is not None and agent == self.agent_selection) else None
        if obs is None:
            from .observation import observe

            obs = observe(self._table.view(agent), self.config)
            mask = np.zeros(len(self.actions), np.int8)
        else:
            mask = self.mask(obs)
        return {"observation": self.encode(obs), "action_mask": mask}

    def render(self) -> str | None:
        if self._table is None:
            return None
        text = f"{self.game}: phase {self._table.status().phase}, {self._table.seq} moves"
        return text

    def close(self) -> None:
        self._table = None
        self._runner = None

    # ------------------------------------------------------------- encoding

    def mask(self, obs: Observation) -> np.ndarray[Any, np.dtype[np.int8]]:
        m = np.zeros(len(self.actions), np.int8)
        m[0] = 1
        for la in obs.legal:
            if la.out_of_turn and len(obs.legal) > 1:
                continue
            for i, (skill, targets) in enumerate(self.actions):
                if skill == la.skill and not la.check(targets):
                    m[i] = 1
        return m

    def encode(self, obs: Observation) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The fixed-size vector of ``obs`` (the blocks of :attr:`encoding`, in order)."""
        r, n = len(self.roles), self.n
        seat_at = {s: i for i, s in enumerate(self.seats)}
        out: list[np.ndarray[Any, np.dtype[np.float32]]] = []

        def onehot(values: tuple[str, ...], v: str) -> np.ndarray[Any, np.dtype[np.float32]]:
            a = np.zeros(len(values), np.float32)
            if v in values:
                a[values.index(v)] = 1.0
            return a

        out.append(onehot(self.roles, obs.role))
        out.append(onehot(self.camps, obs.camp))
        out.append(onehot(self.phases, obs.phase))
        out.append(np.array([min(obs.round, 1000) / MAX_ROUNDS, float(obs.alive)], np.float32))
        named = {s for v in obs.role_info.values() for s in v.split(",") if s in seat_at}
        seats = np.zeros((n, 4 + r + 1), np.float32)
        for p in obs.players:
            i = seat_at[p.seat]
            seats[i, 0] = p.alive
            seats[i, 1] = p.seat == obs.seat
            seats[i, 2] = p.seat in obs.teammates
            seats[i, 3] = p.seat == obs.turn
            if p.role in self.roles:
                seats[i, 4 + self.roles.index(p.role)] = 1.0
            seats[i, 4 + r] = p.seat in named
        out.append(seats.ravel())
        out.append(np.array([float(k in obs.role_info) for k in self.info_keys], np.float32))
        events = np.zeros((EVENT_BUCKETS, n, 2), np.float32)
        ballots = np.zeros((n, n), np.float32)
        for e in obs.events:
            values = sorted(v for v in e.data.values() if v not in seat_at and ">" not in v and len(v) < 16)
            b = _bucket("|".join([e.type, *values, "x" if e.canceled else ""]))
            if e.source in seat_at:
                events[b, seat_at[e.source], 0] += 1.0
            if e.target in seat_at:
                events[b, seat_at[e.target], 1] += 1.0
            for v in e.data.values():
                for item in v.split(","):
                    voter, _, target = item.partition(">")
                    if voter in seat_at and target in seat_at:
                        ballots[seat_at[voter], seat_at[target]] += 1.0
            if e.type.endswith("VOTED") and e.source in seat_at and e.target in seat_at:
                ballots[seat_at[e.source], seat_at[e.target]] += 1.0
        out.append(events.ravel())
        out.append(ballots.ravel())
        return np.concatenate(out)


class _Inverted:
    """Placeholder agent: the environment answers for every seat through ``SeatRunner.apply``."""

    talks = False

    def act(self, obs: Observation) -> Action:
        return Action()


def env(game: str, **kw: Any) -> HiddenRoleEnv:
    """A new environment for ``game`` (werewolf, missions or onenight)."""
    return HiddenRoleEnv(game, **kw)
