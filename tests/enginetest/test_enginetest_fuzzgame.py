"""The kernel's fuzz ruleset, rule by rule (hand-made boards), then its mechanisms in a live engine."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.enginetest import fuzzgame as fg


def board(*players: hr.PlayerInfo, phase: str = fg.ACT, **more: object) -> hr.Board:
    """A position in ``phase``; a FALLOUT trip is in the round its TALLY resolved in, as the kernel holds it."""
    if phase == fg.FALLOUT:
        more.setdefault("round_vars", {fg.TALLIED: str(more.get("round", 1))})
    return hr.Board(players=players, phase=phase, ancestry=(fg.CYCLE,) if phase != fg.FALLOUT else (), **more)  # type: ignore[arg-type]


def use(pid: str, skill: str, *targets: str) -> hr.SkillUse:
    return hr.SkillUse(pid, skill, targets)


def types(effects: list[hr.Effect]) -> list[str]:
    return [e.type for e in effects]


# ---------------------------------------------------------------------- resolvers


def test_strike_marks_its_target_for_the_round() -> None:
    b = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.BLUE))
    out = fg.resolve_act([use("p0", fg.STRIKE, "p1")], b.view())
    assert types(out) == [fg.STRUCK, hr.SET_VAR]
    assert b.apply(out).var(hr.ROUND.of("p1"), fg.MARKED) == hr.VAR_PRESENT


def test_only_a_players_first_use_counts_and_skip_marks_nobody() -> None:
    b = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.BLUE), hr.seat("p2", fg.BLUE))
    out = fg.resolve_act([use("p0", hr.SKIP), use("p0", fg.STRIKE, "p1"), use("p2", fg.STRIKE, "p0")], b.view())
    assert [(e.type, e.target) for e in out if e.type == fg.STRUCK] == [(fg.STRUCK, "p0")]


def test_tally_eliminates_marked_living_players_in_id_order() -> None:
    b = board(
        hr.mark(hr.seat("p2", fg.BLUE), fg.MARKED),
        hr.mark(hr.seat("p0", fg.BLUE), fg.MARKED),
        hr.seat("p1", fg.BLUE),
        hr.mark(hr.seat("p3", fg.BLUE, alive=False), fg.MARKED),
        phase=fg.TALLY,
    )
    out = fg.resolve_tally([], b.view())
    assert [e.target for e in out if e.type == fg.ELIMINATED] == ["p0", "p2"]
    assert out[0].type == hr.ANNOUNCE


def test_tally_sends_red_victims_to_fallout() -> None:
    b = board(hr.mark(hr.seat("p0", fg.RED), fg.MARKED), hr.mark(hr.seat("p1", fg.BLUE), fg.MARKED), phase=fg.TALLY)
    out = fg.resolve_tally([], b.view())
    assert [(e.source, e.phase) for e in out if e.type == hr.DETOUR] == [("p0", fg.FALLOUT)]


def test_tally_announces_the_death_after_applying_it() -> None:
    b = board(hr.mark(hr.seat("p0", fg.BLUE), fg.MARKED), phase=fg.TALLY)
    out = fg.resolve_tally([], b.view())
    assert types(out)[1:3] == [hr.SET_ALIVE, fg.ELIMINATED]


def test_fallout_curse_kills_and_chains_on_a_red_target() -> None:
    b = board(hr.seat("p0", fg.RED, alive=False), hr.seat("p1", fg.RED), phase=fg.FALLOUT)
    out = fg.resolve_fallout([use("p0", fg.CURSE, "p1")], b.view())
    assert types(out) == [hr.SET_ALIVE, fg.CURSED, hr.DETOUR]
    assert out[2].source == "p1"


def test_fallout_curse_on_the_dead_or_a_blue_does_not_chain() -> None:
    b = board(
        hr.seat("p0", fg.RED, alive=False),
        hr.seat("p1", fg.BLUE),
        hr.seat("p2", fg.BLUE, alive=False),
        phase=fg.FALLOUT,
    )
    assert fg.resolve_fallout([use("p0", fg.CURSE, "p2")], b.view()) == []
    assert hr.DETOUR not in types(fg.resolve_fallout([use("p0", fg.CURSE, "p1")], b.view()))


# ---------------------------------------------------------------------- the round boundary checks


def test_tally_counts_the_cycle_and_stamps_its_round() -> None:
    b = board(phase=fg.TALLY, round=3, vars={fg.TALLIES: "2"})
    after = b.apply(fg.resolve_tally([], b.view()))
    assert after.var(hr.GAME, fg.TALLIES) == "3" and after.var(hr.ROUND, fg.TALLIED) == "3"


def test_tally_refuses_a_round_counted_twice() -> None:
    b = board(phase=fg.TALLY, round=4, vars={fg.TALLIES: "2"})
    with pytest.raises(fg.BoundaryBroken, match="TALLY number 3 is in round 4"):
        fg.resolve_tally([], b.view())


def test_tally_refuses_a_dead_red_whose_trip_never_ran() -> None:
    served = hr.seat("p0", fg.RED, alive=False, vars={fg.SERVED: hr.VAR_PRESENT})
    b = board(served, hr.seat("p1", fg.RED, alive=False), hr.seat("p2", fg.BLUE, alive=False), phase=fg.TALLY)
    with pytest.raises(fg.BoundaryBroken, match=r"FALLOUT trips of p1$"):
        fg.resolve_tally([], b.view())


@pytest.mark.parametrize(
    ("round_vars", "says"),
    [({fg.TALLIED: "1"}, "sees TALLY's round as '1'"), ({}, "sees TALLY's round as ''")],
    ids=["round advanced", "state cleared"],
)
def test_fallout_refuses_a_boundary_that_was_not_held(round_vars: dict[str, str], says: str) -> None:
    b = board(hr.seat("p0", fg.RED, alive=False), phase=fg.FALLOUT, round=2, round_vars=round_vars)
    with pytest.raises(fg.BoundaryBroken, match=says):
        fg.resolve_fallout([], b.view())


def test_fallout_marks_its_victim_served_once() -> None:
    b = board(
        hr.seat("p0", fg.RED, alive=False), hr.seat("p1", fg.BLUE), phase=fg.FALLOUT, actors={fg.FALLOUT: ("p0",)}
    )
    after = b.apply(fg.resolve_fallout([use("p0", fg.CURSE, "p1")], b.view()))
    assert after.var(hr.GAME.of("p0"), fg.SERVED) == hr.VAR_PRESENT
    again = hr.Board(after.players, 1, fg.FALLOUT, round_vars={fg.TALLIED: "1"}, actors={fg.FALLOUT: ("p0",)})
    with pytest.raises(fg.BoundaryBroken, match="p0 makes a second FALLOUT trip"):
        fg.resolve_fallout([], again.view())


def test_several_trips_queued_at_once_all_run_then_the_round_lands_once() -> None:
    e = engine(("p0", fg.BLUE), ("p1", fg.BLUE), ("p2", fg.RED), ("p3", fg.BLUE), ("p4", fg.RED), ("p5", fg.RED))
    strike_round(e, {"p0": "p2", "p1": "p4"})
    trail = []
    while e.status().phase == fg.FALLOUT:
        st = e.status()
        trail.append((e.phase_info().roles[""].player_ids, st.round, e.var(hr.ROUND, fg.TALLIED)))
        e.end_phase()
    assert trail == [(("p2",), 1, "1"), (("p4",), 1, "1")]
    assert (e.status().phase, e.status().round, e.var(hr.ROUND, fg.TALLIED)) == (fg.ACT, 2, "")


# ---------------------------------------------------------------------- interceptors


def test_shield_spares_the_first_death_once() -> None:
    b = board(hr.seat("p0", fg.BLUE, vars={fg.SHIELD: hr.VAR_PRESENT}))
    got = fg.shield_once(hr.set_alive("p0", False), b.view())
    assert got is not None and types(got) == [fg.SPARED, hr.SET_VAR]
    after = b.apply(got)
    assert after.var(hr.GAME.of("p0"), fg.SHIELD) == ""
    assert fg.shield_once(hr.set_alive("p0", False), after.view()) is None


def test_shield_ignores_other_effects_and_unshielded_players() -> None:
    b = board(hr.seat("p0", fg.BLUE, vars={fg.SHIELD: hr.VAR_PRESENT}), hr.seat("p1", fg.BLUE))
    assert fg.shield_once(hr.set_alive("p1", False), b.view()) is None
    assert fg.shield_once(hr.set_alive("p0", True), b.view()) is None
    assert fg.shield_once(hr.Effect(fg.STRUCK, "p1", "p0"), b.view()) is None


def test_consequences_of_a_death_that_did_not_happen_are_cancelled() -> None:
    b = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.RED, alive=False))
    for effect in (hr.detour("p0", fg.FALLOUT), hr.Effect(fg.ELIMINATED, target="p0"), hr.Effect(fg.CURSED, "x", "p0")):
        got = fg.only_the_dead_fall(effect, b.view())
        assert got is not None and got[0].canceled and got[0].reason == "survived"
    assert fg.only_the_dead_fall(hr.detour("p1", fg.FALLOUT), b.view()) is None
    assert fg.only_the_dead_fall(hr.Effect(fg.ELIMINATED, target="p1"), b.view()) is None


# ---------------------------------------------------------------------- setup, victory, information


def test_the_two_lowest_seats_start_shielded() -> None:
    b = board(hr.seat("p2", fg.RED), hr.seat("p0", fg.BLUE), hr.seat("p1", fg.BLUE))
    out = fg.shield_the_first_two(b.view())
    assert [e.target for e in out] == ["p0", "p1"]


def test_a_camp_with_nobody_alive_loses_and_both_gone_is_a_draw() -> None:
    both = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.BLUE))
    assert fg.last_camp_standing(both.view()) is None
    reds_gone = board(hr.seat("p0", fg.RED, alive=False), hr.seat("p1", fg.BLUE))
    assert fg.last_camp_standing(reds_gone.view()) == (fg.BLUE,)
    all_gone = board(hr.seat("p0", fg.RED, alive=False), hr.seat("p1", fg.BLUE, alive=False))
    assert fg.last_camp_standing(all_gone.view()) == ()


def test_a_strike_is_known_to_striker_and_target_only() -> None:
    b = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.BLUE), hr.seat("p2", fg.BLUE))
    assert fg.audience(hr.Event(fg.STRUCK, "p2", "p0"), b.view()) == ("p0", "p2")
    assert fg.audience(hr.Event(fg.ELIMINATED, "", "p0"), b.view()) == ("p0", "p1", "p2")


def test_reds_know_each_other_and_blues_know_nobody() -> None:
    b = board(hr.seat("p0", fg.RED), hr.seat("p1", fg.BLUE), hr.seat("p2", fg.RED))
    assert fg.reds_know_each_other("p0", b.view()) == ("p2",)
    assert fg.reds_know_each_other("p1", b.view()) == ()


# ---------------------------------------------------------------------- in a live engine


def engine(*seats: tuple[str, str]) -> hr.Engine:
    e = hr.Engine(fg.rules())
    for pid, role in seats:
        e.add_player(pid, role)
    e.start()
    return e


def strike_round(e: hr.Engine, strikes: dict[str, str]) -> None:
    """ACT with the given strikes (everyone else skips), then TALLY."""
    assert e.status().phase == fg.ACT
    for pid in e.alive_player_ids():
        if pid in strikes:
            e.submit(pid, fg.STRIKE, [strikes[pid]])
        else:
            e.submit(pid, hr.SKIP)
    e.end_phase()
    assert e.status().phase == fg.TALLY
    e.end_phase()


def test_a_dead_red_victim_curses_in_fallout() -> None:
    e = engine(("p0", fg.BLUE), ("p1", fg.BLUE), ("p2", fg.RED), ("p3", fg.BLUE), ("p4", fg.RED))
    strike_round(e, {"p3": "p2"})
    assert e.status().phase == fg.FALLOUT
    assert not e.player_info("p2").alive
    assert e.allowed_skills("p2") == (fg.CURSE,)
    assert e.allowed_skills("p3") == ()
    e.submit("p2", fg.CURSE, ["p3"])
    e.end_phase()
    assert not e.player_info("p3").alive
    assert e.status().phase == fg.ACT


def test_a_spared_red_owes_no_fallout() -> None:
    e = engine(("p0", fg.RED), ("p1", fg.BLUE), ("p2", fg.BLUE), ("p3", fg.RED))
    strike_round(e, {"p1": "p0"})
    assert e.player_info("p0").alive
    assert e.status().phase == fg.ACT
    assert [x.type for x in e.log().effects if x.type in (fg.SPARED, fg.ELIMINATED) and not x.canceled] == [fg.SPARED]


def test_round_advances_on_leaving_tally() -> None:
    e = engine(("p0", fg.RED), ("p1", fg.BLUE), ("p2", fg.BLUE), ("p3", fg.RED))
    assert e.status().round == 1
    strike_round(e, {})
    assert e.status().round == 2


def test_marks_survive_the_loop_inside_cycle_but_not_reentering_it() -> None:
    # p0 is shielded: struck in round 1 it is spared, and its mark stays because
    # TALLY -> ACT does not leave CYCLE; the next TALLY then eliminates it.
    e = engine(("p0", fg.BLUE), ("p1", fg.BLUE), ("p2", fg.BLUE), ("p3", fg.RED), ("p4", fg.RED), ("p5", fg.BLUE))
    strike_round(e, {"p3": "p0"})
    assert e.player_info("p0").alive and e.var(hr.ROUND.of("p0"), fg.MARKED)
    strike_round(e, {})
    assert not e.player_info("p0").alive
    # p1 is shielded too; this time a RED dies in the same TALLY, so FALLOUT follows
    # and re-entering CYCLE clears p1's mark.
    strike_round(e, {"p3": "p1", "p2": "p4"})
    assert e.status().phase == fg.FALLOUT
    e.end_phase()
    assert e.status().phase == fg.ACT
    assert e.var(hr.ROUND.of("p1"), fg.MARKED) == ""
    strike_round(e, {})
    assert e.player_info("p1").alive


def test_fuzz_act_sometimes_names_the_actors_itself() -> None:
    game = fg.setup(random.Random(0))
    e = engine(*game.seats)
    labels = 0
    for seed in range(40):
        turn = et.Turn(hr.Engine.restore(fg.rules(), e.snapshot()), random.Random(seed), seed, 0, game)
        fg.fuzz_act(turn)
        if turn.labels["set_actors"]:
            labels += 1
            assert any(x.type == hr.SET_ACTORS for x in turn.engine.log().effects)
    assert 0 < labels < 40


def test_fuzz_labels_mark_shields_and_cancellations() -> None:
    spared = hr.Effect(fg.SPARED, target="p0")
    vetoed = hr.detour("p0", fg.FALLOUT).cancel("survived")
    e = engine(("p0", fg.RED), ("p1", fg.BLUE))
    assert list(fg.fuzz_labels(e, (spared, vetoed))) == ["shielded", "canceled"]


def test_fuzz_labels_mark_trips_queued_together_and_chained() -> None:
    e = engine(("p0", fg.RED), ("p1", fg.BLUE))
    two = (hr.detour("p0", fg.FALLOUT), hr.detour("p1", fg.FALLOUT))
    assert list(fg.fuzz_labels(e, two)) == ["detours_together"]
    chained = (hr.Effect(fg.CURSED, "p0", "p1"), hr.detour("p1", fg.FALLOUT))
    assert list(fg.fuzz_labels(e, chained)) == ["detour_chain"]


def test_fuzz_setup_deals_four_to_eight_seats_of_both_camps() -> None:
    for seed in range(30):
        game = fg.setup(random.Random(seed))
        roles = [r for _, r in game.seats]
        assert 4 <= len(roles) <= 8
        assert fg.RED in roles and fg.BLUE in roles
