"""The pages one by one: reload and reconnect, spectators, the replay viewer, a planted leak, phone width."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from hiddenrole.host.catalog import get
from hiddenrole.server.serve import Running
from hiddenrole.server.web import endpoints as web_routes
from hiddenrole.server.web.present import narration_of, words

from .support import GAME_SECONDS, SeatPage, Secrets, check_no_leaks, create, final_log, leaks

BOTS = ["p2", "p3", "p4", "p5", "p6"]


def _host(srv: Running, table: str, token: str, action: str) -> None:
    r = httpx.post(
        f"{srv.url}/api/tables/{table}/host/{action}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert r.status_code == 200, r.text


def _seated(browser: Browser, srv: Running, table: str, seat: str, phone: bool = False) -> SeatPage:
    sp = SeatPage.open(browser, seat, phone=phone)
    sp.page.goto(f"{srv.url}/table/{table}")
    sp.ready()
    sp.page.click(f"button[data-join='{seat}']")
    sp.page.wait_for_selector("body[data-version]", state="attached")
    return sp


def _secrets_now(srv: Running, table: str, seat: str | None) -> Secrets:
    """What ``seat`` does not know now (read on the server's side, as a test may)."""
    game = srv.hub.rooms[table].game
    view = game.view(seat)
    known = {p["seat"] for p in view["players"] if p["role"]}
    roles = {p.role for p in game._table.inspect().all_players()}
    module = narration_of(game.header.game)
    names = {getattr(module, "role_name", words)(r) for r in roles} | roles
    hidden = set(game.seats) - known - ({seat} if seat else set())
    return Secrets(seat, frozenset(hidden), frozenset(names), frozenset(), game.header.seed)


def test_reload_mid_game_rejoins_the_seat_with_an_identical_page(browser: Browser, server: Running) -> None:
    made = create(server, "werewolf", 6, BOTS, timeout=0.3)
    t = made["table"]
    sp = _seated(browser, server, t, "p1")
    page = sp.page
    page.locator("#log li").nth(1).wait_for(state="attached", timeout=GAME_SECONDS * 1000)
    _host(server, t, made["host_token"], "pause")
    expect(page.locator("#clock")).to_contain_text("paused")
    time.sleep(0.2)
    before = sp.main_text()
    version = page.get_attribute("body", "data-version")
    page.reload()
    sp.ready()
    expect(page.locator("#clock")).to_contain_text("paused")
    assert page.get_attribute("body", "data-version") == version
    assert sp.main_text() == before
    assert "You are p1" in before
    # a spectator of the same table: public facts only, nothing to do, nothing to say
    watcher = SeatPage.open(browser, "spectator")
    watcher.page.goto(f"{server.url}/table/{t}?spectate=1")
    watcher.ready()
    watcher.page.wait_for_selector("body[data-version]", state="attached")
    watcher.snapshot()
    watcher.drain()
    assert not watcher.page.query_selector("form.action-form")
    assert watcher.page.is_hidden("#say") and watcher.page.is_hidden("#me")
    assert "spectator" in watcher.page.inner_text("#prompt")
    sp.snapshot()
    sp.drain()
    check_no_leaks(watcher, _secrets_now(server, t, None))
    check_no_leaks(sp, _secrets_now(server, t, "p1"))
    # the connection drops (the server closes it): the page reconnects and resyncs by itself
    _host(server, t, made["host_token"], "resume")
    n = len(sp.frames)
    server.call(server.hub.rooms[t].kick("p1", "test: connection dropped"))
    expect(page.locator("#status")).to_contain_text("reconnecting")
    deadline = time.monotonic() + 10
    while not any('"welcome"' in f for f in sp.frames[n:]):
        assert time.monotonic() < deadline, "the page did not reconnect"
        page.wait_for_timeout(50)  # lets Playwright deliver the frame events
    welcome = json.loads(next(f for f in sp.frames[n:] if '"welcome"' in f))
    assert "resync" in welcome  # it said which version it had seen
    for p in (sp, watcher):
        p.context.close()


def test_a_planted_leak_is_caught(browser: Browser, server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """A presenter that sends every seat's role (a client that "hides" them) turns the leak check red."""
    made = create(server, "werewolf", 6, BOTS, timeout=30)
    t = made["table"]
    real = web_routes.present

    def leaky(view: dict[str, Any], config: Any, state: Any = None) -> dict[str, Any]:
        out = real(view, config, state)
        for p in out["players"]:
            p["role"] = p["role"] or "Werewolf"
        return out

    monkeypatch.setattr(web_routes, "present", leaky)
    sp = _seated(browser, server, t, "p1")
    sp.snapshot()
    sp.drain()
    found = leaks(sp.frames + sp.bodies, sp.doms, _secrets_now(server, t, "p1"))
    assert any("role Werewolf reached p1" in f for f in found), found
    assert any("shown as Werewolf" in f for f in found), found
    sp.context.close()


def test_leak_checker_catches_seed_log_and_centre_cards() -> None:
    s = Secrets("p1", frozenset({"p2"}), frozenset({"Seer", "Werewolf"}), frozenset({"0"}), 123456789)
    assert (
        leaks(['{"view":{"players":[{"seat":"p2","alive":true,"role":""}]}}'], ["<li data-seat='p2'>p2</li>"], s) == []
    )
    assert leaks(['{"x": 123456789}'], [], s)
    assert leaks(['{"log": {"header": {}}}'], [], s)
    assert leaks(['{"role_info": {"learn.center.0": "ON_SEER"}}'], [], s)
    assert leaks(['{"data": {"center": "0", "card": "ON_SEER"}}'], [], s)
    assert leaks([], ["<p>You saw centre card 0: the Werewolf</p>"], s)
    assert leaks([], ['<li class="alive" data-seat="p2"><span>p2</span> Seer</li>'], s)


def _finished(srv: Running) -> dict[str, Any]:
    made = create(srv, "werewolf", 6, ["p1", *BOTS], timeout=0.05, bot_delay=[0.0, 0.005])
    end = time.monotonic() + GAME_SECONDS
    while httpx.get(f"{srv.url}/api/tables/{made['table']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < end, "the bots' game did not end"
        time.sleep(0.1)
    return made


def test_replay_viewer_steps_through_a_finished_table(
    browser: Browser, server: Running, shots: Path, tmp_path: Path
) -> None:
    made = _finished(server)
    t = made["table"]
    log = final_log(server, t)
    sp = SeatPage.open(browser, "viewer")
    page = sp.page
    page.goto(f"{server.url}/replay?table={t}")
    sp.ready()
    page.wait_for_selector("body[data-at]", state="attached")
    total = len(log.moves)
    assert page.get_attribute("body", "data-at") == str(total)
    # the god view: every role, from the deal on
    page.click("#first")
    page.wait_for_selector("body[data-at='0']", state="attached")
    module = narration_of("werewolf")
    assert module is not None
    god = page.inner_text("#seats")
    roles = [module.role_name(p.role) for p in _table_at(log, 0).inspect().all_players()]
    for r in roles:
        assert r in god
    # keyboard: step forward with the arrow key and with the focused button
    page.focus("body")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-at='1']", state="attached")
    page.focus("#forward")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-at='2']", state="attached")
    # as p1 saw it then: its own role only
    page.select_option("#seat", "p1")
    page.wait_for_selector("#me:not([hidden])")
    mine = _table_at(log, 2).view("p1")
    for p in mine.players:
        card = page.inner_text(f"#seats li[data-seat='{p.seat}']")
        assert (module.role_name(p.role) in card) if p.role else ("·" not in card or "alive" in card)
    hidden = [p.seat for p in mine.players if not p.role]
    assert hidden
    for seat in hidden:
        card = page.inner_text(f"#seats li[data-seat='{seat}']")
        assert not any(r in card for r in roles), card
    page.screenshot(path=str(shots / "replay.png"), full_page=True)
    # the same log as an uploaded file gives the same view
    path = tmp_path / "table.json"
    path.write_bytes(log.to_json())
    page.goto(f"{server.url}/replay")
    sp.ready()
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-at]", state="attached")
    assert page.get_attribute("body", "data-at") == str(total)
    page.wait_for_selector("#reveal table.reveal")
    sp.context.close()


