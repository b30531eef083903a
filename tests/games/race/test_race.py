"""The race rules on their own (no host): turns, dice from a variable, tracks, the finish."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import race


def started(seats: tuple[str, ...] = ("a", "b", "c"), target: int = 10, track: str = race.SHORT) -> hr.Engine:
    engine = race.new_engine(seats, target, track)
    engine.start()
    return engine


def roll(engine: hr.Engine, pid: str, die: int) -> None:
    engine.apply(race.die_effect(die))
    engine.submit(pid, race.ROLL)


def test_racers_take_turns_in_seat_order_one_roll_each() -> None:
    e = started()
    assert e.readiness().turn == "a"
    e.apply(race.die_effect(3))
    with pytest.raises(hr.NotYourTurn):
        e.submit("b", race.ROLL)
    roll(e, "a", 3)
    assert e.readiness().turn == "b"
    roll(e, "b", 2)
    roll(e, "c", 1)
    assert e.readiness().ready and e.readiness().turn == ""


def test_a_turn_is_resolved_when_it_ends_so_the_next_racer_sees_it() -> None:
    e = started()
    roll(e, "a", 4)
    assert race.position(e.view(), "a") == 4
    assert race.positions(e.view()) == {"a": 4, "b": 0, "c": 0}


def test_the_die_is_read_from_the_variable_and_consumed() -> None:
    e = started()
    roll(e, "a", 5)
    assert e.var(hr.GAME, race.VAR_DIE) == ""
    rolled = [x for x in e.log().effects if x.type == race.ROLLED]
    assert dict(rolled[0].data) == {"die": "5", "from": "0", "to": "5"}


def test_a_roll_without_a_die_is_refused_and_changes_nothing() -> None:
    e = started()
    before = e.snapshot().to_json()
    with pytest.raises(hr.InvalidArgument, match="die"):
        e.submit("a", race.ROLL)
    assert e.snapshot().to_json() == before
    e.apply(hr.set_var(hr.GAME, race.VAR_DIE, "7"))
    with pytest.raises(hr.InvalidArgument, match=r"1\.\.6"):
        e.submit("a", race.ROLL)


@pytest.mark.parametrize(
    ("start", "die", "track", "landed", "bounced"),
    [
        (5, 3, race.SHORT, 8, False),
        (8, 4, race.SHORT, 10, False),
        (8, 2, race.LONG, 10, False),
        (8, 4, race.LONG, 8, True),
        (9, 6, race.LONG, 5, True),
    ],
)
def test_tracks_short_caps_at_the_finish_long_bounces_back(
    start: int, die: int, track: str, landed: int, bounced: bool
) -> None:
    assert race.advance(start, die, 10, track) == (landed, bounced)


def test_on_the_long_track_the_bounce_is_reported() -> None:
    e = started(target=10, track=race.LONG)
    e.apply(hr.set_var(hr.GAME.of("a"), race.VAR_POSITION, "8"))
    roll(e, "a", 5)
    assert race.position(e.view(), "a") == 7
    rolled = [x for x in e.log().effects if x.type == race.ROLLED][-1]
    assert rolled.data["bounced"] == "true"


def test_the_race_ends_after_the_round_in_which_someone_finished() -> None:
    e = started(target=10)
    e.apply(hr.set_var(hr.GAME.of("a"), race.VAR_POSITION, "8"))
    roll(e, "a", 6)
    assert [x.type for x in e.log().effects].count(race.FINISHED) == 1
    roll(e, "b", 1)
    roll(e, "c", 1)
    assert not e.status().over  # the host (or the table) ends the round
    e.end_phase()
    st = e.status()
    assert st.over and st.winners == ("a",)
    assert race.rounds_played(e.view()) == 1


def test_everyone_on_the_finish_shares_the_win() -> None:
    e = started(("a", "b"), target=10)
    for pid in ("a", "b"):
        e.apply(hr.set_var(hr.GAME.of(pid), race.VAR_POSITION, "9"))
    roll(e, "a", 1)
    roll(e, "b", 3)
    e.end_phase()
    assert e.status().winners == ("a", "b")


def test_taunts_are_out_of_turn_and_change_nothing() -> None:
    e = started()
    e.submit("c", race.TAUNT, ["a"])
    assert e.readiness().turn == "a"
    assert race.positions(e.view()) == {"a": 0, "b": 0, "c": 0}
    assert next(x for x in e.log().effects if x.type == race.TAUNTED).target == "a"
    with pytest.raises(hr.InvalidTargets):
        e.submit("c", race.TAUNT, ["c"])


def test_every_event_is_public_and_camps_are_the_seats() -> None:
    e = started()
    roll(e, "a", 2)
    event = next(x for x in e.log().effects if x.type == race.ROLLED)
    assert e.audience_of(event) == ("a", "b", "c")
    assert e.player_view("b").self.camp == "b"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"target": 9}, "target"), ({"target": 101}, "target"), ({"target": True}, "target"), ({"track": "x"}, "track")],
)
def test_bad_target_or_track_is_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(hr.InvalidArgument, match=message):
        race.rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [("a",), ("a", "b", "c", "d", "e")])
def test_two_to_four_racers(seats: tuple[str, ...]) -> None:
    with pytest.raises(hr.InvalidArgument, match=r"2\.\.4"):
        race.new_engine(seats)


def test_die_effect_checks_its_value() -> None:
    assert race.die_effect(6).value == "6"
    for bad in (0, 7, True):
        with pytest.raises(hr.InvalidArgument):
            race.die_effect(bad)


def test_a_race_replays_from_the_kernel_log() -> None:
    e = started()
    for pid, die in (("a", 3), ("b", 6), ("c", 2)):
        roll(e, pid, die)
    e.end_phase()
    again = hr.Engine.replay(race.rules(), e.log().to_json())
    assert again.snapshot().to_json() == e.snapshot().to_json()
