"""A host console on tables: host a game at the terminal, or play one seat against bots.

Every move goes through a :class:`hiddenrole.host.Table`; a saved game is the
table's log. Needs the ``cli`` extra (``rich``). Entry point: ``hiddenrole play <game>``.
"""

from .app import Console, main
from .bots import Bot
from .games import games

__all__ = ["Bot", "Console", "games", "main"]
