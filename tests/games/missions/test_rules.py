"""One test per numbered rule M1..M19 of the missions ruleset (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import hiddenrole as hr
from hiddenrole.games import missions as ms

from .support import (
    AVALON7,
    MORDRED7,
    RESIST5,
    board,
    leader,
    nominate,
    of_type,
    play_mission,
    to_first_nomination,
    types,
    use,
    vote,
)

# ------------------------------------------------------------------ M1


def test_M1_table_size_evil_seats_and_camps() -> None:
    assert dict(ms.EVIL_COUNTS) == {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
    assert {r: ms.camp_of(r) for r in (ms.SERVANT, ms.MERLIN, ms.PERCIVAL)} == dict.fromkeys(
        (ms.SERVANT, ms.MERLIN, ms.PERCIVAL), ms.GOOD
    )
    evil = (ms.MINION, ms.ASSASSIN, ms.MORGANA, ms.MORDRED, ms.OBERON)
    assert {r: ms.camp_of(r) for r in evil} == dict.fromkeys(evil, ms.EVIL)
    engine = ms.engine_from_seats(AVALON7)
    camps = {pid: engine.player_view(pid).self.camp for pid in engine.player_ids()}
    assert camps == {pid: ms.camp_of(role) for pid, role in AVALON7}
    # A table with the wrong evil count, or the wrong size, does not start.
    for seats in (
        (*RESIST5[:3], ("p4", ms.SERVANT), ("p5", ms.MINION)),  # one evil at five
        RESIST5[:4],  # four players
    ):
        engine = ms.engine_from_seats(seats, start=False)
        with pytest.raises(hr.InvalidBoard):
            engine.start()
        assert engine.status().phase == hr.START
        assert engine.log().effects[-1].type == hr.PLAYER_ADDED


# ------------------------------------------------------------------ M2


def test_M2_merlin_sees_evil_except_mordred() -> None:
    view = board(MORDRED7).view()
    assert ms.merlin_info("p1", view) == {ms.KEY_EVIL: "p5,p7"}  # not Mordred (p6)
    view = board(AVALON7).view()
    assert ms.merlin_info("p1", view) == {ms.KEY_EVIL: "p5,p6,p7"}  # Oberon (p7) included
    engine = ms.engine_from_seats(MORDRED7)
    assert dict(engine.player_view("p1").role_info) == {ms.KEY_EVIL: "p5,p7"}
    assert engine.player_view("p1").teammates == ()
    for pid in ("p2", "p3", "p4"):  # servants; evil seats learn their fellows (M4)
        assert dict(engine.player_view(pid).role_info) == {}


# ------------------------------------------------------------------ M3


def test_M3_percival_sees_merlin_and_morgana_unordered() -> None:
    swapped = tuple((pid, {ms.MERLIN: ms.MORGANA, ms.MORGANA: ms.MERLIN}.get(role, role)) for pid, role in AVALON7)
    a = ms.percival_info("p2", board(AVALON7).view())
    b = ms.percival_info("p2", board(swapped).view())
    assert a == b == {ms.KEY_MERLIN_OR_MORGANA: "p1,p6"}
    no_morgana = (*AVALON7[:5], ("p6", ms.MINION), AVALON7[6])
    assert ms.percival_info("p2", board(no_morgana).view()) == {ms.KEY_MERLIN_OR_MORGANA: "p1"}
    engine = ms.engine_from_seats(AVALON7)
    view = engine.player_view("p2")
    assert dict(view.role_info) == {ms.KEY_MERLIN_OR_MORGANA: "p1,p6"}
    assert [p.role for p in view.players if p.id != "p2"] == [""] * 6


# ------------------------------------------------------------------ M4


def test_M4_evil_teammates_except_oberon() -> None:
    view = board(AVALON7).view()
    assert ms.teammates("p5", view) == ("p6",)
    assert ms.teammates("p6", view) == ("p5",)
    assert ms.teammates("p7", view) == ()  # Oberon sees no one
    for pid in ("p1", "p2", "p3", "p4"):
        assert ms.teammates(pid, view) == ()
    view = board(MORDRED7).view()
    assert ms.teammates("p7", view) == ("p5", "p6")
    engine = ms.engine_from_seats(AVALON7)
    # Who is evil, as role info; never which role (no seat's view shows another's card).
    assert dict(engine.player_view("p5").role_info) == {ms.KEY_FELLOW_EVIL: "p6"}
    assert {p.id: p.role for p in engine.player_view("p5").players if p.role} == {"p5": ms.ASSASSIN}
    assert engine.player_view("p5").teammates == ()
    assert {p.id for p in engine.player_view("p7").players if p.role} == {"p7"}


# ------------------------------------------------------------------ M5


def test_M5_reveal_then_first_seat_leads() -> None:
    engine = ms.engine_from_seats(AVALON7)
    assert engine.status() == hr.Status(ms.REVEAL, 1, False, ())
    assert all(engine.allowed_skills(pid) == () for pid in engine.player_ids())
    assert engine.readiness().ready
    out = engine.end_phase()
    assert of_type(out, ms.LEADER)[0].target == "p1"
    assert engine.status().phase == ms.PROPOSE_2
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()} == {
        pid: (ms.NOMINATE,) if pid == "p1" else () for pid in engine.player_ids()
    }
    assert ms.resolve_reveal((), board(AVALON7, ms.REVEAL).view())[0] == hr.set_var(hr.GAME, ms.VAR_LEADER, "p1")


# ------------------------------------------------------------------ M6


def test_M6_nomination_is_one_submission_of_team_size() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    assert ms.team_size(engine.player_view("p1")) == 2
    for bad in (("p2",), ("p2", "p3", "p4"), ("p2", "p2")):
        with pytest.raises(hr.SkillNotAllowed):
            engine.submit("p1", ms.NOMINATE, bad)
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p1", ms.NOMINATE, ("p2", "zz"))
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p2", ms.NOMINATE, ("p2", "p3"))
    assert engine.pending_uses() == ()
    engine.submit("p1", ms.NOMINATE, ("p3", "p1"))  # the leader may go
    out = engine.end_phase()
    (event,) = of_type(out, ms.NOMINATED)
    assert (event.source, event.data["team"], event.data["mission"]) == ("p1", "p1,p3", "1")
    assert engine.status().phase == ms.TEAM_VOTE
    assert engine.var(hr.ROUND, ms.VAR_TEAM) == "p1,p3"
    # Each table size and mission opens the nomination phase of the mission's size.
    for players in range(5, 11):
        seats = ms.deal(ms.composition(ms.AVALON, players), seed=players)
        opened = [ms.resolve_reveal((), board(seats, ms.REVEAL).view())]
        for mission in range(2, 6):
            prev = "FSF"[: mission - 2]  # finished missions; this one succeeds, nobody has won
            view = board(seats, ms.MISSION, vars={ms.VAR_RESULTS: prev, ms.VAR_LEADER: "p1"}).view()
            opened.append(ms.resolve_mission((), view))
        sizes = [ms.team_size(of_type(out, hr.GOTO_PHASE)[0].phase) for out in opened]
        assert sizes == list(ms.TEAM_SIZES[players]) == [ms.mission_team_size(players, m) for m in range(1, 6)]
    # A nomination of the wrong shape that bypassed the kernel is refused, not voted on.
    view = board(AVALON7, ms.PROPOSE_2, vars={ms.VAR_LEADER: "p1"}).view()
    refused = ms.resolve_nomination([use("p1", ms.NOMINATE, "p2", "p3", "p4")], view)
    assert of_type(refused, ms.NOMINATED)[0].canceled
    assert ms.audience(of_type(refused, ms.NOMINATED)[0].to_event(), view) == ("p1",)
    assert of_type(refused, ms.NO_NOMINATION)
    # So is a team of the right size naming a seat twice, or nobody seated; a good one goes.
    for bad in (("p2", "p2"), ("p2", "p99"), ("p99", "p2")):
        refused = ms.resolve_nomination([use("p1", ms.NOMINATE, *bad)], view)
        assert of_type(refused, ms.NOMINATED)[0].canceled and of_type(refused, ms.NO_NOMINATION)
    accepted = ms.resolve_nomination([use("p1", ms.NOMINATE, "p3", "p2")], view)
    assert not of_type(accepted, ms.NOMINATED)[0].canceled and not of_type(accepted, ms.NO_NOMINATION)


# ------------------------------------------------------------------ M7


def test_M7_no_nomination_forfeits() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    out = engine.end_phase()
    (event,) = of_type(out, ms.NO_NOMINATION)
    assert (event.source, event.data["mission"]) == ("p1", "1")
    assert engine.status().phase == ms.TEAM_VOTE
    assert all(engine.allowed_skills(pid) == () for pid in engine.player_ids())
    assert engine.readiness().ready
    out = engine.end_phase()
    (rejected,) = of_type(out, ms.TEAM_REJECTED)
    assert (rejected.data["team"], rejected.data["rejects"]) == ("", "1")
    assert engine.status().phase == ms.PROPOSE_2
    assert leader(engine) == "p2"
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()} == {
        pid: (ms.NOMINATE,) if pid == "p2" else () for pid in engine.player_ids()
    }


# ------------------------------------------------------------------ M8


def test_M8_team_vote_public_strict_majority() -> None:
    base = board(AVALON7, ms.TEAM_VOTE, vars={ms.VAR_LEADER: "p1"}, round_vars={ms.VAR_TEAM: "p1,p2"})
    view = base.view()
    four_three = [use(p, ms.APPROVE) for p in ("p1", "p2", "p3", "p4")] + [
        use(p, ms.REJECT) for p in ("p5", "p6", "p7")
    ]
    out = ms.resolve_team_vote(four_three[::-1], view)
    assert [(e.source, e.data["vote"]) for e in of_type(out, ms.VOTED)] == [
        ("p1", "approve"),
        ("p2", "approve"),
        ("p3", "approve"),
        ("p4", "approve"),
        ("p5", "reject"),
        ("p6", "reject"),
        ("p7", "reject"),
    ]
    assert of_type(out, ms.TEAM_APPROVED) and hr.goto_phase(ms.MISSION) not in out
    assert hr.set_actors(ms.MISSION, "p1", "p2") in out
    assert all(ms.audience(e.to_event(), view) == view.player_ids() for e in of_type(out, ms.VOTED))
    tie = [use(p, ms.APPROVE) for p in ("p1", "p2", "p3")] + [use(p, ms.REJECT) for p in ("p4", "p5", "p6")]
    assert of_type(ms.resolve_team_vote(tie, view), ms.TEAM_REJECTED)
    assert of_type(ms.resolve_team_vote([], view), ms.TEAM_REJECTED)
    # The first ballot counts: p1's later reject is ignored, so 1 approval beats 0.
    out = ms.resolve_team_vote([use("p1", ms.APPROVE), use("p1", ms.REJECT)], view)
    assert of_type(out, ms.TEAM_APPROVED)[0].data["approvals"] == "1"
    assert len(of_type(out, ms.VOTED)) == 1


# ------------------------------------------------------------------ M9


def test_M9_leadership_passes_after_every_vote() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    nominate(engine)
    out = vote(engine, False)
    assert of_type(out, ms.LEADER)[0].target == "p2" and leader(engine) == "p2"
    nominate(engine)
    vote(engine, True)
    assert leader(engine) == "p3"
    view = board(AVALON7, ms.TEAM_VOTE, vars={ms.VAR_LEADER: "p7"}, round_vars={ms.VAR_TEAM: "p1,p2"}).view()
    for ballots in ([use("p1", ms.APPROVE)], []):
        assert hr.set_var(hr.GAME, ms.VAR_LEADER, "p1") in ms.resolve_team_vote(ballots, view)  # wraps
    # A leader who is not seated (a hand-made board) hands the lead to the first seat.
    view = board(AVALON7, ms.TEAM_VOTE, vars={ms.VAR_LEADER: "p9"}, round_vars={ms.VAR_TEAM: "p1,p2"}).view()
    assert hr.set_var(hr.GAME, ms.VAR_LEADER, "p1") in ms.resolve_team_vote([], view)


# ------------------------------------------------------------------ M10


def test_M10_five_rejections_in_a_row_hammer() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    for n in range(1, 5):
        nominate(engine)
        out = vote(engine, False)
        assert of_type(out, ms.TEAM_REJECTED)[0].data["rejects"] == str(n)
    nominate(engine)
    vote(engine, True)  # approval resets the count
    assert engine.var(hr.GAME, ms.VAR_REJECTS) == ""
    for pid in ("p1", "p2"):
        engine.submit(pid, ms.SUCCESS)
    engine.end_phase()
    for _ in range(4):
        engine.end_phase()  # forfeit ...
        engine.end_phase()  # ... and the empty team is rejected
    nominate(engine)
    out = vote(engine, False)
    assert of_type(out, ms.HAMMER)[0].data["rejects"] == "5"
    assert engine.status().over and engine.status().winners == (ms.EVIL,)
    assert ms.check_victory(board(AVALON7, vars={ms.VAR_REJECTS: "4"}).view()) is None


# ------------------------------------------------------------------ M11


def test_M11_mission_result_is_anonymous() -> None:
    seats = MORDRED7
    view = board(seats, ms.MISSION, round_vars={ms.VAR_TEAM: "p1,p5,p6"}).view()
    out = ms.resolve_mission([use("p6", ms.FAIL), use("p5", ms.SUCCESS), use("p1", ms.SUCCESS)], view)
    assert types(e for e in out if not e.is_internal) == [ms.MISSION_FAILED]
    (result,) = of_type(out, ms.MISSION_FAILED)
    assert (result.source, result.target, result.data["fails"], result.data["team"]) == ("", "", "1", "p1,p5,p6")
    # Two evil fails and one evil success look the same apart from the count.
    out2 = ms.resolve_mission([use("p5", ms.FAIL), use("p6", ms.FAIL), use("p1", ms.SUCCESS)], view)
    assert types(e for e in out2 if not e.is_internal) == [ms.MISSION_FAILED]
    assert of_type(out2, ms.MISSION_FAILED)[0].data["fails"] == "2"
    # Cards from outside the team do not count; a missing card is a success.
    out3 = ms.resolve_mission([use("p7", ms.FAIL)], view)
    assert of_type(out3, ms.MISSION_SUCCEEDED)[0].data["fails"] == "0"
    engine = ms.engine_from_seats(seats)
    to_first_nomination(engine)
    nominate(engine, ("p6", "p7"))
    vote(engine, True)
    assert engine.allowed_skills("p1") == ()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p1", ms.FAIL)
    engine.submit("p6", ms.FAIL)
    engine.submit("p7", ms.FAIL)
    seen: list[hr.Event] = []
    engine.on_event(seen.append)
    engine.end_phase()
    assert [e.type for e in seen] == [ms.MISSION_FAILED]
    assert seen[0].data["fails"] == "2"


# ------------------------------------------------------------------ M12


def test_M12_good_fail_refused_privately() -> None:
    view = board(AVALON7, ms.MISSION, round_vars={ms.VAR_TEAM: "p1,p3"}).view()
    out = ms.resolve_mission([use("p3", ms.FAIL), use("p1", ms.SUCCESS)], view)
    (refused,) = of_type(out, ms.FAIL_REFUSED)
    assert refused.canceled and refused.source == "p3"
    # Built as one tuple: the same value, field for field, as the event cancelled.
    want = hr.event(ms.FAIL_REFUSED, "p3").cancel("a good player's card is always a success")
    assert type(refused) is hr.Effect and tuple(refused) == tuple(want)
    assert ms.audience(refused.to_event(), view) == ("p3",)
    assert of_type(out, ms.MISSION_SUCCEEDED)[0].data["fails"] == "0"
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    nominate(engine, ("p1", "p3"))
    vote(engine, True)
    engine.submit("p1", ms.FAIL)
    engine.submit("p3", ms.SUCCESS)
    played = engine.end_phase()
    assert [engine.audience_of(e) for e in of_type(played, ms.FAIL_REFUSED)] == [("p1",)]
    assert engine.var(hr.GAME, ms.VAR_RESULTS) == "S"


# ------------------------------------------------------------------ M13


def test_M13_fails_needed() -> None:
    assert [[ms.fails_needed(n, m) for m in range(1, 6)] for n in range(5, 11)] == [
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
        [1, 1, 1, 2, 1],
        [1, 1, 1, 2, 1],
        [1, 1, 1, 2, 1],
        [1, 1, 1, 2, 1],
    ]
    team = "p1,p5,p6,p7"
    for fails, kind in ((("p5",), ms.MISSION_SUCCEEDED), (("p5", "p6"), ms.MISSION_FAILED)):
        view = board(MORDRED7, ms.MISSION, vars={ms.VAR_RESULTS: "SFS"}, round_vars={ms.VAR_TEAM: team}).view()
        out = ms.resolve_mission([use(p, ms.FAIL) for p in fails], view)
        assert of_type(out, kind)[0].data["fails_needed"] == "2"
    six = (*RESIST5, ("p6", ms.SERVANT))
    view = board(six, ms.MISSION, vars={ms.VAR_RESULTS: "SFS"}, round_vars={ms.VAR_TEAM: "p1,p4,p5"}).view()
    assert of_type(ms.resolve_mission([use("p4", ms.FAIL)], view), ms.MISSION_FAILED)


# ------------------------------------------------------------------ M14


def test_M14_three_failures_evil_wins() -> None:
    engine = ms.engine_from_seats(RESIST5)
    to_first_nomination(engine)
    play_mission(engine, fails=("p4",), team=("p1", "p4"))
    play_mission(engine, fails=("p4",), team=("p1", "p2", "p4"))
    assert not engine.status().over
    out = play_mission(engine, fails=("p5",), team=("p1", "p5"))
    assert out[-1].type == hr.GAME_ENDED
    assert engine.status().winners == (ms.EVIL,)
    assert ms.check_victory(board(RESIST5, vars={ms.VAR_RESULTS: "FSFSF"}).view()) == (ms.EVIL,)


# ------------------------------------------------------------------ M15


def test_M15_three_successes_go_to_assassination_or_good_wins() -> None:
    engine = ms.engine_from_seats(RESIST5)
    to_first_nomination(engine)
    for _ in range(3):
        play_mission(engine)
    assert engine.status().winners == (ms.GOOD,)
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    for _ in range(3):
        out = play_mission(engine)
    assert hr.detour("p5", ms.ASSASSINATION) in out
    assert engine.status().phase == ms.ASSASSINATION and not engine.status().over
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()} == {
        pid: (ms.ASSASSINATE,) if pid == "p5" else () for pid in engine.player_ids()
    }


# ------------------------------------------------------------------ M16


def _at_assassination() -> hr.Engine:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    for _ in range(3):
        play_mission(engine)
    return engine


def test_M16_assassination_decides() -> None:
    for target, winner in (("p1", ms.EVIL), ("p2", ms.GOOD), ("p6", ms.GOOD), (None, ms.GOOD)):
        engine = _at_assassination()
        if target is not None:
            engine.submit("p5", ms.ASSASSINATE, (target,))
        out = engine.end_phase()
        (shot,) = of_type(out, ms.ASSASSINATED)
        assert (shot.source, shot.target, shot.data["hit"]) == ("", target or "", str(winner == ms.EVIL).lower())
        assert engine.status().winners == (winner,)
    engine = _at_assassination()
    with pytest.raises(hr.InvalidTargets):
        engine.submit("p5", ms.ASSASSINATE, ("p5",))
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p5", ms.ASSASSINATE, ("p1", "p2"))
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p6", ms.ASSASSINATE, ("p1",))


def test_M10_M14_M16_only_the_vote_the_mission_and_the_assassination_decide() -> None:
    # What check_victory reads (rejects, results, the shot) changes only there: the rules declare
    # it (Rules.victory_after), so the kernel skips the check after the reveal and the nominations.
    assert ms.rules().victory_after == frozenset({ms.TEAM_VOTE, ms.MISSION, ms.ASSASSINATION})


# ------------------------------------------------------------------ M17


def test_M17_round_is_mission_number() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    nominate(engine)
    vote(engine, False)
    assert engine.status().round == 1
    play_mission(engine)
    assert engine.status().round == 2
    assert ms.current_mission(engine.view()) == 2
    play_mission(engine, fails=("p6",), team=("p1", "p2", "p6"))
    assert engine.status().round == 3 and engine.var(hr.GAME, ms.VAR_RESULTS) == "SF"
    play_mission(engine)
    play_mission(engine)
    # The assassination is a detour: the round boundary of the last mission is held while
    # it is owed, so the round is still that mission's (kernel: issue 11, goal 3).
    assert engine.status() == hr.Status(ms.ASSASSINATION, 4, False, ())


# ------------------------------------------------------------------ M18


def test_M18_audience_and_speech() -> None:
    view = board(AVALON7).view()
    everyone = view.player_ids()
    for kind in [*sorted(ms.EVENTS - {ms.FAIL_REFUSED}), hr.GAME_STARTED, hr.GAME_ENDED]:
        assert ms.audience(hr.Event(kind, "p3"), view) == everyone, kind
    assert ms.audience(hr.Event(ms.FAIL_REFUSED, "p3"), view) == ("p3",)
    assert ms.FAIL_REFUSED not in ms.PUBLIC_EVENTS
    assert ms.audience(hr.Event(ms.NOMINATED, "p1", canceled=True), view) == ("p1",)
    assert ms.audience(hr.Event("SOMETHING_ELSE"), view) is None
    engine = ms.engine_from_seats(AVALON7)
    for pid in engine.player_ids():
        assert engine.message_receivers(pid) == everyone
    heard: list[tuple[str, tuple[str, ...]]] = []
    engine.on_message(lambda msg, to: heard.append((msg.sender, to)))
    engine.send_message("p7", "trust me")
    assert heard == [("p7", everyone)]


# ------------------------------------------------------------------ M19


def test_M19_presets_and_validation() -> None:
    assert ms.composition(ms.RESISTANCE, 5) == tuple(sorted([ms.SERVANT] * 3 + [ms.MINION] * 2))
    assert ms.composition(ms.AVALON, 5) == tuple(sorted([ms.MERLIN, ms.ASSASSIN, ms.SERVANT, ms.SERVANT, ms.MINION]))
    seven = ms.composition(ms.AVALON, 7, ("percival", "Morgana", ms.OBERON))
    assert sorted(seven) == sorted(role for _, role in AVALON7)
    for players in range(5, 11):
        for variant, extra in ((ms.RESISTANCE, ()), (ms.AVALON, ()), (ms.AVALON, ("percival", "morgana"))):
            roles = ms.composition(variant, players, extra)
            assert len(roles) == players
            assert sum(ms.camp_of(r) == ms.EVIL for r in roles) == ms.evil_count(players)
            ms.check_composition(roles)
    refused: list[Callable[[], object]] = [
        lambda: ms.composition(ms.RESISTANCE, 7, ("merlin",)),
        lambda: ms.composition(ms.AVALON, 5, ("morgana", "percival", "mordred")),  # three evil at five
        lambda: ms.composition(ms.AVALON, 7, ("percival", "percival")),
        lambda: ms.composition(ms.AVALON, 7, ("morgana",)),  # Morgana without Percival
        lambda: ms.composition(ms.AVALON, 11),
        lambda: ms.composition("chess", 7),
        lambda: ms.check_composition([ms.MERLIN, ms.SERVANT, ms.SERVANT, ms.MINION, ms.MINION]),  # no assassin
        lambda: ms.check_composition([ms.PERCIVAL, ms.SERVANT, ms.SERVANT, ms.MINION, ms.MINION]),
        lambda: ms.check_composition([ms.SERVANT] * 4 + [ms.MINION]),  # one evil at five
        lambda: ms.check_composition([ms.SERVANT] * 2 + [ms.MINION] * 3),  # three evil at five
        lambda: ms.check_composition([ms.MERLIN, ms.SERVANT, ms.SERVANT, ms.ASSASSIN, ms.ASSASSIN]),
        lambda: ms.check_composition([ms.SERVANT] * 3 + [ms.MINION, "WEREWOLF"]),
    ]
    for attempt in refused:
        with pytest.raises(hr.InvalidBoard):
            attempt()
    with pytest.raises(hr.InvalidRole):
        ms.composition(ms.AVALON, 7, ("lancelot",))
    # Dealing depends on the seed and the multiset of roles only.
    roles = ms.composition(ms.AVALON, 8, ("percival", "morgana", "mordred"))
    first = ms.deal(roles, 11)
    assert first == ms.deal(tuple(reversed(roles)), 11)
    assert [pid for pid, _ in first] == list(ms.seat_ids(8))
    assert sorted(r for _, r in first) == sorted(roles)
    assert len({ms.deal(roles, seed) for seed in range(20)}) > 10
    engine = ms.new_engine(ms.AVALON, 8, ("percival", "morgana", "mordred"), seed=11)
    assert tuple((p, engine.player_info(p).role) for p in engine.player_ids()) == first
    assert engine.rules is ms.rules() and engine.rules.name == "missions"


def test_M19_a_remembered_legal_table_never_lets_an_illegal_one_through() -> None:
    """check_composition remembers legal tables only: refusals are decided afresh every time."""
    legal = ms.composition(ms.AVALON, 5)
    bad = [ms.MERLIN, ms.SERVANT, ms.SERVANT, ms.ASSASSIN, ms.ASSASSIN]
    for _ in range(3):
        ms.check_composition(legal)
        ms.check_composition(list(legal))
        ms.check_composition(iter(legal))  # any iterable, read once
        with pytest.raises(hr.InvalidBoard):
            ms.check_composition(bad)
        with pytest.raises(hr.InvalidBoard):
            ms.check_composition((*legal[:-1], "WEREWOLF"))
