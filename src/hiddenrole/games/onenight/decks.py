"""Deck checks and the shuffled deck, kept apart from :mod:`.dealing` so the compiled build compiles them.

Every game checks its deck and shuffles it; as Python, those checks were four frames a game
(about 2% of a One Night game compiled). They take their arguments as ``object`` and test
them themselves, so a wrongly typed argument still raises the package's typed errors
(:class:`~hiddenrole.InvalidArgument`, ...), not the ``TypeError`` of compiled code's own checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import hiddenrole as hr

from .vocab import BOX_COPIES, ROLES

__all__ = [
    "MIN_PLAYERS",
    "CENTER_SIZE",
    "MAX_PLAYERS_CACHED",
    "seat_id",
    "seat_ids",
    "check_players",
    "check_cards",
    "check_deck",
    "shuffled",
]

MIN_PLAYERS: Final = 3
CENTER_SIZE: Final = 3

MAX_CHECKED_DECKS: Final = 1024
"""How many distinct legal card lists :func:`check_cards` remembers (a bound, not a tuning knob)."""
_CHECKED: Final[set[tuple[object, ...]]] = set()
_SORTED: Final[dict[tuple[hr.RoleType, ...], tuple[hr.RoleType, ...]]] = {}
"""Checked decks and their cards sorted (each deal sorts its deck before shuffling; a table
deals the same deck game after game), up to :data:`MAX_CHECKED_DECKS`."""


def seat_id(index: int) -> str:
    """The id of seat ``index`` (``p0``, ``p1``, ...)."""
    return f"p{index}"


MAX_PLAYERS_CACHED: Final = 64
"""How many table sizes :func:`seat_ids` remembers (a bound: sizes beyond are rebuilt)."""
_SEAT_IDS: Final[dict[int, tuple[str, ...]]] = {}


def seat_ids(players: int) -> tuple[str, ...]:
    """``p0``..``p<players-1>``, built once per table size (every deal names its seats; compiled,
    a native call from the deal)."""
    got = _SEAT_IDS.get(players)
    if got is None:
        got = tuple([seat_id(i) for i in range(players)])
        if len(_SEAT_IDS) < MAX_PLAYERS_CACHED:
            _SEAT_IDS[players] = got
    return got


def check_players(players: object) -> int:
    """``players`` as a table size: an int (not a bool), at least :data:`MIN_PLAYERS`."""
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


def _check_cards(cards: tuple[object, ...], what: str) -> tuple[hr.RoleType, ...]:
    out: list[hr.RoleType] = []
    copies: dict[hr.RoleType, int] = {}  # not a Counter: a Python class (its first use ~90k instructions)
    for card in cards:
        if not isinstance(card, str) or card not in BOX_COPIES:
            raise hr.InvalidRole(f"{what}: unknown One Night role {card!r} (known: {', '.join(ROLES)})")
        out.append(card)
        copies[card] = copies.get(card, 0) + 1
    for role, n in sorted(copies.items()):
        if n > BOX_COPIES[role]:
            raise hr.InvalidBoard(f"{what}: {n} copies of {role}, the box has {BOX_COPIES[role]}")
    return tuple(out)


def check_deck(deck: Iterable[object], players: object) -> tuple[hr.RoleType, ...]:
    """``deck`` checked for ``players`` players (see :func:`~.dealing.validate_deck`), as a tuple."""
    n = check_players(players)
    cards = check_cards(deck, "deck")
    if len(cards) != n + CENTER_SIZE:
        raise hr.InvalidBoard(f"{n} players need {n + CENTER_SIZE} cards (players + 3), the deck has {len(cards)}")
    return cards


def shuffled(deck: Iterable[object], players: object, seed: object) -> list[hr.RoleType]:
    """The checked ``deck`` sorted, then shuffled with ``random.Random(seed)``'s draws: card *i*
    goes to seat *i*, the last three to the centre (what ``deal`` and ``new_engine`` deal)."""
    checked = check_deck(deck, players)
    known = _SORTED.get(checked)
    if known is None:
        known = tuple(sorted(checked))
        if len(_SORTED) < MAX_CHECKED_DECKS:
            _SORTED[checked] = known
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise hr.InvalidArgument(f"seed must be an int, got {seed!r}")
    return hr.shuffled(known, seed)  # random.Random(seed).shuffle's draws, compiled
