"""Server-side bots: a seat played by the server through the same path as a remote client.

A bot is a connection of its seat: it receives exactly the messages a client of that
seat would (welcome, updates), decides with one of the arena's agents
(:func:`hiddenrole.agents.make_agent`) on the seat's observation (its view, as a
client asking for it gets it), and sends its move with the version it decided on. Its delay
before acting is drawn from a stream seeded by the table's bot seed and *public* facts
(seat, phase, round), never from the game's chance and never from anything hidden, so
how long a bot takes says nothing about its role.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from typing import TYPE_CHECKING, Any

import hiddenrole as hr
from hiddenrole.agents import (
    Action,
    Agent,
    LegalAction,
    Observation,
    UnknownAgent,
    legal_actions,
    make_agent,
    random_targets,
    seat_rng,
)

from .limits import MAX_TEXT_CHARS, SERVER_AGENTS
from .storage import PLAYING
from .wire import MoveMsg

if TYPE_CHECKING:
    from .rooms import Room

__all__ = ["Bot", "choices", "agent_for", "check_agent"]

_log = logging.getLogger("hiddenrole.server.bots")

MAX_TRIES = 4
"""Moves a bot tries per decision before it waits for the next update."""


def _targets(la: LegalAction, seat: str, rng: random.Random) -> tuple[str, ...] | None:
    """Random targets fitting ``la`` (another seat than the bot's own when one target may be anyone).

    ``None`` when no choice fits (a step needing targets with none to choose from).
    """
    if la.min_targets > la.max_targets or (la.min_targets > 0 and not la.candidates):
        return None
    if not la.pool and la.max_targets == 1:
        others = tuple(c for c in la.candidates if c != seat)
        if others:
            la = dataclasses.replace(la, candidates=others)
    return random_targets(la, rng)


def choices(config: hr.Config, view: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Candidate moves for the seat of ``view`` (its own view), in a random order.

    The legal actions are the agents' enumeration (:func:`hiddenrole.agents.legal_actions`);
    extras that do not move the game on (the race's taunt) are left out.
    """
    me = view.get("me")
    if not me or view.get("over"):
        return []
    legal = [la for la in legal_actions(view, config) if not la.out_of_turn]
    rng.shuffle(legal)
    out: list[dict[str, Any]] = []
    for la in legal[:MAX_TRIES]:
        targets = _targets(la, me["seat"], rng)
        if targets is not None:
            out.append({"kind": "act", "skill": la.skill, "targets": list(targets)})
    if not out and view.get("turn") == me["seat"] and "end-turn" in view.get("moves", ()):
        out.append({"kind": "end-turn"})
    return out


class Bot:
    """Plays one seat of a room until stopped, deciding with an agent of :mod:`hiddenrole.agents`.

    The agent is the arena's own (:func:`~hiddenrole.agents.make_agent`: ``random``,
    ``heuristic``, ``pass``) and gets the seat's :class:`~hiddenrole.agents.Observation`,
    built from exactly the view a client of the seat is sent when it asks for it. The bot
    is pushed its seat's updates like any connection (not the view with each: it asks
    for the view when an update says its seat's view moved on, as a thin client would).
    """

    wants_views = False
    wants_board = False
    board_sent: dict[str, Any] | None = None
    is_bot = True

    def __init__(self, room: Room, seat: str) -> None:
        self.room = room
        self.reader: str | None = seat
        self.seat = seat
        self._latest: dict[str, Any] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._moves = 0
        seed = room.settings.bot_seed
        self._seed = seed
        self.agent_name = agent_for(room.settings, seat)
        # The agent's own stream: from the bot seed (never the game's chance), table and seat.
        self.agent: Agent = make_agent(
            self.agent_name, room.game.header.game, seat, seat_rng(seed, f"{room.id}:{seat}")
        )

    # A bot is a connection of its seat.
    def push(self, data: bytes, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("welcome", "update", "view", "table"):
            self._latest = message
            self._wake.set()

    def start(self) -> None:
        room = self.room
        room.attach(self)
        self.push(b"", room.welcome(self, None))
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self.room.detach(self)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def _delay(self, obs: Observation, attempt: int) -> float:
        """Seconds to wait: a function of public facts and the bot seed only."""
        lo, hi = self.room.settings.bot_delay
        rng = random.Random(f"{self._seed}:{self.room.id}:{self.seat}:{obs.phase}:{obs.round}:{attempt}")
        return rng.uniform(lo, hi)

    def _observe(self, error: str = "") -> tuple[int, Observation]:
        """The seat's version and observation now: what a ``view`` request would answer, as an observation."""
        game = self.room.game
        return game.version(self.seat), game.observation(self.seat, error)

    async def _run(self) -> None:
        clock = self.room.hub.clock
        tried: dict[tuple[str, int], int] = {}
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._latest is None or self.room.status != PLAYING:
                continue
            version, obs = self._observe()
            if obs.over:
                return
            key = (obs.phase, obs.round)
            attempt = tried.get(key, 0)
            talk = bool(getattr(self.agent, "talks", False)) and obs.can_say
            my_turn = obs.turn == self.seat
            if attempt >= MAX_TRIES or not (obs.legal or talk or my_turn):
                continue
            tried[key] = attempt + 1
            await clock.sleep_until(clock.now() + self._delay(obs, attempt))
            if self.room.game.version(self.seat) != version or self.room.status != PLAYING:
                self._wake.set()  # the view moved on while we waited: decide again
                continue
            error = ""
            for _ in range(MAX_TRIES):
                if error:
                    version, obs = self._observe(error)
                action = self.agent.act(obs)
                error = await self._play(obs, version, action)
                if not error:
                    break

    async def _play(self, obs: Observation, version: int, action: Action) -> str:
        """Send the agent's answer through the seat's move path; the refusal's message, or ``""``."""
        try:
            obs.check(action)
        except hr.GameError as exc:
            return exc.message
        moves: list[dict[str, Any]] = []
        if action.say and obs.can_say:
            moves.append({"kind": "say", "text": action.say[:MAX_TEXT_CHARS]})
        if action.skill is not None:
            moves.append({"kind": "act", "skill": action.skill, "targets": list(action.targets), "against": version})
        elif obs.turn == self.seat:
            moves.append({"kind": "end-turn", "against": version})
        for option in moves:
            self._moves += 1
            move = MoveMsg(id=f"bot-{self._moves}", **option)
            try:
                reply = await self.room.submit(self, self.seat, move)
            except Exception:
                _log.exception("bot move failed", extra={"table": self.room.id, "seat": self.seat})
                return ""
            if reply["type"] == "refused" and option["kind"] != "say":
                return "" if reply.get("code") == "STALE_MOVE" else str(reply.get("message", ""))
        return ""


def agent_for(settings: Any, seat: str) -> str:
    """The agent name that plays ``seat`` at a table with these settings (``agents`` overrides ``agent``)."""
    return str(settings.agents.get(seat, settings.agent))


def check_agent(name: str, game: str) -> None:
    """Refuse (``UnknownAgent``) a bot agent the server does not run, or one that does not play ``game``."""
    if name not in SERVER_AGENTS:
        raise UnknownAgent(f"server bots are {', '.join(SERVER_AGENTS)}, not {name!r}")
    make_agent(name, game, "p1", random.Random(0))
