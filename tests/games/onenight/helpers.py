"""Builders shared by the One Night tests: hand-made boards and small game drivers."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import hiddenrole as hr
from hiddenrole.games import onenight as on

from ..random_moves import EngineRandom

Seat = tuple[str, str] | tuple[str, str, str]


def board(
    seats: Sequence[Seat],
    center: Sequence[str] = (on.VILLAGER, on.VILLAGER, on.VILLAGER),
    *,
    phase: str = "",
    dead: Iterable[str] = (),
    settled: bool = False,
) -> hr.Board:
    """A position: seats are ``(id, dealt)`` or ``(id, dealt, held)``; ``dead`` are eliminated."""
    gone = set(dead)
    players = []
    for s in seats:
        held = s[2] if len(s) == 3 else s[1]
        players.append(hr.seat(s[0], s[1], s[0] not in gone, {on.VAR_CARD: held}))
    game_vars = {on.center_key(slot): card for slot, card in zip(on.CENTER_SLOTS, center, strict=True)}
    if settled:
        game_vars[on.VAR_VOTE_SETTLED] = hr.VAR_PRESENT
    return hr.Board(players=tuple(players), phase=phase, vars=game_vars)


def use(player_id: str, skill: str, *targets: str) -> hr.SkillUse:
    return hr.SkillUse(player_id, skill, tuple(targets))


def held(b: hr.Board, player_id: str) -> str:
    return b.var(hr.GAME.of(player_id), on.VAR_CARD)


def center(b: hr.Board) -> tuple[str, ...]:
    return tuple(b.var(hr.GAME, on.center_key(s)) for s in on.CENTER_SLOTS)


def learned(b: hr.Board, player_id: str) -> dict[str, str]:
    p = b.player(player_id)
    assert p is not None
    return {k: v for k, v in p.vars.items() if k.startswith("learn.")}


def of_type(effects: Iterable[hr.Effect], kind: str) -> list[hr.Effect]:
    return [e for e in effects if e.type == kind]


def game(seats: Sequence[tuple[str, str]], center: Sequence[str], **kw: bool) -> hr.Engine:
    """A started engine for an explicit deal."""
    c0, c1, c2 = center
    return on.engine_for(on.Deal(tuple(seats), (c0, c1, c2)), **kw)


def advance_to(engine: hr.Engine, phase: str) -> None:
    """End phases (nobody acting) until ``phase`` is current."""
    for _ in range(len(on.PHASES) + 1):
        if engine.status().phase == phase:
            return
        engine.end_phase()
    raise AssertionError(f"never reached {phase}")


def vote_all(engine: hr.Engine, votes: dict[str, str]) -> tuple[hr.Effect, ...]:
    """Go to the vote, cast ``votes`` and resolve it."""
    advance_to(engine, on.VOTE_PHASE)
    for voter, target in sorted(votes.items()):
        engine.submit(voter, on.VOTE, [target])
    return engine.end_phase()


def random_deal(rng: random.Random) -> on.Deal:
    """A random legal deal: 3..10 players from a random subset of the box."""
    box = [role for role, n in on.BOX_COPIES.items() for _ in range(n)]
    players = rng.randint(on.MIN_PLAYERS, 10)
    deck = rng.sample(box, players + on.CENTER_SIZE)
    return on.deal(deck, players, rng.randrange(1 << 30))


def play_phase(engine: hr.Engine, agent: EngineRandom, rng: random.Random, act: float = 0.9) -> None:
    """Every player with something to do acts with probability ``act``."""
    for pid in engine.player_ids():
        if rng.random() < act:
            agent.act(engine, pid)
