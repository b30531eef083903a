"""Seats and tokens: claim, leave, bots, rejoin; tokens are random, stored hashed, never in plain text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hiddenrole.server.storage import MAX_TOKEN_LENGTH, SeatUnavailable, Store, hash_token, open_store
from hiddenrole.server.storage.tokens import TOKEN_BYTES, match_token

from .support import new_table


def test_claiming_seats_hands_out_distinct_long_tokens_that_open_only_their_seat(store: Store) -> None:
    new_table(store, bots=("bob",))
    seat_a, token_a = store.claim_seat("t1")
    seat_c, token_c = store.claim_seat("t1")
    assert (seat_a, seat_c) == ("ann", "cy")  # bob is a bot's seat
    assert len(token_a) >= 22 and token_a != token_c  # 22 url-safe characters hold 128 bits
    assert TOKEN_BYTES * 8 >= 128
    assert store.seat_for_token("t1", token_a) == "ann"
    assert store.seat_for_token("t1", token_c) == "cy"
    assert [(s.seat, s.taken, s.bot) for s in store.seats("t1")] == [
        ("ann", True, False),
        ("bob", False, True),
        ("cy", True, False),
    ]
    with pytest.raises(SeatUnavailable) as caught:
        store.claim_seat("t1")
    assert caught.value.code == "SEAT_UNAVAILABLE"


@pytest.mark.parametrize("bad", ["", "x", "x" * (MAX_TOKEN_LENGTH + 1), None, 5])
def test_wrong_tokens_open_nothing(store: Store, bad: object) -> None:
    host = new_table(store)
    _, token = store.claim_seat("t1", "bob")
    assert store.seat_for_token("t1", bad) is None  # type: ignore[arg-type]
    assert store.seat_for_token("t1", token[:-1]) is None
    assert store.seat_for_token("t1", host) is None
    assert store.seat_for_token("nope", token) is None
    assert not store.check_host_token("t1", bad)  # type: ignore[arg-type]
    assert not store.check_host_token("t1", token)
    assert store.check_host_token("t1", host)
    new_table(store, "t2")
    assert store.seat_for_token("t2", token) is None
    assert not store.check_host_token("t2", host)


def test_a_named_seat_can_be_claimed_once_and_freed(store: Store) -> None:
    new_table(store)
    _, token = store.claim_seat("t1", "bob")
    with pytest.raises(SeatUnavailable):
        store.claim_seat("t1", "bob")
    with pytest.raises(SeatUnavailable):
        store.claim_seat("t1", "nobody")
    store.release_seat("t1", "bob")
    assert store.seat_for_token("t1", token) is None
    _, again = store.claim_seat("t1", "bob")
    assert again != token and store.seat_for_token("t1", again) == "bob"
    with pytest.raises(SeatUnavailable):
        store.release_seat("t1", "nobody")


def test_a_bot_takes_an_absent_players_seat_and_the_player_rejoins_with_the_token(store: Store) -> None:
    new_table(store)
    _, token = store.claim_seat("t1", "cy")
    store.set_bot("t1", "cy", True)
    assert store.seats("t1")[2].bot and store.seat_for_token("t1", token) == "cy"
    store.set_bot("t1", "cy", False)
    assert not store.seats("t1")[2].bot and store.seat_for_token("t1", token) == "cy"
    with pytest.raises(SeatUnavailable):
        store.set_bot("t1", "nobody", True)


def _all_stored_text(store: Store, url: str) -> str:
    """Every byte the database holds for us, as text: the SQLite files, or every row of every hr_ table."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url) as conn:
            tables = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
            return "\n".join(str(row) for t in tables for row in conn.execute(f"SELECT * FROM {t}"))
    from pathlib import Path

    return "\n".join(p.read_bytes().decode("latin-1") for p in Path(url).parent.glob(Path(url).name + "*"))


def test_tokens_are_never_stored_in_plain_text(store_url: str, open_new: Callable[[], Store]) -> None:
    store = open_new()
    host = new_table(store)
    _, seat_token = store.claim_seat("t1")
    store.append_move("t1", 1, {"move": "say", "text": "hi"}, seat="ann")
    text = _all_stored_text(store, store_url)
    assert "hi" in text  # the scan does see what is stored
    assert hash_token(seat_token) in text and hash_token(host) in text
    assert seat_token not in text and host not in text
    store.close()
    assert open_store(store_url).seat_for_token("t1", seat_token) == "ann"


def test_matching_compares_every_candidate_and_finds_the_first() -> None:
    token = "secret-token"
    calls: list[str] = []

    class Spy(str):
        def encode(self, *args: object, **kwargs: object) -> bytes:
            calls.append(str(self))
            return str(self).encode(*args, **kwargs)  # type: ignore[arg-type]

    candidates = [("a", Spy(hash_token(token))), ("b", Spy("0" * 64)), ("c", Spy(hash_token(token)))]
    assert match_token(token, candidates) == "a"
    assert len(calls) == 3  # no early exit once a match is found
