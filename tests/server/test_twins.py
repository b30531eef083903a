"""Wire-level twin test: two servers, twin deals that seat p1 cannot tell apart.

p1 is a villager in both deals; p2 is an idle human seat that is the guard in one deal
and a villager in the other; bots play every other seat. Both servers run on manual
clocks moved in lockstep, one phase deadline per tick. Everything p1 receives (bytes,
and the tick in which it arrives) must be identical in both worlds until the tick of
the first *public* divergence, read off the spectator's view contents. A server that
ended a night phase as soon as its actors had acted would tell p1, by the timing,
whether the guard is a bot (acts at once) or idle: the planted-leak test shows the
check catches exactly that.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hiddenrole.server import hostapi
from hiddenrole.server.app import ServerConfig
from hiddenrole.server.serve import Running
from hiddenrole.server.storage import open_store

from .support import Client, ManualClock, http, join

SEED_GUARD = 13
"""A deal where p1 is a villager and p2 the guard."""
SEED_VILLAGER = 69
"""A deal where p1 and p2 are both villagers."""
PHASE = 30.0
TICKS = 12
SETTLE = 0.25
"""Real seconds the bots get to act between ticks (they act with no delay)."""


class World:
    def __init__(self, tmp: Path, name: str, seed: int) -> None:
        self.clock = ManualClock()
        self.store = open_store(tmp / f"{name}.sqlite")
        self.srv = Running(self.store, clock=self.clock, config=ServerConfig(allow_seeds=True))
        with http(self.srv) as c:
            body = {"game": "werewolf", "seats": 9, "seed": seed, "timeout": PHASE, "bot_delay": [0, 0]}
            body["bots"] = [f"p{i}" for i in range(3, 10)]
            made = c.post("/api/tables", json=body).json()
        self.table = made["table"]
        self.p1 = join(self.srv, self.table, "p1")["token"]
        self.frames: list[tuple[int, bytes]] = []
        self.board_frames: list[tuple[int, bytes]] = []
        """What p1's second connection receives: it asked for ``board`` pushes."""
        self.public: list[tuple[int, str]] = []
        self.tick = 0

    def close(self) -> None:
        self.srv.stop()
        self.store.close()

    async def watch(self) -> list[asyncio.Task[None]]:
        me = await Client.ws(self.srv)
        me_board = await Client.ws(self.srv)
        spec = await Client.ws(self.srv)
        await me.send(type="hello", table=self.table, token=self.p1)
        await me_board.send(type="hello", table=self.table, token=self.p1, board=True)
        await spec.send(type="hello", table=self.table, spectate=True, views=True)
        await asyncio.sleep(SETTLE)
        join(self.srv, self.table, "p2")  # an idle human (never connects, never acts); the game starts now

        async def mine() -> None:
            while True:
                await me.recv(1000)
                self.frames.append((self.tick, me.received[-1].replace(self.table.encode(), b"T")))

        async def mine_board() -> None:
            while True:
                await me_board.recv(1000)
                self.board_frames.append((self.tick, me_board.received[-1].replace(self.table.encode(), b"T")))

        async def public() -> None:
            while True:
                m = await spec.recv(1000)
                if "view" in m:
                    self.public.append((self.tick, json.dumps(m["view"], sort_keys=True).replace(self.table, "T")))

        loop = asyncio.get_running_loop()
        return [loop.create_task(mine()), loop.create_task(mine_board()), loop.create_task(public())]


