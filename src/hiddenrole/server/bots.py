"""Server-side bots: a seat played by the server through the same path as a remote client.

A bot is a connection of its seat: it receives exactly the messages a client of that
seat would (welcome, updates with the view), decides from that view and the public
phase configuration only, and sends its move with the version it decided on. Its delay
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
from hiddenrole.agents import LegalAction, legal_actions, random_targets

from .storage import PLAYING
from .wire import MoveMsg

if TYPE_CHECKING:
    from .rooms import Room

__all__ = ["Bot", "choices"]

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
    """Plays one seat of a room until stopped."""

    wants_views = True
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
        self._choice_rng = random.Random(f"{seed}:{room.id}:{seat}:choices")
        self._seed = seed

    # A bot is a connection of its seat.
    def push(self, data: bytes, message: dict[str, Any]) -> None:
        if "view" in message:
            self._latest = message
            self._wake.set()
        elif message.get("type") == "table" and self._latest is not None:
            # paused, resumed or started: decide again on the view we hold
            self._latest = {**self._latest, "paused": message["paused"]}
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

    def _delay(self, view: dict[str, Any], attempt: int) -> float:
        """Seconds to wait: a function of public facts and the bot seed only."""
        lo, hi = self.room.settings.bot_delay
        rng = random.Random(f"{self._seed}:{self.room.id}:{self.seat}:{view['phase']}:{view['round']}:{attempt}")
        return rng.uniform(lo, hi)

    async def _run(self) -> None:
        clock = self.room.hub.clock
        tried: dict[tuple[str, int], int] = {}
        while True:
            await self._wake.wait()
            self._wake.clear()
            msg = self._latest
            if msg is None:
                continue
            view = msg["view"]
            if view.get("over"):
                return
            if msg.get("paused") or self.room.status != PLAYING:
                continue
            key = (view["phase"], view["round"])
            attempt = tried.get(key, 0)
            if attempt >= MAX_TRIES:
                continue
            options = choices(self.room.game.rules.config, view, self._choice_rng)
            if not options:
                continue
            tried[key] = attempt + 1
            await clock.sleep_until(clock.now() + self._delay(view, attempt))
            if self._latest is not msg:  # the view moved on while we waited: decide again
                self._wake.set()
                continue
            for option in options:
                self._moves += 1
                move = MoveMsg(id=f"bot-{self._moves}", against=msg["version"], **option)
                try:
                    reply = await self.room.submit(self, self.seat, move)
                except Exception:
                    _log.exception("bot move failed", extra={"table": self.room.id, "seat": self.seat})
                    return
                if reply["type"] == "ack":
                    break
                if reply.get("code") == "STALE_MOVE":
                    break
