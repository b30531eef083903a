"""O3-O13: the two card layers, the night line and every night action."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on
from hiddenrole.games.onenight import resolvers as rs

from .helpers import advance_to, board, center, game, held, learned, of_type, use, vote_all

W, V, S, R, T, D, INS = on.WEREWOLF, on.VILLAGER, on.SEER, on.ROBBER, on.TROUBLEMAKER, on.DRUNK, on.INSOMNIAC


def test_O3_dealt_card_decides_who_wakes_held_card_decides_who_scores() -> None:
    # p0 robs the lone werewolf p1: p0 now holds the werewolf card but stays a robber.
    engine = game([("p0", R), ("p1", W), ("p2", V), ("p3", on.MINION)], (S, T, V))
    advance_to(engine, on.NIGHT_ROBBER)
    engine.submit("p0", on.ROB, ["p1"])
    engine.end_phase()
    assert engine.player_info("p0").role == R
    assert engine.var(hr.GAME.of("p0"), on.VAR_CARD) == W
    assert engine.var(hr.GAME.of("p1"), on.VAR_CARD) == R
    # Waking goes by the dealt card: the minion still sees p1, and p0 is nobody's mate.
    assert engine.player_view("p3").teammates == ("p1",)
    assert engine.player_view("p0").teammates == ()
    assert engine.player_view("p1").role_info["wolves"] == ""
    # Scoring goes by the held card: killing p0 (dealt robber) kills a werewolf.
    vote_all(engine, {"p1": "p0", "p2": "p0", "p3": "p2", "p0": "p2"})
    st = engine.status()
    assert st.over
    # p0 and p2 tie at two votes and both die; p0 holds the werewolf card.
    assert st.winners == (on.VILLAGE,)


def _phases_of(engine: hr.Engine) -> list[str]:
    seen = []
    while not engine.status().over:
        seen.append(engine.status().phase)
        assert engine.status().round == 1
        assert engine.readiness().ready or engine.status().phase == on.VOTE_PHASE
        engine.end_phase()
    return seen


def test_O4_night_line_is_fixed_whatever_lies_in_the_centre() -> None:
    everyone = [("p0", W), ("p1", on.MINION), ("p2", on.MASON), ("p3", S), ("p4", R), ("p5", T), ("p6", D), ("p7", INS)]
    lines = [
        _phases_of(game(everyone, (V, V, on.MASON))),
        _phases_of(game([("p0", V), ("p1", V), ("p2", on.HUNTER)], (W, S, on.MINION))),
        _phases_of(game([("p0", on.TANNER), ("p1", V), ("p2", on.HUNTER)], (INS, D, on.MASON))),
    ]
    assert lines[0] == lines[1] == lines[2] == list(on.PHASES)
    # Watch-only steps are still listed for the moderator, even with the card in the centre.
    engine = game([("p0", V), ("p1", V), ("p2", on.HUNTER)], (W, on.MINION, INS))
    advance_to(engine, on.NIGHT_MINION)
    info = engine.phase_info()
    assert info.active_roles == (on.MINION,) and info.roles[on.MINION].player_ids == ()
    assert info.steps == (hr.PhaseStep(on.MINION),)
    advance_to(engine, on.NIGHT_INSOMNIAC)
    assert engine.phase_info().active_roles == (on.INSOMNIAC,)
    # One config for every deal.
    assert on.rules((W, W, V)).config is on.rules((S, R, T)).config is on.CONFIG


def test_O4_night_steps_never_hold_readiness() -> None:
    engine = game([("p0", W), ("p1", S), ("p2", R), ("p3", T), ("p4", D)], (V, V, INS))
    for phase in on.PHASES[:-2]:
        advance_to(engine, phase)
        assert engine.readiness().ready, phase
    advance_to(engine, on.VOTE_PHASE)
    assert not engine.readiness().ready


def test_O5_companions_see_each_other_minion_one_way() -> None:
    engine = game([("p0", W), ("p1", W), ("p2", on.MINION), ("p3", on.MASON), ("p4", on.MASON), ("p5", S)], (V, V, V))
    wolf = engine.player_view("p0")
    assert wolf.teammates == ("p1",)
    assert [p.role for p in wolf.players] == [W, W, "", "", "", ""]
    assert wolf.role_info["wolves"] == "p1"
    minion = engine.player_view("p2")
    assert minion.teammates == ("p0", "p1") and minion.role_info["wolves"] == "p0,p1"
    assert engine.player_view("p3").teammates == ("p4",)
    assert engine.player_view("p3").role_info["masons"] == "p4"
    seer = engine.player_view("p5")
    assert seer.teammates == () and "wolves" not in seer.role_info
    assert [p.role for p in seer.players] == ["", "", "", "", "", S]
    lone = game([("p0", W), ("p1", on.MASON), ("p2", S)], (W, on.MASON, V))
    assert lone.player_view("p0").role_info["wolves"] == ""
    assert lone.player_view("p1").role_info["masons"] == ""


def test_O6_lone_wolf_peeks_at_one_centre_card() -> None:
    b = board([("p0", W), ("p1", V), ("p2", S)], (V, S, R), phase=on.NIGHT_WEREWOLF)
    effects = rs.resolve_werewolf([use("p0", on.PEEK, "2")], b.view())
    (peek,) = of_type(effects, on.PEEKED)
    assert (peek.source, dict(peek.data)) == ("p0", {"center": "2", "card": R})
    assert learned(b.apply(effects), "p0") == {"learn.center.2": R}
    # Two werewolves dealt: no peek, even if one were submitted.
    two = board([("p0", W), ("p1", W), ("p2", S)], (V, S, R))
    assert rs.resolve_werewolf([use("p0", on.PEEK, "1")], two.view()) == []
    # In a game, only a lone wolf may submit, and the kernel checks the slot.
    engine = game([("p0", W), ("p1", V), ("p2", S)], (W, T, R))
    assert engine.allowed_skills("p0") == (on.PEEK,)
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.PEEK, ["3"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.PEEK, ["p1"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p0", on.PEEK, ["0", "1"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p1", on.PEEK, ["0"])
    engine.submit("p0", on.PEEK, ["0"])
    engine.end_phase()
    assert engine.player_view("p0").role_info["learn.center.0"] == W
    pair = game([("p0", W), ("p1", W), ("p2", S)], (V, T, R))
    assert pair.allowed_skills("p0") == pair.allowed_skills("p1") == ()
    with pytest.raises(hr.SkillNotAllowed):
        pair.submit("p0", on.PEEK, ["0"])


def test_O7_seer_looks_at_one_player_or_two_centre_cards() -> None:
    b = board([("p0", S), ("p1", V, W), ("p2", V)], (T, D, R), phase=on.NIGHT_SEER)
    effects = rs.resolve_seer([use("p0", on.SEER_PLAYER, "p1")], b.view())
    (look,) = of_type(effects, on.SEER_LOOK)
    assert (look.source, look.target, dict(look.data)) == ("p0", "p1", {"card": W})  # the held card
    assert learned(b.apply(effects), "p0") == {"learn.player.p1": W}
    effects = rs.resolve_seer([use("p0", on.SEER_CENTER, "2", "0")], b.view())
    (look,) = of_type(effects, on.SEER_LOOK)
    assert dict(look.data) == {"center.0": T, "center.2": R}
    assert learned(b.apply(effects), "p0") == {"learn.center.0": T, "learn.center.2": R}
    # Malformed submissions on a hand-made board teach nothing.
    for bad in (use("p0", on.SEER_PLAYER, "p0"), use("p0", on.SEER_CENTER, "1", "1"), use("p0", on.SEER_CENTER, "1")):
        assert rs.resolve_seer([bad], b.view()) == []


def _seer_at_night() -> hr.Engine:
    engine = game([("p0", S), ("p1", V), ("p2", W)], (T, D, R))
    advance_to(engine, on.NIGHT_SEER)
    return engine


@pytest.mark.parametrize(
    ("skill", "targets", "error"),
    [
        pytest.param(on.SEER_PLAYER, ["p0"], hr.InvalidTargets, id="self"),
        pytest.param(on.SEER_PLAYER, ["p9"], hr.TargetNotFound, id="unknown-player"),
        pytest.param(on.SEER_CENTER, ["0", "3"], hr.TargetNotFound, id="no-centre-3"),
        pytest.param(on.SEER_CENTER, ["0", "p1"], hr.TargetNotFound, id="player-as-centre"),
        pytest.param(on.SEER_CENTER, ["1", "1"], hr.SkillNotAllowed, id="same-card-twice"),
        pytest.param(on.SEER_CENTER, ["1"], hr.SkillNotAllowed, id="one-centre-card"),
        pytest.param(on.SEER_PLAYER, ["p1", "p2"], hr.SkillNotAllowed, id="two-players"),
    ],
)
def test_O7_kernel_refuses_bad_seer_choices(skill: str, targets: list[str], error: type[hr.GameError]) -> None:
    engine = _seer_at_night()
    with pytest.raises(error):
        engine.submit("p0", skill, targets)
    assert engine.pending_uses() == ()


def test_O7_the_seers_two_alternatives_are_one_group() -> None:
    engine = _seer_at_night()
    assert engine.allowed_skills("p0") == (on.SEER_PLAYER, on.SEER_CENTER)
    # The two alternatives are one group: either one satisfies the seer.
    assert [a.player_id for a in engine.readiness().optional] == ["p0"]
    engine.submit("p0", on.SEER_CENTER, ["0", "2"])
    assert engine.readiness().optional == ()


def test_O8_robber_swaps_and_looks() -> None:
    b = board([("p0", R), ("p1", W), ("p2", V)], phase=on.NIGHT_ROBBER)
    effects = rs.resolve_robber([use("p0", on.ROB, "p1")], b.view())
    after = b.apply(effects)
    assert (held(after, "p0"), held(after, "p1"), held(after, "p2")) == (W, R, V)
    assert learned(after, "p0") == {"learn.self": W, "learn.player.p1": R}
    assert learned(after, "p1") == {}
    (robbed,) = of_type(effects, on.ROBBED)
    assert (robbed.source, robbed.target, dict(robbed.data)) == ("p0", "p1", {"card": W})
    assert rs.resolve_robber([use("p0", on.ROB, "p0")], b.view()) == []
    assert rs.resolve_robber([], b.view()) == []
    engine = game([("p0", R), ("p1", W), ("p2", V)], (S, T, D))
    advance_to(engine, on.NIGHT_ROBBER)
    with pytest.raises(hr.InvalidTargets):
        engine.submit("p0", on.ROB, ["p0"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.ROB, ["0"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p0", on.ROB, [])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p1", on.ROB, ["p2"])


def test_O9_troublemaker_swaps_two_others_and_learns_nothing() -> None:
    b = board([("p0", T), ("p1", W), ("p2", V), ("p3", S)], phase=on.NIGHT_TROUBLEMAKER)
    effects = rs.resolve_troublemaker([use("p0", on.MEDDLE, "p2", "p1")], b.view())
    after = b.apply(effects)
    assert [held(after, p) for p in ("p0", "p1", "p2", "p3")] == [T, V, W, S]
    assert all(learned(after, p) == {} for p in ("p0", "p1", "p2", "p3"))
    (meddled,) = of_type(effects, on.MEDDLED)
    assert (meddled.source, meddled.target, dict(meddled.data)) == ("p0", "p2", {"with": "p1"})
    assert "card" not in meddled.data
    for bad in (use("p0", on.MEDDLE, "p0", "p1"), use("p0", on.MEDDLE, "p1", "p1"), use("p0", on.MEDDLE, "p1")):
        assert rs.resolve_troublemaker([bad], b.view()) == []
    engine = game([("p0", T), ("p1", W), ("p2", V)], (S, R, D))
    advance_to(engine, on.NIGHT_TROUBLEMAKER)
    with pytest.raises(hr.InvalidTargets):
        engine.submit("p0", on.MEDDLE, ["p0", "p1"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.MEDDLE, ["p1", "1"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p0", on.MEDDLE, ["p1", "p1"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p0", on.MEDDLE, ["p1"])
    engine.submit("p0", on.MEDDLE, ["p1", "p2"])
    engine.end_phase()
    assert engine.player_view("p0").role_info == {}


def test_O10_drunk_swaps_with_the_centre_blind_and_must_swap() -> None:
    b = board([("p0", D), ("p1", V), ("p2", S)], (W, T, R), phase=on.NIGHT_DRUNK)
    effects = rs.resolve_drunk([use("p0", on.DRINK, "1")], b.view())
    after = b.apply(effects)
    assert held(after, "p0") == T and center(after) == (W, D, R)
    assert learned(after, "p0") == {}
    (swap,) = of_type(effects, on.DRUNK_SWAP)
    assert (swap.source, dict(swap.data)) == ("p0", {"center": "1"})  # never the card
    # No choice: the drunk still swaps, with centre card 0.
    effects = rs.resolve_drunk([], b.view())
    after = b.apply(effects)
    assert held(after, "p0") == W and center(after) == (D, T, R)
    assert dict(of_type(effects, on.DRUNK_SWAP)[0].data) == {"center": "0", "default": "1"}
    assert rs.resolve_drunk([], board([("p0", V), ("p1", V), ("p2", S)], (W, T, D)).view()) == []
    engine = game([("p0", D), ("p1", W), ("p2", V)], (S, R, T))
    advance_to(engine, on.NIGHT_DRUNK)
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.DRINK, ["p1"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("p0", on.DRINK, ["7"])
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p0", on.DRINK, ["0", "1"])
    engine.submit("p0", on.DRINK, ["2"])
    engine.end_phase()
    assert on.current_cards(engine).center == (S, R, D)
    assert engine.var(hr.GAME.of("p0"), on.VAR_CARD) == T
    assert engine.player_view("p0").role_info == {}


def test_O11_insomniac_sees_own_card_at_the_end_of_the_night() -> None:
    b = board([("p0", INS, W), ("p1", V)], phase=on.NIGHT_INSOMNIAC)
    effects = rs.resolve_insomniac([], b.view())
    (look,) = of_type(effects, on.INSOMNIA)
    assert (look.source, dict(look.data)) == ("p0", {"card": W})
    assert learned(b.apply(effects), "p0") == {"learn.self": W}
    engine = game([("p0", INS), ("p1", T), ("p2", W)], (V, V, S))
    advance_to(engine, on.NIGHT_TROUBLEMAKER)
    engine.submit("p1", on.MEDDLE, ["p0", "p2"])
    engine.end_phase()
    assert "learn.self" not in engine.player_view("p0").role_info
    assert engine.allowed_skills("p0") == ()
    advance_to(engine, on.NIGHT_INSOMNIAC)
    assert "learn.self" not in engine.player_view("p0").role_info
    engine.end_phase()
    assert engine.player_view("p0").role_info["learn.self"] == W


def test_O11_each_insomniac_event_shows_the_card_held_then() -> None:
    """Every card shown in an event is that card (the payloads are kept per card: a kept one
    must never stand for another card)."""
    for card in (W, V, S, T, W):
        b = board([("p0", INS, card), ("p1", V)], phase=on.NIGHT_INSOMNIAC)
        (look,) = of_type(rs.resolve_insomniac([], b.view()), on.INSOMNIA)
        assert dict(look.data) == {"card": card}


def test_O12_knowledge_is_as_of_the_moment_of_looking() -> None:
    engine = game([("p0", S), ("p1", W), ("p2", R), ("p3", T)], (V, V, V))
    advance_to(engine, on.NIGHT_SEER)
    engine.submit("p0", on.SEER_PLAYER, ["p1"])
    engine.end_phase()
    engine.submit("p2", on.ROB, ["p1"])  # robber takes the werewolf card
    engine.end_phase()
    engine.submit("p3", on.MEDDLE, ["p2", "p0"])  # and the troublemaker moves it again
    engine.end_phase()
    assert engine.player_view("p0").role_info == {"learn.player.p1": W}
    assert engine.player_view("p2").role_info == {"learn.self": W, "learn.player.p1": R}
    assert on.current_cards(engine).held == (("p0", W), ("p1", R), ("p2", S), ("p3", T))


def test_O13_only_the_first_submission_counts() -> None:
    b = board([("p0", S), ("p1", W), ("p2", V)], (T, D, R))
    effects = rs.resolve_seer([use("p0", on.SEER_PLAYER, "p1"), use("p0", on.SEER_CENTER, "0", "1")], b.view())
    assert learned(b.apply(effects), "p0") == {"learn.player.p1": W}
    b = board([("p0", R), ("p1", W), ("p2", V)])
    after = b.apply(rs.resolve_robber([use("p0", on.ROB, "p2"), use("p0", on.ROB, "p1")], b.view()))
    assert held(after, "p0") == V
    b = board([("p0", V), ("p1", V), ("p2", V)])
    effects = rs.resolve_vote([use("p0", on.VOTE, "p1"), use("p0", on.VOTE, "p2")], b.view())
    assert [(e.source, e.target) for e in of_type(effects, on.VOTED)] == [("p0", "p1")]


def test_kernel_reports_repeated_targets_as_invalid_targets() -> None:
    engine = game([("p0", T), ("p1", W), ("p2", V)], (S, R, D))
    advance_to(engine, on.NIGHT_TROUBLEMAKER)
    with pytest.raises(hr.InvalidTargets):
        engine.submit("p0", on.MEDDLE, ["p1", "p1"])


def test_kernel_reports_wrong_target_count_as_invalid_targets() -> None:
    engine = game([("p0", T), ("p1", W), ("p2", V)], (S, R, D))
    advance_to(engine, on.NIGHT_TROUBLEMAKER)
    with pytest.raises(hr.InvalidTargets):
        engine.submit("p0", on.MEDDLE, ["p1"])
