"""Fixtures of the server tests (storage's own tests have theirs in tests/server/storage)."""

from .support import server, store

__all__ = ["server", "store"]
