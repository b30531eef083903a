"""The console's bots are the project's agents (:mod:`hiddenrole.agents`), seated by name.

``--bots random`` (the default) or ``--bots heuristic`` picks the agent every bot seat
gets from :func:`hiddenrole.agents.make_agent`, each with its own random stream from
the table seed (:func:`hiddenrole.agents.seat_rng`), so the same seed replays the same
game. An agent receives only its seat's observation, and a
:class:`hiddenrole.agents.SeatRunner` makes its moves through the table, so every bot
choice is a logged move like anyone's.
"""

from __future__ import annotations

from collections.abc import Iterable

from hiddenrole.agents import Agent, SeatRunner, make_agent, seat_rng
from hiddenrole.host import Table

__all__ = ["DEFAULT_AGENT", "seat_agents", "owes_move", "runner_for"]

DEFAULT_AGENT = "random"
"""The agent of ``--bots`` given alone (and of the bot seats around a ``--human``)."""


def seat_agents(table: Table, seats: Iterable[str], name: str) -> dict[str, Agent]:
    """One agent called ``name`` for each of ``seats`` (:class:`hiddenrole.agents.UnknownAgent` if none)."""
    game = table.rules.name
    return {seat: make_agent(name, game, seat, seat_rng(table.header.seed, seat)) for seat in sorted(seats)}


def runner_for(table: Table, agents: dict[str, Agent], *, talk: bool = True) -> SeatRunner:
    """The runner that makes the agents' moves at ``table``."""
    return SeatRunner(table, agents, talk=talk)


def owes_move(table: Table, seat: str, passed: bool = False) -> bool:
    """Whether ``seat`` still has a decision before the game can go on (as the runner asks seats).

    In a turn-ordered phase that is the seat with the turn; otherwise a seat with a
    required or optional action that has not acted this phase (and has not passed).
    """
    if table.over:
        return False
    r = table.readiness()
    if r.turn:
        return r.turn == seat
    if passed or seat in r.acted:
        return False
    return any(a.player_id == seat for a in (*r.pending, *r.optional))
