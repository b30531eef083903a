"""O14-O17: the vote, who dies, and the hunter."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on
from hiddenrole.games.onenight import resolvers as rs

from .helpers import advance_to, board, game, of_type, use, vote_all

W, V, H, S = on.WEREWOLF, on.VILLAGER, on.HUNTER, on.SEER


def _votes(b: hr.Board, votes: dict[str, str]) -> list[hr.Effect]:
    return rs.resolve_vote([use(v, on.VOTE, t) for v, t in votes.items()], b.view())


def _dead(b: hr.Board, effects: list[hr.Effect]) -> list[str]:
    return [p.id for p in b.apply(effects).players if not p.alive]


FOUR = board([("p0", V), ("p1", V), ("p2", W), ("p3", S)])


def _at_the_vote() -> hr.Engine:
    engine = game([("p0", V), ("p1", W), ("p2", S)], (V, V, H))
    advance_to(engine, on.VOTE_PHASE)
    return engine


@pytest.mark.parametrize(
    ("targets", "error"),
    [
        pytest.param(["p0"], hr.InvalidTargets, id="self"),
        pytest.param(["p7"], hr.TargetNotFound, id="unknown-player"),
        pytest.param(["0"], hr.TargetNotFound, id="a-centre-card"),
        pytest.param(["p1", "p2"], hr.SkillNotAllowed, id="two-players"),
    ],
)
def test_O14_a_vote_names_exactly_one_other_player(targets: list[str], error: type[hr.GameError]) -> None:
    engine = _at_the_vote()
    with pytest.raises(error):
        engine.submit("p0", on.VOTE, targets)
    assert engine.pending_uses() == ()


def test_O14_everyone_votes_for_one_other_player() -> None:
    engine = _at_the_vote()
    assert all(engine.allowed_skills(p) == (on.VOTE,) for p in engine.player_ids())
    engine.submit("p0", on.VOTE, ["p1"])
    assert not engine.readiness().ready  # everyone owes a vote
    assert [a.player_id for a in engine.readiness().pending] == ["p1", "p2"]
    engine.submit("p1", on.VOTE, ["p0"])
    engine.submit("p2", on.VOTE, ["p1"])
    assert engine.readiness().ready
    done = engine.end_phase()
    assert [(e.source, e.target) for e in of_type(done, on.VOTED)] == [("p0", "p1"), ("p1", "p0"), ("p2", "p1")]
    # A hand-fed self-vote or unknown target is not counted.
    effects = _votes(FOUR, {"p0": "p0", "p1": "p9", "p2": "p3"})
    assert [(e.source, e.target) for e in of_type(effects, on.VOTED)] == [("p2", "p3")]


def test_O13_a_first_vote_that_counts_for_nothing_still_hides_later_ones() -> None:
    """Only a voter's first vote is read, even when it names nobody who can be voted for."""
    uses = [use("p0", on.VOTE, "p0"), use("p0", on.VOTE, "p1"), use("p1", on.VOTE, "p9"), use("p1", on.VOTE, "p2")]
    uses += [use("p2", on.SEER_PLAYER, "p3"), use("p2", on.VOTE, "p3")]  # another skill is not a vote
    effects = rs.resolve_vote(uses, FOUR.view())
    assert [(e.source, e.target) for e in of_type(effects, on.VOTED)] == [("p2", "p3")]


def test_O14_votes_are_told_in_voter_order_whatever_order_they_came_in() -> None:
    uses = [use("p2", on.VOTE, "p3"), use("p0", on.VOTE, "p2"), use("p2", on.VOTE, "p0"), use("p3", on.VOTE, "p0")]
    uses.append(use("p0", on.VOTE, "p3"))  # second votes, before and after the voter's id came again, are ignored
    effects = rs.resolve_vote(uses, FOUR.view())
    assert [(e.source, e.target) for e in of_type(effects, on.VOTED)] == [("p0", "p2"), ("p2", "p3"), ("p3", "p0")]


