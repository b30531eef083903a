"""How the hub reads a committer's answer: a unique violation is retried through ``append_move``
(which reads what a concurrent writer stored); every other error is the answer, never retried."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from hiddenrole.server.rooms import Hub
from hiddenrole.server.storage import SQLiteStore
from hiddenrole.server.storage.records import Appended

from .storage.support import move, new_table


class _Failing(SQLiteStore):
    """A real SQLite store whose committer answers one move with ``error``; counts the synchronous retries."""

    def __init__(self, path: Path, error: BaseException) -> None:
        super().__init__(path)
        self.error = error
        self.retries = 0

    def append_move_future(self, *args: Any, **kw: Any) -> Future[Appended] | None:
        failed: Future[Appended] = Future()
        failed.set_exception(self.error)
        return failed

    def append_move(self, table_id: str, seq: int, move: Mapping[str, Any], **kw: Any) -> Appended:
        self.retries += 1
        return super().append_move(table_id, seq, move, **kw)


def _append(store: _Failing) -> None:
    kw: dict[str, Any] = {"seat": None, "client_move_id": None, "status": "open", "deadline": None}
    asyncio.run(Hub(store).append_move("t1", 1, dict(move(1)), **kw))


def test_a_unique_violation_is_retried_and_reads_what_was_stored(tmp_path: Path) -> None:
    store = _Failing(tmp_path / "t.db", sqlite3.IntegrityError("UNIQUE constraint failed"))
    try:
        new_table(store)
        _append(store)
        assert store.retries == 1
        assert store.table_info("t1").seq == 1
    finally:
        store.close()


def test_any_other_error_is_the_answer_and_is_not_retried(tmp_path: Path) -> None:
    store = _Failing(tmp_path / "t.db", RuntimeError("a bug in a write"))
    try:
        new_table(store)
        with pytest.raises(RuntimeError, match="a bug in a write"):
            _append(store)
        assert store.retries == 0
        assert store.table_info("t1").seq == 0
    finally:
        store.close()


class _Silent(_Failing):
    """A committer that never answers (a hung database)."""

    def append_move_future(self, *args: Any, **kw: Any) -> Future[Appended] | None:
        return Future()


def test_a_store_that_never_answers_times_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The waiter gets ``TimeoutError`` after ``COMMIT_TIMEOUT`` (the room then reloads from storage)."""
    monkeypatch.setattr("hiddenrole.server.rooms.COMMIT_TIMEOUT", 0.05)
    store = _Silent(tmp_path / "t.db", RuntimeError("unused"))
    try:
        new_table(store)
        with pytest.raises(TimeoutError):
            _append(store)
        assert store.retries == 0
    finally:
        store.close()
