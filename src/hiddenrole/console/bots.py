"""Bots for empty seats: random legal moves, decided from the seat's own table view.

A bot reads only what its seat may see (``table.view(seat)``) and the public phase
configuration (``table.rules.config``), so it cannot cheat, and it plays through the
table like any seat: every choice is a logged move. Targets come from the invariant
harness's picker, which reads each step's declared shape; that shape already fixes
counts the rules vary, such as the size of a missions team.
"""

from __future__ import annotations

import dataclasses
import random

import hiddenrole as hr
from hiddenrole.enginetest import choose_targets, find_step
from hiddenrole.host import Table, TableView

__all__ = ["Bot", "owes_move"]

MAX_TRIES = 4
"""Skills a bot tries before it gives up on a decision (a refused move changes nothing)."""


def _on_turn_skills(table: Table, view: TableView) -> tuple[str, ...]:
    """The seat's allowed skills that move the game on (out-of-turn extras such as taunts left out)."""
    if view.me is None:
        return ()
    pc = table.rules.config.phases.get(view.phase)
    extras = pc.out_of_turn if pc is not None else ()
    return tuple(s for s in view.me.allowed_skills if s not in extras)


def owes_move(table: Table, seat: str, passed: bool = False) -> bool:
    """Whether ``seat`` still has a decision to make before the game can go on.

    In a turn-ordered phase that is the seat with the turn; otherwise any seat with a
    skill that has not acted this phase (and has not passed).
    """
    view = table.view(seat)
    if view.over or not _on_turn_skills(table, view):
        return False
    if view.turn:
        return view.turn == seat
    return not passed and seat not in table.readiness().acted


def _not_self(step: hr.PhaseStep) -> hr.PhaseStep:
    """A single-target step with self-targeting off: a bot votes or aims at others when it can.

    Steps that pick a group (a missions team) keep the seat eligible, as a leader at a
    real table often sends itself.
    """
    if not step.allow_self_target or step.target_pool or step.max_targets != 1:
        return step
    return dataclasses.replace(step, allow_self_target=False)


class Bot:
    """Chooses uniformly among the seat's skills, with random targets of the step's shape."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choices(self, table: Table, seat: str) -> list[tuple[str, tuple[str, ...]]]:
        """Candidate moves for ``seat`` now, best first (only a few, each one legal by its step)."""
        view = table.view(seat)
        if view.me is None:
            return []
        skills = list(_on_turn_skills(table, view))
        self.rng.shuffle(skills)
        config = table.rules.config
        players = [(p.seat, p.alive) for p in view.players]
        out: list[tuple[str, tuple[str, ...]]] = []
        for skill in skills[:MAX_TRIES]:
            step = find_step(config, view.phase, view.me.role, skill)
            if step is None:
                continue
            targets = choose_targets(_not_self(step), seat, players, config.target_pools, self.rng)
            if targets is None:
                targets = choose_targets(step, seat, players, config.target_pools, self.rng)
            if targets is not None:
                out.append((skill, targets))
        return out

    def play(self, table: Table, seat: str) -> int | None:
        """Make one move for ``seat`` through the table; the seat's new view version, or ``None``."""
        for skill, targets in self.choices(table, seat):
            try:
                return table.act(seat, skill, targets)
            except hr.GameError:
                continue
        return None
