"""R27: bid for the floor (switch ``bid_for_floor``), Werewolf Arena's day discussion."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import floor
from hiddenrole.games.werewolf import hosting as ww_hosting
from hiddenrole.games.werewolf import narration as nar

from .helpers import EIGHT, table, until, vote_all

BIDS = ww.Switches(bid_for_floor=True)


def bidding(turns: int = ww.FLOOR_TURNS) -> hr.Engine:
    engine = table(*EIGHT, switches=ww.Switches(bid_for_floor=True, floor_turns=turns))
    until(engine, ww.DAY)
    return engine


def bid(engine: hr.Engine, **levels: int) -> tuple[hr.Effect, ...]:
    """Each named seat bids its level; end the bidding; the effects."""
    for pid, level in sorted(levels.items()):
        engine.submit(pid, ww.BID, [str(level)])
    return engine.end_phase()


def public(effects: tuple[hr.Effect, ...]) -> list[tuple[str, str, dict[str, str]]]:
    return [(e.type, e.target, dict(e.data)) for e in effects if not e.is_internal]


def speak(engine: hr.Engine) -> str:
    """The floor holder says a line and DONE; end DAY_FLOOR; who spoke."""
    speaker = engine.readiness().turn
    engine.send_message(speaker, "hear me")
    engine.submit(speaker, ww.DONE)
    engine.end_phase()
    return speaker


def test_R27_off_by_default_and_the_default_rules_stay_the_same() -> None:
    assert ww.Switches().bid_for_floor is False
    assert ww.floor_resolvers(ww.Switches()) == {} and ww.floor_turn_resolvers(ww.Switches()) == {}
    default = ww.rules()
    assert ww.DAY_FLOOR not in default.config.phases and default.version == "1"
    on = ww.rules(BIDS)
    assert on.version == "1;bid_for_floor=True"
    assert on.config.target_pools == {ww.BID_POOL: ww.BID_LEVELS}
    with pytest.raises(hr.InvalidConfig):
        ww.Switches(bid_for_floor=True, ordered_day=True)
    for bad in (0, ww.MAX_FLOOR_TURNS + 1, True, "3"):
        with pytest.raises(hr.InvalidConfig):
            ww.Switches(floor_turns=bad)  # type: ignore[arg-type]


def test_R27_the_highest_bid_takes_the_floor_and_bids_stay_secret() -> None:
    engine = bidding()
    seen: list[hr.Event] = []
    engine.on_event(seen.append)
    assert all(engine.allowed_skills(p) == (ww.BID,) for p in engine.player_ids())
    engine.submit("p02", ww.BID, ["1"])
    engine.submit("p05", ww.BID, ["4"])
    engine.submit("p06", ww.BID, ["2"])
    assert seen == []  # a bid is told to nobody
    effects = engine.end_phase()
    assert public(effects) == [(ww.FLOOR, "p05", {"turn": "1"})]
    assert engine.audience_of(effects[0]) == engine.player_ids()
    assert engine.status().phase == ww.DAY_FLOOR
    assert engine.readiness().turn == "p05"
    assert {engine.player_view(p).turn for p in engine.player_ids()} == {"p05"}
    assert engine.allowed_skills("p05") == (ww.DONE,)
    assert all(engine.allowed_skills(p) == () for p in engine.player_ids() if p != "p05")
    with pytest.raises(hr.GameError):
        engine.submit("p02", ww.DONE)


def test_R27_a_bid_outside_the_levels_is_refused() -> None:
    engine = bidding()
    for targets in (["5"], ["p01"], [], ["1", "2"]):
        with pytest.raises(hr.GameError):
            engine.submit("p02", ww.BID, targets)
    assert engine.pending_uses() == ()


def test_R27_ties_go_round_the_table_from_the_last_speaker() -> None:
    engine = bidding()
    assert public(bid(engine, p03=3, p06=3, p01=1))[0][1] == "p03"  # first turn: first tied seat
    assert speak(engine) == "p03"
    assert public(bid(engine, p03=3, p06=3, p01=3))[0][1] == "p06"  # after p03 comes p06
    speak(engine)
    assert public(bid(engine, p03=3, p06=3, p01=3))[0][1] == "p01"  # after p06, wrapping round
    assert floor.next_speaker({"p1": 2, "p2": 2}, ("p1", "p2"), "p2") == "p1"
    assert floor.next_speaker({"p1": 0, "p2": 0}, ("p1", "p2"), "") == ""


def test_R27_only_the_floor_holder_speaks_and_the_bidding_is_silent() -> None:
    engine = bidding()
    with pytest.raises(hr.GameError):
        engine.send_message("p02", "may I?")
    bid(engine, p04=2)
    heard: list[tuple[str, tuple[str, ...]]] = []
    engine.on_message(lambda m, to: heard.append((m.sender, to)))
    with pytest.raises(hr.GameError):
        engine.send_message("p02", "interrupting")
    engine.send_message("p04", "listen")
    assert heard == [("p04", engine.alive_player_ids())]
    engine.submit("p04", ww.DONE)
    with pytest.raises(hr.GameError):
        engine.send_message("p04", "one more thing")


def test_R27_the_day_has_a_bounded_number_of_turns_then_the_vote() -> None:
    engine = bidding(turns=3)
    order = []
    for n in range(3):
        effects = bid(engine, p00=1, p07=4 if n != 1 else 0)
        assert public(effects)[0] == (ww.FLOOR, "p07" if n != 1 else "p00", {"turn": str(n + 1)})
        order.append(speak(engine))
    assert order == ["p07", "p00", "p07"]
    assert engine.status().phase == ww.VOTE
    vote_all(engine, "p06")
    until(engine, ww.DAY)
    assert engine.status().round == 2
    assert public(bid(engine, p02=1))[0] == (ww.FLOOR, "p02", {"turn": "1"})  # a new day counts afresh


def test_R27_when_nobody_bids_above_zero_the_vote_follows() -> None:
    engine = bidding()
    bid(engine, p02=2)
    speak(engine)
    effects = bid(engine, p02=0, p03=0)
    assert public(effects) == [(ww.FLOOR_CLOSED, "", {"why": ww.QUIET, "turns": "1"})]
    assert engine.status().phase == ww.VOTE


def test_R27_a_turn_cut_by_the_host_is_announced_and_counts() -> None:
    engine = bidding(turns=1)
    bid(engine, p01=3)
    effects = engine.end_turn("p01")
    assert [(e.type, e.source, e.data["how"]) for e in effects if not e.is_internal] == [
        (ww.SPEECH_ENDED, "p01", ww.CUT)
    ]
    assert public(engine.end_phase()) == [(ww.FLOOR_CLOSED, "", {"why": ww.TURNS_USED, "turns": "1"})]
    assert engine.status().phase == ww.VOTE


def test_R27_dead_seats_do_not_bid() -> None:
    engine = table(*EIGHT, switches=BIDS)
    until(engine, ww.NIGHT_WOLF)
    for wolf in ("p00", "p01"):
        engine.submit(wolf, ww.KILL, ["p06"])
    until(engine, ww.DAY)
    assert not engine.player_info("p06").alive
    assert engine.allowed_skills("p06") == ()
    with pytest.raises(hr.GameError):
        engine.submit("p06", ww.BID, ["4"])
    assert tuple(a.player_id for a in engine.readiness().pending) == engine.alive_player_ids()
    # Even a bid slipped past the kernel counts for nothing.
    view = engine.player_view("p00")
    assert view.phase == ww.DAY
    uses = (hr.SkillUse("p06", ww.BID, ("4",)), hr.SkillUse("p02", ww.BID, ("1",)))
    got = floor.resolve_bids(uses, _game_view(engine), BIDS)
    assert [(e.type, e.target) for e in got if not e.is_internal] == [(ww.FLOOR, "p02")]


def _game_view(engine: hr.Engine) -> hr.GameView:
    players = tuple(engine.player_info(p) for p in engine.player_ids())
    return hr.Board(players, round=engine.status().round, phase=engine.status().phase).view()


def test_R27_the_vote_follows_with_the_usual_rules() -> None:
    engine = bidding(turns=1)
    bid(engine, p02=1)
    speak(engine)
    assert engine.status().phase == ww.VOTE
    vote_all(engine, "p07")
    effects = engine.end_phase()
    assert any(e.type == ww.ELIMINATE and e.target == "p07" for e in effects)


def test_R27_is_a_host_option_and_narrated() -> None:
    names = {o.name for o in ww_hosting.DEFINITION.options}
    assert {"bid-for-floor", "floor-turns"} <= names
    engine = bidding()
    view = engine.player_view("p03")
    assert "0" in nar.prompt(view) and "4" in nar.prompt(view) and "floor" in nar.prompt(view)
    assert nar.skill_name(ww.BID) == "Bid for the floor"
    effects = bid(engine, p03=2)
    event = next(e for e in effects if e.type == ww.FLOOR).to_event()
    assert nar.describe(event, engine.player_view("p02")) == "p03 takes the floor."
    assert nar.describe(event, engine.player_view("p03")) == "You take the floor."
    assert "p03" in nar.prompt(engine.player_view("p02"))
    assert nar.phase_name(ww.DAY_FLOOR) == "Day: the floor"
    closed = hr.Event(ww.FLOOR_CLOSED, data={"why": ww.QUIET, "turns": "2"})
    assert nar.describe(closed, None) == "Nobody asks for the floor: the discussion is over and the vote follows."
    closed = hr.Event(ww.FLOOR_CLOSED, data={"why": ww.TURNS_USED, "turns": "8"})
    assert nar.describe(closed, None) == "The day's 8 speaking turns are used up: the vote follows."
    assert ww.announcement(ww.DAY, bid_for_floor=True) == ww.BID_DAY_ANNOUNCEMENT
    assert ww.announcement(ww.DAY_FLOOR, bid_for_floor=True) == ww.FLOOR_ANNOUNCEMENT


def test_R27_a_host_table_plays_a_bid_for_day_and_refuses_both_day_modes() -> None:
    from hiddenrole import host
    from hiddenrole.gamedef import InvalidOptions

    d = ww_hosting.DEFINITION
    t = host.Table.open(d, 6, {"bid-for-floor": True, "floor-turns": 2}, seed=1)
    assert t.rules.version == ww.version_of(ww.Switches(bid_for_floor=True, floor_turns=2))
    with pytest.raises(InvalidOptions) as info:
        host.Table.open(d, 6, {"bid-for-floor": True, "ordered-day": True}, seed=1)
    assert info.value.option == "bid-for-floor"
