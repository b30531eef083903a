"""R24-R26: the ordered day (switch ``ordered_day``): the living speak in turn, in seat order."""

from __future__ import annotations

from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww

from .helpers import EIGHT, table, until, vote_all

ORDERED = ww.Switches(ordered_day=True)


def ordered(*roles: str) -> hr.Engine:
    return table(*roles, switches=ORDERED)


def speakers(engine: hr.Engine, cut: tuple[str, ...] = ()) -> list[str]:
    """Let the discussion run to its end (``cut`` turns ended by the host); who held the floor."""
    order = []
    while turn := engine.readiness().turn:
        order.append(turn)
        if turn in cut:
            engine.end_turn(turn)
        else:
            engine.submit(turn, ww.DONE)
    return order


def night_kill(engine: hr.Engine, victim: str) -> None:
    """The wolves of EIGHT (p00, p01) kill ``victim``; the dead skip their last action; on to DAY."""
    until(engine, ww.NIGHT_WOLF)
    for wolf in ("p00", "p01"):
        engine.submit(wolf, ww.KILL, [victim])
    until(engine, ww.DAY)


def test_R24_ordered_day_is_off_by_default_and_leaves_the_default_rules_alone() -> None:
    assert ww.Switches().ordered_day is False
    default = ww.rules()
    assert default.version == ww.version_of() == "1"
    day = default.config.phases[ww.DAY]
    assert day.turn_order is hr.SIMULTANEOUS and [s.skill for s in day.steps] == [hr.ANNOUNCE]
    assert dict(default.turn_resolvers) == {} and ww.turn_resolvers() == {}
    on = ww.rules(ORDERED)
    assert on.version == ww.version_of(ORDERED) == "1;ordered_day=True"
    day = on.config.phases[ww.DAY]
    assert day.turn_order is hr.SEQUENTIAL and day.moves_per_turn == 1
    assert [s.skill for s in day.steps] == [hr.ANNOUNCE, ww.DONE]
    assert set(on.turn_resolvers) == {ww.DAY}
    for phase, pc in on.config.phases.items():
        if phase != ww.DAY:
            assert pc == default.config.phases[phase]
    assert ww.announcement(ww.DAY, ordered_day=True) == ww.ORDERED_DAY_ANNOUNCEMENT != ww.announcement(ww.DAY)
    with pytest.raises(hr.InvalidConfig):
        ww.Switches(ordered_day="yes")  # type: ignore[arg-type]


def test_R24_the_living_speak_one_turn_each_in_seat_order() -> None:
    engine = ordered(*EIGHT)
    until(engine, ww.DAY)
    seen: list[hr.Event] = []
    engine.on_event(seen.append)
    order = []
    while turn := engine.readiness().turn:
        order.append(turn)
        assert {engine.player_view(p).turn for p in engine.player_ids()} == {turn}
        assert engine.allowed_skills(turn) == (ww.DONE,)
        others = [p for p in engine.player_ids() if p != turn]
        assert all(engine.allowed_skills(p) == () for p in others)
        with pytest.raises(hr.NotYourTurn):
            engine.submit(others[0], ww.DONE)
        with pytest.raises(hr.InvalidTargets):
            engine.submit(turn, ww.DONE, [others[0]])
        engine.submit(turn, ww.DONE)
    assert order == list(engine.player_ids())
    assert [(e.type, e.source, e.data["how"]) for e in seen] == [(ww.SPEECH_ENDED, p, ww.DONE) for p in order]
    assert engine.pending_uses() == ()


def test_R24_dead_players_get_no_turn() -> None:
    engine = ordered(*EIGHT)
    night_kill(engine, "p06")
    assert speakers(engine) == ["p00", "p01", "p02", "p03", "p04", "p05", "p07"]
    engine.end_phase()
    vote_all(engine, "p02")
    until(engine, ww.NIGHT_GUARD)
    until(engine, ww.DAY)
    assert speakers(engine) == ["p00", "p01", "p03", "p04", "p05", "p07"]


def test_R24_the_host_ends_a_turn_with_end_turn() -> None:
    engine = ordered(*EIGHT)
    until(engine, ww.DAY)
    with pytest.raises(hr.NotYourTurn):
        engine.end_turn("p01")
    effects = engine.end_turn("p00")
    (ended,) = [e for e in effects if not e.is_internal]
    assert (ended.type, ended.source, ended.data["how"]) == (ww.SPEECH_ENDED, "p00", ww.CUT)
    assert engine.audience_of(ended) == engine.player_ids()
    assert engine.readiness().turn == "p01"
    assert speakers(engine, cut=("p03",)) == ["p01", "p02", "p03", "p04", "p05", "p06", "p07"]


def test_R24_the_day_is_ready_once_everyone_has_spoken() -> None:
    engine = ordered(*EIGHT)
    until(engine, ww.DAY)
    for pid in engine.player_ids():
        r = engine.readiness()
        assert not r.ready and r.turn == pid
        assert [(a.player_id, a.skill) for a in r.pending] == [(pid, ww.DONE)]
        engine.submit(pid, ww.DONE)
    r = engine.readiness()
    assert r.ready and r.turn == "" and r.pending == ()
    assert all(engine.allowed_skills(p) == () for p in engine.player_ids())
    engine.end_phase()
    assert engine.status().phase == ww.VOTE
    assert engine.readiness().turn == "" and len(engine.readiness().pending) == 8  # the vote stays simultaneous


