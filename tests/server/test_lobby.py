"""The HTTP lobby: games with JSON Schema options, creating and listing tables, seats and tokens,
host actions, logs only once finished, OpenAPI, health and metrics."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hiddenrole.server.serve import Running
from hiddenrole.server.storage import Store

from .support import Client, create, http, join


def test_games_come_with_their_options_as_json_schema(server: Running) -> None:
    with http(server) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert {"werewolf", "missions", "onenight"} <= set(games)
        ww = games["werewolf"]["options"]
        assert ww["type"] == "object" and ww["additionalProperties"] is False
        assert ww["properties"]["composition"]["type"] == "string" and "enum" in ww["properties"]["composition"]
        assert c.get("/api/games/werewolf").json()["name"] == "werewolf"
        assert c.get("/api/games/nope").status_code == 404


def test_create_join_leave_and_list(server: Running, store: Store) -> None:
    made = create(server, "werewolf", 9, bots=["p9"])
    table = made["table"]
    assert len(made["host_token"]) >= 22 and made["status"] == "open"
    a = join(server, table, "p1")
    assert a["seat"] == "p1" and len(a["token"]) >= 22 and a["token"] != made["host_token"]
    # tokens are stored hashed: the database never holds one
    for f in Path(store.url.removeprefix("sqlite:///")).parent.iterdir():
        assert a["token"].encode() not in f.read_bytes() and made["host_token"].encode() not in f.read_bytes()
    with http(server) as c:
        taken = c.post(f"/api/tables/{table}/join", json={"seat": "p1"})
        assert taken.status_code == 409 and taken.json()["code"] == "SEAT_TAKEN"
        assert c.post(f"/api/tables/{table}/join", json={"seat": "p9"}).status_code == 409  # a bot's seat
        listed = {t["table"]: t for t in c.get("/api/tables").json()["tables"]}
        seats = {s["seat"]: s for s in listed[table]["seats"]}
        assert seats["p1"]["taken"] and seats["p9"]["bot"] and not seats["p2"]["taken"]
        left = c.post(f"/api/tables/{table}/leave", headers={"authorization": f"Bearer {a['token']}"})
        assert left.status_code == 200
        assert c.get(f"/api/tables/{table}").json()["seats"][0]["taken"] is False
        assert c.post(f"/api/tables/{table}/join", json={"seat": "p1"}).status_code == 200

    async def old_token_is_dead() -> None:
        cl = await Client.ws(server)
        assert (await cl.hello(table, a["token"]))["code"] == "UNAUTHORIZED"
        await cl.close()

    asyncio.run(old_token_is_dead())


def test_bad_requests_get_typed_errors(server: Running) -> None:
    with http(server) as c:
        for body, code in [
            ({"game": "nope"}, "INVALID_GAME"),
            ({"game": "werewolf", "seats": 2}, "INVALID_SEATS"),
            ({"game": "werewolf", "options": {"wolves": "many"}}, "INVALID_OPTIONS"),
            ({"game": "werewolf", "bogus": 1}, "BAD_MESSAGE"),
            ({"game": "werewolf", "timeout": 0}, "BAD_MESSAGE"),
            ({"game": "werewolf", "seed": 1}, "BAD_MESSAGE"),
            ({"game": "werewolf", "bots": ["p99"]}, "SEAT_NOT_FOUND"),
        ]:
            r = c.post("/api/tables", json=body)
            assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
        r = c.post("/api/tables", content=b"{nope")
        assert r.status_code == 400 and r.json()["code"] == "MALFORMED"
        r = c.post("/api/tables", content=b" " * (70 * 1024))
        assert r.status_code == 413
        assert c.get("/api/tables/none").status_code == 404
        assert c.post("/api/tables/none/join", json={}).status_code == 404


def test_the_log_is_served_once_the_table_is_finished(server: Running) -> None:
    made = create(server, "werewolf", 9, bots=[f"p{i}" for i in range(1, 10)], timeout=30.0)
    table = made["table"]
    host = {"authorization": f"Bearer {made['host_token']}"}
    with http(server) as c:
        r = c.get(f"/api/tables/{table}/log")
        assert r.status_code == 409 and r.json()["code"] == "TABLE_NOT_OVER"
        assert c.post(f"/api/tables/{table}/host/end", headers=host).status_code == 200
        log = c.get(f"/api/tables/{table}/log").json()["log"]
        assert log["header"]["table"] == table and "seed" in log["header"]


def test_openapi_health_and_metrics(server: Running) -> None:
    with http(server) as c:
        doc = c.get("/openapi.json").json()
        assert doc["openapi"].startswith("3.") and "/api/tables" in doc["paths"]
        assert "CreateTable" in doc["components"]["schemas"]
        assert c.get("/healthz").json() == {"ok": True}
        m = c.get("/metrics").json()
        assert {"tables_live", "connections", "moves", "moves_per_second"} <= set(m)
