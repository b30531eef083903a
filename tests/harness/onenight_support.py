"""One Night pieces for the indistinguishability check (H): random decks, public looks, twin deals.

A One Night deal is more than its seats: three cards lie in the centre, and the rules
carry them. So the harness's default twin (permuting the seats outside the viewer's
side) would never move a centre card, and a leak of the centre would go unseen.
:func:`twins` shuffles every card the side was not dealt, centre included.

What a player learns by looking at a card (the seer, the robber, the lone wolf's
peek, the insomniac) legitimately tells two deals apart, and so does a dying hunter's
shot; they are declared :class:`~hiddenrole.enginetest.Public` here, as narrowly as
possible. Votes, lynchings and "nobody dies" are public too, but carry nothing
hidden (the hunter's shot apart), so they are compared like everything else: declaring
them would blind H to a card slipped into their data.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import onenight as on

__all__ = [
    "HUNTER_SHOT",
    "LEARNS",
    "LOOKED_AT",
    "LOOKING",
    "MAX_PLAYERS",
    "TWIN_TRIES",
    "has_minion_clause",
    "random_game",
    "twins",
]

MAX_PLAYERS = 10
TWIN_TRIES = 40
"""Candidate twins per viewer; each is a full reshuffle of the cards outside the side."""

LOOKED_AT: Mapping[hr.EventType, frozenset[str]] = MappingProxyType(
    {
        on.PEEKED: frozenset({"card"}),
        on.SEER_LOOK: frozenset({"card", *(on.center_key(s) for s in on.CENTER_SLOTS)}),
        on.ROBBED: frozenset({"card"}),
        on.INSOMNIA: frozenset({"card"}),
    }
)
"""The night events that show their actor a card, and the data keys that hold it."""

_CENTRE = frozenset(on.learn_center_key(s) for s in on.CENTER_SLOTS)
_PLAYER_PREFIX = on.learn_player_key("")
LEARNS: Mapping[hr.RoleType, Callable[[str], bool]] = MappingProxyType(
    {
        on.WEREWOLF: lambda key: key in _CENTRE,
        on.SEER: lambda key: key in _CENTRE or key.startswith(_PLAYER_PREFIX),
        on.ROBBER: lambda key: key == on.LEARN_SELF or key.startswith(_PLAYER_PREFIX),
        on.INSOMNIAC: lambda key: key == on.LEARN_SELF,
    }
)
"""Which role info keys (cards looked at) each dealt card may legitimately hold."""


def _split(o: et.Observation, field: str, public_keys: Callable[[str], bool]) -> et.Observation:
    inner = o.value[field]
    public = {k: v for k, v in inner.items() if public_keys(k)}
    if not public:
        return o
    private = {k: v for k, v in inner.items() if not public_keys(k)}
    return replace(o, value={**o.value, field: private}, public={field: public})


def _looked_at(o: et.Observation) -> et.Observation:
    """Make public the cards a seat looked at, and nothing else.

    Narrower than declaring the key ``card`` or every ``learn.*`` key public: a card
    that turned up in the drunk's or the troublemaker's event, or in the role info of
    a role that never looks, would be a leak, and H must still see it.
    """
    if o.public_only:
        return o
    if o.kind == "event":
        keys = LOOKED_AT.get(o.value["type"], frozenset())
        return _split(o, "data", keys.__contains__)
    if o.kind == "view":
        learns = LEARNS.get(o.value["self"]["role"])
        return o if learns is None else _split(o, "role_info", learns)
    return o


LOOKING = et.Public("looking at a card shows it (lone wolf, seer, robber, insomniac)", redact=_looked_at)
HUNTER_SHOT = et.Public("a dying hunter's shot shows the hunter card", event_types=frozenset({on.HUNTER_HIT}))


def has_minion_clause(rules: hr.Rules) -> bool:
    """Whether ``rules`` were built with the optional minion clause (the version records it)."""
    return rules.version == on.VERSION_MINION_CLAUSE


def random_game(rng: random.Random, minion_clause: bool = False) -> et.Game:
    """A legal deal of 3..10 players from a random part of the box (players + 3 cards)."""
    box = [role for role in sorted(on.BOX_COPIES) for _ in range(on.BOX_COPIES[role])]
    players = rng.randint(on.MIN_PLAYERS, MAX_PLAYERS)
    deck = rng.sample(box, players + on.CENTER_SIZE)
    deal = on.deal(deck, players, rng.randrange(1 << 30))
    return et.Game(on.rules(deal.center, minion_clause=minion_clause), deal.seats)


def _center(game: et.Game) -> tuple[hr.RoleType, ...]:
    """The centre as the rules lay it (read from a started engine: the rules keep it private)."""
    probe = hr.Engine(game.rules)
    for pid, role in game.seats:
        probe.add_player(pid, role)
    probe.start()
    return on.current_cards(probe).center


def twins(game: et.Game, side: frozenset[str], rng: random.Random) -> Iterator[et.Game]:
    """The deal with every card outside the side (other seats and the centre) reshuffled.

    The rules change with the centre, and nothing else of them may: the minion
    clause (a table rule everyone knows) stays as it was, and so do interceptors a
    test added to the game's rules (else the twin would differ by more than the deal).
    """
    clause = has_minion_clause(game.rules)
    center = _center(game)
    added = game.rules.interceptors[len(on.rules(center, minion_clause=clause).interceptors) :]
    outside = [i for i, (pid, _) in enumerate(game.seats) if pid not in side]
    for _ in range(TWIN_TRIES):
        cards = [game.seats[i][1] for i in outside] + list(center)
        rng.shuffle(cards)
        seats = list(game.seats)
        for i in outside:
            seats[i] = (seats[i][0], cards.pop(0))
        rules = on.rules(cards, minion_clause=clause).with_interceptors(*added)
        yield et.Game(rules, tuple(seats), game.engine_type)
