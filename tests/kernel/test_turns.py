"""Turn orders: SIMULTANEOUS (default), SEQUENTIAL, INITIATIVE, FREE; out-of-turn skills."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

import hiddenrole as hr

PLAY = "PLAY"
STEP = "STEP"
SHOUT = "SHOUT"
ZAP = "ZAP"


def _turn_resolver(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Each STEP moves the player one square; the STEPPED event records what they saw before."""
    out: list[hr.Effect] = []
    moved: dict[str, int] = {}
    for u in uses:
        if u.skill == STEP:
            moved[u.player_id] = moved.get(u.player_id, 0) + 1
            pos = int(view.var(hr.GAME.of(u.player_id), "pos") or "0") + moved[u.player_id]
            seen = ",".join(f"{p.id}:{p.vars.get('pos', '0')}" for p in view.all_players())
            out += [
                hr.Effect("STEPPED", source=u.player_id).with_data("seen", seen),
                hr.set_var(hr.GAME.of(u.player_id), "pos", str(pos)),
            ]
        elif u.skill == SHOUT:
            out.append(hr.Effect("SHOUTED", source=u.player_id))
        elif u.skill == ZAP:
            out += [hr.Effect("ZAPPED", source=u.player_id, target=u.target), hr.set_alive(u.target, False)]
    return out


