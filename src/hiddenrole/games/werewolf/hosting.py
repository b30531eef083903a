"""Werewolf's hosting definition: board presets or an explicit composition, every rule switch, the victory mode.

Options
    ``composition``: ``preset`` (the board for the player count) or ``custom``, which
    deals ``wolves`` werewolves, the specials switched on (``seer``, ``witch``,
    ``guard``, ``hunter``) and villagers for the other seats. ``idiot`` replaces a
    villager by the idiot, ``wolf-king`` a werewolf by the wolf king (both extensions).
    Every boolean rule switch of :class:`werewolf.Switches` is an option of the same
    name with dashes (``witch-can-save-self``, ...), and ``victory-mode`` is
    ``side-wipe`` or ``town-wipe``. New boolean switches appear here by themselves;
    ``floor-turns`` (1 to :data:`werewolf.MAX_FLOOR_TURNS`) is the number of speaking
    turns a day under ``bid-for-floor``.

The host ends every phase (``end-phase``): night roles act optionally, so a phase is
"ready" long before the witch or the seer has decided; the host's timer decides.

Statistics: ``rounds`` (nights begun), deaths by cause ``killed-by-wolves``,
``poisoned``, ``voted-out``, ``shot``; per seat ``survived`` and ``won``.
"""

from __future__ import annotations

import dataclasses
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
from hiddenrole.games import werewolf

from . import idiot, wolfking

__all__ = ["DEFINITION", "SWITCH_OPTIONS", "switches", "cards"]

PRESET = "preset"
CUSTOM = "custom"
SPECIALS = {"seer": werewolf.SEER, "witch": werewolf.WITCH, "guard": werewolf.GUARD, "hunter": werewolf.HUNTER}
VICTORY = {"side-wipe": werewolf.SIDE_WIPE, "town-wipe": werewolf.TOWN_WIPE}
CAUSES = {
    "killed-by-wolves": werewolf.KILL,
    "poisoned": werewolf.POISON,
    "voted-out": werewolf.VOTE,
    "shot": werewolf.SHOOT,
}
"""Statistic name for each death cause the rules record."""

_DEFAULT_SWITCHES = werewolf.Switches()
SWITCH_OPTIONS: dict[str, str] = {
    f.name.replace("_", "-"): f.name
    for f in dataclasses.fields(werewolf.Switches)
    if isinstance(getattr(_DEFAULT_SWITCHES, f.name), bool)
}
"""Option name of each boolean switch."""


def switches(options: Settings) -> werewolf.Switches:
    """The house rules the options ask for."""
    chosen: dict[str, Any] = {field: options.flag(name) for name, field in SWITCH_OPTIONS.items()}
    if chosen["ordered_day"] and chosen["bid_for_floor"]:
        raise InvalidOptions("option 'bid-for-floor': the day is either ordered or bid for, not both", "bid-for-floor")
    return werewolf.Switches(
        victory_mode=VICTORY[options.text("victory-mode")], floor_turns=options.number("floor-turns"), **chosen
    )


def _extensions(options: Settings) -> tuple[werewolf.Extension, ...]:
    out = []
    if options.flag("idiot"):
        out.append(idiot.EXTENSION)
    if options.flag("wolf-king"):
        out.append(wolfking.EXTENSION)
    return tuple(out)


_SWITCHED: dict[tuple[tuple[str, object], ...], tuple[werewolf.Switches, tuple[werewolf.Extension, ...]]] = {}
"""The switches and extensions of each set of option values met, so a deal (every table opened,
every deal an exact sampler draws: tens of thousands per sample) does not read and check every
switch again. The rules themselves stay cached in one place, :func:`werewolf.rules` (a test that
plants a rule empties that cache and must not meet rules kept here)."""
_SWITCHED_KEPT = 256
"""Sets of option values kept at most (they are few: a process hosts a handful of variants)."""


def _rules(options: Settings) -> hr.Rules:
    key = tuple(options.items())  # every option's value, sorted by name
    got = _SWITCHED.get(key)
    if got is None:
        got = switches(options), _extensions(options)
        if len(_SWITCHED) >= _SWITCHED_KEPT:
            _SWITCHED.clear()
        _SWITCHED[key] = got
    return werewolf.rules(got[0], extensions=got[1])


