"""``--ray``: the arena's games as Ray tasks write the same results file as ``--jobs``.

Skipped without the ``ray`` extra. Ray is started locally (2 CPUs, no dashboard) and shut
down at the end; the games are few and short (One Night), so the cost is Ray's start-up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiddenrole.agents.arena import ArenaSpec, run

ray = pytest.importorskip("ray")


def _lines(path: Path) -> list[str]:
    return sorted(path.read_text(encoding="utf-8").splitlines())


def test_ray_writes_the_same_results_as_local_jobs_and_resumes(tmp_path: Path) -> None:
    spec = ArenaSpec("onenight", 6, {"*": "random"})
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    run(spec, local, jobs=1, progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        first = run(ArenaSpec("onenight", 4, {"*": "random"}), remote, jobs=2, progress=False, ray=True)
        assert [r["index"] for r in first] == [0, 1, 2, 3]
        results = run(spec, remote, jobs=2, progress=False, ray=True)  # resumes: plays games 4 and 5 only
    finally:
        ray.shutdown()
    assert _lines(remote) == _lines(local)
    assert [r["index"] for r in results] == list(range(6))
