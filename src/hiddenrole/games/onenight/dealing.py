"""Decks and dealing: players + 3 cards, shuffled from a seed, three cards to the centre.

The kernel has no randomness, so dealing happens here, before the game, from a
``random.Random(seed)`` of its own: the same deck and seed always give the same deal.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import hiddenrole as hr

from .shuffling import shuffle
from .vocab import (
    BOX_COPIES,
    DRUNK,
    HUNTER,
    INSOMNIAC,
    MINION,
    ROBBER,
    ROLES,
    SEER,
    TANNER,
    TROUBLEMAKER,
    VILLAGER,
    WEREWOLF,
)

__all__ = ["MIN_PLAYERS", "CENTER_SIZE", "Deal", "seat_id", "validate_deck", "deal", "default_deck"]

MIN_PLAYERS = 3
CENTER_SIZE = 3

# Rulebook starter set for three players, then one card more per extra player.
_STARTER = (WEREWOLF, WEREWOLF, SEER, ROBBER, TROUBLEMAKER, VILLAGER)
_EXTRA = (VILLAGER, VILLAGER, DRUNK, INSOMNIAC, TANNER, HUNTER, MINION)


class Deal(NamedTuple):
    """Who was dealt which card (seat ids ``p0``..), and the three centre cards."""

    seats: tuple[tuple[str, hr.RoleType], ...]
    center: tuple[hr.RoleType, hr.RoleType, hr.RoleType]

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(pid for pid, _ in self.seats)


def seat_id(index: int) -> str:
    """The id of seat ``index`` (``p0``, ``p1``, ...)."""
    return f"p{index}"


MAX_PLAYERS_CACHED = 64
"""How many table sizes :func:`seat_ids` remembers (a bound: sizes beyond are rebuilt)."""


@functools.lru_cache(maxsize=MAX_PLAYERS_CACHED)
def seat_ids(players: int) -> tuple[str, ...]:
    """``p0``..``p<players-1>``, built once per table size (every deal names its seats)."""
    return tuple(seat_id(i) for i in range(players))


def _players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise hr.InvalidArgument(f"players must be an int, got {players!r}")
    if players < MIN_PLAYERS:
        raise hr.InvalidBoard(f"One Night needs at least {MIN_PLAYERS} players, got {players}")
    return players


def check_cards(cards: Iterable[object], what: str) -> tuple[hr.RoleType, ...]:
    """``cards`` as a tuple of known roles within the box's copy limits."""
    if isinstance(cards, (str, bytes)):
        raise hr.InvalidArgument(f"{what} must be a sequence of roles, not a string")
    items = tuple(cards)
    try:
        known = items in _CHECKED  # every game checks its deck, centre and seats: the usual ones once
    except TypeError:  # an unhashable card: refused below as an unknown role
        known = False
    if known:
        return items  # type: ignore[return-value]  # only checked card lists are remembered
    out = _check_cards(items, what)
    if len(_CHECKED) < MAX_CHECKED_DECKS - 1:
        _CHECKED.add(out)
        # The box's limits ignore order, so the sorted list is legal too: the game setup looks the
        # seated table up sorted, and would otherwise check a dealt deck a second time.
        _CHECKED.add(tuple(sorted(out)))
    return out


MAX_CHECKED_DECKS = 1024
"""How many distinct legal card lists :func:`check_cards` remembers (a bound, not a tuning knob)."""
_CHECKED: set[tuple[object, ...]] = set()


def _check_cards(cards: tuple[object, ...], what: str) -> tuple[hr.RoleType, ...]:
    out: list[hr.RoleType] = []
    for card in cards:
        if not isinstance(card, str) or card not in BOX_COPIES:
            raise hr.InvalidRole(f"{what}: unknown One Night role {card!r} (known: {', '.join(ROLES)})")
        out.append(card)
    for role, n in sorted(Counter(out).items()):
        if n > BOX_COPIES[role]:
            raise hr.InvalidBoard(f"{what}: {n} copies of {role}, the box has {BOX_COPIES[role]}")
    return tuple(out)


def validate_deck(deck: Sequence[hr.RoleType], players: int) -> tuple[hr.RoleType, ...]:
    """Check a deck for ``players`` players and return it as a tuple.

    Raises :class:`~hiddenrole.InvalidRole` for an unknown card and
    :class:`~hiddenrole.InvalidBoard` for too few players, a deck that is not exactly
    ``players + 3`` cards, or more copies of a card than the box holds.
    """
    n = _players(players)
    cards = check_cards(deck, "deck")
    if len(cards) != n + CENTER_SIZE:
        raise hr.InvalidBoard(f"{n} players need {n + CENTER_SIZE} cards (players + 3), the deck has {len(cards)}")
    return cards


_new = tuple.__new__


def shuffled(deck: Sequence[hr.RoleType], players: int, seed: int) -> list[hr.RoleType]:
    """The checked ``deck`` sorted, then shuffled with ``random.Random(seed)``'s draws: card *i*
    goes to seat *i*, the last three to the centre (what :func:`deal` and ``new_engine`` deal)."""
    cards = sorted(validate_deck(deck, players))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise hr.InvalidArgument(f"seed must be an int, got {seed!r}")
    shuffle(cards, seed)  # random.Random(seed).shuffle's draws, compiled
    return cards


def deal(deck: Sequence[hr.RoleType], players: int, seed: int) -> Deal:
    """Shuffle ``deck`` with ``random.Random(seed)``: one card per seat, the last three to the centre.

    The deck is sorted before shuffling, so the deal depends on which cards are in it
    and on the seed, not on the order the caller listed them.
    """
    cards = shuffled(deck, players, seed)
    seats = tuple(zip(seat_ids(players), cards[:players], strict=True))
    c0, c1, c2 = cards[players:]
    return _new(Deal, (seats, (c0, c1, c2)))  # no NamedTuple __new__ frame


def default_deck(players: int) -> tuple[hr.RoleType, ...]:
    """A playable deck for 3..10 players: the rulebook's starter set plus one card per extra player."""
    n = _players(players)
    extra = n - MIN_PLAYERS
    if extra > len(_EXTRA):
        raise hr.InvalidBoard(f"default decks go up to {MIN_PLAYERS + len(_EXTRA)} players, got {n}")
    return (*_STARTER, *_EXTRA[:extra])
