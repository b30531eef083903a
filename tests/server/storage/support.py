"""Small helpers shared by the storage tests."""

from __future__ import annotations

from typing import Any

from hiddenrole.server.storage import Store

SEATS = ("ann", "bob", "cy")


def new_table(store: Store, table_id: str = "t1", **kwargs: Any) -> str:
    """Create a race table with three seats; returns the host token."""
    seats = kwargs.pop("seats", SEATS)
    header = {"table": table_id, "game": "race", "version": "1", "options": {}, "seats": list(seats), "seed": 7}
    return store.create_table(table_id, game="race", rules_version="1", header=header, seats=seats, **kwargs)


def move(n: int, seat: str = "ann") -> dict[str, Any]:
    return {"move": "say", "seat": seat, "text": f"line {n}"}
