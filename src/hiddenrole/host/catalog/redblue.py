"""Red versus blue, hosted: roles dealt at random from the seed, revealed when the game ends.

Three seats at least: with one red and one blue the game is drawn before it starts.
"""

from __future__ import annotations

import random

import hiddenrole as hr
from hiddenrole.games import redblue

from ..definition import Context, Deal, GameDefinition, Outcome, Statistic
from ..options import Option, Settings

__all__ = ["DEFINITION"]

EVEN = "even"
LONE_RED = "lone-red"


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    """Half the seats red (rounded down) or a single red; shuffled with the table's randomness."""
    reds = 1 if options.text("split") == LONE_RED else len(seats) // 2
    roles = [redblue.RED] * reds + [redblue.BLUE] * (len(seats) - reds)
    rng.shuffle(roles)
    return Deal(redblue.rules(), dict(zip(seats, roles, strict=True)))


def _outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    view = ctx.view
    won = set(camps)
    winners = tuple(p.id for p in view.all_players() if p.role in won)
    ending = f"{camps[0].lower()}-wins" if len(camps) == 1 else "no-winner"
    # Leaving the last vote advanced the round counter once more.
    rounds = view.round - 1
    return Outcome(
        winners,
        ending,
        {"rounds": rounds},
        {p.id: {"survived": int(p.alive), "won": int(p.id in winners)} for p in view.all_players()},
    )


def _public_roles(ctx: Context) -> dict[str, str]:
    """Roles stay secret while the game runs; the final reveal makes them public."""
    if ctx.view.phase != hr.END:
        return {}
    return {p.id: p.role for p in ctx.view.all_players()}


DEFINITION = GameDefinition(
    name="redblue",
    version=redblue.rules().version,
    setup=_setup,
    min_seats=3,
    max_seats=64,
    options=(Option.choice("split", EVEN, (EVEN, LONE_RED), help="even sides, or one red among blues"),),
    statistics=(Statistic.table("rounds"), Statistic.seat("survived"), Statistic.seat("won")),
    undo=True,
    auto_advance=True,
    outcome=_outcome,
    public_roles=_public_roles,
    summary="red against blue, one public vote per round",
)
