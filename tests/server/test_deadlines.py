"""Deadlines: a phase with secret actors never ends early; a phase open to every living seat may;
deadlines are stored and re-armed after a restart; the host pauses and resumes the clock."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from hiddenrole.server.serve import Running
from hiddenrole.server.storage import Store

from .support import Client, ManualClock, create, http, join

TIMEOUT = 30.0


def _spectate(srv: Running, table: str) -> dict[str, Any]:
    with http(srv) as c:
        return c.get(f"/api/tables/{table}/spectate").json()  # type: ignore[no-any-return]


def _wait_phase(srv: Running, table: str, want: str, seconds: float = 5.0) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while True:
        v = _spectate(srv, table)
        if v["view"]["phase"] == want or time.monotonic() > end:
            return v
        time.sleep(0.02)


def _everyone(srv: Running, table: str, seats: list[str]) -> dict[str, str]:
    return {s: join(srv, table, s)["token"] for s in seats}


SEATS = [f"p{i}" for i in range(1, 10)]


def test_a_secret_phase_waits_for_its_deadline_and_a_public_one_ends_when_all_have_acted(store: Store) -> None:
    clock = ManualClock()
    with Running(store, clock=clock) as srv:
        made = create(srv, "werewolf", 9, timeout=TIMEOUT, bot_delay=[0, 0])
        table = made["table"]
        tokens = _everyone(srv, table, SEATS)
        game = srv.hub.rooms[table].game
        guard = next(s for s in SEATS if game.view(s)["me"]["role"] == "GUARD")

        async def night() -> None:
            c = await Client.ws(srv)
            w = await c.hello(table, tokens[guard], views=True)
            assert w["view"]["phase"] == "NIGHT_GUARD" and w["deadline"] == round((clock.now() + TIMEOUT) * 1000)
            target = next(p["seat"] for p in w["view"]["players"] if p["seat"] != guard)
            await c.send(type="move", id="g", against=w["version"], kind="act", skill="PROTECT", targets=[target])
            assert (await c.until("ack"))["id"] == "g"
            await c.close()

        asyncio.run(night())
        time.sleep(0.3)
        assert _spectate(srv, table)["view"]["phase"] == "NIGHT_GUARD", "a night phase ended before its deadline"
        clock.advance(TIMEOUT)
        assert _wait_phase(srv, table, "NIGHT_WOLF")["view"]["phase"] == "NIGHT_WOLF"
        # skip ahead to the day vote: each deadline ends one phase
        for _ in range(20):
            if _spectate(srv, table)["view"]["phase"] == "VOTE":
                break
            before = _spectate(srv, table)["version"]
            clock.advance(TIMEOUT)
            end = time.monotonic() + 5
            while _spectate(srv, table)["version"] == before and time.monotonic() < end:
                time.sleep(0.01)
        vote = _spectate(srv, table)
        assert vote["view"]["phase"] == "VOTE"
        living = [p["seat"] for p in vote["view"]["players"] if p["alive"]]

        async def day() -> None:
            clients = []
            for s in living:
                c = await Client.ws(srv)
                w = await c.hello(table, tokens[s])
                target = next(x for x in living if x != s)
                await c.send(type="move", id="v", against=w["version"], kind="act", skill="VOTE", targets=[target])
                await c.until("ack")
                clients.append(c)
            for c in clients:
                await c.close()

        asyncio.run(day())
        after = _wait_phase(srv, table, "__never__", 0.3)["view"]
        assert after["phase"] != "VOTE" or after["round"] != vote["view"]["round"], "the vote did not end early"


def test_deadlines_survive_a_restart(store: Store) -> None:
    clock = ManualClock()
    with Running(store, clock=clock) as srv:
        made = create(srv, "werewolf", 9, bots=SEATS, timeout=TIMEOUT)
        table = made["table"]
        first = _spectate(srv, table)
    assert first["view"]["phase"] == "NIGHT_GUARD"
    assert store.table_info(table).deadline == clock.now() + TIMEOUT
    clock2 = ManualClock(clock.now())
    with Running(store, clock=clock2) as srv:
        assert table in srv.hub.rooms, "a stored deadline was not re-armed at start"
        time.sleep(0.2)
        assert _spectate(srv, table)["view"]["phase"] == "NIGHT_GUARD"
        clock2.advance(TIMEOUT)
        assert _wait_phase(srv, table, "NIGHT_WOLF")["view"]["phase"] == "NIGHT_WOLF"


def test_the_host_pauses_and_resumes_the_clock(store: Store) -> None:
    clock = ManualClock()
    with Running(store, clock=clock) as srv:
        made = create(srv, "werewolf", 9, bots=SEATS, timeout=TIMEOUT)
        table, host = made["table"], {"authorization": f"Bearer {made['host_token']}"}
        with http(srv) as c:
            assert c.post(f"/api/tables/{table}/host/pause", headers=host).json()["status"] == "paused"
            clock.advance(TIMEOUT * 3)
            time.sleep(0.2)
            v = c.get(f"/api/tables/{table}/spectate").json()
            assert v["view"]["phase"] == "NIGHT_GUARD" and v["paused"] is True
            assert c.post(f"/api/tables/{table}/host/resume", headers=host).json()["status"] == "playing"
            clock.advance(TIMEOUT)
            assert _wait_phase(srv, table, "NIGHT_WOLF")["view"]["phase"] == "NIGHT_WOLF"
            assert c.post(f"/api/tables/{table}/host/end", headers=host).json()["status"] == "finished"
            assert c.get(f"/api/tables/{table}/log").status_code == 200
