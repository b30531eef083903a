"""Durability: a writer SIGKILLed mid-stream loses no move it had acknowledged, and leaves no gap."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hiddenrole.server.storage import Store

from .support import new_table

ROOT = Path(__file__).resolve().parents[3]
KILLS = 3
ACKS_BEFORE_KILL = 30
WAIT = 30.0


def _run_until_killed(url: str) -> int:
    """Start the child writer, let it acknowledge some moves, SIGKILL it; return the last acknowledged number."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.server.storage.writer_child", url, "t1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        deadline = time.monotonic() + WAIT
        assert child.stdout.readline().strip() == "ready"
        last = 0
        acks = 0
        while acks < ACKS_BEFORE_KILL and time.monotonic() < deadline:
            line = child.stdout.readline()
            assert line.startswith("ack "), line
            last = int(line.split()[1])
            acks += 1
        assert acks == ACKS_BEFORE_KILL
        os.kill(child.pid, signal.SIGKILL)  # while it keeps appending
        for line in child.stdout:  # acknowledgements printed before the kill landed also count
            last = int(line.split()[1])
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=WAIT)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return last


def test_every_acknowledged_move_survives_sigkill(store_url: str, store: Store) -> None:
    new_table(store)
    store.close()
    acknowledged = 0
    for _ in range(KILLS):
        acknowledged = _run_until_killed(store_url)
    from hiddenrole.server.storage import open_store

    reopened = open_store(store_url)
    try:
        moves = reopened.load_table("t1").moves
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1)), "a gap or a repeat in the log"
        assert len(moves) >= acknowledged >= KILLS * ACKS_BEFORE_KILL
        assert all(m.move["text"] == f"line {m.seq}" for m in moves)
        assert reopened.table_info("t1").seq == len(moves)
    finally:
        reopened.close()