def test_R24_the_host_may_end_the_day_early_and_the_next_day_starts_afresh() -> None:
    engine = ordered(*EIGHT)
    until(engine, ww.DAY)
    engine.submit("p00", ww.DONE)
    engine.end_phase()
    assert engine.status().phase == ww.VOTE
    until(engine, ww.DAY)
    assert engine.status().round == 2 and engine.readiness().turn == "p00"


def test_R25_only_the_player_holding_the_floor_speaks_to_all_the_living() -> None:
    engine = ordered(*EIGHT)
    night_kill(engine, "p06")
    living = engine.alive_player_ids()
    heard: list[tuple[str, tuple[str, ...]]] = []
    engine.on_message(lambda m, to: heard.append((m.sender, to)))
    engine.send_message("p00", "I am a villager")
    assert heard == [("p00", living)]
    for pid in ("p01", "p07"):
        with pytest.raises(hr.MessageNotAllowed):
            engine.send_message(pid, "may I?")
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p06", "the dead never speak")
    engine.submit("p00", ww.DONE)
    assert engine.message_receivers("p00") == () and engine.message_receivers("p01") == living
    speakers(engine)
    assert all(engine.message_receivers(p) == () for p in engine.player_ids())  # the round is over


def test_R25_the_wolves_still_whisper_freely_at_night() -> None:
    engine = ordered(*EIGHT)
    until(engine, ww.NIGHT_WOLF)
    assert engine.readiness().turn == ""
    assert engine.message_receivers("p01") == ("p00", "p01")
    engine.send_message("p01", "the seer?")
    engine.send_message("p00", "the seer.")
    engine.submit("p01", ww.KILL, ["p02"])
    engine.submit("p00", ww.KILL, ["p02"])
    assert engine.message_receivers("p02") == ()


# The two deals below differ only in cards the viewer p06 (a villager in both) cannot see.
DEAL_B = (
    ww.SEER,  # p00
    ww.WEREWOLF,  # p01
    ww.WEREWOLF,  # p02
    ww.VILLAGER,  # p03
    ww.HUNTER,  # p04
    ww.GUARD,  # p05
    ww.VILLAGER,  # p06
    ww.WITCH,  # p07
)


def _public_day(roles: tuple[str, ...], viewer: str) -> list[Any]:
    """Two days played the same way by every seat; what ``viewer`` sees, and who holds the floor."""
    engine = ordered(*roles)
    seen: list[Any] = []
    engine.on_event(lambda e: seen.append(("event", e)) if viewer in (engine.audience_of(e) or ()) else None)
    engine.on_message(lambda m, to: seen.append(("message", m, to)) if viewer in to else None)
    for day, exiled in ((1, "p04"), (2, "p05")):
        until(engine, ww.DAY)
        while turn := engine.readiness().turn:
            seen.append(("floor", turn, tuple(engine.message_receivers(p) for p in engine.player_ids())))
            seen.append(("view", engine.player_view(viewer)))
            engine.send_message(turn, f"{turn} speaks on day {day}")
            if turn == "p03":
                engine.end_turn(turn)
            else:
                engine.submit(turn, ww.DONE)
        engine.end_phase()
        vote_all(engine, exiled)
        engine.end_phase()
        engine.submit(exiled, ww.SKIP)
    return seen


def test_R26_who_speaks_when_is_the_same_whatever_the_deal() -> None:
    a = _public_day(EIGHT, "p06")
    b = _public_day(DEAL_B, "p06")
    assert any(o[0] == "floor" for o in a) and any(o[0] == "message" for o in a)
    assert a == b


def test_R26_a_snapshot_taken_mid_discussion_resumes_the_same_turn() -> None:
    engine = ordered(*EIGHT)
    night_kill(engine, "p02")
    engine.submit("p00", ww.DONE)
    engine.end_turn("p01")
    saved = engine.snapshot().to_json()
    again = ww.restore(saved, ORDERED)
    assert again.snapshot().to_json() == saved
    assert again.readiness() == engine.readiness() and engine.readiness().turn == "p03"
    assert [again.player_view(p) for p in again.player_ids()] == [engine.player_view(p) for p in engine.player_ids()]
    with pytest.raises(hr.RulesMismatch):
        ww.restore(saved)
    for e in (engine, again):
        assert speakers(e) == ["p03", "p04", "p05", "p06", "p07"]
        e.end_phase()
    assert again.snapshot().to_json() == engine.snapshot().to_json()


def test_R26_a_log_replayed_mid_discussion_resumes_the_same_turn() -> None:
    engine = ordered(*EIGHT)
    night_kill(engine, "p05")
    engine.submit("p00", ww.DONE)
    engine.submit("p01", ww.DONE)
    engine.end_turn("p02")
    replayed = ww.replay(engine.log().to_json(), ORDERED)
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()
    assert replayed.readiness().turn == "p03" and replayed.allowed_skills("p03") == (ww.DONE,)
    ended = [(e.source, e.data["how"]) for e in engine.log().effects if e.type == ww.SPEECH_ENDED]
    assert ended == [("p00", ww.DONE), ("p01", ww.DONE), ("p02", ww.CUT)]
    assert speakers(replayed) == ["p03", "p04", "p06", "p07"]
