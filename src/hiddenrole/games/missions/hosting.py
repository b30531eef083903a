"""Missions (The Resistance / Avalon), its hosting definition: variant and optional roles as options.

Options: ``variant`` (``avalon`` or ``resistance``) and one switch per optional
Avalon role (``percival``, ``morgana``, ``mordred``, ``oberon``); a choice that does
not fit the variant, its partner rule or the seat count is refused naming the
option. The table advances by itself: every phase of missions waits for required
moves only, so it ends the moment the last of them is made (a leader who never
nominates is forfeited when the host sends ``end-phase``).

Statistics: ``rounds`` (missions begun: a hammer ends one before it is played),
``missions`` (played), ``successes``,
``fails``, ``rejects`` (teams rejected in a row at the end); per seat ``survived``
(always 1: nobody is eliminated) and ``won``.
"""

from __future__ import annotations

import random
from typing import Any

import hiddenrole as hr
from hiddenrole.gamedef import (
    SURVIVAL_STATISTICS,
    Context,
    Deal,
    GameDefinition,
    InvalidOptions,
    Option,
    Outcome,
    Settings,
    Statistic,
    survival,
)
from hiddenrole.games import missions

__all__ = ["DEFINITION", "ROLE_OPTIONS"]

ROLE_OPTIONS: dict[str, str] = {
    "percival": missions.PERCIVAL,
    "morgana": missions.MORGANA,
    "mordred": missions.MORDRED,
    "oberon": missions.OBERON,
}
"""Option name of each optional Avalon role."""


def _chosen(options: Settings) -> list[str]:
    return [name for name in ROLE_OPTIONS if options.flag(name)]


def cards(options: Settings, players: int) -> tuple[str, ...]:
    """The table's roles; a choice that cannot be played raises :class:`InvalidOptions` naming it."""
    variant = options.text("variant")
    chosen = _chosen(options)
    fixed = {missions.MERLIN, missions.ASSASSIN} if variant == missions.AVALON else set()
    picked = {ROLE_OPTIONS[n] for n in chosen}
    for name in chosen:
        role = ROLE_OPTIONS[name]
        if role not in missions.OPTIONAL_ROLES[variant]:
            raise InvalidOptions(f"option {name!r}: {variant} has no optional {name}", name)
        partner = missions.REQUIRES.get(role)
        if partner is not None and partner not in fixed | picked:
            raise InvalidOptions(f"option {name!r}: {name} needs {missions.display_name(partner)} too", name)
    try:
        return missions.composition(variant, players, [ROLE_OPTIONS[n] for n in chosen])
    except hr.InvalidBoard as exc:
        blamed = chosen[-1] if chosen else "variant"
        raise InvalidOptions(f"option {blamed!r}: {exc.message}", blamed) from None


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    deck = sorted(cards(options, len(seats)))
    rng.shuffle(deck)
    return Deal(missions.rules(), dict(zip(seats, deck, strict=True)))


def _ending(board: dict[str, str], camps: tuple[str, ...]) -> str:
    if int(board["rejects"]) >= missions.HAMMER_AT:
        return "hammer"
    if int(board["fails"]) >= missions.WINS_NEEDED:
        return "three-fails"
    if missions.EVIL in camps:
        return "merlin-assassinated"
    return "three-successes"


def _outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    view = ctx.view
    board = missions.scoreboard(view)
    winners = tuple(p.id for p in view.all_players() if missions.camp_of(p.role) in camps)
    played = len(board["results"])
    ending = _ending(board, camps)
    return Outcome(
        winners,
        ending,
        {
            "rounds": played + (ending == "hammer"),
            "missions": played,
            "successes": int(board["successes"]),
            "fails": int(board["fails"]),
            "rejects": int(board["rejects"]),
        },
        survival(view.all_players(), winners),
    )


def _public(ctx: Context) -> dict[str, Any]:
    """The scoreboard is public by design (it holds no secret)."""
    return dict(missions.scoreboard(ctx.view))


DEFINITION = GameDefinition(
    name="missions",
    version=missions.RULES_VERSION,
    setup=_setup,
    min_seats=missions.MIN_PLAYERS,
    max_seats=missions.MAX_PLAYERS,
    default_seats=7,
    options=(
        Option.choice("variant", missions.AVALON, missions.VARIANTS, help="avalon adds Merlin and the Assassin"),
        *(Option.boolean(name, False, help=f"add {name} (avalon only)") for name in ROLE_OPTIONS),
    ),
    statistics=(
        Statistic.table("rounds"),
        Statistic.table("missions"),
        Statistic.table("successes"),
        Statistic.table("fails"),
        Statistic.table("rejects"),
        *SURVIVAL_STATISTICS,
    ),
    undo=False,
    auto_advance=True,
    outcome=_outcome,
    public=_public,
    summary="five missions; a team is voted in public and plays success or fail in secret",
)
