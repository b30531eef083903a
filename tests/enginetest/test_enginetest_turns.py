"""The harness covers every turn order: A-H over random games of a ruleset that cycles
through INITIATIVE (with delays), SEQUENTIAL (two moves a turn, an out-of-turn skill,
early end-turns) and FREE phases, each turn resolved when it ends."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et

BID, TALK, BRAWL = "T_BID", "T_TALK", "T_BRAWL"
STEP, CHEER, PUSH, DONE = "T_STEP", "T_CHEER", "T_PUSH", "T_DONE"
RED, BLUE, GREEN = "T_RED", "T_BLUE", "T_GREEN"
STEPPED, CHEERED, PUSHED, OUT = "T_STEPPED", "T_CHEERED", "T_PUSHED", "T_OUT"
GOAL = 6


def turn_resolver(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    moved: dict[str, int] = {}
    for u in uses:
        if u.skill == STEP:
            moved[u.player_id] = moved.get(u.player_id, 0) + 1
            pos = int(view.var(hr.GAME.of(u.player_id), "pos") or "0") + moved[u.player_id]
            out += [hr.Effect(STEPPED, source=u.player_id), hr.set_var(hr.GAME.of(u.player_id), "pos", str(pos))]
        elif u.skill == CHEER:
            out.append(hr.Effect(CHEERED, source=u.player_id))
        elif u.skill == PUSH and u.target:
            pos = int(view.var(hr.GAME.of(u.target), "pos") or "0")
            out += [hr.Effect(PUSHED, source=u.player_id, target=u.target)]
            if pos > 0:
                out.append(hr.set_var(hr.GAME.of(u.target), "pos", str(pos - 1)))
            else:
                out += [hr.Effect(OUT, target=u.target), hr.set_alive(u.target, False)]
    return out


def end_of_phase(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    # Bids raise next initiative; whatever is left unresolved is announced.
    out = []
    for u in uses:
        if u.skill == STEP:
            init = int(view.var(hr.GAME.of(u.player_id), "init") or "0")
            out.append(hr.set_var(hr.GAME.of(u.player_id), "init", str((init + 3) % 7)))
    return out


def victory(view: hr.GameView) -> list[str] | None:
    for p in view.alive_players():
        if int(p.vars.get("pos", "0")) >= GOAL:
            return [p.role]
    sides = {p.role for p in view.alive_players()}
    return list(sides) if len(sides) == 1 else ([] if not sides else None)


def _is_red(pid: str, view: hr.GameView) -> bool:
    p = view.player(pid)
    return p is not None and p.role == RED


def _seat_init(pid: str, role: str) -> dict[str, str]:
    """Initiative from the seat number only: the order of play must not tell roles apart."""
    return {"init": str(int(pid.lstrip("p") or "0") * 3 % 7)}


def _role_init(pid: str, role: str) -> dict[str, str]:
    """A planted leak: initiative by role, so whose turn it is reveals roles."""
    return {"init": "2" if role == RED else "5"}


def rules(init: object = _seat_init) -> hr.Rules:
    steps = (hr.PhaseStep("", STEP), hr.PhaseStep("", CHEER), hr.PhaseStep("", PUSH))
    config = hr.Config(
        start_phase=BID,
        phases={
            BID: hr.PhaseConfig(
                steps=steps,
                next_phase=TALK,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                turn_order=hr.INITIATIVE,
                initiative_var="init",
            ),
            TALK: hr.PhaseConfig(
                steps=(*steps, hr.PhaseStep("", DONE)),
                next_phase=BRAWL,
                turn_order=hr.SEQUENTIAL,
                moves_per_turn=2,
                out_of_turn=(CHEER,),
            ),
            BRAWL: hr.PhaseConfig(steps=steps, next_phase=BID, on_exit=(hr.ADVANCE_ROUND,), turn_order=hr.FREE),
        },
    )
    resolvers = {p: end_of_phase for p in (BID, TALK, BRAWL)}
    return hr.Rules(
        config,
        name="turns-fuzz",
        resolvers=resolvers,
        turn_resolvers={p: turn_resolver for p in (BID, TALK, BRAWL)},
        victory=victory,
        role_setup=dict.fromkeys((RED, BLUE, GREEN), init),  # type: ignore[arg-type]
        teammates=lambda pid, view: [p.id for p in view.all_players() if p.role == RED] if _is_red(pid, view) else [],
        audience=lambda event, view: view.player_ids(),
        speech=lambda pid, view: view.player_ids() if view.turn() in ("", pid) else (),
    )


RULES = rules()


def setup(rng: random.Random, rules: hr.Rules = RULES) -> et.Game:
    return et.Game(rules, et.deal(rng, {RED: rng.randint(1, 2), BLUE: rng.randint(1, 2), GREEN: rng.randint(1, 2)}))


def act(turn: et.Turn) -> None:
    """Drive every turn: the holder moves, delays, or ends early; anyone may cheer."""
    engine, rng = turn.engine, turn.rng
    for _ in range(40):
        r = engine.readiness()
        if rng.random() < 0.2:
            for pid in engine.alive_player_ids():
                if CHEER in engine.allowed_skills(pid):
                    engine.submit(pid, CHEER)
                    turn.label("cheer-out-of-turn" if r.turn and r.turn != pid else "cheer")
                    break
            r = engine.readiness()  # an in-turn cheer may have ended the holder's turn
        if not r.turn:
            if r.phase == BRAWL:
                for pid in engine.alive_player_ids():
                    if rng.random() < 0.5 and pid in engine.alive_player_ids():  # a push may have killed pid
                        foes = [p for p in engine.alive_player_ids() if p != pid]
                        engine.submit(pid, rng.choice((STEP, PUSH)), [rng.choice(foes)] if foes else [])
                        turn.label("free-move")
            return
        holder = r.turn
        choice = rng.random()
        if r.phase == BID and holder not in r.delayed and choice < 0.25 and len(engine.alive_player_ids()) > 1:
            try:
                engine.delay_turn(holder)
                turn.label("delayed")
                continue
            except hr.SkillNotAllowed:
                pass
        if choice < 0.1:
            engine.end_turn(holder)
            turn.label("ended-early")
            continue
        options = [s for s in engine.allowed_skills(holder) if s != CHEER]
        if not options:
            engine.end_turn(holder)
            continue
        skill = rng.choice(options)
        foes = [p for p in engine.alive_player_ids() if p != holder]
        engine.submit(holder, skill, [rng.choice(foes)] if skill == PUSH and foes else [])
        turn.label(f"{r.phase}:{skill}")


def test_every_turn_order_keeps_invariants_a_to_h() -> None:
    spec = et.Spec(
        name="turns-fuzz",
        setup=setup,
        act=act,
        games=120,
        max_steps=90,
        want_end=True,
        must_see=("delayed", "ended-early", "cheer-out-of-turn", "free-move", f"{TALK}:{STEP}", OUT, STEPPED),
        leaks=et.LeakCheck(roles=(RED, BLUE, GREEN), games=40, chat=et.default_chat),
    )
    report = et.run(spec)
    assert report.finished == 120 and report.leak_pairs > 0


def test_h_catches_an_initiative_order_that_follows_roles() -> None:
    leaky = rules(_role_init)
    spec = et.Spec(
        name="turns-leak",
        setup=lambda rng: setup(rng, leaky),
        act=act,
        games=20,
        max_steps=90,
        leaks=et.LeakCheck(roles=(GREEN,), games=20),
    )
    with pytest.raises(et.InvariantError) as info:
        et.run(spec)
    assert info.value.invariant is et.Invariant.LEAK
    assert "view.turn" in str(info.value)
