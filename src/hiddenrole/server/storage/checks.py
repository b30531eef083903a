"""Checks on what callers hand the store, and the JSON codec for stored documents.

Every limit is a named constant in :mod:`.records`; a value past one raises
:class:`InvalidRecord` before anything is written.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from .errors import InvalidRecord
from .records import MAX_ID_LENGTH, STATUSES, Keep

__all__ = ["check_name", "check_client_move_id", "check_seq", "check_status", "check_deadline", "encode", "decode"]

_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
_CLIENT_ID = re.compile(r"[\x21-\x7e]+")


def check_name(value: object, what: str) -> str:
    """A table id, seat or game name: 1..64 letters, digits, ``_``, ``.`` or ``-``."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_LENGTH or not _NAME.fullmatch(value):
        raise InvalidRecord(f"{what} must be 1..{MAX_ID_LENGTH} letters, digits, '_', '.' or '-'")
    return value


def check_client_move_id(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_LENGTH or not _CLIENT_ID.fullmatch(value):
        raise InvalidRecord(f"a client move id must be 1..{MAX_ID_LENGTH} printable ASCII characters")
    return value


def check_seq(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
        raise InvalidRecord("a move's sequence number must be a positive integer")
    return value


def check_status(value: object) -> str:
    if not isinstance(value, str) or value not in STATUSES:
        raise InvalidRecord(f"a table status is one of {sorted(STATUSES)}")
    return value


def check_deadline(value: float | Keep | None) -> float | Keep | None:
    if value is None or isinstance(value, Keep):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise InvalidRecord("a deadline is a finite number of seconds since the epoch, or None")
    return float(value)


def encode(document: Mapping[str, Any], what: str, limit: int) -> str:
    """Compact ASCII JSON of a JSON object, refused past ``limit`` bytes. Key order is kept."""
    if not isinstance(document, Mapping):
        raise InvalidRecord(f"the {what} must be a JSON object")
    try:
        text = json.dumps(dict(document), separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise InvalidRecord(f"the {what} is not JSON: {err}") from None
    if len(text) > limit:
        raise InvalidRecord(f"the {what} is {len(text)} bytes of JSON; the limit is {limit}")
    return text


def decode(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise InvalidRecord("a stored document is not a JSON object")
    return value
