"""The page's own channel (the presented view over HTTP) as a function of the seat's knowledge.

Twin deals p1 cannot tell apart (p1 a villager in both; p2 the guard in one, a villager
in the other, as in the server's wire-level twin test) must give p1, and the spectator,
byte-identical presentations; a presenter that peeks at the board makes them differ.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hiddenrole.server.app import ServerConfig
from hiddenrole.server.serve import Running
from hiddenrole.server.storage import open_store
from hiddenrole.server.web import endpoints

SEED_GUARD = 13
SEED_VILLAGER = 69


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[list[tuple[Running, str, str]]]:
    worlds = []
    stores = []
    try:
        for name, seed in (("guard", SEED_GUARD), ("villager", SEED_VILLAGER)):
            store = open_store(tmp_path / f"{name}.sqlite")
            stores.append(store)
            srv = Running(store, tcp=False, config=ServerConfig(allow_seeds=True))
            body = {"game": "werewolf", "seats": 9, "seed": seed, "timeout": 600, "bots": []}
            made = httpx.post(f"{srv.url}/api/tables", json=body, timeout=10).json()
            tokens = [
                httpx.post(f"{srv.url}/api/tables/{made['table']}/join", json={}, timeout=10).json() for _ in range(9)
            ]
            worlds.append((srv, made["table"], tokens[0]["token"]))
        yield worlds
    finally:
        for srv, _, _ in worlds:
            srv.stop()
        for s in stores:
            s.close()


def _seen(srv: Running, table: str, token: str | None) -> str:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{srv.url}/web/api/tables/{table}/seat", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    data = r.json()
    data.pop("deadline")  # wall-clock time, the same rule in both worlds
    return json.dumps(data, sort_keys=True).replace(table, "T")


def _roles_differ(twins: list[tuple[Running, str, str]]) -> None:
    roles = [{p.id: p.role for p in srv.hub.rooms[t].game._table.inspect().all_players()} for srv, t, _ in twins]
    assert roles[0]["p1"] == roles[1]["p1"] == "VILLAGER"
    assert roles[0] != roles[1]


def test_twin_deals_present_identically_to_p1_and_the_spectator(twins: list[tuple[Running, str, str]]) -> None:
    _roles_differ(twins)
    (a, ta, ka), (b, tb, kb) = twins
    assert _seen(a, ta, ka) == _seen(b, tb, kb)
    assert _seen(a, ta, None) == _seen(b, tb, None)


def test_a_presenter_that_peeks_at_the_board_is_caught(
    twins: list[tuple[Running, str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    real: Callable[..., dict[str, Any]] = endpoints.present

    def peeking(view: dict[str, Any], config: Any, state: Any = None) -> dict[str, Any]:
        out = real(view, config, state)
        for srv, table, _ in twins:
            room = srv.hub.rooms.get(table)
            if room is not None and room.id == (state or {}).get("table"):
                out["roles"] = sorted(p.role for p in room.game._table.inspect().all_players() if p.id == "p2")
        return out

    monkeypatch.setattr(endpoints, "present", peeking)
    (a, ta, ka), (b, tb, kb) = twins
    assert _seen(a, ta, ka) != _seen(b, tb, kb)
