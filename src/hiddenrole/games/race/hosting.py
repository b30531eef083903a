"""The race's hosting definition: options target and track, preference leader-first, statistics rounds and position."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from typing import Any

from hiddenrole.gamedef import (
    ACT,
    END_TURN,
    Context,
    Deal,
    Draw,
    GameDefinition,
    Move,
    Option,
    Outcome,
    Settings,
    Statistic,
)
from hiddenrole.games import race

__all__ = ["DEFINITION"]


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    """Every seat is a racer; nothing is dealt at random."""
    return Deal(race.rules(options.number("target"), options.text("track")), {s: race.RACER for s in seats})


def _draws(move: Move, ctx: Context) -> Iterable[Draw]:
    """A roll needs one die; nothing else draws."""
    if move.kind == ACT and move.skill == race.ROLL:
        return (Draw.die(race.VAR_DIE, race.DIE_SIDES),)
    return ()


def _allows(move: Move, ctx: Context) -> str | None:
    if move.kind == END_TURN:
        return "a racer ends a turn by rolling"
    return None


def _outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    """Camps are seat names in the race, so the winning camps are the winning seats."""
    where = race.positions(ctx.view)
    return Outcome(
        camps,
        "finish-line",
        {"rounds": race.rounds_played(ctx.view)},
        {seat: {"position": where.get(seat, 0)} for seat in ctx.seats},
    )


def _public(ctx: Context) -> dict[str, Any]:
    where = race.positions(ctx.view)
    return {
        "target": ctx.options.number("target"),
        "track": ctx.options.text("track"),
        "positions": [{"seat": s, "position": where.get(s, 0)} for s in ctx.seats],
    }


def _public_roles(ctx: Context) -> dict[str, str]:
    """No secrets: every racer is public from the start."""
    return {s: race.RACER for s in ctx.seats}


def _arrange(view: Any, preferences: Settings) -> Any:
    """leader-first lists the positions from the leader down (ties in seat order)."""
    if not preferences.flag("leader-first") or "positions" not in view.data:
        return view
    data = dict(view.data)
    data["positions"] = sorted(data["positions"], key=lambda p: (-int(p["position"]), str(p["seat"])))
    return dataclasses.replace(view, data=data)


DEFINITION = GameDefinition(
    name=race.NAME,
    version=race.VERSION,
    setup=_setup,
    min_seats=race.MIN_SEATS,
    max_seats=race.MAX_SEATS,
    default_seats=3,
    options=(
        Option.integer("target", race.DEFAULT_TARGET, race.MIN_TARGET, race.MAX_TARGET, help="squares to the finish"),
        Option.choice("track", race.DEFAULT_TRACK, race.TRACKS, help="long: the finish must be hit exactly"),
    ),
    preferences=(Option.boolean("leader-first", False, help="list positions from the leader down"),),
    statistics=(Statistic.table("rounds"), Statistic.seat("position")),
    undo=True,
    auto_advance=True,
    draws=_draws,
    allows=_allows,
    outcome=_outcome,
    public=_public,
    public_roles=_public_roles,
    arrange=_arrange,
    summary="roll a die in turn; first to the finish wins (no hidden roles)",
)
