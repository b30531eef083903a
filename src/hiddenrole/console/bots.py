"""The console's bots are the project's agents (:mod:`hiddenrole.agents`), seated by name.

``--bots random`` (the default) or ``--bots heuristic`` picks the agent every bot seat
gets from :func:`hiddenrole.agents.make_agent`, each with its own random stream from
the table seed (:func:`hiddenrole.agents.seat_rng`), so the same seed replays the same
game. An agent receives only its seat's observation, and every answer is played (and
checked) by :meth:`hiddenrole.agents.SeatRunner.apply`, so every bot choice is a
logged move like anyone's.

:class:`Bots` decides *when* to ask whom, one decision at a time, because a human
seat sits among the agents: ``SeatRunner.next_decision`` ends every phase in which
no agent owes a decision, so it would end the witch's night or the day's discussion
under a human's nose. Here the console ends a phase only once the human is done too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping

import hiddenrole as hr
from hiddenrole.agents import MAX_ATTEMPTS, Agent, SeatRunner, make_agent, observe, seat_rng
from hiddenrole.host import Table

__all__ = ["DEFAULT_AGENT", "Bots", "seat_agents", "owes_move"]

DEFAULT_AGENT = "random"
"""The agent of ``--bots`` given alone (and of the bot seats around a ``--human``)."""

Visit = tuple[str, int, int]
"""One visit of a phase: phase, round, and how many phases the console has ended."""


def seat_agents(table: Table, seats: Iterable[str], name: str) -> dict[str, Agent]:
    """One agent called ``name`` for each of ``seats`` (:class:`hiddenrole.agents.UnknownAgent` if none)."""
    game = table.rules.name
    return {seat: make_agent(name, game, seat, seat_rng(table.header.seed, seat)) for seat in sorted(seats)}


def owes_move(table: Table, seat: str, passed: bool = False) -> bool:
    """Whether ``seat`` still has a decision before the game can go on (as the agents' runner sees it).

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


class Bots:
    """The agents of the bot seats at one table, asked one decision (or one line of talk) at a time."""

    def __init__(self, table: Table, agents: Mapping[str, Agent]) -> None:
        self.table = table
        self.agents = dict(agents)
        self.runner = SeatRunner(table, self.agents, talk=False)
        self.ends = 0
        """Phases the console has ended (part of :meth:`visit`: the same phase may come twice in a round)."""
        self._visit: Visit = ("", -1, -1)
        self._done: set[str] = set()
        self._talked: set[str] = set()

    def visit(self) -> Visit:
        st = self.table.status()
        return (st.phase, st.round, self.ends)

    def _sync(self) -> None:
        now = self.visit()
        if now != self._visit:
            self._visit = now
            self._done.clear()
            self._talked.clear()

    def owing(self, seats: Iterable[str] | None = None) -> list[str]:
        """Bot seats (of ``seats``) that owe a decision and have not been asked in this visit."""
        self._sync()
        pool = self.agents if seats is None else [s for s in seats if s in self.agents]
        return [s for s in sorted(pool) if s not in self._done and owes_move(self.table, s)]

    def ask(self, seat: str) -> bool:
        """Ask ``seat``'s agent until an answer is taken (at most ``MAX_ATTEMPTS``); whether it acted."""
        table, agent = self.table, self.agents[seat]
        obs = observe(table.view(seat), table.rules.config)
        turn = bool(obs.turn)
        for _ in range(MAX_ATTEMPTS):
            acted, error = self.runner.apply(seat, obs, agent.act(obs))
            if not error:
                if not acted or not turn or table.readiness().turn != seat:
                    self._done.add(seat)
                return bool(acted)
            obs = obs.with_error(error) if acted is None else observe(table.view(seat), table.rules.config, error)
        self._done.add(seat)
        if table.readiness().turn == seat:  # the documented fallback: the seat passes
            with contextlib.suppress(hr.GameError):
                table.end_turn(seat)
        return False

    def talk(self) -> bool:
        """Give the next talking agent that may speak its one chance in this visit; whether one was asked."""
        self._sync()
        for seat in sorted(self.agents):
            agent = self.agents[seat]
            if seat in self._talked or not getattr(agent, "talks", False):
                continue
            self._talked.add(seat)
            obs = observe(self.table.view(seat), self.table.rules.config)
            if not obs.can_say:
                continue
            said = agent.act(obs).say
            if said:
                with contextlib.suppress(hr.GameError):
                    self.table.say(seat, said)
            return True
        return False

    def end_phase(self) -> None:
        self.table.end_phase()
        self.ends += 1

    def step(self) -> None:
        """One thing moves the game on: a bot's decision, else a bot's line of talk, else the end of the phase."""
        owing = self.owing()
        if owing:
            self.ask(owing[0])
        elif not self.talk():
            self.end_phase()
