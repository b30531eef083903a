"""Browser tests: one Chromium process for the whole session, a server on loopback per test.

Playwright drives Debian's ``chromium`` (``apt-get install -y chromium``); it cannot
download its own browsers here, and these tests never skip when it is missing: CI
installs it (see docs/BROWSER.md).

The browser is started once per session and reached over the DevTools protocol; the
Playwright driver itself is held per test module only. Playwright's synchronous API
keeps an asyncio loop marked as running on the main thread while it is active, so a
session-wide driver would make every later test that calls ``asyncio.run`` (the server
tests, in the same xdist worker) fail.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from hiddenrole.server.serve import Running
from hiddenrole.server.storage import open_store

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
]
START_SECONDS = 30.0
"""Longest the browser may take to start listening."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
"""Where the tests write their screenshots (gitignored; a few are committed under docs/screenshots)."""


@pytest.fixture(scope="session")
def chromium() -> Iterator[str]:
    """One Chromium for the session; yields its DevTools WebSocket address."""
    exe = shutil.which("chromium")
    assert exe is not None, "install Debian's chromium: apt-get update && apt-get install -y chromium"
    with tempfile.TemporaryDirectory(prefix="hiddenrole-chromium-") as profile:
        proc = subprocess.Popen(
            [exe, *CHROMIUM_ARGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            # Chromium writes the port it chose and the browser's DevTools path to this file.
            active = Path(profile) / "DevToolsActivePort"
            end = time.monotonic() + START_SECONDS
            lines: list[str] = []
            while len(lines) < 2:
                assert time.monotonic() < end and proc.poll() is None, "chromium did not start"
                time.sleep(0.05)
                lines = active.read_text().split() if active.exists() else []
            address = f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            yield address
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.connect_over_cdp(chromium)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    store = open_store(tmp_path / "web.sqlite")
    try:
        with Running(store, tcp=False) as srv:
            yield srv
    finally:
        store.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
