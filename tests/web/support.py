"""Driving the pages like a player, and the leak checks run on what each page received and showed.

Every wait is bounded. A :class:`SeatPage` records every WebSocket frame its page
received, every body of the web API it fetched, and its DOM at every step, so a
test can check afterwards that nothing secret reached the page before the end.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, Response, ViewportSize
from playwright.sync_api import Error as PlaywrightError

from hiddenrole.host import Table, TableLog
from hiddenrole.host.catalog import get
from hiddenrole.server.serve import Running
from hiddenrole.server.web.present import narration_of, words

STEP_TIMEOUT_MS = 10_000
"""Longest any single wait on a page may take."""
ACT_TIMEOUT_MS = 500
"""A control that is gone this fast was redrawn by a push: decide again on the new page."""
GAME_SECONDS = 60.0
"""Longest a whole game may take."""
QUIET_MS = 250
"""Longest :func:`play_until_over` waits for news (a frame to any page) before it looks at the pages again."""
POLL_MS = 50
"""How often :func:`play_until_over` checks for news while it waits."""
PHONE: ViewportSize = {"width": 390, "height": 844}
DESK: ViewportSize = {"width": 1200, "height": 900}


def create(srv: Running, game: str, seats: int, bots: list[str], **kw: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "bots": bots, "timeout": 0.5, "bot_delay": [0.0, 0.02], **kw}
    r = httpx.post(f"{srv.url}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


@dataclass
class SeatPage:
    """One player's browser context and page, recording what it receives."""

    context: BrowserContext
    page: Page
    name: str
    frames: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    doms: list[str] = field(default_factory=list)
    over_at: int | None = None
    """Number of frames received when the first frame announcing the end arrived."""
    _responses: list[Response] = field(default_factory=list)
    acted: set[str] = field(default_factory=set)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    seen: dict[str, Any] = field(default_factory=dict)
    """What :meth:`look` last read: ``version``, ``over``, ``phase``, ``acting`` (an action form is
    shown), ``say`` (the say box is visible)."""

    @classmethod
    def open(cls, browser: Browser, name: str, phone: bool = False) -> SeatPage:
        ctx = browser.new_context(viewport=PHONE if phone else DESK)
        page = ctx.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        sp = cls(ctx, page, name)
        page.on("websocket", lambda ws: ws.on("framereceived", sp._frame))
        page.on("response", lambda r: sp._responses.append(r) if "/api/" in r.url else None)
        page.on("pageerror", lambda e: sp.frames.append(f"PAGEERROR {e}"))
        return sp

    def _frame(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode()
        self.frames.append(text)
        if self.over_at is None and ('"over":true' in text or '"GAME_ENDED"' in text):
            self.over_at = len(self.frames)

    def drain(self) -> None:
        """Read the bodies of the API answers received since the last call (outside event handlers)."""
        got, self._responses = self._responses, []
        for r in got:
            try:
                self.bodies.append(r.text())
            except Exception:  # a body the browser already dropped (page navigated)
                continue

    def ready(self) -> None:
        self.page.wait_for_selector("body[data-ready='1']", state="attached")

    @property
    def over(self) -> bool:
        return self.page.get_attribute("body", "data-over") == "1"

    def snapshot(self) -> None:
        """Keep the DOM (all of it, hidden parts too) while the game is on."""
        self._keep(self.page.content())

    def _keep(self, html: str) -> None:
        if 'data-over="1"' not in html:
            self.doms.append(html)

    def look(self) -> dict[str, Any]:
        """:meth:`snapshot`, and :attr:`seen` read in the same round trip to the page (each round trip
        costs the browser, the driver and this process about as much as a DOM copy)."""
        self.seen = self.page.evaluate(_LOOK)
        self._keep(self.seen.pop("html"))
        return self.seen

    def act(self, version: str | None = None) -> bool:
        """Use one offered action with random targets of the offered shape, once per view version
        (``version``: the page's, just read by :meth:`look`)."""
        page = self.page
        if version is None:
            version = page.get_attribute("body", "data-version") or ""
        if version in self.acted:
            return False
        forms = page.query_selector_all("form.action-form")
        if not forms:
            return False
        self.acted.add(version)
        form = self.rng.choice(forms)
        skill = form.get_attribute("data-skill") or ""
        targets = [i.get_attribute("value") or "" for i in form.query_selector_all("input[data-target]")]
        hint = form.inner_text()
        m = re.search(r"Choose (\d+)(?: to (\d+))?\.", hint)
        lo = int(m.group(1)) if m else 0
        multi = bool(form.query_selector("input[type=checkbox]"))
        chosen = self.rng.sample(targets, min(len(targets), max(lo, 1))) if targets and (lo or not multi) else []
        try:  # the page may redraw under us (a push arrived): then the next step decides again
            for t in chosen:
                page.check(f"input[name='act-{skill}'][value='{t}']", timeout=ACT_TIMEOUT_MS)
            page.click(f"button[data-act='{skill}']", timeout=ACT_TIMEOUT_MS)
        except PlaywrightError:
            self.acted.discard(version)
            return False
        return True

    def main_text(self) -> str:
        """What the page says, without the ticking clock and the status line."""
        return str(
            self.page.evaluate(
                """() => { const m = document.querySelector('main').cloneNode(true);
                 for (const n of m.querySelectorAll('#clock, #status')) n.remove();
                 return m.innerText; }"""
            )
        )


_LOOK = """() => { const d = document.doctype, b = document.body, say = document.getElementById('say');
  const box = say ? say.getBoundingClientRect() : null;
  return {html: (d ? new XMLSerializer().serializeToString(d) : '') + document.documentElement.outerHTML,
          version: b.getAttribute('data-version') || '', over: b.getAttribute('data-over') === '1',
          phase: b.getAttribute('data-phase') || '', acting: !!document.querySelector('form.action-form'),
          say: !!box && box.width > 0 && box.height > 0 && getComputedStyle(say).visibility !== 'hidden'}; }"""
"""What :meth:`SeatPage.look` reads: the DOM as ``page.content()`` gives it, and :attr:`SeatPage.seen`
(``say`` visible as Playwright's ``is_visible`` has it: a box, not ``visibility: hidden``)."""


def play_until_over(pages: list[SeatPage], extra: Iterable[SeatPage] = (), on_step: Any = None) -> None:
    """Every seat acts on every view it is shown, until all pages show the end.

    The pages are looked at again as soon as any of them was sent a frame (a frame is what
    changes a page), and at least every :data:`QUIET_MS`; every round trip to a page costs
    CPU in the browser, its driver and this process, so none is spent on a page with no news.
    """
    end = time.monotonic() + GAME_SECONDS
    watchers = list(extra)
    everyone = [*pages, *watchers]
    while True:
        assert time.monotonic() < end, "the game did not end in time"
        done = True
        for sp in pages:
            seen = sp.look()
            sp.drain()
            if seen["over"]:
                continue
            done = False
            sp.act(seen["version"])
            if on_step is not None:
                on_step(sp)  # it may read sp.seen rather than ask the page again
        for w in watchers:
            w.look()
            w.drain()
        if done:
            break
        frames = sum(len(sp.frames) for sp in everyone)
        quiet = time.monotonic() + QUIET_MS / 1000
        while True:  # waiting also lets Playwright deliver the pages' events (frames among them)
            pages[0].page.wait_for_timeout(POLL_MS)
            if sum(len(sp.frames) for sp in everyone) != frames or time.monotonic() >= quiet:
                break
    for w in watchers:
        w.page.wait_for_selector("body[data-over='1']", state="attached")
        w.drain()


# ---------------------------------------------------------------------- the leak checks


def final_log(srv: Running, table: str) -> TableLog:
    r = httpx.get(f"{srv.url}/api/tables/{table}/log", timeout=10)
    assert r.status_code == 200, r.text
    return TableLog.from_dict(r.json()["log"])


@dataclass(frozen=True)
class Secrets:
    """What ``seat`` never knew before the end: other seats' roles, centre cards, the seed."""

    seat: str | None
    hidden_seats: frozenset[str]
    role_names: frozenset[str]
    hidden_slots: frozenset[str]
    seed: int


def secrets_of(log: TableLog, seat: str | None) -> Secrets:
    """Replay ``log`` to its last move before the end and read what ``seat``'s view held then."""
    d = get(log.header.game)
    before = Table(d, log.header, log.moves[: len(log.moves) - 1])
    assert not before.over
    view = before.view(seat)
    known = {p.seat for p in view.players if p.role}
    info = dict(view.me.role_info) if view.me is not None else {}
    slots = {"0", "1", "2"} if log.header.game == "onenight" else set()
    seen_slots = {k.rsplit(".", 1)[-1] for k in info if "center" in k}
    final = Table(d, log.header, log.moves)
    roles = {p.role for p in final.inspect().all_players()}
    module = narration_of(log.header.game)
    names = {getattr(module, "role_name", words)(r) for r in roles if r}
    return Secrets(
        seat,
        frozenset(set(log.header.seats) - known - ({seat} if seat else set())),
        frozenset(names | {r for r in roles if r}),
        frozenset(slots - seen_slots),
        log.header.seed,
    )


def _walk(x: Any) -> Iterator[tuple[str | None, Any]]:
    if isinstance(x, dict):
        for k, v in x.items():
            yield k, v
            yield from _walk(v)
        if "seat" in x and "role" in x:
            yield "@player", x
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def leaks(payloads: Iterable[str], doms: Iterable[str], s: Secrets) -> list[str]:
    """Every secret found in what a page received (JSON payloads) or showed (DOM) before the end."""
    found: list[str] = []
    seed = str(s.seed)
    assert len(seed) >= 6, "a seed this short would match everywhere: open the table without choosing one"
    for raw in payloads:
        if raw.startswith("PAGEERROR"):
            found.append(raw)
            continue
        if seed in raw:
            found.append(f"the seed in {raw[:80]}")
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        for k, v in _walk(data):
            if k in ("seed", "header", "log"):
                found.append(f"a log field {k!r}")
            if k == "@player" and v["seat"] in s.hidden_seats and v["role"]:
                found.append(f"{v['seat']}'s role {v['role']} reached {s.seat}")
            if isinstance(k, str) and "center." in k and k.rsplit(".", 1)[-1] in s.hidden_slots:
                found.append(f"centre card {k} reached {s.seat}")
            if k == "center" and v in s.hidden_slots:
                found.append(f"a look at centre card {v} reached {s.seat}")
    for html in doms:
        if seed in html:
            found.append("the seed in the page")
        for x in s.hidden_seats:
            m = re.search(rf'<li[^>]*data-seat="{re.escape(x)}"[^>]*>(.*?)</li>', html, re.S)
            card = re.sub(r"<[^>]+>", " ", m.group(1)) if m else ""
            for name in s.role_names:
                if re.search(rf"\b{re.escape(name)}\b", card):
                    found.append(f"{x} shown as {name} to {s.seat}")
        text = re.sub(r"<[^>]+>", "\n", html)
        for line in text.splitlines():
            for slot in s.hidden_slots:
                if f"card {slot}" in line and any(re.search(rf"\b{re.escape(n)}\b", line) for n in s.role_names):
                    found.append(f"centre card {slot} named to {s.seat}: {line.strip()[:80]}")
    return found


def check_no_leaks(sp: SeatPage, s: Secrets) -> None:
    pre = sp.frames[: (sp.over_at - 1) if sp.over_at else len(sp.frames)]
    bodies = [b for b in sp.bodies if '"over":true' not in b]
    assert s.hidden_seats, f"{s.seat} knew every role: nothing to check"
    problems = leaks(pre + bodies, sp.doms, s)
    assert not problems, problems[:5]
    assert pre and sp.doms, (
        f"nothing was recorded for {sp.name}: {len(sp.frames)} frames, over at {sp.over_at}, {len(sp.doms)} pages"
    )
