"""One connection's life: authentication, reconnect and resync, stale and duplicate moves,
spectators, and hostile input (bad tokens, malformed and oversized messages, floods, origins)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from hiddenrole.server.limits import MAX_FRAME_BYTES, MAX_STRIKES, MAX_TARGETS, RATE_BURST
from hiddenrole.server.serve import Running
from hiddenrole.server.storage import Store

from .support import TIMEOUT, Client, Seat, config_of, create, http, join

ALL_BUT_P1 = [f"p{i}" for i in range(2, 10)]


def _table(server: Running, acting: bool = False, **kw: Any) -> tuple[str, dict[str, Any]]:
    """A werewolf table where bots play every seat but one, which is ours (one that may act now, if asked)."""
    if not acting:
        made = create(server, "werewolf", 9, bots=ALL_BUT_P1, **kw)
        return made["table"], join(server, made["table"], "p1")
    made = create(server, "werewolf", 9, bots=[], **kw)
    game = server.hub.rooms[made["table"]].game
    mine = next(s for s in game.seats if game.view(s)["me"]["allowed_skills"])
    for s in game.seats:
        if s != mine:
            assert server.url and with_bot(server, made, s)
    return made["table"], join(server, made["table"], mine)


def with_bot(server: Running, made: dict[str, Any], seat: str) -> bool:
    with http(server) as h:
        r = h.post(
            f"/api/tables/{made['table']}/host/bot",
            json={"seat": seat},
            headers={"authorization": f"Bearer {made['host_token']}"},
        )
        return r.status_code == 200


def test_reconnect_resyncs_exactly_what_was_missed(server: Running) -> None:
    async def go() -> None:
        table, me = _table(server)
        config = config_of(server, table)
        c = await Client.ws(server)
        seat = Seat(c, config, 1)
        seat.absorb(await c.hello(table, me["token"], views=True))
        loop = asyncio.get_running_loop()
        # stop a few versions in, not after our own acks: a seat killed in the first night never gets two
        # acks, and it played on to the end of the game, which then had nothing left to miss (CI saw that)
        await seat.play(loop.time() + 30, stop_at_version=seat.version + 4)
        assert not seat.view["over"], "a werewolf game does not end within four versions"
        seen_version, seen_events, seen_chat = seat.version, list(seat.events), list(seat.chat)
        await c.close()
        room = server.hub.rooms[table]
        until = loop.time() + TIMEOUT  # the game goes on without us (phases end at their deadlines)
        while room.game.version(me["seat"]) <= seen_version + 2 and loop.time() < until:
            await asyncio.sleep(0.02)
        assert room.game.version(me["seat"]) > seen_version, f"the table did not move on within {TIMEOUT} s"
        c2 = await Client.ws(server)
        welcome = await c2.hello(table, me["token"], since=seen_version, views=True)
        assert welcome["type"] == "welcome" and welcome["version"] > seen_version
        resync = welcome["resync"]
        assert resync["since"] == seen_version
        assert seen_events + resync["events"] == welcome["view"]["events"]
        assert seen_chat + resync["chat"] == welcome["view"]["chat"]
        seat2 = Seat(c2, config, 2)
        seat2.absorb(welcome)
        await seat2.play(loop.time() + 40)
        assert seat2.view["over"] and seat2.events == seat2.view["events"]
        await c2.close()

    asyncio.run(go())


def test_stale_and_duplicate_moves(server: Running, store: Store) -> None:
    async def go() -> None:
        table, me = _table(server, acting=True, timeout=0.5)
        c = await Client.ws(server)
        w = await c.hello(table, me["token"], views=True)
        view, version = w["view"], w["version"]
        seat = Seat(c, config_of(server, table), 3)
        seat.absorb(w)
        from hiddenrole.server.bots import choices

        first: dict[str, Any] = {}
        for n, move in enumerate(choices(seat.config, view, seat.rng) * 3):
            await c.send(type="move", id=f"same{n}", against=version, **move)
            first = await _answer(c, f"same{n}")
            if first["type"] == "ack":
                break
        assert first["type"] == "ack", first
        await c.send(type="move", id=first["id"], against=version, **move)
        again = await _answer(c, first["id"])
        assert again["version"] == first["version"] and again.get("duplicate") is True
        while (await c.recv())["type"] != "update":  # the phase ends at its deadline: our view moves on
            pass
        await c.send(type="move", id="other", against=version, **move)
        stale = await _answer(c, "other")
        assert stale["code"] == "STALE_MOVE" and stale["id"] == "other"
        await c.send(type="move", id="bad", kind="act", skill="NO_SUCH_SKILL")
        r1 = await c.until("refused")
        await c.send(type="move", id="bad", kind="act", skill="NO_SUCH_SKILL")
        r2 = await c.until("refused")
        assert r1 == r2 and r1["code"] == "SKILL_NOT_ALLOWED"
        await c.close()

    asyncio.run(go())
    stored = store.load_table(next(t.id for t in store.list_tables()))
    ids = [m.client_move_id for m in stored.moves if m.client_move_id and not m.client_move_id.startswith("bot-")]
    assert len(ids) == 1 and ids[0] is not None and ids[0].startswith("same")


async def _answer(c: Client, mid: str) -> dict[str, Any]:
    """The ack or refusal of move ``mid`` (pushed updates in between are skipped)."""
    while True:
        m = await c.recv()
        if m["type"] in ("ack", "refused") and m["id"] == mid:
            return m


def test_spectators_see_public_facts_and_cannot_act(server: Running) -> None:
    async def go() -> None:
        table, _ = _table(server)
        c = await Client.ws(server)
        w = await c.hello(table, spectate=True)
        assert w["type"] == "welcome" and w["seat"] is None and w["view"]["me"] is None
        assert all(p["role"] == "" for p in w["view"]["players"])
        await c.send(type="move", id="x", kind="act", skill="VOTE", targets=["p2"])
        r = await c.until("refused")
        assert r["code"] == "SPECTATOR_CANNOT_ACT"
        await c.close()
        closed, _ = _table(server, spectators=False)
        c = await Client.ws(server)
        e = await c.hello(closed, spectate=True)
        assert e["type"] == "error" and e["code"] == "NO_SPECTATORS"
        await c.close()

    asyncio.run(go())


def test_bad_tokens_are_refused_and_the_connection_stays(server: Running) -> None:
    async def go() -> None:
        made = create(server, "werewolf", 9, bots=ALL_BUT_P1)
        table = made["table"]
        me = join(server, table, "p1")
        c = await Client.ws(server)
        near = me["token"][:-1] + ("A" if me["token"][-1] != "A" else "B")
        for token in ("", "x" * 43, made["host_token"], near):
            e = await c.hello(table, token)
            assert e["type"] == "error" and e["code"] in ("UNAUTHORIZED", "BAD_MESSAGE"), e
        e = await c.hello("no-such-table", me["token"])
        assert e["code"] == "UNAUTHORIZED"
        await c.send(type="move", id="m", kind="act", skill="VOTE")
        assert (await c.recv())["code"] == "NOT_JOINED"
        w = await c.hello(table, me["token"])
        assert w["type"] == "welcome" and w["seat"] == "p1"
        await c.close()
        with http(server) as h:
            assert (
                h.post(
                    f"/api/tables/{table}/host/pause", headers={"authorization": f"Bearer {me['token']}"}
                ).status_code
                == 401
            )
            assert h.post(f"/api/tables/{table}/host/pause").status_code == 401
            assert (
                h.post(
                    f"/api/tables/{table}/leave", headers={"authorization": f"Bearer {made['host_token']}"}
                ).status_code
                == 401
            )

    asyncio.run(go())


@pytest.mark.parametrize("transport", ["ws", "tcp"])
def test_malformed_messages_get_typed_errors(server: Running, transport: str) -> None:
    async def go() -> None:
        table, me = _table(server)
        c = await (Client.ws(server) if transport == "ws" else Client.tcp(server))
        cases: list[tuple[str, str]] = [
            ("not json", "MALFORMED"),
            ("[1, 2]", "BAD_MESSAGE"),
            ('{"type": "nope"}', "BAD_MESSAGE"),
            ('{"type": "hello"}', "BAD_MESSAGE"),
            (json.dumps({"type": "hello", "table": table, "token": me["token"], "extra": 1}), "BAD_MESSAGE"),
            (json.dumps({"type": "ping", "x": 1}), "BAD_MESSAGE"),
        ]
        for raw, code in cases:
            await c.send_raw(raw)
            m = await c.recv()
            assert m["type"] == "error" and m["code"] == code, (raw, m)
        assert (await c.hello(table, me["token"]))["type"] == "welcome"
        too_many = {"type": "move", "id": "t", "kind": "act", "skill": "VOTE", "targets": ["p2"] * (MAX_TARGETS + 1)}
        await c.send_raw(json.dumps(too_many))
        assert (await c.until("error"))["code"] == "BAD_MESSAGE"
        await c.send_raw(json.dumps({"type": "move", "id": "", "kind": "act"}))
        assert (await c.until("error"))["code"] == "BAD_MESSAGE"
        await c.send(type="ping")
        assert (await c.until("pong"))["type"] == "pong"
        await c.close()

    asyncio.run(go())


def test_an_oversized_websocket_frame_closes_the_connection(server: Running) -> None:
    async def go() -> None:
        c = await Client.ws(server)
        await c.send_raw("x" * (MAX_FRAME_BYTES + 1))
        with pytest.raises(ConnectionClosed) as info:
            await c.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009

    asyncio.run(go())


def test_an_oversized_tcp_line_is_refused_and_the_connection_goes_on(server: Running) -> None:
    async def go() -> None:
        c = await Client.tcp(server)
        await c.send_raw("x" * (MAX_FRAME_BYTES + 10))
        assert (await c.recv())["code"] == "TOO_LARGE"
        await c.send(type="ping")
        assert (await c.recv())["code"] == "NOT_JOINED"  # the next line is read as usual
        await c.close()

    asyncio.run(go())


def test_a_flood_is_rate_limited(server: Running) -> None:
    async def go() -> None:
        table, me = _table(server, timeout=30.0)
        c = await Client.ws(server)
        await c.hello(table, me["token"])
        for _ in range(RATE_BURST * 2):
            await c.send(type="ping")
        got = [await c.recv() for _ in range(RATE_BURST * 2)]
        kinds = [m.get("code", m["type"]) for m in got]
        assert "RATE_LIMITED" in kinds and kinds.count("pong") >= RATE_BURST - 2
        assert kinds.count("RATE_LIMITED") <= RATE_BURST + 2
        await c.close()
        # a connection that keeps being refused is closed
        c = await Client.ws(server)
        for _ in range(MAX_STRIKES + 2):
            await c.send_raw("junk")
        with pytest.raises(ConnectionClosed) as info:
            for _ in range(MAX_STRIKES + 3):
                await c.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 1008

    asyncio.run(go())


def test_a_foreign_origin_cannot_open_a_websocket(server: Running) -> None:
    async def go() -> None:
        with pytest.raises((InvalidStatus, ConnectionClosed)):
            c = await Client.ws(server, Origin="http://evil.example")
            await c.recv()
        ok = await Client.ws(server, Origin=f"http://127.0.0.1:{server.port}")
        await ok.send(type="ping")
        assert (await ok.recv())["code"] == "NOT_JOINED"
        await ok.close()

    asyncio.run(go())


def test_the_log_and_seed_are_never_sent_during_play(server: Running, store: Store) -> None:
    async def go() -> tuple[str, list[bytes]]:
        table, me = _table(server)
        c = await Client.ws(server)
        seat = Seat(c, config_of(server, table), 5)
        seat.absorb(await c.hello(table, me["token"], views=True))
        await seat.play(asyncio.get_running_loop().time() + 20, stop_after=3)
        with http(server) as h:
            # the bots may have finished the game meanwhile: only then may the log be served
            assert h.get(f"/api/tables/{table}/log").status_code == (200 if server.hub.rooms[table].game.over else 409)
            spect = h.get(f"/api/tables/{table}/spectate").content
        await c.send(type="view")
        await c.until("view")
        await c.close()
        return table, [*c.received, spect]

    table, frames = asyncio.run(go())
    seed = str(store.load_table(table).header["seed"])
    for f in frames:
        assert seed.encode() not in f and b'"seed"' not in f and b'"moves":[{' not in f


def test_board_updates_rebuild_the_view_exactly(server: Running) -> None:
    """A ``board`` client's welcome view, plus each update's events, chat, version and (changed) board,
    is the view a ``view`` request then answers, key for key; and a board comes only when it changed."""

    async def go() -> None:
        # Phases a seat leaves unplayed last 0.3 s (not 50 ms), so a loaded machine still connects long
        # before the game ends; and the game may end first all the same: then no update follows.
        table, me = _table(server, timeout=0.3)
        c = await Client.ws(server)
        welcome = await c.hello(table, me["token"], board=True)
        state = dict(welcome["view"])
        assert not state["over"], "the game ended before we connected"
        updates = boards = 0
        last_board: dict[str, Any] | None = None
        while updates < 12 and not state["over"]:
            m = await c.recv()
            if m["type"] != "update":
                continue
            updates += 1
            assert "view" not in m
            if "board" in m:
                boards += 1
                assert m["board"] != last_board, "an unchanged board was sent again"
                last_board = m["board"]
                assert not {"events", "chat", "version"} & set(m["board"])
                state.update(m["board"])
            state["events"] = state["events"] + m["events"]
            state["chat"] = state["chat"] + m["chat"]
            state["version"] = m["version"]
        await c.send(type="view")
        while (m := await c.recv())["type"] != "view":
            assert m["type"] == "update"
            if "board" in m:
                state.update(m["board"])
            state["events"] = state["events"] + m["events"]
            state["chat"] = state["chat"] + m["chat"]
            state["version"] = m["version"]
        assert state == m["view"] and m["version"] == state["version"]
        assert boards > 0
        await c.close()

    asyncio.run(go())
