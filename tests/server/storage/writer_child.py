"""Run as a child process by the durability test: append moves forever, printing each acknowledged number.

``python -m tests.server.storage.writer_child URL TABLE``; the parent SIGKILLs it.
"""

from __future__ import annotations

import sys

from hiddenrole.server.storage import open_store


def main(url: str, table: str) -> None:
    store = open_store(url)
    seq = store.table_info(table).seq
    print("ready", flush=True)
    while True:
        seq += 1
        store.append_move(
            table, seq, {"move": "say", "seat": "ann", "text": f"line {seq}"}, seat="ann", client_move_id=f"c{seq}"
        )
        # Acknowledged only once append_move has returned, i.e. once the commit is durable.
        print(f"ack {seq}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
