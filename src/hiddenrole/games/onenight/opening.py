"""What a game starts with: each seat holding its dealt card, the centre laid, the lone wolf named.

Kept apart from the package's assembly so the compiled build compiles it (it runs once per seat
and once per game start, which is a fair share of a short One Night game).
"""

from __future__ import annotations

import hiddenrole as hr

from .dealing import MIN_PLAYERS, check_cards
from .vocab import CENTER_SLOTS, NIGHT_WEREWOLF, VAR_CARD, WEREWOLF, center_key

__all__ = ["GameSetup", "card_setup"]


def card_setup(player_id: str, role: hr.RoleType) -> dict[str, str]:
    """Each seat starts holding the card it was dealt."""
    return {VAR_CARD: role}


_CENTER_KEYS = tuple(center_key(s) for s in CENTER_SLOTS)
"""The game variable of each centre slot, in slot order."""


class GameSetup:
    """Lays the centre cards and lets only a lone werewolf peek, once players are seated."""

    __slots__ = ("center",)

    def __init__(self, center: tuple[hr.RoleType, hr.RoleType, hr.RoleType]) -> None:
        self.center = center

    def setup(self, view: hr.GameView) -> list[hr.Effect]:
        players = view.all_players()
        if len(players) < MIN_PLAYERS:
            raise hr.InvalidBoard(f"One Night needs at least {MIN_PLAYERS} players, {len(players)} seated")
        # The box's limits ignore order; sorted, seats and centre are the dealt deck (checked once, remembered).
        check_cards(sorted((*(p.role for p in players), *self.center)), "seats and centre")
        c0, c1, c2 = self.center
        wolves = [p.id for p in players if p.role == WEREWOLF]
        return [
            hr.set_var(hr.GAME, _CENTER_KEYS[0], c0),
            hr.set_var(hr.GAME, _CENTER_KEYS[1], c1),
            hr.set_var(hr.GAME, _CENTER_KEYS[2], c2),
            hr.set_actors(NIGHT_WEREWOLF, *(wolves if len(wolves) == 1 else ())),
        ]
