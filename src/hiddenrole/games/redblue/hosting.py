"""Red versus blue, its hosting definition: roles dealt at random from the seed, revealed when the game ends.

Three seats at least: with one red and one blue the game is drawn before it starts.
"""

from __future__ import annotations

import random

from hiddenrole.gamedef import (
    SURVIVAL_STATISTICS,
    Context,
    Deal,
    GameDefinition,
    Option,
    Outcome,
    Settings,
    Statistic,
    survival,
)
from hiddenrole.games import redblue

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
        survival(view.all_players(), winners),
    )


DEFINITION = GameDefinition(
    name="redblue",
    version=redblue.rules().version,
    setup=_setup,
    min_seats=3,
    max_seats=64,
    default_seats=5,
    options=(Option.choice("split", EVEN, (EVEN, LONE_RED), help="even sides, or one red among blues"),),
    statistics=(Statistic.table("rounds"), *SURVIVAL_STATISTICS),
    undo=True,
    auto_advance=True,
    outcome=_outcome,
    summary="red against blue, one public vote per round",
)
