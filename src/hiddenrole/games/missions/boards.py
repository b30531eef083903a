"""Tables: which roles sit down, whether that is a legal game, and who gets what (M1, M19)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

import hiddenrole as hr

from .tables import EVIL_COUNTS, MAX_PLAYERS, MIN_PLAYERS, evil_count
from .vocab import (
    ASSASSIN,
    EVIL,
    MERLIN,
    MINION,
    MORDRED,
    MORGANA,
    OBERON,
    PERCIVAL,
    ROLES,
    SERVANT,
    SPECIAL_ROLES,
    camp_of,
)

__all__ = [
    "RESISTANCE",
    "AVALON",
    "VARIANTS",
    "OPTIONAL_ROLES",
    "REQUIRES",
    "parse_role",
    "check_composition",
    "composition",
    "seat_ids",
    "deal",
]

RESISTANCE: Final = "resistance"
AVALON: Final = "avalon"
VARIANTS: Final = (RESISTANCE, AVALON)

OPTIONAL_ROLES: Final = {RESISTANCE: (), AVALON: (PERCIVAL, MORGANA, MORDRED, OBERON)}
"""Roles a variant lets the table add; Avalon always has Merlin and the Assassin."""

REQUIRES: Final = {
    MERLIN: ASSASSIN,
    ASSASSIN: MERLIN,
    PERCIVAL: MERLIN,
    MORGANA: PERCIVAL,
    MORDRED: MERLIN,
}
"""A role whose power means nothing without another: the assassination needs Merlin
(and Merlin's knowledge is balanced only by it), Percival looks for Merlin, Morgana
fools only Percival and Mordred hides only from Merlin."""

_SHORT = {r.removeprefix("MS_").lower(): r for r in ROLES} | {"loyal_servant": SERVANT}


def parse_role(name: str) -> str:
    """A role value from its value or short name (``"MS_MERLIN"``, ``"merlin"``, ``"Merlin"``)."""
    if not isinstance(name, str):
        raise hr.InvalidArgument(f"role name must be a str, got {name!r}")
    if name in ROLES:
        return name
    role = _SHORT.get(name.strip().lower().replace(" ", "_").replace("-", "_"))
    if role is None:
        raise hr.InvalidRole(f"unknown missions role {name!r}; known: {', '.join(sorted(_SHORT))}")
    return role


def check_composition(roles: Iterable[str]) -> None:
    """Raise :class:`hiddenrole.InvalidBoard` unless ``roles`` is a legal table.

    Legal: 5 to 10 known roles; exactly the evil count of the table size; each special
    role at most once; every role's partner present (see :data:`REQUIRES`).
    """
    if isinstance(roles, str):
        raise hr.InvalidArgument("roles must be a sequence of role names, not one string")
    got = tuple(roles)
    try:
        if got in _LEGAL:  # a table is checked when composed, dealt and started: the usual ones once
            return
    except TypeError:  # an unhashable role: refused below
        pass
    _check(got)
    if len(_LEGAL) < MAX_LEGAL_TABLES:
        _LEGAL.add(got)


MAX_LEGAL_TABLES = 1024
"""How many distinct legal role lists :func:`check_composition` remembers (a bound on memory)."""
_LEGAL: set[tuple[str, ...]] = set()


def _check(got: tuple[str, ...]) -> None:
    for r in got:
        if r not in ROLES:
            raise hr.InvalidBoard(f"{r!r} is not a missions role")
    n = len(got)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise hr.InvalidBoard(f"missions needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    evil = sum(camp_of(r) == EVIL for r in got)
    if evil != EVIL_COUNTS[n]:
        raise hr.InvalidBoard(f"{n} players need exactly {EVIL_COUNTS[n]} evil roles, got {evil}")
    counts = Counter(got)
    for r in sorted(SPECIAL_ROLES):
        if counts[r] > 1:
            raise hr.InvalidBoard(f"{r} may appear at most once, got {counts[r]}")
    for r, partner in sorted(REQUIRES.items()):
        if counts[r] and not counts[partner]:
            raise hr.InvalidBoard(f"{r} needs {partner} on the table")


MAX_COMPOSITIONS = 256
"""How many distinct (variant, players, roles) requests :func:`composition` remembers (a bound on memory)."""


def composition(variant: str = AVALON, players: int = 7, roles: Iterable[str] = ()) -> tuple[str, ...]:
    """The roles of a preset table, sorted: the variant's fixed roles, the chosen optional
    ones, then plain servants and minions up to the player count's evil seats.

    The Resistance has no special roles; Avalon always adds Merlin and the Assassin.
    """
    if isinstance(roles, str):
        raise hr.InvalidArgument("roles must be a sequence of role names, not one string")
    wanted = tuple(roles)
    try:
        hash((variant, players, wanted))
    except TypeError:  # an unhashable argument: refused (or built) without the cache
        return _composition.__wrapped__(variant, players, wanted)
    return _composition(variant, players, wanted)


@functools.lru_cache(maxsize=MAX_COMPOSITIONS, typed=True)
def _composition(variant: str, players: int, roles: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`composition` for hashable arguments, remembered: every new table asks again (refusals are not kept)."""
    if variant not in VARIANTS:
        raise hr.InvalidBoard(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    evil = evil_count(players)
    specials = [MERLIN, ASSASSIN] if variant == AVALON else []
    for name in roles:
        role = parse_role(name)
        if role in specials and role in (MERLIN, ASSASSIN):
            continue  # already part of every Avalon table
        if role not in OPTIONAL_ROLES[variant]:
            raise hr.InvalidBoard(f"{role} is not an optional role of {variant}")
        if role in specials:
            raise hr.InvalidBoard(f"{role} chosen twice")
        specials.append(role)
    evil_specials = sum(camp_of(r) == EVIL for r in specials)
    good_specials = len(specials) - evil_specials
    if evil_specials > evil:
        raise hr.InvalidBoard(f"{players} players have {evil} evil seats; {evil_specials} evil roles were chosen")
    if good_specials > players - evil:
        raise hr.InvalidBoard(f"{players} players have {players - evil} good seats; {good_specials} were chosen")
    table = specials + [MINION] * (evil - evil_specials) + [SERVANT] * (players - evil - good_specials)
    check_composition(table)
    return tuple(sorted(table))


def seat_ids(players: int) -> tuple[str, ...]:
    """Seat ids ``p1``..``pN``, zero-padded so that id order is seat order (``p01``..``p10``)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise hr.InvalidArgument(f"player count must be a positive int, got {players!r}")
    width = len(str(players))
    return tuple(f"p{i:0{width}d}" for i in range(1, players + 1))


def deal(roles: Sequence[str], seed: int, ids: Sequence[str] | None = None) -> tuple[tuple[str, str], ...]:
    """Shuffle ``roles`` with ``random.Random(seed)`` onto ``ids`` (default :func:`seat_ids`).

    The result, ``(id, role)`` pairs in id order, depends only on the multiset of roles,
    the seed and the ids, never on the order the roles were listed in.
    """
    if isinstance(roles, str):
        raise hr.InvalidArgument("roles must be a sequence of role names, not one string")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise hr.InvalidArgument(f"seed must be an int, got {seed!r}")
    cards = sorted(roles)
    check_composition(cards)
    seats = seat_ids(len(cards)) if ids is None else tuple(ids)
    if isinstance(ids, str) or len(seats) != len(cards):
        raise hr.InvalidArgument(f"need {len(cards)} seat ids, got {seats!r}")
    if any(not isinstance(i, str) or not i for i in seats) or len(set(seats)) != len(seats):
        raise hr.InvalidPlayerID(f"seat ids must be distinct non-empty strings, got {seats!r}")
    random.Random(seed).shuffle(cards)
    return tuple(sorted(zip(seats, cards, strict=True)))
