"""``/docs``: the lobby's API reference, drawn in the browser from ``/openapi.json`` by a page of our own."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser

from hiddenrole.server.serve import Running
from hiddenrole.server.web.endpoints import PAGE_HEADERS, STATIC


def test_the_docs_page_is_self_contained(server: Running) -> None:
    r = httpx.get(f"{server.url}/docs", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == PAGE_HEADERS["Content-Security-Policy"]
    page = r.text + (STATIC / "docs.js").read_text()
    assert not re.search(r"https?://", page), "the docs page loads something from elsewhere"
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
        assert httpx.get(f"{server.url}{asset}", timeout=10).status_code == 200, asset


def test_the_docs_page_shows_every_operation_and_schema(browser: Browser, server: Running) -> None:
    doc = httpx.get(f"{server.url}/openapi.json", timeout=10).json()
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(f"{server.url}/docs")
        page.wait_for_selector("body[data-ready]", state="attached", timeout=10_000)
        shown = {(s.get_attribute("data-method"), s.get_attribute("data-path")) for s in page.query_selector_all(".op")}
        wanted = {(method, path) for path, item in doc["paths"].items() for method in item}
        assert shown == wanted
        create = page.locator(".op[data-method='post'][data-path='/api/tables']")
        assert "Create" in create.inner_text() or "table" in create.inner_text()
        schema = page.locator("#schema-CreateTable").inner_text()
        for field in doc["components"]["schemas"]["CreateTable"]["properties"]:
            assert field in schema, f"CreateTable's field {field!r} is not shown"
        assert not problems, problems
    finally:
        page.close()
