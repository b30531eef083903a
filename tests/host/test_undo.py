"""Undo: takes back the last standing move, only when the game allows it and no chance was drawn."""

from __future__ import annotations

import dataclasses

import pytest

from hiddenrole import host
from hiddenrole.host import Table, UndoRefused
from hiddenrole.host.catalog import get

from .support import BRAWL_DEF, PEEK, POKE, SPIES_DEF, civilians, every_view, spy_of

RACE = get("race")
REDBLUE = get("redblue")


def test_undo_takes_back_the_last_move_as_if_it_never_happened() -> None:
    t = Table.open(RACE, 3, seed=2)
    t.act("p1", "ROLL")
    before = every_view(t)
    t.act("p2", "TAUNT", ["p3"])
    assert t.undo("p2") == 3
    after = every_view(t)
    # Same board, same events and chat; only the sequence number moved on.
    assert [dataclasses.replace(v, seq=0) for v in after] == [dataclasses.replace(v, seq=0) for v in before]
    assert [m.kind for m in t.moves()] == ["act", "act", "undo"]


def test_undo_is_refused_after_chance() -> None:
    t = Table.open(RACE, 2, seed=2)
    t.act("p1", "ROLL")
    with pytest.raises(UndoRefused, match="drew at random") as info:
        t.undo("p1")
    assert info.value.code == "UNDO_REFUSED"
    with pytest.raises(UndoRefused, match="drew at random"):
        t.undo()  # not even the host
    assert t.seq == 1
    assert not t.can_undo("p1") and host.UNDO not in t.view("p1").moves


def test_undo_is_refused_when_the_game_does_not_allow_it() -> None:
    t = Table.open(BRAWL_DEF, ["f1", "s1"], seed=1)
    t.act("f1", "HIT", ["s1"])
    with pytest.raises(UndoRefused, match="does not allow"):
        t.undo("f1")


def test_undo_is_refused_with_nothing_to_take_back() -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(UndoRefused, match="no move"):
        t.undo("p1")
    t.act("p2", "TAUNT", ["p1"])
    t.undo("p2")
    with pytest.raises(UndoRefused, match="no move"):
        t.undo("p2")


def test_a_seat_takes_back_only_its_own_move_the_host_any() -> None:
    t = Table.open(RACE, 3, seed=1)
    t.act("p2", "TAUNT", ["p1"])
    with pytest.raises(UndoRefused, match="not yours"):
        t.undo("p1")
    with pytest.raises(host.SeatNotFound):
        t.undo("p9")
    assert t.can_undo(None)
    t.undo(None)
    assert t.view("p1").events == t.view("p1").events[:1]  # only GAME_STARTED is left


def test_words_said_cannot_be_taken_back() -> None:
    t = Table.open(RACE, 2, seed=1)
    t.say("p1", "hi")
    with pytest.raises(UndoRefused, match="words said"):
        t.undo("p1")


def test_successive_undos_peel_moves_off_in_order() -> None:
    t = Table.open(SPIES_DEF, 4, seed=3)
    spy = spy_of(t)
    a, b, _ = civilians(t)
    t.act(spy, PEEK, [a])
    start = every_view(t)
    t.act(spy, PEEK, [b])
    t.act(spy, PEEK, [a])
    t.undo(spy)
    t.undo(spy)
    assert [(v.events, v.data, v.players) for v in every_view(t)] == [(v.events, v.data, v.players) for v in start]
    t.act(a, POKE, [b])  # chance: no undo past this point
    with pytest.raises(UndoRefused, match="drew at random"):
        t.undo(a)
    again = Table.replay(SPIES_DEF, t.log().to_json())
    assert every_view(again) == every_view(t)


def test_undo_of_a_move_that_ended_a_phase_reopens_it() -> None:
    t = Table.open(REDBLUE, 3, seed=1)
    for seat in t.seats:
        t.act(seat, "VOTE", [seat])  # the last vote ends the phase (auto-advance): a tie, next round
    assert t.status().round == 2
    t.undo("p3")
    assert t.status().round == 1 and t.view("p3").me is not None
    assert "VOTE" in t.view("p3").me.allowed_skills  # type: ignore[union-attr]


def test_undo_is_logged_and_replayed() -> None:
    t = Table.open(RACE, 2, seed=5)
    t.act("p2", "TAUNT", ["p1"])
    t.undo("p2")
    t.act("p1", "ROLL")
    again = Table.replay(RACE, t.log().to_json())
    assert every_view(again) == every_view(t)
    assert [m.kind for m in again.moves()] == ["act", "undo", "act"]
