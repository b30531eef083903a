"""Full garbage collections on a timer, not whenever the interpreter's heuristic starts one.

CPython collects its oldest generation once enough objects have survived into it, and such
a collection walks every tracked object in the process: with 50 live tables and their 450
connections (about 140,000 objects) one stopped the event loop for 50-60 ms, about every
three seconds under the load benchmark, and every move waiting at that moment was
acknowledged that much later (the largest share of the p99 at low rates). ``hiddenrole
serve`` therefore leaves the two young generations to the interpreter (they are short and
collect most cycles) and runs the full collection itself every :data:`FULL_GC_INTERVAL`
seconds from the event loop. A cycle that reached the oldest generation is freed at most
that much later: memory, never behaviour, depends on it.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import Final

from .limits import FULL_GC_INTERVAL

__all__ = ["NO_AUTOMATIC_FULL", "timed_full_collections"]

NO_AUTOMATIC_FULL: Final = 2**31 - 1
"""The oldest generation's threshold that the interpreter never reaches (a C ``int``'s largest)."""


def timed_full_collections(loop: asyncio.AbstractEventLoop, interval: float = FULL_GC_INTERVAL) -> Callable[[], None]:
    """Stop automatic full collections and run one every ``interval`` seconds on ``loop``; returns the undo."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, NO_AUTOMATIC_FULL)
    handle: list[asyncio.TimerHandle] = []

    def collect() -> None:
        gc.collect()
        handle[0] = loop.call_later(interval, collect)

    handle.append(loop.call_later(interval, collect))

    def undo() -> None:
        handle[0].cancel()
        gc.set_threshold(young, middle, old)

    return undo
