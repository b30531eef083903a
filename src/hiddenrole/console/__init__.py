"""A host console on tables: host a game at the terminal, or play one seat against agents.

Every move goes through a :class:`hiddenrole.host.Table`; a saved game is the
table's log. Needs the ``cli`` extra (``rich``, ``prompt_toolkit``). Entry point: ``hiddenrole play <game>``.
"""

from .app import Console, main
from .games import games

__all__ = ["Console", "games", "main"]
