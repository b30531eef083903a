"""Seat and host tokens: random secrets handed out once and stored only as SHA-256 hashes.

A token is 256 random bits from :mod:`secrets`; a hash of such a secret cannot be
reversed, so a stolen database opens no seat. Comparisons use
:func:`hmac.compare_digest` so the time taken says nothing about how much matched.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Final

from .records import MAX_TOKEN_LENGTH

__all__ = ["TOKEN_BYTES", "new_token", "hash_token", "match_token"]

TOKEN_BYTES: Final = 32
"""Random bytes in a token (256 bits; the issue asks for at least 128)."""


def new_token() -> str:
    """A fresh URL-safe token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token, which is what the store keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def match_token(token: object, candidates: Iterable[tuple[str, str | None]]) -> str | None:
    """The key of the candidate ``(key, stored_hash)`` whose hash is the token's, or ``None``.

    Every candidate is compared (no early exit), each in constant time.
    """
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return None
    presented = hash_token(token).encode("ascii")
    found: str | None = None
    for key, stored in candidates:
        if stored is not None and hmac.compare_digest(presented, stored.encode("ascii")) and found is None:
            found = key
    return found
