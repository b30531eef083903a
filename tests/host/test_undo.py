"""Undo: only a choice nobody else has seen a consequence of (issue 8, finding 4).

A seat may take back its latest act while it is still a pending choice in a phase
where everyone acts at once: no chance drawn, no event shown, the phase not ended.
The last vote of an auto-advancing game resolves the round, so it is never pending.
"""

from __future__ import annotations

import dataclasses

import pytest

from hiddenrole import host
from hiddenrole.host import Table, UndoRefused
from hiddenrole.host.catalog import get

from .support import BRAWL_DEF, PEEK, POKE, SPIES_DEF, civilians, every_view, spy_of

RACE = get("race")
REDBLUE = get("redblue")


def _versionless(views: list[host.TableView], seat: str) -> list[host.TableView]:
    return [dataclasses.replace(v, version=0, moves=()) if v.seat == seat else v for v in views]


def test_undo_takes_back_a_pending_vote_as_if_it_never_happened() -> None:
    t = Table.open(REDBLUE, 5, seed=2)
    before = every_view(t)
    t.act("p1", "VOTE", ["p2"])
    assert host.UNDO in t.view("p1").moves and t.can_undo("p1")
    t.act("p3", "VOTE", ["p2"])  # someone else moving meanwhile does not matter: p1 cannot see it
    t.undo("p1")
    t.undo("p3")
    after = every_view(t)
    # Same board for everyone; the voters' own views came back too (their versions moved on).
    assert [dataclasses.replace(v, version=0) for v in after] == [dataclasses.replace(v, version=0) for v in before]
    assert [t.version(s) for s in (None, "p2", "p4", "p5")] == [1, 1, 1, 1]  # nobody else was told anything
    assert [m.kind for m in t.moves()] == ["act", "act", "undo", "undo"]


def test_the_last_voter_cannot_undo_after_seeing_who_is_out() -> None:
    t = Table.open(REDBLUE, 5, seed=1)
    for seat in t.seats:
        t.act(seat, "VOTE", ["p1" if seat != "p1" else "p2"])  # the last vote ends the round
    assert t.status().round == 2 or t.over
    out = [e for e in t.view("p5").events if e.type == "OUT"]
    assert out, "the round was resolved and everyone saw the result"
    with pytest.raises(UndoRefused, match=r"taken effect|table is over") as info:
        t.undo("p5")
    assert info.value.code == "UNDO_REFUSED"
    assert not t.can_undo("p5") and host.UNDO not in t.view("p5").moves
    with pytest.raises(UndoRefused):
        t.undo()  # not even the host


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


def test_undo_is_refused_for_a_move_another_seat_saw() -> None:
    t = Table.open(RACE, 3, seed=1)
    t.act("p2", "TAUNT", ["p1"])  # resolved at once, and everyone sees the taunt
    with pytest.raises(UndoRefused, match="taken effect"):
        t.undo("p2")
    s = Table.open(SPIES_DEF, 4, seed=3)
    spy = spy_of(s)
    s.act(spy, PEEK, [civilians(s)[0]])  # resolved at once (a free phase): final
    with pytest.raises(UndoRefused, match="taken effect"):
        s.undo(spy)
    s.act(civilians(s)[1], POKE, [spy])
    with pytest.raises(UndoRefused, match="drew at random"):
        s.undo(civilians(s)[1])


def test_undo_is_refused_when_the_game_does_not_allow_it() -> None:
    t = Table.open(BRAWL_DEF, ["f1", "s1"], seed=1)
    t.act("f1", "HIT", ["s1"])
    with pytest.raises(UndoRefused, match="does not allow"):
        t.undo("f1")


def test_undo_is_refused_with_nothing_to_take_back() -> None:
    t = Table.open(REDBLUE, 4, seed=1)
    with pytest.raises(UndoRefused, match="no move"):
        t.undo("p1")
    with pytest.raises(UndoRefused, match="no move"):
        t.undo()
    t.act("p2", "VOTE", ["p1"])
    t.undo("p2")
    with pytest.raises(UndoRefused, match="no move"):
        t.undo("p2")


def test_a_seat_takes_back_only_its_own_move_the_host_the_latest() -> None:
    t = Table.open(REDBLUE, 4, seed=1)
    t.act("p2", "VOTE", ["p1"])
    t.act("p3", "VOTE", ["p1"])
    with pytest.raises(UndoRefused, match="no move"):
        t.undo("p1")
    with pytest.raises(host.SeatNotFound):
        t.undo("p9")
    assert t.can_undo(None)
    t.undo(None)  # the host takes back the latest pending choice: p3's
    assert host.UNDO in t.view("p2").moves and host.UNDO not in t.view("p3").moves


def test_words_said_cannot_be_taken_back() -> None:
    t = Table.open(REDBLUE, 4, seed=1)
    t.say("p1", "hi")
    with pytest.raises(UndoRefused, match="words said"):
        t.undo("p1")


def test_a_seat_may_change_its_mind_and_the_others_see_nothing_of_it() -> None:
    t = Table.open(REDBLUE, 6, seed=3)
    start = every_view(t)
    for target in ("p2", "p3", "p4"):
        t.act("p1", "VOTE", [target])
        t.undo("p1")
    assert _versionless(every_view(t), "p1") == _versionless(start, "p1")
    assert [t.version(s) for s in (None, *t.seats[1:])] == [1] * 6
    again = Table.replay(REDBLUE, t.log().to_json())
    assert every_view(again) == every_view(t)


def test_undo_is_logged_and_replayed() -> None:
    t = Table.open(REDBLUE, 4, seed=5)
    t.act("p2", "VOTE", ["p1"])
    t.undo("p2")
    t.act("p1", "VOTE", ["p2"])
    again = Table.replay(REDBLUE, t.log().to_json())
    assert every_view(again) == every_view(t)
    assert [m.kind for m in again.moves()] == ["act", "undo", "act"]