def _table_at(log: Any, n: int) -> Any:
    from hiddenrole.host import Table

    return Table(get(log.header.game), log.header, log.moves[:n])


def test_pages_are_labelled_and_fit_a_phone(browser: Browser, server: Running) -> None:
    sp = SeatPage.open(browser, "phone", phone=True)
    page = sp.page
    page.goto(server.url + "/")
    sp.ready()
    for game in ("werewolf", "missions", "onenight"):
        page.select_option("#game", game)
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll('input, select, button')].filter(e =>
                 !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
                 .map(e => e.id)"""
        )
        assert unlabelled == [], unlabelled
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the form is the option schema: every option with its default and its bounds
    games = {g["name"]: g for g in httpx.get(f"{server.url}/api/games", timeout=10).json()["games"]}
    page.select_option("#game", "onenight")
    for name, prop in games["onenight"]["options"]["properties"].items():
        control = page.locator(f"[data-option='{name}']")
        if prop["type"] == "boolean":
            assert control.is_checked() == prop["default"], name
        else:
            assert control.input_value() == str(prop["default"]), name
        if prop["type"] == "integer":
            assert control.get_attribute("min") == str(prop["minimum"]), name
            assert control.get_attribute("max") == str(prop["maximum"]), name
    # keyboard only: change an option with the space bar, then Enter on the create button
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "input")
    page.focus("[data-option='minion-clause']")
    page.keyboard.press("Space")
    page.focus("#create-button")
    with page.expect_request("**/api/tables") as req:
        page.keyboard.press("Enter")
    body = req.value.post_data_json
    assert body is not None
    assert body["options"] == {"minion-clause": True} and body["seats"] == 3 and body["bots"] == ["p2", "p3"]
    page.wait_for_url("**/table/**")
    sp.ready()
    page.wait_for_selector("body[data-version]", state="attached")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert "You are p1" in page.inner_text("#who")
    # the creator holds the host token: the host's controls are on the page
    page.click("button[data-host='pause']")
    expect(page.locator("#clock")).to_contain_text("paused")
    page.click("button[data-host='resume']")
    expect(page.locator("#clock")).not_to_contain_text("paused")
    sp.context.close()


def test_a_refusal_shows_the_servers_message(
    browser: Browser, server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A control the server refuses (planted here: the presenter offers a skill nobody has) shows why."""
    made = create(server, "werewolf", 6, BOTS, timeout=30)
    real = web_routes.present

    def offers_too_much(view: dict[str, Any], config: Any, state: Any = None) -> dict[str, Any]:
        out = real(view, config, state)
        out["actions"] = [{"skill": "FLY", "name": "Fly", "targets": [], "min": 0, "max": 0, "distinct": False}]
        return out

    monkeypatch.setattr(web_routes, "present", offers_too_much)
    sp = _seated(browser, server, made["table"], "p1")
    sp.page.click("button[data-act='FLY']")
    expect(sp.page.locator("#status")).to_contain_text("Refused:")
    assert "FLY" in sp.page.inner_text("#status") or "skill" in sp.page.inner_text("#status")
    sp.context.close()
