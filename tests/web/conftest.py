"""Browser tests: one Chromium process for the whole session, a server on loopback per test.

Playwright drives Debian's ``chromium`` (``apt-get install -y chromium``); it cannot
download its own browsers here, and these tests never skip when it is missing: CI
installs it (see docs/BROWSER.md).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from hiddenrole.server.serve import Running
from hiddenrole.server.storage import open_store

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
"""Where the tests write their screenshots (gitignored; a few are committed under docs/screenshots)."""


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    exe = shutil.which("chromium")
    assert exe is not None, "install Debian's chromium: apt-get update && apt-get install -y chromium"
    b = playwright.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
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