def test_O15_nobody_dies_when_nobody_gets_more_than_one_vote() -> None:
    ring = {"p0": "p1", "p1": "p2", "p2": "p3", "p3": "p0"}
    effects = _votes(FOUR, ring)
    assert _dead(FOUR, effects) == [] and len(of_type(effects, on.NO_ONE_DIES)) == 1
    # One abstains: three players have one vote each, still nobody dies.
    effects = _votes(FOUR, {"p0": "p1", "p1": "p2", "p2": "p0"})
    assert _dead(FOUR, effects) == [] and of_type(effects, on.LYNCHED) == []
    effects = _votes(FOUR, {})
    assert _dead(FOUR, effects) == [] and dict(of_type(effects, on.NO_ONE_DIES)[0].data) == {"votes": "0"}
    engine = game([("p0", V), ("p1", W), ("p2", S)], (V, V, H))
    vote_all(engine, {"p0": "p1", "p1": "p2", "p2": "p0"})
    assert engine.alive_player_ids() == ("p0", "p1", "p2")


def test_O16_everyone_tied_at_the_most_votes_dies() -> None:
    effects = _votes(FOUR, {"p0": "p2", "p1": "p2", "p2": "p0", "p3": "p0"})
    assert _dead(FOUR, effects) == ["p0", "p2"]
    assert [(e.target, e.data["votes"]) for e in of_type(effects, on.LYNCHED)] == [("p0", "2"), ("p2", "2")]
    effects = _votes(FOUR, {"p0": "p2", "p1": "p2", "p2": "p0"})
    assert _dead(FOUR, effects) == ["p2"]
    assert of_type(effects, on.NO_ONE_DIES) == []
    assert effects[-1] == hr.set_var(hr.GAME, on.VAR_VOTE_SETTLED, hr.VAR_PRESENT)


def test_O17_dying_hunter_takes_their_vote_target() -> None:
    b = board([("p0", H), ("p1", V), ("p2", W), ("p3", S)])
    effects = _votes(b, {"p1": "p0", "p2": "p0", "p0": "p2", "p3": "p1"})
    assert _dead(b, effects) == ["p0", "p2"]
    (hit,) = of_type(effects, on.HUNTER_HIT)
    assert (hit.source, hit.target) == ("p0", "p2")
    # The hunter is the held card: a dealt hunter who lost it does not shoot...
    b = board([("p0", H, V), ("p1", V, H), ("p2", W), ("p3", S)])
    effects = _votes(b, {"p1": "p0", "p2": "p0", "p0": "p2", "p3": "p2"})
    assert _dead(b, effects) == ["p0", "p2"] and of_type(effects, on.HUNTER_HIT) == []
    # ...and the player who now holds the hunter card does.
    effects = _votes(b, {"p0": "p1", "p2": "p1", "p1": "p3", "p3": "p0"})
    assert _dead(b, effects) == ["p1", "p3"]
    assert [(e.source, e.target) for e in of_type(effects, on.HUNTER_HIT)] == [("p1", "p3")]
    # A target already lynched is not shot twice; a hunter who did not vote shoots nobody.
    effects = _votes(b, {"p0": "p1", "p2": "p1", "p1": "p0", "p3": "p0"})
    assert _dead(b, effects) == ["p0", "p1"] and of_type(effects, on.HUNTER_HIT) == []
    effects = _votes(b, {"p0": "p1", "p2": "p1"})
    assert _dead(b, effects) == ["p1"] and of_type(effects, on.HUNTER_HIT) == []
    # In a game the shot is public and counts for victory.
    engine = game([("p0", H), ("p1", V), ("p2", W)], (V, V, S))
    vote_all(engine, {"p1": "p0", "p2": "p0", "p0": "p2"})
    assert engine.alive_player_ids() == ("p1",)
    assert engine.status().winners == (on.VILLAGE,)