def cards(options: Settings, players: int) -> list[str]:
    """The cards to deal; what cannot be played raises :class:`InvalidOptions` naming the option."""
    if options.text("composition") == PRESET:
        deck = list(werewolf.board(players))
    else:
        wolves = options.number("wolves")
        specials = [role for name, role in SPECIALS.items() if options.flag(name)]
        villagers = players - wolves - len(specials)
        if villagers < 0:
            raise InvalidOptions(
                f"option 'wolves': {wolves} wolves and {len(specials)} specials exceed {players} seats", "wolves"
            )
        if wolves >= players - wolves:
            raise InvalidOptions(f"option 'wolves': {wolves} wolves need more than {2 * wolves - 1} seats", "wolves")
        deck = [werewolf.WEREWOLF] * wolves + specials + [werewolf.VILLAGER] * villagers
    if options.flag("idiot"):
        if werewolf.VILLAGER not in deck:
            raise InvalidOptions("option 'idiot': the idiot replaces a villager and there is none", "idiot")
        deck[deck.index(werewolf.VILLAGER)] = idiot.IDIOT
    if options.flag("wolf-king"):
        deck[deck.index(werewolf.WEREWOLF)] = wolfking.WOLF_KING
    return deck


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    deck = sorted(cards(options, len(seats)))
    rng.shuffle(deck)
    return Deal(_rules(options), dict(zip(seats, deck, strict=True)))


def _outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    view = ctx.view
    players = view.all_players()
    winners = tuple(p.id for p in players if p.vars.get(hr.VAR_CAMP) in camps)
    start = ctx.rules.config.start_phase
    nights = 1 + sum(1 for e in ctx.effects if e.type == hr.PHASE_CHANGED and e.phase == start)
    dead_by = [p.vars.get(werewolf.VAR_DEATH_CAUSE, "") for p in players if not p.alive]
    table = {"rounds": nights} | {name: dead_by.count(cause) for name, cause in CAUSES.items()}
    ending = f"{camps[0].lower()}-wins" if len(camps) == 1 else "no-winner"
    return Outcome(winners, ending, table, survival(players, winners))


def _switch_options() -> tuple[Option, ...]:
    return tuple(
        Option.boolean(name, bool(getattr(_DEFAULT_SWITCHES, field)), help=f"rule switch {field}")
        for name, field in SWITCH_OPTIONS.items()
    )


DEFINITION = GameDefinition(
    name=werewolf.NAME,
    version=werewolf.VERSION,
    setup=_setup,
    min_seats=werewolf.MIN_PLAYERS,
    max_seats=werewolf.MAX_PLAYERS,
    default_seats=9,
    options=(
        Option.choice("composition", PRESET, (PRESET, CUSTOM), help="preset board for the seat count, or custom"),
        Option.integer("wolves", 2, 1, 5, help="custom: werewolves", requires=("composition", CUSTOM)),
        *(
            Option.boolean(name, True, help=f"custom: deal the {name}", requires=("composition", CUSTOM))
            for name in SPECIALS
        ),
        Option.boolean("idiot", False, help="replace a villager by the idiot"),
        Option.boolean("wolf-king", False, help="replace a werewolf by the wolf king"),
        *_switch_options(),
        Option.choice("victory-mode", "side-wipe", tuple(VICTORY), help="how the wolves win"),
        Option.integer(
            "floor-turns",
            werewolf.FLOOR_TURNS,
            1,
            werewolf.MAX_FLOOR_TURNS,
            help="bid-for-floor: speaking turns per day before the vote",
        ),
    ),
    statistics=(
        Statistic.table("rounds"),
        *(Statistic.table(name) for name in CAUSES),
        *SURVIVAL_STATISTICS,
    ),
    undo=False,
    auto_advance=False,
    outcome=_outcome,
    summary="wolves kill by night, the village votes by day (Chinese table rules)",
)
