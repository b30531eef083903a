"""Missions narration: nominations, votes, mission results and the assassination in words,
prompts that name the team size and every candidate, and what Merlin and Percival know."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import missions as ms
from hiddenrole.games.missions import narration as nar
from hiddenrole.games.missions import vocab as ms_vocab

from ..narration_support import Narrated, assert_names_plain, check_narrated, ids_in, play, vocabulary

WORDS = vocabulary(ms_vocab)


def _choose(engine: hr.Engine, pid: str, rng: random.Random) -> tuple[str, tuple[str, ...]] | None:
    """A random legal move; one seat in ten abstains, so leaders sometimes forfeit."""
    if rng.random() < 0.1:
        return None
    return ms.random_submission(engine.player_view(pid), rng)


def _engine(seed: int) -> hr.Engine:
    extras = (("percival", "morgana"), ("mordred", "oberon"), ())[seed % 3]
    variant = ms.RESISTANCE if seed % 4 == 3 else ms.AVALON
    players = 7 + seed % 4 if extras == ("mordred", "oberon") else 5 + seed % 6
    return ms.new_engine(variant, players, () if variant == ms.RESISTANCE else extras, seed, start=False)


@pytest.fixture(scope="module")
def narrated() -> Narrated:
    got = Narrated()
    for seed in range(24):
        play(_engine(seed), random.Random(seed), choose=_choose, into=got)
    return got


def test_every_event_type_is_phrased() -> None:
    assert ms.PUBLIC_EVENTS | {ms.FAIL_REFUSED} == nar.EVENTS


def test_random_games_reach_every_phrased_event(narrated: Narrated) -> None:
    assert narrated.types >= nar.EVENTS, f"never seen: {sorted(nar.EVENTS - narrated.types)}"


def test_everything_a_seat_receives_reads_as_plain_words(narrated: Narrated) -> None:
    check_narrated(nar, narrated, WORDS)


def test_names_of_every_role_skill_and_phase_are_words() -> None:
    config = ms.rules().config
    assert_names_plain(nar, config, ms.ROLES, WORDS)
    assert (nar.role_name(ms.ASSASSIN), nar.camp_name(ms.EVIL), nar.phase_name(ms.PROPOSE_3)) == (
        "Assassin",
        "Evil",
        "Team nomination (3 players)",
    )


# ---------------------------------------------------------------- sentences, exactly

SEATS = (
    ("p1", ms.MERLIN),
    ("p2", ms.ASSASSIN),
    ("p3", ms.SERVANT),
    ("p4", ms.PERCIVAL),
    ("p5", ms.MORGANA),
)


def _view(pid: str) -> hr.PlayerView:
    return ms.engine_from_seats(SEATS).player_view(pid)


@pytest.mark.parametrize(
    ("event", "viewer", "text"),
    [
        (hr.Event(ms.LEADER, target="p1"), "p3", "p1 is now the leader."),
        (hr.Event(ms.LEADER, target="p3"), "p3", "You are now the leader."),
        (
            hr.Event(ms.NOMINATED, "p1", data={"mission": "1", "team": "p1,p3"}),
            "p3",
            "p1 nominates p1 and p3 (you) for mission 1.",
        ),
        (
            hr.Event(
                ms.NOMINATED,
                "p3",
                data={"mission": "2", "team": "p1"},
                canceled=True,
                reason="a team for mission 2 is 3 distinct players",
            ),
            "p3",
            "Your nomination is refused: a team for mission 2 is 3 distinct players.",
        ),
        (
            hr.Event(ms.NO_NOMINATION, "p2", data={"mission": "3"}),
            "p3",
            "p2 nominated nobody for mission 3: it counts as a rejected team.",
        ),
        (hr.Event(ms.VOTED, "p4", data={"vote": "approve"}), "p3", "p4 votes to approve."),
        (hr.Event(ms.VOTED, "p3", data={"vote": "reject"}), "p3", "You vote to reject."),
        (
            hr.Event(ms.TEAM_REJECTED, data={"team": "p1,p4", "approvals": "2", "rejections": "3", "rejects": "1"}),
            "p3",
            "Team p1 and p4 rejected 2\u20133 (1 in a row).",
        ),
        (
            hr.Event(ms.TEAM_APPROVED, data={"team": "p1,p4", "approvals": "3", "rejections": "2"}),
            "p3",
            "Team p1 and p4 approved 3\u20132: the mission goes ahead.",
        ),
        (
            hr.Event(ms.TEAM_REJECTED, data={"team": "", "approvals": "0", "rejections": "0", "rejects": "2"}),
            "p3",
            "No team to vote on: rejected (2 in a row).",
        ),
        (hr.Event(ms.HAMMER, data={"rejects": "5"}), "p3", "5 teams rejected in a row: evil wins the game."),
        (
            hr.Event(
                ms.MISSION_FAILED, data={"mission": "4", "fails": "2", "fails_needed": "2", "team": "p1,p2,p3,p5"}
            ),
            "p3",
            "Mission 4 fails with 2 fail cards, 2 needed to sink it; the team was p1, p2, p3 (you) and p5.",
        ),
        (
            hr.Event(ms.MISSION_SUCCEEDED, data={"mission": "1", "fails": "0", "fails_needed": "1", "team": "p1,p3"}),
            "p3",
            "Mission 1 succeeds with 0 fail cards; the team was p1 and p3 (you).",
        ),
        (
            hr.Event(ms.FAIL_REFUSED, "p3", canceled=True, reason="a good player's card is always a success"),
            "p3",
            "Your fail card is refused: a good player's card is always a success.",
        ),
        (
            hr.Event(ms.ASSASSINATED, target="p1", data={"hit": "true"}),
            "p3",
            "The assassin names p1, who is Merlin: evil wins.",
        ),
        (
            hr.Event(ms.ASSASSINATED, target="p3", data={"hit": "false"}),
            "p3",
            "The assassin names p3 (you), who is not Merlin: good wins.",
        ),
        (hr.Event(hr.GAME_ENDED, data={"winners": ms.EVIL}), "p2", "The game is over. Winners: Evil. You won."),
    ],
)
def test_sentences(event: hr.Event, viewer: str, text: str) -> None:
    assert nar.describe(event, _view(viewer)) == text


def test_what_merlin_percival_and_evil_know() -> None:
    assert (
        nar.identity(_view("p1")) == "You are p1, Merlin; you play for Good. You see these players as evil: p2 and p5."
    )
    assert nar.identity(_view("p4")) == (
        "You are p4, Percival; you play for Good. Merlin and Morgana are p1 and p5, and you cannot tell which is which."
    )
    assert nar.identity(_view("p2")) == (
        "You are p2, Assassin; you play for Evil. Your fellow evil players are p5; you are not told their roles."
    )


# ---------------------------------------------------------------- prompts


def _at(engine: hr.Engine, phase: str) -> hr.Engine:
    for _ in range(10):
        if engine.status().phase == phase:
            return engine
        engine.end_phase()
    raise AssertionError(phase)


def test_the_leader_is_told_the_team_size_and_every_candidate() -> None:
    engine = _at(ms.engine_from_seats(SEATS), ms.PROPOSE_2)
    assert nar.prompt(engine.player_view("p1")) == (
        "Team nomination (2 players). You lead mission 1: choose 2 players for the team "
        "(you may include yourself): p1, p2, p3, p4, p5."
    )
    assert nar.prompt(engine.player_view("p3")) == (
        "Team nomination (2 players). The leader is choosing a team of 2 for mission 1."
    )
    engine.submit("p1", ms.NOMINATE, ["p1", "p3"])
    engine.end_phase()
    assert nar.prompt(engine.player_view("p3")) == "Team vote. Vote on the nominated team: approve or reject."


def test_the_assassin_is_told_whom_to_name() -> None:
    engine = ms.engine_from_seats(SEATS)
    engine.apply(hr.set_var(hr.GAME, ms.VAR_RESULTS, "SSS"), hr.detour("p2", ms.ASSASSINATION))
    engine.end_phase()
    assert engine.status().phase == ms.ASSASSINATION
    assert nar.prompt(engine.player_view("p2")) == "Assassination. Name 1 player you believe is Merlin: p1, p3, p4, p5."
    assert nar.prompt(engine.player_view("p3")) == "Assassination. The assassin is choosing whom to name as Merlin."


def test_prompts_name_only_seated_players(narrated: Narrated) -> None:
    for view in narrated.views:
        named = ids_in(nar.prompt(view), [p.id for p in view.players])
        if ms.NOMINATE in view.allowed_skills:
            assert named == {p.id for p in view.players}
        elif ms.ASSASSINATE in view.allowed_skills:
            assert named == {p.id for p in view.players} - {view.player_id}
        else:
            assert not named
