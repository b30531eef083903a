"""A reader's core is built from shared pieces (the public players row, the last core's unchanged parts).

``shared`` counts rebuilt cores that kept the last players row, ``kept`` those that kept the seat's own part.

Whatever is shared or kept, every reader's core must equal the plain computation
(``Table._uncached_core``) after every move; planted stale pieces must go red.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.host import Move, Table, table
from hiddenrole.host.catalog import get

GAMES = [("werewolf", 9), ("onenight", 6), ("missions", 7), ("redblue", 5)]


def _play(t: Table, seed: int, check: Any) -> int:
    """Random allowed acts, a line now and then, phase ends; ``check`` after every accepted move."""
    rng = random.Random(seed)
    moves = 0
    while not t.over and moves < 300:
        for seat in rng.sample(t.seats, len(t.seats)):
            v = t.view(seat)
            me = v.me
            assert me is not None
            if me.allowed_skills and rng.random() < 0.8:
                skill = rng.choice(me.allowed_skills)
                pool = dict(me.targets).get(skill) or tuple(p.seat for p in v.players if p.alive)
                targets = () if skill == "SKIP" else (rng.choice(pool),)
                try:
                    t.play(Move("act", seat, skill, targets))
                except hr.GameError:
                    continue
            elif "say" in v.moves and rng.random() < 0.2:
                t.play(Move("say", seat, text="hm"))
            else:
                continue
            moves += 1
            check()
            if t.over:
                return moves
        if not t.definition.auto_advance:
            t.end_phase()
            moves += 1
            check()
    return moves


def _run(game: str, seats: int, seed: int) -> dict[str, int]:
    t = Table.open(get(game), seats, seed=seed)
    seen = {"shared": 0, "kept": 0}
    last: dict[str | None, Any] = {}

    def check() -> None:
        run = t._run
        assert run.shared is not None
        for reader in (*t.seats, None):
            core = run.readers[reader].core
            assert core == t._uncached_core(reader), f"{game}: reader {reader}'s core is stale"
            before = last.get(reader)
            if before is not None and core is not None and before is not core and reader is not None:
                seen["shared"] += before.players is core.players
                seen["kept"] += before.me is core.me
            last[reader] = core

    check()
    assert _play(t, seed, check) > 5
    return seen


@pytest.mark.parametrize(("game", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_every_core_equals_the_plain_computation(game: str, seats: int) -> None:
    total = {"shared": 0, "kept": 0}
    for seed in range(3):
        for k, n in _run(game, seats, seed).items():
            total[k] += n
    if game in ("werewolf", "missions"):
        assert total["shared"] > 0 and total["kept"] > 0  # the sharing is really used


def _planted(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    real = table.Table._core

    def stale(self: Table, run: Any, shared: Any, seat: str | None, last: Any = None) -> Any:
        core = real(self, run, shared, seat, last)
        if seat is None or last is None:
            return core
        if how == "public-row":  # every seat shown the public row: its own role is lost
            return core._replace(players=shared.players)
        return core._replace(me=last.me)  # the seat's own part kept although it changed

    monkeypatch.setattr(table.Table, "_core", stale)


@pytest.mark.parametrize("how", ["public-row", "kept-me"])
def test_a_planted_stale_piece_goes_red(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    _planted(monkeypatch, how)
    with pytest.raises(AssertionError, match="stale"):
        for seed in range(3):
            _run("werewolf", 9, seed)


def test_the_listeners_looked_up_once_per_move_follow_subscriptions() -> None:
    """The table looks its listeners up once per move (kept between moves): a later subscriber is told,
    an unsubscribed one is not, and a reader nobody listens to gets no notice built."""
    t = Table.open(get("race"), 2, seed=1)
    early: list[int] = []
    late: list[int] = []
    stop = t.subscribe("p1", lambda n: early.append(n.version))
    t.act("p1", "ROLL")
    t.subscribe("p2", lambda n: late.append(n.version))
    t.act("p2", "ROLL")
    stop()
    t.act("p1", "ROLL")
    assert early == [2, 3] and late == [3, 4]
