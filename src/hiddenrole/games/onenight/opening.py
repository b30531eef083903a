"""What a game starts with: each seat holding its dealt card, the centre laid, the lone wolf named.

Kept apart from the package's assembly so the compiled build compiles it (it runs once per seat
and once per game start, which is a fair share of a short One Night game).
"""

from __future__ import annotations

from typing import Final

import hiddenrole as hr

from .dealing import MIN_PLAYERS, check_cards
from .vocab import BOX_COPIES, CENTER_SLOTS, NIGHT_WEREWOLF, VAR_CARD, WEREWOLF, center_key

__all__ = ["GameSetup", "card_setup"]


def card_setup(player_id: str, role: hr.RoleType) -> dict[str, str]:
    """Each seat starts holding the card it was dealt."""
    return {VAR_CARD: role}


_CENTER_KEYS: Final = tuple(center_key(s) for s in CENTER_SLOTS)
"""The game variable of each centre slot, in slot order."""
_BOX: Final[dict[hr.RoleType, int]] = dict(BOX_COPIES)
"""The box's copies per card, as a plain dict (a compiled lookup; the read-only map is a generic call)."""
_NOBODY_PEEKS: Final = hr.set_actors(NIGHT_WEREWOLF)
"""With no lone wolf, nobody acts in the werewolf phase (effects are immutable: one value serves)."""


class GameSetup:
    """Lays the centre cards and lets only a lone werewolf peek, once players are seated.

    The centre's three ``set_var`` effects are built once, with the value (they depend on the
    centre alone; effects are immutable, so every game dealt this centre logs the same ones)."""

    __slots__ = ("_laid", "center")

    def __init__(self, center: tuple[hr.RoleType, hr.RoleType, hr.RoleType]) -> None:
        self.center = center
        c0, c1, c2 = center
        self._laid = (
            hr.set_var(hr.GAME, _CENTER_KEYS[0], c0),
            hr.set_var(hr.GAME, _CENTER_KEYS[1], c1),
            hr.set_var(hr.GAME, _CENTER_KEYS[2], c2),
        )

    def setup(self, view: hr.GameView) -> list[hr.Effect]:
        players = view.all_players()
        if len(players) < MIN_PLAYERS:
            raise hr.InvalidBoard(f"One Night needs at least {MIN_PLAYERS} players, {len(players)} seated")
        wolves: list[str] = []
        held: dict[hr.RoleType, int] = {}  # the box's limits ignore order: count seats and centre
        for pid, role, _, _, _ in players:  # unpacked: a NamedTuple attribute is a generic lookup compiled
            held[role] = held.get(role, 0) + 1
            if role == WEREWOLF:
                wolves.append(pid)
        for card in self.center:
            held[card] = held.get(card, 0) + 1
        for card, n in held.items():
            if n > _BOX.get(card, 0):
                # Not a dealt deck (an unknown role, too many copies): check_cards names the fault.
                check_cards(sorted((*(p.role for p in players), *self.center)), "seats and centre")
        peek = _NOBODY_PEEKS if len(wolves) != 1 else hr.set_actors(NIGHT_WEREWOLF, wolves[0])
        return [*self._laid, peek]