def _phase_resolver(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    return [hr.Effect("LEFTOVER", source=u.player_id) for u in uses]


def turn_config(
    steps: tuple[hr.PhaseStep, ...],
    order: hr.TurnOrder,
    *,
    moves: int = 1,
    out_of_turn: Sequence[str] = (),
    initiative_var: str = "",
) -> hr.Config:
    """One PLAY phase of ``steps`` under ``order``, repeated forever, a round each time."""
    return hr.Config(
        start_phase=PLAY,
        phases={
            PLAY: hr.PhaseConfig(
                steps=steps,
                next_phase=PLAY,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
                turn_order=order,
                moves_per_turn=moves,
                out_of_turn=tuple(out_of_turn),
                initiative_var=initiative_var,
            )
        },
    )


def make_rules(
    order: hr.TurnOrder,
    *,
    moves: int = 1,
    out_of_turn: Sequence[str] = (),
    turn_resolver: bool = True,
    initiative_var: str = "",
) -> hr.Rules:
    steps = (hr.PhaseStep("", STEP), hr.PhaseStep("", SHOUT), hr.PhaseStep("", ZAP))
    return hr.Rules(
        turn_config(steps, order, moves=moves, out_of_turn=out_of_turn, initiative_var=initiative_var),
        name="turns",
        resolvers={PLAY: _phase_resolver},
        turn_resolvers={PLAY: _turn_resolver} if turn_resolver else {},
        role_setup={"FAST": lambda pid, role: {"init": "9"}, "SLOW": lambda pid, role: {"init": "1"}},
        audience=lambda event, view: tuple(p.id for p in view.all_players()),
    )


def new(rules: hr.Rules, seats: Sequence[tuple[str, str]] = (("a", "X"), ("b", "X"), ("c", "X"))) -> hr.Engine:
    engine = hr.Engine(rules)
    for pid, role in seats:
        engine.add_player(pid, role)
    engine.start()
    return engine


def test_simultaneous_is_the_default_and_has_no_turn() -> None:
    assert hr.PhaseConfig().turn_order is hr.SIMULTANEOUS
    engine = new(make_rules(hr.SIMULTANEOUS, turn_resolver=False))
    engine.submit("c", STEP)
    engine.submit("a", STEP)
    assert engine.readiness().turn == ""
    assert engine.player_view("a").turn == ""
    assert [e.type for e in engine.end_phase()] == ["LEFTOVER", "LEFTOVER"]


def test_sequential_only_the_player_with_the_turn_may_act() -> None:
    engine = new(make_rules(hr.SEQUENTIAL))
    assert engine.readiness().turn == "a"
    assert engine.player_view("b").turn == "a"
    assert engine.allowed_skills("a") == (STEP, SHOUT, ZAP)
    assert engine.allowed_skills("b") == ()
    with pytest.raises(hr.NotYourTurn) as info:
        engine.submit("b", STEP)
    assert info.value.code == "NOT_YOUR_TURN"
    assert isinstance(info.value, hr.SkillNotAllowed)
    assert engine.pending_uses() == ()


def test_sequential_turn_is_resolved_when_it_ends_so_later_players_see_it() -> None:
    engine = new(make_rules(hr.SEQUENTIAL))
    seen: list[hr.Event] = []
    engine.on_event(seen.append)
    engine.submit("a", STEP)
    assert engine.var(hr.GAME.of("a"), "pos") == "1"
    assert engine.readiness().turn == "b"
    engine.submit("b", STEP)
    stepped = [e for e in seen if e.type == "STEPPED"]
    assert stepped[0].data["seen"] == "a:0,b:0,c:0"
    assert stepped[1].data["seen"] == "a:1,b:0,c:0"
    assert engine.pending_uses() == ()


def test_turn_ends_after_moves_per_turn() -> None:
    engine = new(make_rules(hr.SEQUENTIAL, moves=2))
    engine.submit("a", STEP)
    assert engine.readiness().turn == "a"
    assert engine.var(hr.GAME.of("a"), "pos") == ""  # resolved only when the turn ends
    engine.submit("a", STEP)
    assert engine.var(hr.GAME.of("a"), "pos") == "2"
    assert engine.readiness().turn == "b"


def test_end_turn_ends_it_early_and_only_for_the_holder() -> None:
    engine = new(make_rules(hr.SEQUENTIAL, moves=3))
    engine.submit("a", STEP)
    with pytest.raises(hr.NotYourTurn):
        engine.end_turn("b")
    effects = engine.end_turn("a")
    assert [e.type for e in effects] == ["STEPPED", hr.SET_VAR, hr.TURN_ENDED]
    assert engine.readiness().turn == "b"


def test_readiness_in_turn_phase_waits_for_the_whole_order() -> None:
    engine = new(make_rules(hr.SEQUENTIAL))
    r = engine.readiness()
    assert not r.ready and [a.player_id for a in r.pending] == ["a", "a", "a"]
    for pid in ("a", "b", "c"):
        engine.submit(pid, STEP)
    r = engine.readiness()
    assert r.ready and r.turn == "" and r.pending == ()
    assert engine.allowed_skills("a") == ()


def test_players_who_can_no_longer_act_are_skipped() -> None:
    engine = new(make_rules(hr.SEQUENTIAL))
    effects: list[hr.Event] = []
    engine.on_event(effects.append)
    engine.submit("a", ZAP, ["b"])  # b dies during a's turn, so b's turn is passed over
    assert engine.readiness().turn == "c"
    assert hr.TURN_ENDED not in [e.type for e in effects]  # bookkeeping never reaches handlers
    assert [e.source for e in engine.log().effects if e.type == hr.TURN_ENDED] == ["a", "b"]


def test_no_turn_resolver_keeps_uses_for_the_phase_resolver() -> None:
    engine = new(make_rules(hr.SEQUENTIAL, turn_resolver=False))
    engine.submit("a", STEP)
    engine.submit("b", STEP)
    assert [u.player_id for u in engine.pending_uses()] == ["a", "b"]
    assert [e.source for e in engine.end_phase() if e.type == "LEFTOVER"] == ["a", "b"]


def test_initiative_orders_by_variable_high_first_ties_by_id() -> None:
    rules = make_rules(hr.INITIATIVE, initiative_var="init")
    engine = new(rules, (("a", "SLOW"), ("b", "FAST"), ("c", "SLOW"), ("d", "FAST")))
    order = []
    while engine.readiness().turn:
        order.append(engine.readiness().turn)
        engine.submit(order[-1], SHOUT)
    assert order == ["b", "d", "a", "c"]


def test_initiative_delay_moves_the_holder_to_the_end_once() -> None:
    rules = make_rules(hr.INITIATIVE, initiative_var="init")
    engine = new(rules, (("a", "SLOW"), ("b", "FAST"), ("c", "SLOW")))
    with pytest.raises(hr.NotYourTurn):
        engine.delay_turn("a")
    engine.delay_turn("b")
    assert engine.readiness().turn == "a"
    engine.submit("a", SHOUT)
    engine.submit("c", SHOUT)
    assert engine.readiness().turn == "b"
    with pytest.raises(hr.SkillNotAllowed):
        engine.delay_turn("b")  # once per phase, and nobody is left to wait for anyway


def test_delay_refused_after_moving_or_outside_initiative() -> None:
    rules = make_rules(hr.INITIATIVE, moves=2, initiative_var="init")
    engine = new(rules, (("a", "SLOW"), ("b", "FAST")))
    engine.submit("b", SHOUT)
    with pytest.raises(hr.SkillNotAllowed, match="already moved"):
        engine.delay_turn("b")
    seq = new(make_rules(hr.SEQUENTIAL))
    with pytest.raises(hr.NotYourTurn):
        seq.delay_turn("a")


def test_free_anyone_any_time_each_move_resolved_at_once() -> None:
    engine = new(make_rules(hr.FREE))
    engine.submit("c", STEP)
    assert engine.var(hr.GAME.of("c"), "pos") == "1"
    engine.submit("a", STEP)
    engine.submit("c", STEP)
    assert engine.var(hr.GAME.of("c"), "pos") == "2"
    assert engine.readiness().turn == ""
    with pytest.raises(hr.NotYourTurn):
        engine.end_turn("a")


def test_free_resolves_each_move_at_once_whatever_moves_per_turn_says() -> None:
    engine = new(make_rules(hr.FREE, moves=2))
    engine.submit("c", STEP)
    assert engine.var(hr.GAME.of("c"), "pos") == "1"
    assert engine.pending_uses() == ()


def test_out_of_turn_skill_usable_by_anyone_and_not_a_move() -> None:
    engine = new(make_rules(hr.SEQUENTIAL, out_of_turn=(SHOUT,)))
    assert engine.allowed_skills("c") == (SHOUT,)
    engine.submit("c", SHOUT)
    assert [e.type for e in engine.log().effects][-1] == "SHOUTED"
    assert engine.readiness().turn == "a"  # the turn did not move
    engine.submit("a", SHOUT)
    assert engine.readiness().turn == "a"  # nor does the holder's own out-of-turn skill count


def test_mid_turn_snapshot_and_log_replay_are_exact() -> None:
    rules = make_rules(hr.INITIATIVE, moves=2, initiative_var="init")
    engine = new(rules, (("a", "SLOW"), ("b", "FAST"), ("c", "SLOW")))
    engine.delay_turn("b")
    engine.submit("a", STEP)
    engine.submit("a", STEP)
    engine.submit("c", STEP)  # c has one move pending
    saved = engine.snapshot().to_json()
    again = hr.Engine.restore(rules, saved)
    assert again.snapshot().to_json() == saved
    assert again.readiness() == engine.readiness()
    for e in (engine, again):
        e.submit("c", STEP)
        e.submit("b", STEP)
        e.submit("b", STEP)
        e.end_phase()
    assert again.snapshot().to_json() == engine.snapshot().to_json()
    replayed = hr.Engine.replay(rules, engine.log().to_json())
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()


def test_log_with_a_turn_for_the_wrong_player_is_refused() -> None:
    rules = make_rules(hr.SEQUENTIAL)
    engine = new(rules)
    engine.submit("a", STEP)
    effects = list(engine.log().effects)
    i = next(n for n, e in enumerate(effects) if e.type == hr.TURN_ENDED)
    effects[i] = effects[i]._replace(source="c")
    with pytest.raises(hr.InvalidLog, match="does not have the turn"):
        hr.Engine.replay(rules, hr.GameLog("turns", "1", tuple(effects)))


def test_a_failing_turn_resolver_leaves_everything_unchanged() -> None:
    def boom(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        raise RuntimeError("boom")

    base = make_rules(hr.SEQUENTIAL)
    import dataclasses

    rules = dataclasses.replace(base, turn_resolvers={PLAY: boom})
    engine = new(rules)
    before = engine.snapshot().to_json()
    with pytest.raises(RuntimeError):
        engine.submit("a", STEP)
    assert engine.snapshot().to_json() == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"moves_per_turn": 0}, "moves_per_turn"),
        ({"moves_per_turn": hr.MAX_MOVES_PER_TURN + 1}, "moves_per_turn"),
        ({"turn_order": hr.INITIATIVE}, "initiative_var"),
        ({"turn_order": hr.SEQUENTIAL, "initiative_var": "x"}, "initiative_var"),
        ({"out_of_turn": ("NOPE",)}, "out-of-turn skill"),
    ],
)
def test_turn_settings_are_validated(kwargs: dict[str, object], message: str) -> None:
    phase = hr.PhaseConfig(steps=(hr.PhaseStep("", STEP),), next_phase=hr.END, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidPhase, match=message):
        hr.Config(start_phase=PLAY, phases={PLAY: phase}).validate()


