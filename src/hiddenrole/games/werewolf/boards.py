"""Preset card sets for 6 to 12 players, seat ids, and seeded dealing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

import hiddenrole as hr

from .vocab import GUARD, HUNTER, SEER, VILLAGER, WEREWOLF, WITCH

__all__ = ["BOARDS", "MIN_PLAYERS", "MAX_PLAYERS", "board", "seat_ids", "deal"]

MIN_PLAYERS: Final = 6
MAX_PLAYERS: Final = 12


def _cards(wolves: int, gods: tuple[str, ...], villagers: int) -> tuple[str, ...]:
    return (WEREWOLF,) * wolves + gods + (VILLAGER,) * villagers


BOARDS: Final[Mapping[int, tuple[str, ...]]] = MappingProxyType(
    {
        6: _cards(2, (SEER, WITCH), 2),
        7: _cards(2, (SEER, WITCH, HUNTER), 2),
        8: _cards(2, (SEER, WITCH, GUARD, HUNTER), 2),
        9: _cards(3, (SEER, WITCH, GUARD, HUNTER), 2),
        10: _cards(3, (SEER, WITCH, GUARD, HUNTER), 3),
        11: _cards(3, (SEER, WITCH, GUARD, HUNTER), 4),
        12: _cards(4, (SEER, WITCH, GUARD, HUNTER), 4),
    }
)
"""Card set per player count. 12 is the standard board (4 wolves, 4 gods, 4 villagers)."""


def _count(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise hr.InvalidArgument(f"player count must be an int, got {n!r}")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise hr.InvalidBoard(f"boards exist for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    return n


def board(players: int) -> tuple[str, ...]:
    """The preset card set for ``players`` seats (sorted wolves, gods, villagers)."""
    return BOARDS[_count(players)]


def seat_ids(players: int) -> tuple[str, ...]:
    """``p00``, ``p01``, ... (zero-padded so that id order is seat order)."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 100:
        raise hr.InvalidArgument(f"seat count must be an int from 1 to 100, got {players!r}")
    return _SEAT_IDS[:players]


_SEAT_IDS = tuple(f"p{i:02d}" for i in range(100))
"""Every seat id up to the largest table :func:`seat_ids` accepts, built once (every deal names its seats)."""


def deal(cards: Sequence[str], seed: int) -> dict[str, str]:
    """Shuffle ``cards`` with ``random.Random(seed)`` and hand them to seats in order."""
    deck = shuffled(cards, seed)
    return dict(zip(seat_ids(len(deck)), deck, strict=True))


def shuffled(cards: Sequence[str], seed: int) -> list[str]:
    """:func:`deal`'s deck, in seat order, without the seats: what ``new_game`` seats (a dict per
    game would be built only to be read back in order)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise hr.InvalidArgument("cards must be a sequence of role names")
    deck = list(cards)
    for c in deck:
        if not isinstance(c, str) or not c or c == hr.SYSTEM:
            raise hr.InvalidRole(f"not a role: {c!r}")
    return shuffle_deck(deck, seed)


def shuffle_deck(deck: Sequence[str], seed: int) -> list[str]:
    """``deck`` shuffled as ``random.Random(seed).shuffle`` would (:func:`hiddenrole.shuffled`, its
    draws compiled), as a new list: a preset board's cards need none of :func:`shuffled`'s checks
    (an ABC test and a pass over the cards)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise hr.InvalidArgument(f"seed must be an int, got {seed!r}")
    return hr.shuffled(deck, seed)
