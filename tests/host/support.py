"""Small games made for the host tests, and helpers to play tables to the end.

``spies``: one SPY among civilians in a single FREE phase. A spy's PEEK is private
(only the spy hears what it saw) and draws nothing; anyone's POKE is public and
tosses a coin through the table's randomness. Spies whisper to spies only, civilians
speak to everyone. The host ends the phase; the game then ends (spies win if the spy
peeked). ``brawl``: an INITIATIVE phase where seats may delay their turn.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import ACT, Context, Deal, Draw, GameDefinition, Move, Outcome, Statistic

SPY, CIV = "SPY", "CIV"
SPIES, CIVS = "SPIES", "CIVS"
PLAY = "PLAY"
PEEK, POKE = "PEEK", "POKE"
PEEKED, POKED = "PEEKED", "POKED"


def _spies_resolver(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    for u in uses:
        if u.skill == PEEK:
            target = view.player(u.target)
            role = target.role if target is not None else ""
            out += [
                hr.Effect(PEEKED, source=u.player_id, target=u.target).with_data("role", role),
                hr.set_var(hr.GAME, "peeked", "1"),
            ]
        elif u.skill == POKE:
            coin = view.var(hr.GAME, "coin")
            out += [hr.Effect(POKED, source=u.player_id, target=u.target).with_data("coin", coin)]
            out += [hr.set_var(hr.GAME, "coin", ""), hr.set_var(hr.GAME, "pokes", str(_pokes(view) + 1))]
    return out


def _pokes(view: hr.GameView) -> int:
    return int(view.var(hr.GAME, "pokes") or "0")


def _spies_victory(view: hr.GameView) -> tuple[str, ...] | None:
    if not view.var(hr.GAME, "closed"):
        return None
    return (SPIES,) if view.var(hr.GAME, "peeked") else (CIVS,)


def _spies_audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
    if event.type == PEEKED:
        return (event.source,)
    if event.type == POKED:
        return view.player_ids()
    return None


def _spies_speech(sender: str, view: hr.GameView) -> tuple[str, ...]:
    me = view.player(sender)
    if me is not None and me.role == SPY:
        return view.alive_player_ids_by_role(SPY)
    return tuple(p.id for p in view.alive_players())


def spies_rules() -> hr.Rules:
    config = hr.Config(
        start_phase=PLAY,
        phases={
            PLAY: hr.PhaseConfig(
                steps=(
                    hr.PhaseStep(SPY, PEEK, min_targets=1, max_targets=1, allow_self_target=False),
                    hr.PhaseStep("", POKE, min_targets=1, max_targets=1),
                ),
                next_phase=hr.END,
                turn_order=hr.FREE,
            )
        },
    )
    return hr.Rules(
        config,
        name="spies",
        version="3",
        resolvers={PLAY: lambda uses, view: [hr.set_var(hr.GAME, "closed", "1")]},
        turn_resolvers={PLAY: _spies_resolver},
        victory=_spies_victory,
        role_setup={SPY: lambda pid, role: {hr.VAR_CAMP: SPIES}, CIV: lambda pid, role: {hr.VAR_CAMP: CIVS}},
        audience=_spies_audience,
        speech=_spies_speech,
    )


def _spies_setup(options: host.Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    spy = seats[rng.randrange(len(seats))]
    return Deal(spies_rules(), {s: SPY if s == spy else CIV for s in seats})


def _spies_draws(move: Move, ctx: Context) -> Iterable[Draw]:
    if move.kind == ACT and move.skill == POKE:
        return (Draw.pick("coin", ("heads", "tails")),)
    return ()


def _spies_outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    view = ctx.view
    winners = tuple(p.id for p in view.all_players() if p.vars.get(hr.VAR_CAMP) in camps)
    return Outcome(
        winners,
        "spy-peeked" if SPIES in camps else "spy-idle",
        {"pokes": _pokes(view)},
        {p.id: {"won": int(p.id in winners)} for p in view.all_players()},
    )


def _spies_public(ctx: Context) -> dict[str, Any]:
    return {"pokes": _pokes(ctx.view)}


def _spies_public_roles(ctx: Context) -> dict[str, str]:
    if ctx.view.phase == hr.END:
        return {p.id: p.role for p in ctx.view.all_players()}
    return {}


SPIES_DEF = GameDefinition(
    name="spies",
    version="3",
    setup=_spies_setup,
    min_seats=2,
    max_seats=8,
    statistics=(Statistic.table("pokes"), Statistic.seat("won")),
    undo=True,
    draws=_spies_draws,
    outcome=_spies_outcome,
    public=_spies_public,
    public_roles=_spies_public_roles,
)


def spy_of(table: host.Table) -> str:
    """Host-side look at who the spy is."""
    return next(p.id for p in table.inspect().all_players() if p.role == SPY)


def civilians(table: host.Table) -> list[str]:
    return [p.id for p in table.inspect().all_players() if p.role == CIV]


# ---------------------------------------------------------------------- brawl (initiative)

BRAWL = "BRAWL"
HIT = "HIT"
FAST, SLOW = "FAST", "SLOW"


def brawl_rules() -> hr.Rules:
    config = hr.Config(
        start_phase=BRAWL,
        phases={
            BRAWL: hr.PhaseConfig(
                steps=(hr.PhaseStep("", HIT, min_targets=1, max_targets=1, allow_self_target=False),),
                next_phase=BRAWL,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
                turn_order=hr.INITIATIVE,
                initiative_var="init",
            )
        },
    )
    return hr.Rules(
        config,
        name="brawl",
        resolvers={BRAWL: lambda uses, view: []},
        turn_resolvers={BRAWL: lambda uses, view: [hr.Effect("HITTED", source=u.player_id) for u in uses]},
        role_setup={FAST: lambda pid, role: {"init": "9"}, SLOW: lambda pid, role: {"init": "1"}},
        audience=lambda event, view: view.player_ids(),
    )


BRAWL_DEF = GameDefinition(
    name="brawl",
    version="1",
    setup=lambda options, seats, rng: Deal(brawl_rules(), {s: FAST if s.startswith("f") else SLOW for s in seats}),
    min_seats=2,
    max_seats=6,
)


# ---------------------------------------------------------------------- playing


def random_move(table: host.Table, rng: random.Random, *, undo_rate: float = 0.0, say_rate: float = 0.0) -> bool:
    """Make one legal-looking move for a random seat; ``False`` when nobody could move."""
    seats = list(table.seats)
    rng.shuffle(seats)
    for seat in seats:
        view = table.view(seat)
        if host.UNDO in view.moves and rng.random() < undo_rate:
            table.undo(seat)
            return True
        if host.SAY in view.moves and rng.random() < say_rate:
            table.say(seat, f"hello from {seat} #{table.seq}")
            return True
        if view.me is None or not view.me.allowed_skills:
            continue
        skill = rng.choice(view.me.allowed_skills)
        try:
            table.act(seat, skill, _targets_for(view, skill, rng))
        except hr.GameError:
            continue
        return True
    return False


def _targets_for(view: host.TableView, skill: str, rng: random.Random) -> tuple[str, ...]:
    """No target for a roll; others only where self-targeting is refused; anyone living otherwise."""
    if skill == "ROLL":
        return ()
    living = [p.seat for p in view.players if p.alive]
    others = [s for s in living if s != view.seat]
    pool = others if skill in ("TAUNT", PEEK, HIT) else living
    return (rng.choice(pool),) if pool else ()


def play_out(table: host.Table, seed: int, *, limit: int = 1000, end_rate: float = 0.0, **rates: float) -> None:
    """Random moves until the table ends; the host ends a phase when nobody moves (or at ``end_rate``)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if table.over:
            return
        if rng.random() < end_rate or not random_move(table, rng, **rates):
            table.end_phase()
    raise AssertionError(f"table {table.id} did not end within {limit} moves")


