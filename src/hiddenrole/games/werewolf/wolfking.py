"""The wolf king (狼王): a werewolf with a hunter's gun, added purely as data.

The wolf king joins the night kill and, when it dies, may shoot like a hunter,
except after poison. Nothing in the core changes: the role's ``pack`` flag gives
it a KILL step in NIGHT_WOLF and its ``gun`` lists the deaths that arm it, which
is all the last-action resolver reads. Its camp makes it a wolf teammate, a night
whisperer and evil in the victory census.

    rules = werewolf.rules(extensions=(wolfking.EXTENSION,))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from hiddenrole.games import werewolf as ww

__all__ = ["WOLF_KING", "SPEC", "EXTENSION", "extension", "board"]

WOLF_KING: Final = "WOLF_KING"


def extension(shoots_after: Iterable[str] = ww.GUN_CAUSES) -> ww.Extension:
    """The wolf king, armed after the deaths in ``shoots_after`` (by default all but poison).

    Some tables arm it only when exiled: ``extension(shoots_after=(werewolf.VOTE,))``.
    """
    spec = ww.RoleSpec(WOLF_KING, ww.EVIL, ww.WOLF, pack=True, gun=tuple(shoots_after))
    return ww.Extension("wolfking", roles=(spec,))


EXTENSION: Final = extension()
SPEC: Final = EXTENSION.roles[0]


def board(players: int) -> tuple[str, ...]:
    """The preset card set with one werewolf replaced by the wolf king."""
    cards = list(ww.board(players))
    cards[cards.index(ww.WEREWOLF)] = WOLF_KING
    return tuple(cards)
