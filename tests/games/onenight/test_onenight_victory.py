"""O18-O23 and O26: who wins, several at once or nobody, and only after the vote."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on

from .helpers import Seat, advance_to, board, game, vote_all

W, V, M, S, TN, R, D = on.WEREWOLF, on.VILLAGER, on.MINION, on.SEER, on.TANNER, on.ROBBER, on.DRUNK
VILLAGE, WOLF, TANNER = on.VILLAGE, on.WOLF, on.TANNER_CAMP


def winners(seats: Sequence[Seat], dead: tuple[str, ...] = (), *, clause: bool = False) -> tuple[str, ...]:
    got = on.decide(board(seats, dead=dead, settled=True).view(), minion_clause=clause)
    assert got is not None
    return got


def test_O18_village_wins_when_a_werewolf_holder_dies() -> None:
    seats = [("p0", W), ("p1", V), ("p2", S), ("p3", M)]
    assert winners(seats, ("p0",)) == (VILLAGE,)
    assert winners(seats, ("p0", "p1")) == (VILLAGE,)  # even if a villager dies too
    # The held card counts: a dealt robber holding the werewolf card.
    assert winners([("p0", R, W), ("p1", W, R), ("p2", V)], ("p0",)) == (VILLAGE,)
    assert winners([("p0", R, W), ("p1", W, R), ("p2", V)], ("p1",)) == (WOLF,)


def test_O19_no_werewolf_in_play_village_wins_only_if_nobody_dies() -> None:
    seats = [("p0", V), ("p1", S), ("p2", M)]
    assert winners(seats) == (VILLAGE,)
    assert winners(seats, ("p0",)) == ()
    assert winners(seats, ("p2",)) == ()
    # A dealt werewolf whose card went to the centre is not in play.
    assert winners([("p0", D, V), ("p1", S), ("p2", V)]) == (VILLAGE,)


def test_O20_tanner_wins_by_dying_and_then_wolves_cannot_win() -> None:
    seats = [("p0", TN), ("p1", W), ("p2", V), ("p3", S)]
    assert winners(seats, ("p0",)) == (TANNER,)
    assert winners(seats, ("p0", "p2")) == (TANNER,)
    assert winners(seats, ("p2",)) == (WOLF,)
    assert winners([("p0", TN), ("p1", V), ("p2", S)], ("p0",)) == (TANNER,)


def test_O21_wolves_win_when_a_werewolf_is_in_play_and_survives() -> None:
    seats = [("p0", W), ("p1", M), ("p2", V), ("p3", S)]
    assert winners(seats) == (WOLF,)
    assert winners(seats, ("p2",)) == (WOLF,)
    assert winners(seats, ("p1",)) == (WOLF,)  # a dead minion is fine
    assert winners(seats, ("p1", "p2")) == (WOLF,)


def test_O22_several_camps_win_at_once_or_none() -> None:
    seats = [("p0", TN), ("p1", W), ("p2", V), ("p3", S)]
    assert winners(seats, ("p0", "p1")) == (TANNER, VILLAGE)
    engine = game([("p0", TN), ("p1", W), ("p2", V), ("p3", S)], (W, V, R))
    vote_all(engine, {"p0": "p1", "p1": "p0", "p2": "p0", "p3": "p1"})
    st = engine.status()
    assert st.over and st.winners == (TANNER, VILLAGE)
    reveal = on.final_reveal(engine)
    assert reveal.winners == (TANNER, VILLAGE)
    assert [(p.id, p.held, p.camp, p.alive, p.won) for p in reveal.players] == [
        ("p0", TN, TANNER, False, True),
        ("p1", W, WOLF, False, False),
        ("p2", V, VILLAGE, True, True),
        ("p3", S, VILLAGE, True, True),
    ]
    assert on.reveal_lines(engine) == [
        "p0: Tanner, TANNER, dead, won",
        "p1: Werewolf, WOLF, dead, lost",
        "p2: Villager, VILLAGE, alive, won",
        "p3: Seer, VILLAGE, alive, won",
        "centre: Werewolf, Villager, Robber",
        "winners: TANNER, VILLAGE",
    ]
    ended = engine.log().effects[-1]
    assert ended.type == hr.GAME_ENDED and ended.winners == (TANNER, VILLAGE)
    # Nobody wins: no werewolf among the players and somebody died.
    engine = game([("p0", V), ("p1", S), ("p2", M)], (W, W, R))
    vote_all(engine, {"p0": "p2", "p1": "p2", "p2": "p0"})
    st = engine.status()
    assert st.over and st.winners == ()
    assert not any(p.won for p in on.final_reveal(engine).players)
    assert on.reveal_lines(engine)[-1] == "winners: nobody"


def test_O23_decided_only_after_the_vote() -> None:
    seats = [("p0", W), ("p1", V), ("p2", S)]
    assert on.decide(board(seats).view()) is None
    assert on.decide(board(seats, dead=("p0",)).view()) is None  # no vote yet
    engine = game([("p0", W), ("p1", R), ("p2", TN)], (V, V, S))
    while engine.status().phase != on.VOTE_PHASE:
        assert not engine.status().over
        with pytest.raises(hr.InvalidPhase):
            on.final_reveal(engine)
        engine.end_phase()
    engine.end_phase()
    assert engine.status().over and engine.status().winners == (WOLF,)
    # So the rules declare it (Rules.victory_after): the kernel asks after the vote alone.
    assert engine.rules.victory_after == frozenset({on.VOTE_PHASE})
    assert on.rules((V, V, S), minion_clause=True).victory_after == frozenset({on.VOTE_PHASE})


def test_O26_optional_minion_clause() -> None:
    seats = [("p0", M), ("p1", V), ("p2", S)]
    assert winners(seats, ("p1",), clause=True) == (WOLF,)
    assert winners(seats, ("p1",)) == ()
    assert winners(seats, ("p0",), clause=True) == ()  # the minion's own death is no win
    assert winners(seats, clause=True) == (VILLAGE,)
    assert winners([("p0", W), ("p1", M), ("p2", V)], ("p0",), clause=True) == (VILLAGE,)
    engine = game([("p0", M), ("p1", V), ("p2", TN)], (W, W, S), minion_clause=True)
    vote_all(engine, {"p0": "p2", "p1": "p2", "p2": "p0"})
    assert engine.status().winners == (TANNER, WOLF)
    # Games record which variant they were played under.
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.restore(on.rules((W, W, S)), engine.snapshot())
    again = hr.Engine.restore(on.rules((W, W, S), minion_clause=True), engine.snapshot())
    assert again.status() == engine.status()


def test_final_reveal_refuses_other_engines() -> None:
    from hiddenrole.games import redblue

    other = redblue.new_game()
    other.start()
    with pytest.raises(hr.RulesMismatch):
        on.final_reveal(other)
    with pytest.raises(hr.InvalidArgument):
        on.final_reveal("engine")  # type: ignore[arg-type]
    engine = game([("p0", W), ("p1", V), ("p2", S)], (V, V, R))
    advance_to(engine, on.DAY)
    with pytest.raises(hr.InvalidPhase):
        on.final_reveal(engine)
