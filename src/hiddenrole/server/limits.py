"""Every limit the server enforces, named once (docs/SERVER.md lists them)."""

from __future__ import annotations

from typing import Final

MAX_FRAME_BYTES: Final = 64 * 1024
"""Largest WebSocket frame or TCP line a client may send; a longer one is refused (WS: close 1009)."""
MAX_HTTP_BODY_BYTES: Final = 64 * 1024
"""Largest lobby request body."""
MAX_ID_CHARS: Final = 64
"""Longest client move id."""
MAX_TARGETS: Final = 16
"""Most targets one move may name (the host refuses what the step does not allow)."""
MAX_TEXT_CHARS: Final = 2000
"""Longest chat line (the host's own limit, checked on the wire first)."""
MAX_TOKEN_CHARS: Final = 128
"""Longest token a client may present (ours are 43 characters)."""
TOKEN_BYTES: Final = 32
"""Random bytes in a seat or host token (256 bits)."""
RATE_PER_SECOND: Final = 20.0
"""Messages a connection may send per second, on average."""
RATE_BURST: Final = 40
"""Messages a connection may send at once before the rate limit applies."""
MAX_STRIKES: Final = 50
"""Messages a connection may have refused for rate or shape before it is closed."""
MAX_OUTBOX: Final = 1024
"""Messages queued to one slow connection before it is closed (it reconnects and resyncs)."""
MAX_OUTBOX_BYTES: Final = 1024 * 1024
"""Bytes a connection's transport may hold unsent before the connection is closed as too slow
(the frames-at-once path, ``pushws`` and TCP; it reconnects and resyncs)."""
MAX_REMEMBERED_RESULTS: Final = 4096
"""Recent refusals remembered per table, so a retried move id gets its first answer."""
HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has to say hello."""
MAX_TABLES_LISTED: Final = 200
"""Tables one lobby listing returns."""
MAX_LIVE_TABLES: Final = 10_000
"""Tables a process keeps in memory at once."""
MIN_TIMEOUT: Final = 0.01
"""Shortest phase deadline a table may set, in seconds."""
MAX_TIMEOUT: Final = 86_400.0
"""Longest phase deadline a table may set, in seconds."""
DEFAULT_BOT_DELAY: Final = (0.0, 0.5)
"""Seconds a server-side bot waits before acting (drawn from its own stream), unless the table says."""
SERVER_AGENTS: Final = ("heuristic", "pass", "random")
"""Agents a table may seat as server-side bots (``hiddenrole.agents`` names; ``llm`` would block the server)."""
DEFAULT_AGENT: Final = "random"
"""The agent a server-side bot runs unless the table names another."""
MAX_BOT_DELAY: Final = 60.0
"""Longest bot delay a table may set."""
DEADLINE_STANDBY: Final = 1.0
"""Seconds after a deadline another process of the same database waits before it ends the phase
(the process that set the deadline ends it on time; two ending it at once would conflict)."""
COMMIT_TIMEOUT: Final = 30.0
"""Seconds a move waits for its commit before the room gives up on it and rebuilds from storage."""
SHUTDOWN_GRACE: Final = 5.0
"""Seconds graceful shutdown waits for moves in flight."""
STORAGE_THREADS: Final = 32
"""Threads that run storage calls (each blocks until its database has answered)."""
SWITCH_INTERVAL: Final = 0.0005
"""The interpreter's thread switch interval under ``hiddenrole serve`` (seconds; Python's default is 0.005)."""
FULL_GC_INTERVAL: Final = 60.0
"""Seconds between the full (oldest-generation) garbage collections under ``hiddenrole serve``, which
runs them on this timer instead of letting the interpreter start one in the middle of play
(``server/gcpolicy.py``: one took 50-60 ms with 50 live tables, every few seconds)."""
