"""The seat runner: plays a host :class:`~hiddenrole.host.Table` with one agent per seat.

The runner is the host. It may read host-only answers (``table.readiness()``) to
decide *whom* to ask, but an agent is only ever handed its own seat's
:class:`Observation`. Each agent answer is checked against that observation first;
a refused answer (by the check or by the table) is handed back as ``obs.error`` for
a retry, at most :data:`MAX_ATTEMPTS` times, then the seat passes (the documented
fallback). Every decision, with the agent's private reasoning, is kept in the
:class:`GameRecord` under that seat only.

A seat that acted or passed is not asked again in the same visit of a phase; when
no seat owes anything, agents that talk get one chance to speak, then the host ends
the phase. How a day's discussion is organised beyond that (an ordered day, bidding
for the floor) is the rules' business: werewolf's ``ordered-day`` and ``bid-for-floor``
switches make speaking turns and bids moves like any other, which agents answer
through their legal actions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import hiddenrole as hr
from hiddenrole.host import Table, TableLog

from .base import Agent
from .errors import InvalidAction
from .feed import SeatFeed
from .observation import Action, Observation, observe

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_DECISIONS",
    "MAX_IDLE_PHASES",
    "Decision",
    "GameRecord",
    "SeatRunner",
    "full_observation",
    "play",
]

MAX_ATTEMPTS: Final = 3
"""Answers an agent may give for one decision before the runner passes for it."""
MAX_DECISIONS: Final = 5000
"""Decisions in one game before the runner stops it as stuck (``GameRecord.truncated``)."""
MAX_IDLE_PHASES: Final = 200
"""Phases in a row the host may end with nobody acting before the runner stops the game."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One answer of one seat: what it did, when, its private reasoning and any refusal."""

    seat: str
    phase: str
    round: int
    action: Action
    error: str = ""
    """Why the answer was refused (the seat was asked again, or passed after the last attempt)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "phase": self.phase, "round": self.round} | self.action.to_dict()
        if self.action.reasoning:
            out["reasoning"] = self.action.reasoning
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class GameRecord:
    """The post-game record: the table log, every decision, and each seat's private reasoning."""

    log: TableLog
    decisions: list[Decision] = field(default_factory=list)
    truncated: bool = False

    def private(self, seat: str) -> list[Decision]:
        """``seat``'s own decisions (its reasoning included): never show them to another seat."""
        return [d for d in self.decisions if d.seat == seat]

    def reasoning(self) -> dict[str, list[dict[str, Any]]]:
        """Per seat, its decisions as JSON (for the post-game record)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for d in self.decisions:
            out.setdefault(d.seat, []).append(d.to_dict())
        return dict(sorted(out.items()))


Observer = Callable[[str, Observation], None]


class SeatRunner:
    """Plays ``table`` to its end with ``agents`` (seat -> agent); seats without an agent never act.

    ``on_observation(seat, obs)`` sees every observation handed to an agent (tests use
    it to prove what agents receive); ``talk`` enables the speaking round for agents
    that talk. Observations are built incrementally from the notices pushed to each
    seat (:class:`~hiddenrole.agents.feed.SeatFeed`) unless ``observe_fn`` is given
    (``full_observation`` rebuilds each one from the seat's whole view).
    """

    def __init__(
        self,
        table: Table,
        agents: Mapping[str, Agent],
        *,
        on_observation: Observer | None = None,
        talk: bool = True,
        observe_fn: Callable[[Table, str, str], Observation] | None = None,
    ) -> None:
        unknown = sorted(set(agents) - set(table.seats))
        if unknown:
            raise hr.InvalidArgument(f"agents for seats not at the table: {unknown}")
        self.table = table
        self.agents = dict(agents)
        self.on_observation = on_observation
        self.talk = talk
        self.record = GameRecord(table.log())
        self._feed: SeatFeed | None = None
        if observe_fn is None:
            self._feed = SeatFeed(table, sorted(self.agents))
        self._observe = observe_fn or self._feed or _observe
        self._visit: tuple[str, int, int] = ("", -1, -1)
        self._phase_ends = 0
        self._done: set[str] = set()
        self._talked: set[str] = set()
        self._idle = 0

    # ------------------------------------------------------------- driving

    def run(self) -> GameRecord:
        """Play until the table is over (or the runner gives up); returns the record."""
        while not self.table.over:
            if len(self.record.decisions) >= MAX_DECISIONS:
                self.record.truncated = True
                break
            got = self.next_decision()
            if got is None:
                break
            self._decide(*got)
        self.record.log = self.table.log()
        self.close()
        return self.record

    def close(self) -> None:
        """Stop listening to the table's notices (``run`` does it when the game ends)."""
        if self._feed is not None:
            self._feed.close()

    def step(self) -> bool:
        """Ask one seat (ending phases until one owes a decision); ``False`` once the table is over."""
        got = self.next_decision()
        if got is not None:
            self._decide(*got)
        return not self.table.over

    def next_decision(self) -> tuple[str, Observation] | None:
        """End phases (and hold talk rounds) until a seat with an agent owes a decision: that seat and its
        observation; ``None`` once the table is over or :data:`MAX_IDLE_PHASES` phases passed idle."""
        table = self.table
        while not table.over:
            if self._idle >= MAX_IDLE_PHASES:
                self.record.truncated = True
                return None
            seat = self._next_seat()
            if seat is not None:
                obs = self._observe(table, seat, "")
                if [la for la in obs.legal if not la.out_of_turn] or obs.turn == seat:
                    return seat, obs
                self._done.add(seat)
                continue
            if self.talk and self._talk_round():
                continue
            table.end_phase()
            self._phase_ends += 1
            self._idle += 1
        return None

    @property
    def phase_ends(self) -> int:
        """Phases this runner has ended (auto-advanced ones not counted)."""
        return self._phase_ends

    # ------------------------------------------------------------- whom to ask

    def _sync_visit(self, r: hr.Readiness) -> None:
        key = (r.phase, r.round, self._phase_ends)
        if key != self._visit:
            self._visit = key
            self._done.clear()
            self._talked.clear()

    def _next_seat(self) -> str | None:
        r = self.table.readiness()
        self._sync_visit(r)
        if r.turn:
            return r.turn if r.turn in self.agents and r.turn not in self._done else None
        acted = set(r.acted)
        owing = sorted({pa.player_id for pa in (*r.pending, *r.optional)})
        for seat in owing:
            if seat in self.agents and seat not in acted and seat not in self._done:
                return seat
        return None

    def _talk_round(self) -> bool:
        """Each talking agent gets one chance to speak per visit, in seat order; ``True`` if a seat was asked."""
        for seat in self.table.seats:
            agent = self.agents.get(seat)
            if agent is None or not getattr(agent, "talks", False) or seat in self._talked:
                continue
            self._talked.add(seat)
            obs = self._observe(self.table, seat, "")
            if not obs.can_say:
                continue
            self._emit(seat, obs)
            action = agent.act(obs)
            self._log(seat, obs, Action(None, (), action.say, action.reasoning))
            if action.say:
                with contextlib.suppress(hr.GameError):
                    self.table.say(seat, action.say)
            return True
        return False

    # ------------------------------------------------------------- one decision

    def _decide(self, seat: str, obs: Observation) -> bool:
        """Ask ``seat`` until an answer is accepted (or attempts run out); ``True`` if it acted."""
        agent = self.agents[seat]
        for _ in range(MAX_ATTEMPTS):
            self._emit(seat, obs)
            action = agent.act(obs)
            acted, error = self.apply(seat, obs, action)
            if not error:
                return bool(acted)
            obs = obs.with_error(error) if acted is None else self._observe(self.table, seat, error)
        self._pass(seat, bool(obs.turn))
        return False

    def apply(self, seat: str, obs: Observation, action: Action) -> tuple[bool | None, str]:
        """Play one answer of ``seat`` (decided on ``obs``): ``(acted, "")`` when taken, else the refusal.

        ``acted`` is ``None`` when the answer was refused before reaching the table
        (it does not fit ``obs``), ``False`` when the table refused it or it passed.
        """
        table = self.table
        try:
            obs.check(action)
        except InvalidAction as exc:
            self._log(seat, obs, action, exc.message)
            return None, exc.message
        if action.say:
            with contextlib.suppress(hr.GameError):
                table.say(seat, action.say)
        if action.passes:
            self._log(seat, obs, action)
            self._pass(seat, bool(obs.turn))
            return False, ""
        try:
            table.act(seat, action.skill or "", action.targets)
        except hr.GameError as exc:
            self._log(seat, obs, action, exc.message)
            return False, exc.message
        self._log(seat, obs, action)
        self._idle = 0
        self._after_act(seat)
        return True, ""

    def _pass(self, seat: str, turn_phase: bool) -> None:
        self._done.add(seat)
        if turn_phase and self.table.readiness().turn == seat:
            with contextlib.suppress(hr.GameError):
                self.table.end_turn(seat)

    def _after_act(self, seat: str) -> None:
        r = self.table.readiness()
        self._sync_visit(r)
        if not r.turn:
            self._done.add(seat)

    def _emit(self, seat: str, obs: Observation) -> None:
        if self.on_observation is not None:
            self.on_observation(seat, obs)

    def _log(self, seat: str, obs: Observation, action: Action, error: str = "") -> None:
        self.record.decisions.append(Decision(seat, obs.phase, obs.round, action, error))


def full_observation(table: Table, seat: str, error: str) -> Observation:
    """``seat``'s observation rebuilt from its whole view (no feed): the reference the feed is checked against."""
    return observe(table.view(seat), table.rules.config, error)


_observe = full_observation


def play(table: Table, agents: Mapping[str, Agent], **kw: Any) -> GameRecord:
    """Play ``table`` to its end with ``agents``; the :class:`GameRecord`."""
    return SeatRunner(table, agents, **kw).run()
