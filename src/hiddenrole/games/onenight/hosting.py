"""One Night's hosting definition: the deck as options; winners by the card they hold at the end.

Options
    ``deck``: ``standard`` (the rulebook's starter set plus one card per extra player)
    or ``custom``, built from one option per card: a whole number for cards the box
    holds several of (``werewolf``, ``mason``, ``villager``), a switch for the others.
    A custom deck must hold exactly seats + 3 cards. ``minion-clause`` is the optional
    rule that lets the minion win alone when no werewolf is among the players.

The host ends every phase (``end-phase``): night steps are optional, so the table
runs the night on the host's timer, like a moderator.

Outcome: a seat wins when the camp of the card it *holds* at the end (not the one it
was dealt) is among the winning camps. Statistics: ``rounds`` (always 1), ``swaps``
(cards moved by the robber, troublemaker and drunk), ``deaths``; per seat
``survived`` and ``won``. Once the game is over every card is public: the dealt
roles, the cards held and the centre.
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
from hiddenrole.games import onenight

__all__ = ["DEFINITION", "CARD_OPTIONS", "deck"]

STANDARD = "standard"
CUSTOM = "custom"
SWAPS = frozenset({onenight.ROBBED, onenight.MEDDLED, onenight.DRUNK_SWAP})

CARD_OPTIONS: dict[str, str] = {onenight.DISPLAY_NAMES[r].lower().replace(" ", "-"): r for r in onenight.ROLES}
"""Option name of each card."""

_STARTER = dict.fromkeys(CARD_OPTIONS, 0) | {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 1}
"""The custom deck's defaults: the rulebook's three-player starter set."""


def _card_option(name: str, role: str) -> Option:
    copies = onenight.BOX_COPIES[role]
    if copies > 1:
        return Option.integer(
            name, _STARTER[name], 0, copies, help=f"custom deck: copies of {name}", requires=("deck", CUSTOM)
        )
    return Option.boolean(
        name, bool(_STARTER[name]), help=f"custom deck: include the {name}", requires=("deck", CUSTOM)
    )


def deck(options: Settings, players: int) -> tuple[str, ...]:
    """The cards in the game; a custom deck of the wrong size raises :class:`InvalidOptions`."""
    if options.text("deck") == STANDARD:
        try:
            return tuple(onenight.default_deck(players))
        except hr.InvalidBoard as exc:
            raise InvalidOptions(f"option 'deck': {exc.message}", "deck") from None
    cards: list[str] = []
    for name, role in CARD_OPTIONS.items():
        count = options.number(name) if onenight.BOX_COPIES[role] > 1 else int(options.flag(name))
        cards += [role] * count
    need = players + onenight.CENTER_SIZE
    if len(cards) != need:
        raise InvalidOptions(
            f"option 'deck': {players} seats need {need} cards, the custom deck has {len(cards)}", "deck"
        )
    return tuple(cards)


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    cards = sorted(deck(options, len(seats)))
    rng.shuffle(cards)
    n = len(seats)
    rules = onenight.rules(cards[n:], minion_clause=options.flag("minion-clause"))
    return Deal(rules, dict(zip(seats, cards[:n], strict=True)))


def _held(view: hr.GameView, seat: str) -> str:
    return view.var(hr.GAME.of(seat), onenight.VAR_CARD)


def _outcome(ctx: Context, camps: tuple[str, ...]) -> Outcome:
    view = ctx.view
    players = view.all_players()
    winners = tuple(p.id for p in players if onenight.camp_of(_held(view, p.id)) in camps)
    swaps = sum(1 for e in ctx.effects if e.type in SWAPS and not e.canceled)
    ending = "won-by-" + "-and-".join(c.lower() for c in camps) if camps else "no-winner"
    return Outcome(
        winners,
        ending,
        {"rounds": 1, "swaps": swaps, "deaths": sum(not p.alive for p in players)},
        survival(players, winners),
    )


def _roles_at_end(ctx: Context) -> dict[str, str]:
    """At the end every seat turns over the card it ends with (the one that decides who won), not the one dealt."""
    if ctx.view.phase != hr.END:
        return {}
    return {s: _held(ctx.view, s) for s in ctx.seats}


def _names(cards: list[str]) -> list[str]:
    return [onenight.DISPLAY_NAMES[c] for c in cards]


def _public(ctx: Context) -> dict[str, Any]:
    """The deck is known at the table; where the cards are is told only at the end."""
    view = ctx.view
    out: dict[str, Any] = {"deck": _names(sorted(deck(ctx.options, len(ctx.seats))))}
    if view.phase == hr.END:
        out["held"] = {s: onenight.DISPLAY_NAMES[_held(view, s)] for s in ctx.seats}
        out["center"] = _names([view.var(hr.GAME, onenight.center_key(s)) for s in onenight.CENTER_SLOTS])
    return out


DEFINITION = GameDefinition(
    name=onenight.NAME,
    version=onenight.VERSION,
    setup=_setup,
    min_seats=onenight.MIN_PLAYERS,
    max_seats=10,
    default_seats=6,
    options=(
        Option.choice("deck", STANDARD, (STANDARD, CUSTOM), help="the standard deck for the seat count, or custom"),
        *(_card_option(name, role) for name, role in CARD_OPTIONS.items()),
        Option.boolean("minion-clause", False, help="with no werewolf among the players the minion may win alone"),
    ),
    statistics=(
        Statistic.table("rounds"),
        Statistic.table("swaps"),
        Statistic.table("deaths"),
        *SURVIVAL_STATISTICS,
    ),
    undo=False,
    auto_advance=False,
    outcome=_outcome,
    public=_public,
    public_roles=_roles_at_end,
    summary="one night of swapped cards, one day, one vote; you win by the card you hold",
)