@pytest.mark.pure_only
def test_unknown_turn_order_is_a_typed_error() -> None:
    with pytest.raises(hr.InvalidArgument):
        hr.PhaseConfig(turn_order="ROUND_ROBIN")  # type: ignore[arg-type]


def test_readiness_lists_who_already_delayed() -> None:
    rules = make_rules(hr.INITIATIVE, initiative_var="init")
    engine = new(rules, (("a", "SLOW"), ("b", "FAST"), ("c", "SLOW")))
    assert engine.readiness().delayed == ()
    engine.delay_turn("b")
    assert engine.readiness().delayed == ("b",)
    again = hr.Engine.restore(rules, engine.snapshot().to_json())
    assert again.readiness().delayed == ("b",)


def test_a_phase_left_mid_order_leaves_no_turn_behind() -> None:
    """Ending a turn-ordered phase early (turns left, a player delayed) enters a simultaneous
    phase with no turn order and nobody delayed, in live play, restore and replay alike."""
    chat = "CHAT"
    config = hr.Config(
        start_phase=PLAY,
        phases={
            PLAY: hr.PhaseConfig(
                steps=(hr.PhaseStep("", STEP),), next_phase=chat, turn_order=hr.INITIATIVE, initiative_var="init"
            ),
            chat: hr.PhaseConfig(
                steps=(hr.PhaseStep("", SHOUT),),
                next_phase=PLAY,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            ),
        },
    )
    rules = hr.Rules(
        config,
        name="turns-then-chat",
        resolvers={PLAY: _phase_resolver, chat: _phase_resolver},
        audience=lambda event, view: tuple(p.id for p in view.all_players()),
    )
    engine = new(rules)
    engine.delay_turn("a")
    assert engine.readiness().turn == "b"
    engine.end_phase()
    saved = engine.snapshot()
    assert (saved.phase, saved.turns, saved.delayed) == (chat, (), ())
    assert engine.readiness().turn == ""
    for again in (hr.Engine.restore(rules, saved.to_json()), hr.Engine.replay(rules, engine.log().to_json())):
        assert again.snapshot().to_json() == saved.to_json()
    engine.end_phase()  # back to PLAY: every turn taken this time, a's after a delay
    engine.delay_turn("a")
    for pid in ("b", "c", "a"):
        engine.submit(pid, STEP)
    assert (engine.snapshot().turns, engine.snapshot().delayed) == ((), ("a",))
    engine.end_phase()
    saved = engine.snapshot()
    assert (saved.phase, saved.turns, saved.delayed) == (chat, (), ())
    replayed = hr.Engine.replay(rules, engine.log())
    assert replayed.snapshot().to_json() == saved.to_json()


def test_a_skill_offered_only_on_the_seat_s_turn_is_gated_by_usable_off_turn() -> None:
    """Off turn a seat's kept ``usable`` answers cover its out-of-turn skills only: submit asks for
    any other itself, and a refusal is reported before the turn is (red if a missing answer passed)."""
    rules = dataclasses.replace(
        make_rules(hr.SEQUENTIAL, out_of_turn=(SHOUT,)),
        usable=lambda pid, skill, view, mine: "no zapping" if skill == ZAP else None,
    )
    engine = new(rules)
    assert engine.allowed_skills("b") == (SHOUT,)
    with pytest.raises(hr.SkillNotAllowed, match="no zapping"):
        engine.submit("b", ZAP, ["c"])
    with pytest.raises(hr.NotYourTurn):
        engine.submit("b", STEP)
    engine.submit("b", SHOUT)
    assert [u.skill for u in engine.pending_uses()] == []  # resolved at once, out of turn
