"""Decks and dealing: players + 3 cards, shuffled from a seed, three cards to the centre.

The kernel has no randomness, so dealing happens here, before the game, from a
``random.Random(seed)`` of its own: the same deck and seed always give the same deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import hiddenrole as hr

from .decks import CENTER_SIZE, MIN_PLAYERS, check_deck, check_players, seat_id, seat_ids, shuffled
from .vocab import (
    DRUNK,
    HUNTER,
    INSOMNIAC,
    MINION,
    ROBBER,
    SEER,
    TANNER,
    TROUBLEMAKER,
    VILLAGER,
    WEREWOLF,
)

__all__ = ["MIN_PLAYERS", "CENTER_SIZE", "Deal", "seat_id", "validate_deck", "deal", "default_deck"]


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


def validate_deck(deck: Sequence[hr.RoleType], players: int) -> tuple[hr.RoleType, ...]:
    """Check a deck for ``players`` players and return it as a tuple.

    Raises :class:`~hiddenrole.InvalidRole` for an unknown card and
    :class:`~hiddenrole.InvalidBoard` for too few players, a deck that is not exactly
    ``players + 3`` cards, or more copies of a card than the box holds.
    """
    return check_deck(deck, players)


_new = tuple.__new__


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
    n = check_players(players)
    extra = n - MIN_PLAYERS
    if extra > len(_EXTRA):
        raise hr.InvalidBoard(f"default decks go up to {MIN_PLAYERS + len(_EXTRA)} players, got {n}")
    return (*_STARTER, *_EXTRA[:extra])