@pytest.fixture
def worlds(tmp_path: Path) -> Iterator[tuple[World, World]]:
    a, b = World(tmp_path, "a", SEED_GUARD), World(tmp_path, "b", SEED_VILLAGER)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def run_twins(a: World, b: World) -> tuple[str | None, int]:
    """Drive both worlds; why p1 could tell them apart before any public divergence (``None``: it
    could not), and how many of p1's messages were compared."""

    async def go() -> None:
        tasks = [*(await a.watch()), *(await b.watch())]
        await asyncio.sleep(SETTLE)
        for tick in range(1, TICKS + 1):
            a.tick = b.tick = tick
            a.clock.advance(PHASE)
            b.clock.advance(PHASE)
            await asyncio.sleep(SETTLE)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(go())
    contents_a = [c for _, c in a.public]
    contents_b = [c for _, c in b.public]
    k = next((i for i, (x, y) in enumerate(zip(contents_a, contents_b, strict=False)) if x != y), None)
    if k is None:
        k = min(len(contents_a), len(contents_b))
    ticks_a = [t for t, _ in a.public[:k]]
    ticks_b = [t for t, _ in b.public[:k]]
    if ticks_a != ticks_b:
        return f"the same public facts arrived at different ticks: {ticks_a} vs {ticks_b}", 0
    public_tick = min(
        a.public[k][0] if k < len(a.public) else TICKS + 1, b.public[k][0] if k < len(b.public) else TICKS + 1
    )
    mine_a = [f for f in a.frames if f[0] < public_tick]
    mine_b = [f for f in b.frames if f[0] < public_tick]
    if mine_a != mine_b:
        return f"p1's input differs before tick {public_tick}", len(mine_a)
    board_a = [f for f in a.board_frames if f[0] < public_tick]
    board_b = [f for f in b.board_frames if f[0] < public_tick]
    if board_a != board_b:
        return f"p1's board pushes differ before tick {public_tick}", len(board_a)
    if not any(b'"board"' in f for _, f in board_a):
        return "p1's board connection was never sent a board", 0
    return None, len(mine_a)


def test_a_seat_cannot_tell_twin_deals_apart_on_the_wire(worlds: tuple[World, World]) -> None:
    a, b = worlds
    leak, compared = run_twins(a, b)
    assert leak is None
    assert compared >= 5, "too little play before the public divergence to compare"


def test_planted_early_end_of_secret_phases_is_caught(
    worlds: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = hostapi.Game.facts

    def leaky(self: Any) -> hostapi.PhaseFacts:
        f = real(self)
        ready = self._table.readiness()
        return f._replace(public_actors=True, all_acted=bool(ready.acted) and not ready.pending and not ready.optional)

    monkeypatch.setattr(hostapi.Game, "facts", leaky)
    a, b = worlds
    leak, _ = run_twins(a, b)
    assert leak is not None


def test_planted_leak_in_the_board_is_caught(worlds: tuple[World, World], monkeypatch: pytest.MonkeyPatch) -> None:
    real = hostapi.Game.board

    def leaky(self: Any, reader: Any) -> dict[str, Any]:
        board = {**real(self, reader)}  # a copy: the real board is cached and shared
        # a hidden fact: whether p2 is the guard
        board["leak"] = any(p.role == "GUARD" and p.id == "p2" for p in self._table.inspect().all_players())
        return board

    monkeypatch.setattr(hostapi.Game, "board", leaky)
    a, b = worlds
    leak, _ = run_twins(a, b)
    assert leak is not None and "board" in leak


def test_planted_batch_carrying_other_readers_messages_is_caught(
    worlds: tuple[World, World], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write batch built per room step for every connection (not per reader) hands p1 what other seats saw."""
    from hiddenrole.server import rooms, wire
    from hiddenrole.server.session import Session

    real = rooms.Room._push_notice

    def leaky(self: rooms.Room, reader: Any, n: hostapi.Notice) -> None:
        real(self, reader, n)
        if reader is None:
            return
        other = wire.encode({"type": "update", "version": n.version, "events": list(n.events), "chat": list(n.chat)})
        for r, conns in sorted(self.conns.items(), key=lambda kv: str(kv[0])):
            for c in conns:
                if r != reader and isinstance(c, Session):
                    c.push(other, {})

    monkeypatch.setattr(rooms.Room, "_push_notice", leaky)
    a, b = worlds
    leak, _ = run_twins(a, b)
    assert leak is not None
