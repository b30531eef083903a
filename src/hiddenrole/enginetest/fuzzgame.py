"""The kernel's own fuzz ruleset: small, but it touches every kernel mechanism.

Two camps, RED and BLUE; the REDs know each other. The phase graph::

    CYCLE (compound; entering it clears round variables)
      ACT    every player STRIKEs someone (marks them) or SKIPs; required, grouped per role
      TALLY  a moderator announcement; leaving TALLY advances the round
    FALLOUT  a RED victim, although dead, CURSEs someone (detour; chains); leaving it
             advances the round too

TALLY eliminates the marked living players in id order; a RED victim owes a trip to
FALLOUT. Only TALLY and FALLOUT kill, so the rules declare them as ``victory_after``
(the harness checks the promise on every ACT's end). The two lowest seats start with a
shield: the first time one of them would die, an interceptor spares them instead (event
``SPARED``, label ``shielded``), and a second interceptor cancels the announcement and
FALLOUT trip of a death that did not happen. The act function now and then names the ACT
phase's actors itself (``SET_ACTORS`` through ``Engine.apply``), dead players included.
Marks are round variables and TALLY loops back to ACT inside CYCLE, so a spared player's
mark survives until the group is re-entered (after a FALLOUT): deliberate, it makes
``CLEAR_ROUND_VARS`` observable.

The round boundary with detours (issue 11): TALLY ends a round and may queue several
FALLOUT trips at once, and FALLOUT itself ends a round and re-enters CYCLE, which clears
it. The kernel holds the boundary while a trip is owed and lands it once when the queue
drains. The resolvers check that promise on every visit and raise
:class:`BoundaryBroken` (a ``CRASH`` under the harness) when it is broken: a FALLOUT trip
sees the round of the TALLY that owed it, with that round's state; the n-th TALLY is in
round n (a cycle counts once); every dead RED has had its trip by the next TALLY.

Everything uses the public kernel API only, like any rules package.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import hiddenrole as hr

from .core import Game, Public, Turn
from .leaks import default_chat
from .policy import deal, random_policy
from .spec import LeakCheck, Spec

__all__ = [
    "ACT",
    "BLUE",
    "BoundaryBroken",
    "CURSE",
    "CURSED",
    "CYCLE",
    "ELIMINATED",
    "FALLOUT",
    "RED",
    "SHIELD",
    "SPARED",
    "STRIKE",
    "STRUCK",
    "TALLY",
    "fuzz_act",
    "fuzz_labels",
    "fuzz_spec",
    "rules",
    "setup",
]

CYCLE = "CYCLE"
ACT = "ACT"
TALLY = "TALLY"
FALLOUT = "FALLOUT"
RED = "RED"
BLUE = "BLUE"
STRIKE = "STRIKE"
CURSE = "CURSE"
STRUCK = "STRUCK"
ELIMINATED = "ELIMINATED"
SPARED = "SPARED"
CURSED = "CURSED"
SHIELD = "shield"
MARKED = "marked"
TALLIED = "tallied"
"""Unowned round variable: the round TALLY resolved in (the state a FALLOUT trip must still see)."""
TALLIES = "tallies"
"""Unowned game variable: how many TALLYs have resolved (the round counts cycles, once each)."""
SERVED = "served"
"""Game variable of a dead RED: its FALLOUT trip ran."""


class BoundaryBroken(AssertionError):
    """The round and its state came apart across detours: the kernel broke the round boundary."""


def resolve_act(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Each STRIKE marks its target for this round (first use per player counts)."""
    out: list[hr.Effect] = []
    seen: set[str] = set()
    for u in uses:
        if u.player_id in seen:
            continue
        seen.add(u.player_id)
        if u.skill == STRIKE and u.target:
            out.append(hr.Effect(STRUCK, u.player_id, u.target))
            out.append(hr.set_var(hr.ROUND.of(u.target), MARKED, hr.VAR_PRESENT))
    return out


