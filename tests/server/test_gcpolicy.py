"""``hiddenrole serve`` runs the full garbage collection on a timer (``server/gcpolicy.py``).

The interpreter keeps collecting the young generations itself but never starts a full
collection; the timer runs one every interval; the undo puts the thresholds back.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from hiddenrole.server.gcpolicy import NO_AUTOMATIC_FULL, timed_full_collections


def test_full_collections_run_on_the_timer_only_and_the_undo_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    full: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    async def go() -> tuple[tuple[int, int, int], int]:
        undo = timed_full_collections(asyncio.get_running_loop(), 0.01)
        try:
            during = gc.get_threshold()
            gc.callbacks.append(seen)
            try:
                for _ in range(200):  # (a full collection here takes a few ms itself)
                    if len(full) >= 2:
                        break
                    await asyncio.sleep(0.01)
            finally:
                gc.callbacks.remove(seen)
            return during, len(full)
        finally:
            undo()

    during, collections = asyncio.run(go())
    assert during == (before[0], before[1], NO_AUTOMATIC_FULL)  # young generations untouched
    assert collections >= 2  # the timer re-arms itself
    assert gc.get_threshold() == before