def every_view(table: host.Table) -> list[host.TableView]:
    """The spectator's view and every seat's view."""
    return [table.view(None), *(table.view(s) for s in table.seats)]


def with_outcome(definition: GameDefinition, outcome: Any) -> GameDefinition:
    return dataclasses.replace(definition, outcome=outcome)


# ---------------------------------------------------------------------- a host that plays any game


def step_for(table: host.Table, view: host.TableView, skill: str) -> hr.PhaseStep | None:
    """The rules' step that gives ``view``'s seat ``skill`` now (its own role first)."""
    pc = table.rules.config.phases.get(view.phase)
    if pc is None or view.me is None:
        return None
    role = view.me.role
    mine = [s for s in pc.steps if s.skill == skill and s.role == role]
    anyone = [s for s in pc.steps if s.skill == skill and s.role == ""]
    found = mine or anyone
    return found[0] if found else None


def pick_targets(table: host.Table, view: host.TableView, skill: str, rng: random.Random) -> tuple[str, ...]:
    """Targets shaped like the step asks: its pool or the players, its count, no self where refused."""
    step = step_for(table, view, skill)
    if step is None or skill == hr.SKIP:
        return ()
    if step.target_pool:
        pool = list(table.rules.config.target_pools[step.target_pool])
    else:
        pool = [p.seat for p in view.players if p.alive or step.allow_dead_target]
        if not step.allow_self_target:
            pool = [s for s in pool if s != view.seat]
    if step.max_targets == 0:
        return ()
    n = max(step.min_targets, 1)
    return tuple(rng.sample(pool, n)) if len(pool) >= n else ()


def host_turn(table: host.Table, rng: random.Random) -> None:
    """One step of a diligent host: a seat that still owes a move makes one; else the phase ends."""
    pending = table.readiness().pending
    for action in rng.sample(pending, len(pending)):
        view = table.view(action.player_id)
        skills = list(view.me.allowed_skills if view.me else ())
        if not skills:
            continue
        skill = rng.choice(skills)
        for _ in range(5):
            try:
                table.act(action.player_id, skill, pick_targets(table, view, skill, rng))
                return
            except hr.GameError:
                continue
    optional = table.readiness().optional
    if optional and rng.random() < 0.5:
        action = rng.choice(optional)
        view = table.view(action.player_id)
        if view.me is not None and action.skill in view.me.allowed_skills:
            try:
                table.act(action.player_id, action.skill, pick_targets(table, view, action.skill, rng))
                return
            except hr.GameError:
                pass
    table.end_phase()


def host_game(table: host.Table, seed: int, limit: int = 600) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if table.over:
            return
        host_turn(table, rng)
    raise AssertionError(f"{table.id} did not end within {limit} host steps")