def resolve_tally(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Marked living players die in id order; RED victims owe a FALLOUT trip.

    First it checks the round boundary: this is the n-th TALLY, so the round is n, and
    every trip owed since the last TALLY has run.
    """
    tallies = int(view.var(hr.GAME, TALLIES) or "0")
    if view.round != tallies + 1:
        raise BoundaryBroken(f"TALLY number {tallies + 1} is in round {view.round}: a cycle was not counted once")
    unserved = [p.id for p in view.all_players() if p.role == RED and not p.alive and not p.vars.get(SERVED)]
    if unserved:
        raise BoundaryBroken(f"the next TALLY came before the FALLOUT trips of {', '.join(unserved)}")
    out: list[hr.Effect] = [hr.Effect(hr.ANNOUNCE)]
    for p in view.alive_players():
        if p.round_vars.get(MARKED):
            out.append(hr.set_alive(p.id, False))
            out.append(hr.Effect(ELIMINATED, target=p.id))
            if p.role == RED:
                out.append(hr.detour(p.id, FALLOUT))
    out.append(hr.set_var(hr.GAME, TALLIES, str(tallies + 1)))
    out.append(hr.set_var(hr.ROUND, TALLIED, str(view.round)))
    return out


def resolve_fallout(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The victim's CURSE kills its target; a RED target owes its own trip (chaining).

    First it checks that the round boundary is held: the trip happens in the round of
    the TALLY that owed it, whose state is still there, and it is its victim's only trip.
    """
    if view.var(hr.ROUND, TALLIED) != str(view.round):
        raise BoundaryBroken(
            f"a FALLOUT trip in round {view.round} sees TALLY's round as {view.var(hr.ROUND, TALLIED)!r}: "
            "the round boundary was not held while the trip was owed"
        )
    victims = view.actors(FALLOUT) or ()
    for victim in victims:
        if view.var(hr.GAME.of(victim), SERVED):
            raise BoundaryBroken(f"{victim} makes a second FALLOUT trip")
    out: list[hr.Effect] = []
    for u in uses[:1]:
        target = view.player(u.target)
        if u.skill != CURSE or target is None or not target.alive:
            continue
        out.append(hr.set_alive(target.id, False))
        out.append(hr.Effect(CURSED, u.player_id, target.id))
        if target.role == RED:
            out.append(hr.detour(target.id, FALLOUT))
    out.extend(hr.set_var(hr.GAME.of(victim), SERVED, hr.VAR_PRESENT) for victim in victims)
    return out


def shield_once(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """The first death of a shielded player becomes SPARED, and the shield is gone."""
    if effect.sets_alive() is not False:
        return None
    if not view.var(hr.GAME.of(effect.target), SHIELD):
        return None
    return [hr.Effect(SPARED, target=effect.target), hr.set_var(hr.GAME.of(effect.target), SHIELD, "")]


def only_the_dead_fall(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Consequences of a death that did not happen are vetoed.

    Resolvers emit the death first, then its announcement and the FALLOUT trip; if the
    shield spared the player (the view already shows them alive), those are cancelled.
    """
    if effect.type == hr.DETOUR and effect.phase == FALLOUT:
        who = effect.source
    elif effect.type in (ELIMINATED, CURSED):
        who = effect.target
    else:
        return None
    p = view.player(who)
    if p is None or not p.alive:
        return None
    return [effect.cancel("survived")]


def shield_the_first_two(view: hr.GameView) -> list[hr.Effect]:
    """Game setup: the two lowest seats wear a shield (a public house rule)."""
    return [hr.set_var(hr.GAME.of(pid), SHIELD, hr.VAR_PRESENT) for pid in view.player_ids()[:2]]


def last_camp_standing(view: hr.GameView) -> tuple[str, ...] | None:
    """A camp with nobody alive has lost; if both are gone nobody wins."""
    camps = {p.role for p in view.alive_players()}
    if RED in camps and BLUE in camps:
        return None
    return tuple(sorted(camps))


def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
    """A strike is known to striker and target; everything else is announced to all."""
    if event.type == STRUCK:
        return tuple(sorted({event.source, event.target}))
    return view.player_ids()


def reds_know_each_other(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    me = view.player(player_id)
    if me is None or me.role != RED:
        return ()
    return tuple(p.id for p in view.all_players() if p.role == RED and p.id != player_id)


def rules() -> hr.Rules:
    """The fuzz ruleset (name ``fuzzgame``)."""

    def act_steps(role: str) -> tuple[hr.PhaseStep, ...]:
        return (
            hr.PhaseStep(role, STRIKE, required=True, group=role, min_targets=1, max_targets=1),
            hr.PhaseStep(role, hr.SKIP, required=True, group=role, max_targets=0),
        )

    config = hr.Config(
        start_phase=ACT,
        phases={
            CYCLE: hr.PhaseConfig(on_enter=(hr.CLEAR_ROUND_VARS,)),
            ACT: hr.PhaseConfig(steps=(*act_steps(RED), *act_steps(BLUE)), next_phase=TALLY, parent=CYCLE),
            TALLY: hr.PhaseConfig(
                steps=(hr.PhaseStep(hr.SYSTEM, hr.ANNOUNCE), hr.PhaseStep(BLUE)),
                next_phase=ACT,
                parent=CYCLE,
                on_exit=(hr.ADVANCE_ROUND,),
            ),
            FALLOUT: hr.PhaseConfig(
                steps=(hr.PhaseStep("", CURSE, required=True, min_targets=1, max_targets=1, allow_self_target=False),),
                next_phase=ACT,
                on_exit=(hr.ADVANCE_ROUND,),  # the issue-11 case: the detour phase ends a round too
            ),
        },
    )
    return hr.Rules(
        config,
        name="fuzzgame",
        version="1",
        resolvers={ACT: resolve_act, TALLY: resolve_tally, FALLOUT: resolve_fallout},
        victory=last_camp_standing,
        victory_after=frozenset({TALLY, FALLOUT}),  # the phases that kill (ACT only marks)
        role_setup={RED: lambda pid, role: {hr.VAR_CAMP: RED}, BLUE: lambda pid, role: {hr.VAR_CAMP: BLUE}},
        game_setup=shield_the_first_two,
        audience=audience,
        teammates=reds_know_each_other,
        interceptors=(shield_once, only_the_dead_fall),
    )


_RULES = rules()


def setup(rng: random.Random) -> Game:
    """4-8 seats, at least one of each camp."""
    n = rng.randint(4, 8)
    reds = rng.randint(1, n - 1)
    return Game(_RULES, deal(rng, {RED: reds, BLUE: n - reds}))


def fuzz_act(turn: Turn) -> None:
    """Sometimes name ACT's actors by hand (dead players too), then play randomly."""
    engine = turn.engine
    if engine.status().phase == ACT and turn.rng.random() < 0.2:
        ids = engine.player_ids()
        chosen = turn.rng.sample(ids, turn.rng.randint(0, len(ids)))
        engine.apply(hr.set_actors(ACT, *chosen))
        turn.label("set_actors")
    random_policy(turn)


def fuzz_labels(engine: hr.Engine, effects: tuple[hr.Effect, ...]) -> Iterable[str]:
    """``shielded`` when the interceptor spared someone; ``canceled`` for any vetoed effect;
    ``detours_together`` when one phase queued several trips; ``detour_chain`` when a trip
    queued another."""
    trips = 0
    for e in effects:
        if e.type == SPARED:
            yield "shielded"
        if e.canceled:
            yield "canceled"
        elif e.type == hr.DETOUR:
            trips += 1
    if trips > 1:
        yield "detours_together"
    if trips and any(e.type == CURSED and not e.canceled for e in effects):
        yield "detour_chain"


FALLOUT_IS_CALLED_OPENLY = Public(
    "fallout_is_called_openly",
    phases=frozenset({FALLOUT}),
)
"""At this table the moderator openly calls a RED victim back for FALLOUT: the phase itself is public."""


def fuzz_spec(games: int = 200, max_steps: int = 60, start: int = 0, leak_games: int | None = 50) -> Spec:
    """The kernel's fuzz run: must finish, must see every mechanism, H on the first ``leak_games``."""
    return Spec(
        name="fuzzgame",
        setup=setup,
        act=fuzz_act,
        games=games,
        start=start,
        max_steps=max_steps,
        want_end=True,
        must_see=(
            "shielded",
            "set_actors",
            "canceled",
            "detours_together",
            "detour_chain",
            ELIMINATED,
            CURSED,
            SPARED,
            STRUCK,
            f"phase:{FALLOUT}",
            f"won:{RED}",
            f"won:{BLUE}",
            "won:none",
        ),
        labeler=fuzz_labels,
        leaks=LeakCheck(
            viewers_per_game=2,
            roles=(BLUE,),  # the REDs know every seat's camp: no twin deal exists for them
            games=leak_games,
            public=(FALLOUT_IS_CALLED_OPENLY,),
            chat=default_chat,
        ),
    )
