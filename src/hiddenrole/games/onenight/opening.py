"""What a game starts with: each seat holding its dealt card, the centre laid, the lone wolf named.

Kept apart from the package's assembly so the compiled build compiles it (it runs once per seat
and once per game start, which is a fair share of a short One Night game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final

import hiddenrole as hr

from .decks import CENTER_SIZE, MIN_PLAYERS, check_cards, seat_ids, shuffled
from .resolvers import card_map, kept, lay
from .vocab import BOX_COPIES, CENTER_SLOTS, NIGHT_WEREWOLF, WEREWOLF

__all__ = ["GameSetup", "card_setup", "seat_table", "deal_table"]


def card_setup(player_id: str, role: hr.RoleType) -> Mapping[str, str]:
    """Each seat starts holding the card it was dealt: the card's kept :func:`hr.constant_map`
    (:func:`.resolvers.card_map`), which the kernel seats as it is (a dict would be sorted and frozen
    anew for every seat of every deal)."""
    return card_map(role)


_NOBODY_PEEKS: Final = hr.set_actors(NIGHT_WEREWOLF)
"""With no lone wolf, nobody acts in the werewolf phase (effects are immutable: one value serves)."""


MAX_LONE_WOLVES: Final = 1024
"""How many seats' lone-wolf effects :func:`_lone_wolf` remembers (a bound: beyond it they are built afresh)."""
_LONE_WOLVES: Final[dict[str, hr.Effect]] = {}


def _lone_wolf(player_id: str) -> hr.Effect:
    """``set_actors(NIGHT_WEREWOLF, player_id)``, one value per seat id (effects are immutable, and
    building one sorts and checks its ids: about 3k instructions in every other game)."""
    return kept(_LONE_WOLVES, _NEW_LONE_WOLF, player_id, MAX_LONE_WOLVES)


def _new_lone_wolf(player_id: str) -> hr.Effect:
    return hr.set_actors(NIGHT_WEREWOLF, player_id)


_NEW_LONE_WOLF: Final = _new_lone_wolf
"""A constant, as the resolvers' memos pass :func:`kept` theirs (compiled, a static: no module dict lookup)."""


_BOX: Final[dict[str, int]] = dict(BOX_COPIES)
"""The box's copies as a plain dict (copied natively; ``dict(proxy)`` goes key by key)."""


class GameSetup:
    """Lays the centre cards and lets only a lone werewolf peek, once players are seated.

    The centre's three ``set_var`` effects are built once, with the value (they depend on the
    centre alone; effects are immutable, so every game dealt this centre logs the same ones),
    and so is what the box has left once the centre is laid, which the seated cards are counted
    against."""

    __slots__ = ("_laid", "_left", "center")

    def __init__(self, center: tuple[hr.RoleType, hr.RoleType, hr.RoleType]) -> None:
        self.center = center
        c0, c1, c2 = center
        s0, s1, s2 = CENTER_SLOTS
        self._laid = (lay(s0, c0), lay(s1, c1), lay(s2, c2))
        left: dict[str, int] | None = _BOX.copy()
        for card in center:
            if left is not None and left.get(card, 0) > 0:
                left[card] -= 1
            else:
                left = None  # not a legal centre (only a hand-made setup): every table takes the full check
        self._left = left

    def setup(self, view: hr.GameView) -> list[hr.Effect]:
        players = view.all_players()
        if len(players) < MIN_PLAYERS:
            raise hr.InvalidBoard(f"One Night needs at least {MIN_PLAYERS} players, {len(players)} seated")
        # Each seated card taken from what the box has left beside the centre: a legal table runs
        # out of none, which is exactly what the full check below passes (known roles within the
        # box's copies); one that runs out takes that check, for its error.
        box = self._left
        if box is None:
            self._check_table(players)
        left = None if box is None else box.copy()
        wolves = 0
        wolf = ""
        for p in players:
            role = p[1]  # compiled, a tuple read (``.role`` is a generic attribute lookup)
            if left is not None:
                n = left.get(role, 0)
                if n > 0:
                    left[role] = n - 1
                else:
                    self._check_table(players)  # raises: the table is not a legal deck
                    left = None
            if role == WEREWOLF:
                wolves += 1
                wolf = p[0]
        peek = _NOBODY_PEEKS if wolves != 1 else _lone_wolf(wolf)
        return [*self._laid, peek]

    def _check_table(self, players: tuple[hr.PlayerInfo, ...]) -> None:
        """The seats and centre as one deck, checked as any deck is (raises what it refuses)."""
        cards = list(self.center)
        for p in players:
            cards.append(p.role)
        # The box's limits ignore order: sorted, seats and centre are the dealt deck, which
        # check_cards remembers having passed (compiled, the call is a native one).
        cards.sort()
        check_cards(tuple(cards), "seats and centre")


def seat_table(the_rules: hr.Rules, ids: tuple[str, ...], cards: list[hr.RoleType], start: bool) -> hr.Engine:
    """An engine for ``the_rules`` with seat ``ids[i]`` dealt ``cards[i]`` (extra cards are the
    centre's), started if ``start``: ``new_engine``'s seating, of ids and cards it made itself.

    Compiled, unlike the package's entry points (which check the caller's arguments): every game
    runs it, and from here the engine's constructor and ``add_players`` are native calls rather
    than calls from interpreted code."""
    engine = hr.Engine(the_rules)
    engine.add_players([(ids[i], cards[i]) for i in range(len(ids))])  # one lock round trip
    if start:
        engine.start()
    return engine


def deal_table(
    make_rules: Callable[[tuple[hr.RoleType, hr.RoleType, hr.RoleType], bool], hr.Rules],
    deck: Iterable[object],
    players: object,
    seed: object,
    minion_clause: bool,
    start: bool,
) -> hr.Engine:
    """``new_engine``'s work, compiled: ``deck`` shuffled from ``seed`` (checked there), the rules
    ``make_rules`` gives for its centre, and the table seated by :func:`seat_table` (from here each
    step is a native call, not a call from interpreted code)."""
    cards = shuffled(deck, players, seed)
    n = len(cards) - CENTER_SIZE  # ``players``: shuffled() checked the deck holds players + 3 cards
    return seat_table(make_rules((cards[n], cards[n + 1], cards[n + 2]), minion_clause), seat_ids(n), cards, start)
