"""Scale-out on Ray (the optional ``ray`` extra): the arena's games as Ray tasks.

Each game is one task running the same worker as ``--jobs`` (``arena._worker``: a game
is a pure function of the spec and its index), so the results file is the same, line
for line, whichever backend played it; lines are appended as tasks finish, and the
arena's resume skips finished ids as usual. ``ray.init`` is called only when no Ray
runtime is up: locally with ``workers`` CPUs and no dashboard; on a cluster, start
Ray first (``ray.init(address=...)`` or ``RAY_ADDRESS``) and the tasks spread over it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

__all__ = ["MAX_IN_FLIGHT_PER_WORKER", "play_on_ray"]

MAX_IN_FLIGHT_PER_WORKER: Final = 4
"""Tasks submitted ahead per worker: enough to keep workers busy, few enough to stream results."""


def play_on_ray(
    worker: Callable[[dict[str, Any], int], str], spec: dict[str, Any], todo: Sequence[int], workers: int
) -> Iterator[str]:
    """Yield each game's result line as its Ray task finishes (``workers`` CPUs when Ray is started here)."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise ImportError("--ray needs the 'ray' extra: pip install 'hiddenrole[ray]'") from exc
    if not ray.is_initialized():
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False, configure_logging=False)
    task = ray.remote(num_cpus=1)(worker)
    queue = list(todo)
    pending: list[Any] = []
    limit = max(1, workers) * MAX_IN_FLIGHT_PER_WORKER
    while queue or pending:
        while queue and len(pending) < limit:
            pending.append(task.remote(spec, queue.pop(0)))
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield str(ray.get(ref))
